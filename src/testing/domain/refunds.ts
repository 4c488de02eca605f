/**
 * The mock's refunds, as the reference gateway makes them (docs/reference/refunds.md): refused in the reference's
 * order with its texts; by default a refund succeeds at once (2), the order's refunded sum grows and the order
 * becomes 5 when refunded in full; a test may hold refunds in 1 (refunding) and decide them later, and a refund
 * still open two hours after its creation closes (4). A refund with a `notifyUrl` is notified when it becomes 2 or 3.
 *
 * @module
 */
import * as z from 'zod/mini';
import { PayOrderState } from '../../protocol/schemas/enums.js';
import { parseInput } from '../../protocol/schemas/parse.js';
import { RefundOrderState, refundOrderStateName, type Refund } from '../../protocol/schemas/refund.js';
import type { AcceptedRequest } from './accepted-request.js';
import type { SimulatedClock } from './clock.js';
import { merchantScoped, type MockMerchant } from './merchants.js';
import type { MockPayOrder, OrderBook } from './orders.js';
import { MESSAGES, refuse } from './refusals.js';

/**
 * A refund still 0 or 1 this long after its creation is closed (4) by the reference's job: two hours.
 *
 * @example
 * ```ts
 * gateway.advanceTime(REFUND_EXPIRY_MS); // a held refund closes: state 4, no notification
 * ```
 */
export const REFUND_EXPIRY_MS = 2 * 60 * 60 * 1000;

/** The fields of a refund a query answers and a notification carries, in the reference's order. */
export const REFUND_FIELDS = [
  'refundOrderId', 'payOrderId', 'mchNo', 'appId', 'mchRefundNo', 'payAmount', 'refundAmount', 'currency', 'state',
  'channelOrderNo', 'errCode', 'errMsg', 'extParam', 'successTime', 'createdAt',
] as const satisfies readonly (keyof Refund)[];
type RefundField = (typeof REFUND_FIELDS)[number];

/**
 * A refund as the mock gateway holds it: the query fields of {@link payment-gateway-sdk!Refunds.Refund} plus what it was
 * created with. Returned as a copy by {@link MockGateway.refund} and {@link MockGateway.refunds}.
 *
 * @example
 * ```ts
 * const refund: MockRefund | undefined = gateway.refund('refund-1001');
 * expect(refund?.state).toBe(RefundOrderState.Succeeded);
 * ```
 */
export interface MockRefund extends Pick<Refund, RefundField> {
  refundReason: string;
  notifyUrl?: string | undefined;
  clientIp?: string | undefined;
}

/**
 * How the channel treats the coming refunds: `succeed` at once (the default), `hold` them in 1 (refunding) until a
 * test decides them ({@link MockGateway.settleRefund}), or `fail` them at once (3).
 *
 * @example
 * ```ts
 * gateway.setRefundMode('hold');
 * ```
 */
export type RefundMode = 'succeed' | 'hold' | 'fail';

/**
 * Which refunds a {@link MockGateway.setRefundMode} call governs: one refund, by its `mchRefundNo`, before it is
 * created. A refund's own mode wins over the mode of all refunds.
 *
 * @example
 * ```ts
 * gateway.setRefundMode('fail', { mchRefundNo: 'refund-1002' }); // this one fails, the others follow the global mode
 * ```
 */
export interface RefundModeTarget {
  readonly mchRefundNo: string;
}

/**
 * The orders whose channel cannot refund ({@link MockGateway.refuseRefunds}): give exactly one of the channel
 * (`ifCode`, e.g. `wxpay`), the way code (`wayCode`, e.g. `QR_CASHIER`) or one order (`order`: its `payOrderId` or
 * `mchOrderNo`). A refund of such an order is refused with the reference's `当前通道不支持退款！`, last in its
 * order of refusals (reason `refund_unsupported`).
 *
 * @example
 * ```ts
 * gateway.refuseRefunds({ wayCode: 'QR_CASHIER' });
 * await expect(client.refundOrder({ payOrderId, mchRefundNo: 'r-1', refundAmount: 100, currency: 'USD', refundReason: 'x' }))
 *   .rejects.toMatchObject({ reason: 'refund_unsupported' });
 * ```
 */
export interface RefundChannelScope {
  readonly ifCode?: string | undefined;
  readonly wayCode?: string | undefined;
  readonly order?: string | undefined;
}

/**
 * How a held refund ends: `succeed` (2, money back to the payer), `fail` (3, with the channel's error), or `close`
 * (4, as the gateway's two-hour job closes it).
 *
 * @example
 * ```ts
 * gateway.settleRefund('refund-1001', { to: 'fail', errCode: 'NOT_ENOUGH_BALANCE' });
 * ```
 */
export interface RefundDecision {
  readonly to: 'succeed' | 'fail' | 'close';
  /** For `fail`: the channel's error code; default `MOCK_REFUND_FAILED`. */
  readonly errCode?: string | undefined;
  /** For `fail`: the channel's error text; default `refund refused by the channel (mock)`. */
  readonly errMsg?: string | undefined;
}

const text = () => z.optional(z.string({ error: 'must be a string' }));
/** Checks {@link RefundDecision}; the control route `POST /_mock/refunds/{ref}/settle` reads its body with it too. */
export const refundDecisionSchema = z.strictObject({ to: z.enum(['succeed', 'fail', 'close'], { error: "must be 'succeed', 'fail' or 'close'" }), errCode: text(), errMsg: text() });
/** Checks a {@link RefundMode}. */
export const refundModeSchema = z.enum(['succeed', 'hold', 'fail'], { error: "must be 'succeed', 'hold' or 'fail'" });
const id = () => z.string({ error: 'must be a string' }).check(z.minLength(1, { error: 'must not be empty' }), z.maxLength(64, { error: 'must be at most 64 characters' }));
/** Checks a {@link RefundModeTarget}. */
export const refundModeTargetSchema = z.strictObject({ mchRefundNo: id() });
/** Checks a {@link RefundChannelScope}; the control routes `/_mock/refunds/unsupported` read their body with it too. */
export const refundChannelScopeSchema = z
  .strictObject({ ifCode: z.optional(id()), wayCode: z.optional(id()), order: z.optional(id()) })
  .check(z.refine((s) => [s.ifCode, s.wayCode, s.order].filter((v) => v !== undefined).length === 1, { error: 'give exactly one of ifCode, wayCode and order' }));

const DEFAULT_FAILURE = { errCode: 'MOCK_REFUND_FAILED', errMsg: 'refund refused by the channel (mock)' };

// One sequence for the whole process: two mocks never give the same refundOrderId.
let sequence = 0;

/** The refunds of all merchants, with their state machine. */
export class RefundDesk {
  readonly #refunds = new Map<string, MockRefund>();
  readonly #byMchRefundNo = new Map<string, MockRefund>();
  #mode: RefundMode = 'succeed';
  // Test controls' own values, never a received one: each refund's mode, and the channels that cannot refund.
  readonly #modes = new Map<string, RefundMode>();
  readonly #unsupported = { ifCode: new Set<string>(), wayCode: new Set<string>(), order: new Set<string>() };

  constructor(
    private readonly clock: SimulatedClock,
    private readonly orders: OrderBook,
    /** Told of a refund that became 2 or 3: the gateway notifies it. */
    private readonly onDecided: (refund: MockRefund) => void,
  ) {}

  /**
   * refundOrder: refuses as the reference does, in its order; records the refund and asks the channel. `interrupted`
   * (the `refusedAfterStore` fault): the refund is stored and left in 0, or 1 (`processing`), no channel decides it.
   */
  create({ app, params, blank }: AcceptedRequest, interrupted?: 'created' | 'processing'): Record<string, unknown> {
    const p = params as Record<string, string | undefined> & { refundAmount: number };
    if (p.payOrderId === undefined && p.mchOrderNo === undefined) throw refuse(MESSAGES.missingRefundOrderIds);
    if (p.notifyUrl !== undefined && !/^https?:\/\//.test(p.notifyUrl)) throw refuse(MESSAGES.notifyUrlProtocol);
    const order = this.#order(app, p.payOrderId, p.mchOrderNo);
    if (!order) throw refuse(MESSAGES.refundOrderNotFound);
    if (order.state !== PayOrderState.Succeeded) throw refuse(MESSAGES.refundOrderState);
    const refunded = this.refundedOf(order.payOrderId);
    if (refunded >= order.amount) throw refuse(MESSAGES.refundedInFull);
    if (refunded + p.refundAmount > order.amount) throw refuse(MESSAGES.refundExceeds);
    if ([...this.#refunds.values()].some((r) => r.payOrderId === order.payOrderId && r.state === RefundOrderState.Refunding)) throw refuse(MESSAGES.refundInProgress);
    const mchRefundNo = String(p.mchRefundNo);
    if (this.#byMchRefundNo.has(merchantScoped(app.mchNo, mchRefundNo))) throw refuse(MESSAGES.duplicateRefund(mchRefundNo));
    if (this.#refusesRefunds(order)) throw refuse(MESSAGES.refundUnsupported);

    const now = this.clock.now();
    const refund: MockRefund = {
      refundOrderId: `R${now}${String(++sequence).padStart(4, '0')}`, payOrderId: order.payOrderId, mchNo: app.mchNo, appId: app.appId, mchRefundNo,
      // The reference records the request's currency (RefundOrderController.genRefundOrder: setCurrency(rq.getCurrency())),
      // not the order's, and compares neither with the other.
      payAmount: order.amount, refundAmount: p.refundAmount, currency: String(p.currency), state: RefundOrderState.Created,
      extParam: p.extParam ?? (blank.has('extParam') ? '' : undefined), createdAt: now, refundReason: String(p.refundReason), notifyUrl: p.notifyUrl, clientIp: p.clientIp,
    };
    this.#refunds.set(refund.refundOrderId, refund);
    this.#byMchRefundNo.set(merchantScoped(app.mchNo, mchRefundNo), refund);
    // Then the channel: 2 or 3 at once, or 1 while it refunds; a system error leaves it 0 (or 1 when its update failed).
    if (interrupted !== 'created') {
      refund.state = RefundOrderState.Refunding;
      refund.channelOrderNo = `CR${refund.refundOrderId.slice(1)}`;
    }
    const mode = interrupted === undefined ? (this.#modes.get(mchRefundNo) ?? this.#mode) : 'hold';
    if (mode === 'succeed') this.#succeed(refund);
    else if (mode === 'fail') this.#fail(refund, {});
    return {
      refundOrderId: refund.refundOrderId, mchRefundNo, payAmount: refund.payAmount, refundAmount: refund.refundAmount, state: refund.state,
      channelOrderNo: refund.channelOrderNo, errCode: refund.errCode, errMsg: refund.errMsg,
    };
  }

  /** refundQuery: the merchant's refund by `refundOrderId` (preferred) or `mchRefundNo`. */
  find(app: MockMerchant, params: Readonly<Record<string, string | number>>): MockRefund {
    const { refundOrderId, mchRefundNo } = params;
    this.expire();
    const refund = refundOrderId !== undefined ? this.#refunds.get(String(refundOrderId)) : this.#byMchRefundNo.get(merchantScoped(app.mchNo, String(mchRefundNo)));
    if (!refund || refund.mchNo !== app.mchNo) throw refuse(MESSAGES.refundNotFound);
    return refund;
  }

  /** The query answer of a refund. */
  queryData(refund: MockRefund): Record<string, unknown> {
    return Object.fromEntries(REFUND_FIELDS.map((name) => [name, refund[name]]));
  }

  /** The sum of an order's succeeded refunds, in minor units. */
  refundedOf(payOrderId: string): number {
    let sum = 0;
    for (const refund of this.#refunds.values()) if (refund.payOrderId === payOrderId && refund.state === RefundOrderState.Succeeded) sum += refund.refundAmount;
    return sum;
  }

  /** Test control: how the channel treats the coming refunds, or the one refund `target` names (which wins over the global mode). */
  setMode(mode: RefundMode, target?: RefundModeTarget): void {
    const checked = parseInput(z.object({ mode: refundModeSchema, target: z.optional(refundModeTargetSchema) }), { mode, target }, 'Invalid setRefundMode options', 'options');
    if (checked.target === undefined) this.#mode = checked.mode;
    else this.#modes.set(checked.target.mchRefundNo, checked.mode);
  }

  /** Test control: the channel of the orders `scope` names cannot refund (`allow`: it can again). */
  setRefundSupport(scope: RefundChannelScope, allow: boolean, control: string): void {
    const { ifCode, wayCode, order } = parseInput(refundChannelScopeSchema, scope, `Invalid ${control} scope`, 'options');
    const [set, value] = ifCode !== undefined ? [this.#unsupported.ifCode, ifCode] : wayCode !== undefined ? [this.#unsupported.wayCode, wayCode] : [this.#unsupported.order, this.orders.resolve(String(order), control).payOrderId];
    if (allow) set.delete(value);
    else set.add(value);
  }

  /** Whether the order's channel cannot refund (refunds.md section 1, step 9: no refund service for its `ifCode`). */
  #refusesRefunds(order: MockPayOrder): boolean {
    const { ifCode, wayCode, order: orders } = this.#unsupported;
    return ifCode.has(order.ifCode) || wayCode.has(order.wayCode) || orders.has(order.payOrderId);
  }

  /** Test control: a held refund (0 or 1) ends as `decision.to` says. */
  settle(ref: string, decision: RefundDecision): MockRefund {
    const checked = parseInput(refundDecisionSchema, decision, 'Invalid settleRefund decision', 'options');
    const refund = this.#resolve(ref, 'settleRefund');
    if (refund.state !== RefundOrderState.Created && refund.state !== RefundOrderState.Refunding) {
      throw new Error(`settleRefund: refund ${refund.refundOrderId} is ${refundOrderStateName(refund.state)} (state ${refund.state}); only refunds in state 0 or 1 can change`);
    }
    if (checked.to === 'succeed') this.#succeed(refund);
    else if (checked.to === 'fail') this.#fail(refund, checked);
    else refund.state = RefundOrderState.Closed;
    return { ...refund };
  }

  /** Closes refunds still open two hours after their creation, as the reference's job does (no notification). */
  expire(): void {
    const now = this.clock.now();
    for (const refund of this.#refunds.values()) {
      if ((refund.state === RefundOrderState.Created || refund.state === RefundOrderState.Refunding) && refund.createdAt + REFUND_EXPIRY_MS <= now) refund.state = RefundOrderState.Closed;
    }
  }

  /** A copy of a refund by `refundOrderId` or a `mchRefundNo` only one merchant uses. */
  snapshot(ref: string): MockRefund | undefined {
    this.expire();
    const refund = this.#lookup(ref);
    return refund && { ...refund };
  }

  list(): MockRefund[] {
    this.expire();
    return [...this.#refunds.values()].map((refund) => ({ ...refund }));
  }

  #order(app: MockMerchant, payOrderId: string | undefined, mchOrderNo: string | undefined): MockPayOrder | undefined {
    try {
      return this.orders.find(app, { ...(payOrderId === undefined ? {} : { payOrderId }), ...(mchOrderNo === undefined ? {} : { mchOrderNo }) });
    } catch {
      return undefined;
    }
  }

  #lookup(ref: string): MockRefund | undefined {
    const byId = this.#refunds.get(ref);
    if (byId) return byId;
    const matches = [...this.#refunds.values()].filter((r) => r.mchRefundNo === ref);
    if (matches.length > 1) throw new Error(`several merchants use mchRefundNo ${JSON.stringify(ref)}; give the refundOrderId`);
    return matches[0];
  }

  #resolve(ref: string, control: string): MockRefund {
    this.expire();
    const refund = this.#lookup(ref);
    if (!refund) throw new Error(`${control}: no refund with refundOrderId or mchRefundNo ${JSON.stringify(ref)}`);
    return refund;
  }

  #succeed(refund: MockRefund): void {
    refund.state = RefundOrderState.Succeeded;
    refund.successTime = this.clock.now();
    // The reference updates the order in one statement: 5 only once refunded in full.
    const order = this.orders.lookup(refund.payOrderId);
    if (order && this.refundedOf(order.payOrderId) >= order.amount) this.orders.markRefunded(order);
    this.onDecided(refund);
  }

  #fail(refund: MockRefund, failure: { readonly errCode?: string | undefined; readonly errMsg?: string | undefined }): void {
    refund.state = RefundOrderState.Failed;
    refund.errCode = failure.errCode ?? DEFAULT_FAILURE.errCode;
    refund.errMsg = failure.errMsg ?? DEFAULT_FAILURE.errMsg;
    this.onDecided(refund);
  }
}
