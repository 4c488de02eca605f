/**
 * The mock's refund kind, declared for the generic desk (`record-kind.ts`): refunds as the reference gateway makes
 * them (docs/reference/refunds.md): refused in the reference's order with its texts; by default a refund succeeds at
 * once (2), the order's refunded sum grows and the order becomes 5 when refunded in full; a test may hold refunds in
 * 1 (refunding) and decide them later, and a refund still open two hours after its creation closes (4). A refund
 * with a `notifyUrl` is notified when it becomes 2 or 3.
 *
 * @module
 */
import * as z from 'zod/mini';
import { PayOrderState } from '../payments/enums.js';
import { notification, RefundOrderState, type Refund } from './declaration.js';
import { markRefunded, type MockPayOrder } from '../payments/mock.js';
import { controlId } from '../../testing/domain/record-desk.js';
import { declaredBy, defineMockRecordKind, type MockCreateCall, type MockRecordReader } from '../../testing/domain/record-kind.js';
import { MESSAGES, urlProtocolRefusal } from '../../testing/domain/refusals.js';

/**
 * A refund still 0 or 1 this long after its creation is closed (4) by the reference's job: two hours.
 *
 * @example
 * ```ts
 * gateway.advanceTime(REFUND_EXPIRY_MS); // a held refund closes: state 4, no notification
 * ```
 */
export const REFUND_EXPIRY_MS = 2 * 60 * 60 * 1000;

// The query's fields, for the type only (Refund's own keys include an index signature): the desk reads the
// fields a query answers and a notification carries from the query's declared result.
type RefundField =
  | 'refundOrderId' | 'payOrderId' | 'mchNo' | 'appId' | 'mchRefundNo' | 'payAmount' | 'refundAmount' | 'currency' | 'state'
  | 'channelOrderNo' | 'errCode' | 'errMsg' | 'extParam' | 'successTime' | 'createdAt';

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

/**
 * The mock gateway's refund methods, made from its declaration (`refundKind`; `kind-methods.ts` derives them; the compiler
 * checks these signatures against that derivation): their documentation.
 *
 * @example
 * ```ts
 * gateway.setRefundMode('hold');
 * gateway.settleRefund('refund-1001', { to: 'succeed' });
 * ```
 */
export interface MockRefundMethods {
  /**
   * A copy of a refund, by `refundOrderId` or `mchRefundNo`; `undefined` when there is none.
   *
   * @example
   * ```ts
   * expect(gateway.refund('refund-1001')?.state).toBe(Refunds.State.Succeeded);
   * ```
   */
  refund(ref: string): MockRefund | undefined;
  /**
   * Copies of all refunds, oldest first.
   *
   * @example
   * ```ts
   * expect(gateway.refunds().filter((r) => r.payOrderId === payOrderId)).toHaveLength(2);
   * ```
   */
  refunds(): MockRefund[];
  /**
   * How the channel treats the coming refunds: `succeed` at once (the default: state 2, notified), `hold` in 1
   * (refunding) until `settleRefund` decides them, or `fail` at once (3, notified). With `target`, only the refund of
   * that `mchRefundNo`, whatever the mode of the others: a refund's own mode wins.
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} when `mode` or `target` is wrong
   * @example
   * ```ts
   * gateway.setRefundMode('hold');
   * const refund = await client.refundOrder({ payOrderId, mchRefundNo: 'refund-1001', refundAmount: 400, currency: 'USD', refundReason: 'Returned' }); // state 1
   * gateway.settleRefund(refund.refundOrderId, { to: 'succeed' });
   * gateway.setRefundMode('fail', { mchRefundNo: 'refund-1002' }); // only this one fails
   * ```
   */
  setRefundMode(mode: RefundMode, target?: RefundModeTarget): void;
  /**
   * Decides a held refund (state 0 or 1): `succeed` (2: the order's refunded sum grows, 5 when in full), `fail` (3)
   * or `close` (4, as the gateway's two-hour job; no notification). 2 and 3 are notified to the refund's `notifyUrl`.
   *
   * @throws an `Error` when the refund is unknown or already final
   * @example
   * ```ts
   * gateway.settleRefund('refund-1001', { to: 'fail', errCode: 'NOT_ENOUGH_BALANCE', errMsg: 'merchant balance too low' });
   * ```
   */
  settleRefund(ref: string, decision: RefundDecision): MockRefund;
  /**
   * The channel of the orders `scope` names cannot refund: their refunds are refused with the reference's
   * `当前通道不支持退款！` (reason `refund_unsupported`), checked last as the reference does (refunds.md section 1, step 9).
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} unless `scope` names exactly one of `ifCode`, `wayCode`, `order`;
   *   an `Error` when `order` names no order
   * @example
   * ```ts
   * gateway.refuseRefunds({ ifCode: 'wxpay' });
   * gateway.refuseRefunds({ order: 'order-1001' }); // by payOrderId or mchOrderNo
   * ```
   */
  refuseRefunds(scope: RefundChannelScope): void;
  /**
   * Undoes `refuseRefunds` for the same `scope`.
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} unless `scope` names exactly one of `ifCode`, `wayCode`, `order`
   * @example
   * ```ts
   * gateway.allowRefunds({ ifCode: 'wxpay' });
   * ```
   */
  allowRefunds(scope: RefundChannelScope): void;
}

/** Checks a {@link RefundChannelScope}; the control routes `/_mock/refunds/unsupported` read their body with it too. */
export const refundChannelScopeSchema = z
  .strictObject({ ifCode: z.optional(controlId()), wayCode: z.optional(controlId()), order: z.optional(controlId()) })
  .check(z.refine((s) => [s.ifCode, s.wayCode, s.order].filter((v) => v !== undefined).length === 1, { error: 'give exactly one of ifCode, wayCode and order' }));

/** Refunds' own state besides their records: the orders, and the channels that cannot refund (test controls' values). */
export interface RefundWorld {
  readonly orders: MockRecordReader<MockPayOrder>;
  readonly unsupported: { readonly ifCode: Set<string>; readonly wayCode: Set<string>; readonly order: Set<string> };
}

/** Refunds' refusal texts, the reference's exactly (refunds.md section 1); `MOCK_MESSAGES` lists them with the others. */
const REFUND_MESSAGES = {
  /** refundOrder without `payOrderId` and `mchOrderNo` (reference text). */
  missingRefundOrderIds: 'mchOrderNo 和 payOrderId不能同时为空',
  /** refundOrder of an order the merchant does not have (reference text). */
  refundOrderNotFound: '退款订单不存在',
  /** refundOrder of an order that is not paid (state 2) (reference text). */
  refundOrderState: '订单状态不正确， 无法完成退款',
  /** refundOrder of an order refunded in full already (reference text). */
  refundedInFull: '订单已全额退款，本次申请失败',
  /** refundOrder of more than is left to refund (reference text). */
  refundExceeds: '申请金额超出订单可退款余额，请检查退款金额',
  /** refundOrder while another refund of the order is still 1 (reference text). */
  refundInProgress: '支付订单具有在途退款申请，请稍后再试',
  /** refundOrder with a `mchRefundNo` used before (reference text). */
  duplicateRefund: (mchRefundNo: string) => `商户退款订单号[${mchRefundNo}]已存在`,
  /** refundOrder of an order whose channel has no refund service, last of the refusals (reference text). */
  refundUnsupported: '当前通道不支持退款！',
  /** refundQuery of a refund the merchant does not have (reference text). */
  refundNotFound: '订单不存在',
} as const;

type Call = MockCreateCall<MockRefund, RefundWorld>;
type RefundParams = Record<string, string | undefined> & { refundAmount: number };
const paramsOf = (call: Call) => call.request.params as RefundParams;

/** The order a refund names, or none. */
function orderOf({ request: { app }, world }: Call, p: RefundParams): MockPayOrder | undefined {
  try {
    return world.orders.find(app, { ...(p.payOrderId === undefined ? {} : { payOrderId: p.payOrderId }), ...(p.mchOrderNo === undefined ? {} : { mchOrderNo: p.mchOrderNo }) });
  } catch {
    return undefined;
  }
}

/** The sum of an order's succeeded refunds, in minor units. */
const refundedOf = (refunds: readonly MockRefund[], payOrderId: string): number =>
  refunds.filter((r) => r.payOrderId === payOrderId && r.state === RefundOrderState.Succeeded).reduce((sum, r) => sum + r.refundAmount, 0);

/** A refusal about the order the refund names (which exists: the refusal before says so). */
const ofOrder = (check: (order: MockPayOrder, call: Call, p: RefundParams) => string | undefined) => (call: Call) => {
  const p = paramsOf(call);
  const order = orderOf(call, p);
  return order && check(order, call, p);
};

/** Test control: the channel of the orders `scope` names cannot refund (`allow`: it can again). */
function setRefundSupport(world: RefundWorld, scope: RefundChannelScope, allow: boolean, control: string): void {
  const { ifCode, wayCode, order } = scope;
  const [set, value] = ifCode !== undefined ? [world.unsupported.ifCode, ifCode] : wayCode !== undefined ? [world.unsupported.wayCode, wayCode] : [world.unsupported.order, world.orders.resolve(String(order), control).payOrderId];
  if (allow) set.delete(value);
  else set.add(value);
}

/** The refund kind of the mock, run by the generic desk. */
export const refundKind = defineMockRecordKind<MockRefund, RefundWorld>()({
  // Its name, plural, operations, id, key and states are its declaration's.
  ...declaredBy(notification, { create: 'refundOrder', held: RefundOrderState.Refunding }),
  label: 'Refund',
  messages: REFUND_MESSAGES,
  notFound: REFUND_MESSAGES.refundNotFound,
  // The reference's order (refunds.md section 1).
  refusals: [
    (call) => (paramsOf(call).payOrderId === undefined && paramsOf(call).mchOrderNo === undefined ? REFUND_MESSAGES.missingRefundOrderIds : undefined),
    (call) => urlProtocolRefusal(paramsOf(call).notifyUrl, MESSAGES.notifyUrlProtocol),
    (call) => (orderOf(call, paramsOf(call)) ? undefined : REFUND_MESSAGES.refundOrderNotFound),
    ofOrder((order) => (order.state !== PayOrderState.Succeeded ? REFUND_MESSAGES.refundOrderState : undefined)),
    ofOrder((order, call) => (refundedOf(call.records, order.payOrderId) >= order.amount ? REFUND_MESSAGES.refundedInFull : undefined)),
    ofOrder((order, call, p) => (refundedOf(call.records, order.payOrderId) + p.refundAmount > order.amount ? REFUND_MESSAGES.refundExceeds : undefined)),
    ofOrder((order, call) => (call.records.some((r) => r.payOrderId === order.payOrderId && r.state === RefundOrderState.Refunding) ? REFUND_MESSAGES.refundInProgress : undefined)),
    (call) => {
      const mchRefundNo = String(paramsOf(call).mchRefundNo);
      return call.taken(mchRefundNo) ? REFUND_MESSAGES.duplicateRefund(mchRefundNo) : undefined;
    },
    // refunds.md section 1, step 9: no refund service for the order's ifCode.
    ofOrder((order, { world: { unsupported } }) =>
      unsupported.ifCode.has(order.ifCode) || unsupported.wayCode.has(order.wayCode) || unsupported.order.has(order.payOrderId) ? REFUND_MESSAGES.refundUnsupported : undefined,
    ),
  ],
  create(call, sequence, interrupted) {
    const { request: { app, blank }, now } = call;
    const p = paramsOf(call);
    const order = orderOf(call, p) as MockPayOrder;
    const refundOrderId = `R${sequence}`;
    return {
      refundOrderId, payOrderId: order.payOrderId, mchNo: app.mchNo, appId: app.appId, mchRefundNo: String(p.mchRefundNo),
      // The reference records the request's currency (RefundOrderController.genRefundOrder: setCurrency(rq.getCurrency())),
      // not the order's, and compares neither with the other.
      payAmount: order.amount, refundAmount: p.refundAmount, currency: String(p.currency),
      // Then the channel: 1 while it refunds; a system error leaves it 0 (or 1 when its update failed).
      state: interrupted === 'created' ? RefundOrderState.Created : RefundOrderState.Refunding,
      channelOrderNo: interrupted === 'created' ? undefined : `CR${refundOrderId.slice(1)}`,
      extParam: p.extParam ?? (blank.has('extParam') ? '' : undefined), createdAt: now, refundReason: String(p.refundReason), notifyUrl: p.notifyUrl, clientIp: p.clientIp,
    };
  },
  modes: { succeed: 'succeed', hold: undefined, fail: 'fail' },
  decisions: {
    succeed: { to: RefundOrderState.Succeeded, stamp: 'successTime', button: 'primary', past: 'refunded', does: "a held refund succeeds (state 2; the order's refunded sum grows, state 5 once in full); it is notified" },
    fail: { to: RefundOrderState.Failed, failure: { errCode: 'MOCK_REFUND_FAILED', errMsg: 'refund refused by the channel (mock)' }, button: 'danger', past: 'failed', does: 'a held refund fails (state 3; --err-code, --err-msg set errCode, errMsg); it is notified' },
    close: { to: RefundOrderState.Closed, past: 'closed', does: "a held refund closes (state 4), as the gateway's two-hour job does; no notification" },
  },
  expiry: { afterMs: REFUND_EXPIRY_MS, to: RefundOrderState.Closed },
  world: (parts) => ({ orders: parts.desk<MockPayOrder>('payment'), unsupported: { ifCode: new Set(), wayCode: new Set(), order: new Set() } }),
  // The reference updates the order in one statement: 5 only once refunded in full.
  effect(refund, { orders }, refunds) {
    if (refund.state !== RefundOrderState.Succeeded) return;
    const order = orders.lookup(refund.payOrderId);
    if (order && refundedOf(refunds, order.payOrderId) >= order.amount) markRefunded(order);
  },
  controls: [
    {
      name: 'refuseRefunds', argument: 'scope', method: 'POST', path: 'unsupported', body: '{ ifCode | wayCode | order }', bodySchema: refundChannelScopeSchema,
      does: 'the channel of these orders cannot refund: their refunds are refused with 当前通道不支持退款！ (refund_unsupported), last of the refusals',
      verb: {
        positional: { member: 'order', is: 'an order (payOrderId or mchOrderNo)' },
        options: {
          ifCode: { value: 'CODE', names: 'channel (ifCode)', help: 'every order of this channel', example: 'wxpay' },
          wayCode: { value: 'CODE', names: 'way code', help: 'every order of this way code', example: 'QR_CASHIER' },
        },
        undo: { option: 'allow', help: 'undo; the channel refunds again' },
        help: [
          'the channel of an order, of a channel (--if-code) or of a way code (--way-code) cannot refund:',
          'its refunds are refused with 当前通道不支持退款！ (refund_unsupported); --allow undoes it',
        ],
        summary: 'makes a channel refuse refunds',
      },
      said: (target: string) => `refunds of the ${target} are refused: 当前通道不支持退款！ (refund_unsupported)`,
      run: (world: RefundWorld, scope: RefundChannelScope, control: string) => {
        setRefundSupport(world, scope, false, control);
        return { refundsUnsupported: scope };
      },
    },
    {
      name: 'allowRefunds', argument: 'scope', method: 'DELETE', path: 'unsupported', body: '{ ifCode | wayCode | order }', bodySchema: refundChannelScopeSchema,
      does: 'the channel of these orders can refund again',
      said: (target: string) => `refunds of the ${target} go to the channel again`,
      run: (world: RefundWorld, scope: RefundChannelScope, control: string) => {
        setRefundSupport(world, scope, true, control);
        return { refundsAllowed: scope };
      },
    },
  ],
  columns: [
    { title: 'mchRefundNo', field: 'mchRefundNo', as: 'code' },
    { title: 'refundOrderId', field: 'refundOrderId', as: 'code' },
    { title: 'Order', field: 'payOrderId', as: 'code' },
    { title: 'Amount', field: 'refundAmount', as: 'amount', currency: 'currency' },
    { title: 'Reason', field: 'refundReason', as: 'text', cell: 'reason' },
    { title: 'State', field: 'state', as: 'state' },
    { title: 'Created', field: 'createdAt', as: 'time' },
  ],
  ofOrder: { field: 'payOrderId', amount: 'refundAmount', currency: 'currency', sumState: RefundOrderState.Succeeded },
  settleDoes: "decides a held refund: 'succeed' (2, the order's refunded sum grows), 'fail' (3) or 'close' (4); 2 and 3 are notified",
  modeDoes: "how the coming refunds go: 'succeed' at once (the default), 'hold' in 1 (refunding) until settled, or 'fail' at once",
});
