/**
 * The mock's pay orders and their state machine (docs/reference/protocol.md section 6): 0/1 -> 2 or 3 through the test
 * controls (barcode ways pay at once), 0/1 -> 6 by close or by expiry on the simulated clock; close is
 * refused from any other state; `mchOrderNo` is unique per merchant.
 *
 * @module
 */
import * as z from 'zod/mini';
import { md5Hex } from '../../protocol/signing/md5.js';
import { isBarcodeWayCode, PayOrderState, payOrderStateName } from './enums.js';
import type { PayOrder } from './schemas.js';
import { safeInteger } from '../../protocol/schemas/fields.js';
import { parseInput } from '../../protocol/schemas/parse.js';
import type { AcceptedRequest } from '../../testing/domain/accepted-request.js';
import type { SimulatedClock } from '../../testing/domain/clock.js';
import { DecimalLiteral } from '../../testing/domain/json-text.js';
import { merchantScoped, type MockMerchant } from '../../testing/domain/merchants.js';
import { channelOf, isCoinWayCode, isSupportedWayCode, payDataFor, readChannelExtra } from './mock-pay-data.js';
import { MESSAGES, refuse, urlProtocolRefusal } from '../../testing/domain/refusals.js';

/** The reference gateway's default order validity: 2 hours. */
export const DEFAULT_EXPIRED_TIME_SECONDS = 7200;

/**
 * One on-chain transaction of a coin order, as the mock stores it. `amount` is exact decimal text in
 * token units (`"10.50"`); query responses write it as the JSON number `10.50`.
 *
 * @example
 * ```ts
 * const tx: MockTransaction = gateway.addTransaction('order-1', { amount: '10.50', status: 'Confirming' });
 * ```
 */
export interface MockTransaction {
  txId: string;
  payOrderId: string;
  txHash: string;
  amount: string;
  tokenId: string;
  fromAddress: string;
  toAddress: string;
  status: string;
  createdAt: string;
  updatedAt: string;
}

/** The fields of an order a query answers and a notification carries, in the reference's order. */
export const ORDER_FIELDS = [
  'payOrderId', 'mchNo', 'appId', 'mchOrderNo', 'ifCode', 'wayCode', 'amount', 'currency', 'state', 'clientIp', 'subject', 'body',
  'channelOrderNo', 'errCode', 'errMsg', 'extParam', 'successTime', 'createdAt',
] as const satisfies readonly (keyof PayOrder)[];
type OrderField = (typeof ORDER_FIELDS)[number];

/**
 * A pay order as the mock gateway holds it: the query fields of {@link payment-gateway-sdk!PayOrder} plus what
 * the order was created with, and its transactions as the mock stores them. Returned as a copy by {@link MockGateway.order} and {@link MockGateway.orders}.
 *
 * @example
 * ```ts
 * const order: MockPayOrder | undefined = gateway.order('order-1001');
 * expect(order?.state).toBe(PayOrderState.Succeeded);
 * ```
 */
export interface MockPayOrder extends Pick<PayOrder, OrderField> {
  notifyUrl?: string | undefined;
  returnUrl?: string | undefined;
  channelExtra?: string | undefined;
  divisionMode: number;
  /**
   * 0 not divided yet, 1 waiting for the auto division job (mode 1, paid), 2 dividing, 3 divided (whatever the
   * outcome). Kept as the reference keeps it: neither the query answer nor the notification carries it.
   */
  divisionState: number;
  /** When the division finished (simulated clock). */
  divisionLastTime?: number | undefined;
  /** The gateway's fee on the order, in minor units (0 unless a test sets it: {@link MockGateway.setOrderFee}); a division shares the amount less it. */
  mchFeeAmount: number;
  /** When the order closes by itself if still unpaid (simulated-clock milliseconds). */
  expiresAt: number;
  payDataType?: string | undefined;
  payData?: string | undefined;
  orderTransactionList: MockTransaction[];
}

/**
 * A channel failure to apply to a coming order: the next one, or the one with `mchOrderNo`.
 *
 * @example
 * ```ts
 * gateway.declineNextPayment({ errCode: 'ACQ.PAYMENT_AUTH_CODE_INVALID', errMsg: 'invalid auth code' });
 * ```
 */
export interface ChannelFailure {
  /** Only the order with this merchant order number; by default the next order created. */
  mchOrderNo?: string | undefined;
  /** The channel's error code; default `MOCK_CHANNEL_DECLINED`. */
  errCode?: string | undefined;
  /** The channel's error text; default `payment declined by the channel (mock)`. */
  errMsg?: string | undefined;
}

/**
 * A transaction to add to a coin order. Only `amount` is required: exact decimal text in token units.
 *
 * @example
 * ```ts
 * gateway.addTransaction('order-1', { amount: '10.50', status: 'Confirming' });
 * ```
 */
export interface TransactionInput {
  amount: string;
  /** Default `Confirming`. */
  status?: string | undefined;
  fromAddress?: string | undefined;
}

const text = () => z.optional(z.string({ error: 'must be a string' }));

/** Checks {@link ChannelFailure}; the control route `POST /_mock/orders/{payOrderId}/fail` reads its body with it too. */
export const channelFailureSchema = z.strictObject({ mchOrderNo: text(), errCode: text(), errMsg: text() });

const transactionInputSchema = z.strictObject({
  amount: z.string({ error: 'must be exact decimal text such as "10.50"' }).check(z.regex(/^-?\d+(?:\.\d+)?$/, { error: 'must be exact decimal text such as "10.50" (no exponent, no sign but -)' })),
  status: text(),
  fromAddress: text(),
});

const feeSchema = safeInteger(0);

const DEFAULT_FAILURE = { errCode: 'MOCK_CHANNEL_DECLINED', errMsg: 'payment declined by the channel (mock)' };

// Shared by every mock of the process: two mocks (whose clocks may read the same millisecond) never hand out one payOrderId.
let payOrderSequence = 0;

/** The orders of all merchants, with the state machine and the channel simulation. */
export class OrderBook {
  readonly #orders = new Map<string, MockPayOrder>();
  readonly #byMerchantOrderNo = new Map<string, MockPayOrder>();
  readonly #declines: ChannelFailure[] = [];

  constructor(
    private readonly clock: SimulatedClock,
    private readonly onPaid: (order: MockPayOrder) => void,
  ) {}

  /**
   * unifiedOrder: checks the request as the reference does, records the order, returns the result data. `interrupted`
   * (the `refusedAfterStore` fault): the order is stored and left in 0, or 1 (`processing`), no channel decides it.
   */
  create({ app, params, blank }: AcceptedRequest, origin: string, interrupted?: 'created' | 'processing'): Record<string, unknown> {
    const p = params as Record<string, string | undefined> & { amount: number; expiredTime?: number; divisionMode?: number };
    const echoed = (name: 'clientIp' | 'extParam') => p[name] ?? (blank.has(name) ? '' : undefined);
    if (p.amount < 1) throw refuse(MESSAGES.amountMissing);
    const badUrl = urlProtocolRefusal(p.notifyUrl, MESSAGES.notifyUrlProtocol) ?? urlProtocolRefusal(p.returnUrl, MESSAGES.returnUrlProtocol);
    if (badUrl !== undefined) throw refuse(badUrl);
    if (p.divisionMode !== undefined && ![0, 1, 2].includes(p.divisionMode)) throw refuse(MESSAGES.divisionMode);
    if (p.expiredTime !== undefined && p.expiredTime < 1) throw refuse(MESSAGES.expiredTime);
    const mchOrderNo = String(p.mchOrderNo);
    if (this.#byMerchantOrderNo.has(merchantScoped(app.mchNo, mchOrderNo))) throw refuse(MESSAGES.duplicateOrder(mchOrderNo));
    const wayCode = String(p.wayCode);
    if (!isSupportedWayCode(wayCode)) throw refuse(MESSAGES.unsupportedWayCode);
    const extra = readChannelExtra(wayCode, p.channelExtra);

    const now = this.clock.now();
    const payOrderId = `P${now}${String(++payOrderSequence).padStart(4, '0')}`;
    const depositAddress = isCoinWayCode(wayCode) ? addressFor(wayCode.slice(5), payOrderId) : undefined;
    const payData = payDataFor(wayCode, payOrderId, extra, origin, depositAddress);
    const order: MockPayOrder = {
      payOrderId, mchNo: app.mchNo, appId: app.appId, mchOrderNo, ifCode: channelOf(wayCode), wayCode, amount: p.amount,
      currency: String(p.currency), state: PayOrderState.Generated, clientIp: echoed('clientIp'), subject: String(p.subject), body: String(p.body),
      extParam: echoed('extParam'), createdAt: now, notifyUrl: p.notifyUrl, returnUrl: p.returnUrl, channelExtra: p.channelExtra,
      divisionMode: p.divisionMode ?? 0, divisionState: 0, mchFeeAmount: 0, expiresAt: now + (p.expiredTime ?? DEFAULT_EXPIRED_TIME_SECONDS) * 1000,
      payDataType: payData.payDataType, payData: payData.payData, orderTransactionList: [],
    };
    this.#orders.set(payOrderId, order);
    this.#byMerchantOrderNo.set(merchantScoped(app.mchNo, mchOrderNo), order);

    const decline = interrupted === undefined ? this.#takeDecline(mchOrderNo) : undefined;
    if (interrupted !== undefined) {
      if (interrupted === 'processing') this.#handToChannel(order); // else it stays 0, as the reference's system error leaves it
    } else if (decline) this.#fail(order, decline);
    else if (isBarcodeWayCode(wayCode)) this.#pay(order); // barcode payments are synchronous
    else if (wayCode !== 'QR_CASHIER') this.#handToChannel(order); // the cashier page waits for the payer

    const paying = order.state <= PayOrderState.Succeeded;
    return {
      payOrderId, mchOrderNo, orderState: order.state,
      payDataType: paying ? order.payDataType : undefined, payData: paying ? order.payData : undefined,
      errCode: order.errCode, errMsg: order.errMsg,
    };
  }

  /** query/close: the merchant's order by `payOrderId` (preferred, as the reference does) or `mchOrderNo`. */
  find(app: MockMerchant, params: Readonly<Record<string, string | number>>): MockPayOrder {
    const { payOrderId, mchOrderNo } = params;
    if (payOrderId === undefined && mchOrderNo === undefined) throw refuse(MESSAGES.missingOrderIds);
    const order = payOrderId !== undefined ? this.#orders.get(String(payOrderId)) : this.#byMerchantOrderNo.get(merchantScoped(app.mchNo, String(mchOrderNo)));
    if (!order || order.mchNo !== app.mchNo) throw refuse(MESSAGES.orderNotFound);
    return order;
  }

  /**
   * close: 0/1 -> 6, refused from every other state. `payerFirst` (the `closeRacesPayer` fault): a payer
   * reaches the channel between the reference's check and its `UPDATE ... WHERE state = 0`, so the order
   * becomes 1 and stays open, and the close is answered as done all the same.
   */
  close(order: MockPayOrder, payerFirst = false): void {
    if (order.state !== PayOrderState.Generated && order.state !== PayOrderState.Paying) throw refuse(MESSAGES.cannotClose);
    if (payerFirst) this.#handToChannel(order);
    else order.state = PayOrderState.Closed;
  }

  /** Closes unpaid orders whose validity ended on the simulated clock. */
  expire(): void {
    const now = this.clock.now();
    for (const order of this.#orders.values()) {
      if ((order.state === PayOrderState.Generated || order.state === PayOrderState.Paying) && order.expiresAt <= now) order.state = PayOrderState.Closed;
    }
  }

  /** An order by `payOrderId`, or by a `mchOrderNo` that only one merchant uses. */
  lookup(ref: string): MockPayOrder | undefined {
    this.expire();
    const byId = this.#orders.get(ref);
    if (byId) return byId;
    const matches = [...this.#orders.values()].filter((o) => o.mchOrderNo === ref);
    if (matches.length > 1) throw new Error(`several merchants use mchOrderNo ${JSON.stringify(ref)}; give the payOrderId`);
    return matches[0];
  }

  /** The order for a test control, which must exist. */
  resolve(ref: string, control: string): MockPayOrder {
    const order = this.lookup(ref);
    if (!order) throw new Error(`${control}: no order with payOrderId or mchOrderNo ${JSON.stringify(ref)}`);
    return order;
  }

  /** The orders waiting for the auto division job (divisionState 1), live: the division desk moves them on. */
  awaitingDivision(): MockPayOrder[] {
    return [...this.#orders.values()].filter((o) => o.divisionState === 1);
  }

  /** A copy of an order, for assertions. */
  snapshot(ref: string): MockPayOrder | undefined {
    const order = this.lookup(ref);
    return order && copy(order);
  }

  live(): readonly MockPayOrder[] {
    this.expire();
    return [...this.#orders.values()];
  }

  /** Test control: the channel reports success. */
  pay(ref: string): MockPayOrder {
    return this.#pay(this.#unpaid(ref, 'payOrder'));
  }

  /** Test control: the channel reports failure. */
  fail(ref: string, failure: ChannelFailure = {}): MockPayOrder {
    const checked = parseInput(channelFailureSchema, failure, 'Invalid failOrder failure', 'options');
    return this.#fail(this.#unpaid(ref, 'failOrder'), checked);
  }

  /** Test control: the order's validity ends now, so it closes as expired (state 6). */
  expireNow(ref: string): MockPayOrder {
    const order = this.#unpaid(ref, 'expireOrder');
    order.expiresAt = Math.min(order.expiresAt, this.clock.now());
    this.expire();
    return copy(order);
  }

  /** Test control: the gateway's fee on the order, which a division deducts first. */
  setFee(ref: string, mchFeeAmount: number): MockPayOrder {
    const fee = parseInput(feeSchema, mchFeeAmount, 'Invalid setOrderFee mchFeeAmount (a whole number of minor units >= 0)', 'options');
    const order = this.resolve(ref, 'setOrderFee');
    if (fee > order.amount) throw new Error(`setOrderFee: the fee ${fee} is more than the order's amount ${order.amount}`);
    order.mchFeeAmount = fee;
    return copy(order);
  }

  /** Test control: a coming order fails at the channel. */
  declineNext(failure: ChannelFailure = {}): void {
    this.#declines.push(parseInput(channelFailureSchema, failure, 'Invalid declineNextPayment failure', 'options'));
  }

  /** Test control: an on-chain transaction arrives for a coin order. */
  addTransaction(ref: string, transaction: TransactionInput): MockTransaction {
    const input = parseInput(transactionInputSchema, transaction, 'Invalid addTransaction input', 'options');
    const order = this.resolve(ref, 'addTransaction');
    if (!isCoinWayCode(order.wayCode)) throw new Error(`addTransaction: order ${order.payOrderId} uses ${order.wayCode}, not a coin way (COIN_...)`);
    const at = new Date(this.clock.now()).toISOString();
    const n = order.orderTransactionList.length + 1;
    const tx: MockTransaction = {
      txId: `${order.payOrderId}-TX${n}`, payOrderId: order.payOrderId, txHash: `0x${md5Hex(`${order.payOrderId}/${n}`).toLowerCase()}${'0'.repeat(32)}`,
      amount: input.amount, tokenId: order.wayCode.slice(5), fromAddress: input.fromAddress ?? addressFor(order.wayCode.slice(5), `payer/${order.payOrderId}`),
      toAddress: order.payData ?? '', status: input.status ?? 'Confirming', createdAt: at, updatedAt: at,
    };
    order.orderTransactionList.push(tx);
    return { ...tx };
  }

  /** The query response data of an order (spec 2.3), transaction amounts as exact decimal literals. */
  queryData(order: MockPayOrder): Record<string, unknown> {
    const transactions = order.orderTransactionList.map((tx) => ({ ...tx, amount: new DecimalLiteral(tx.amount) }));
    return { ...Object.fromEntries(ORDER_FIELDS.map((name) => [name, order[name]])), orderTransactionList: transactions.length > 0 ? transactions : undefined };
  }

  list(): MockPayOrder[] {
    this.expire();
    return [...this.#orders.values()].map(copy);
  }

  #unpaid(ref: string, control: string): MockPayOrder {
    const order = this.resolve(ref, control);
    if (order.state !== PayOrderState.Generated && order.state !== PayOrderState.Paying) {
      throw new Error(`${control}: order ${order.payOrderId} is ${payOrderStateName(order.state)} (state ${order.state}); only orders in state 0 or 1 can change`);
    }
    return order;
  }

  #handToChannel(order: MockPayOrder): void {
    order.state = PayOrderState.Paying;
    order.channelOrderNo ??= `CH${order.payOrderId.slice(1)}`;
  }

  #pay(order: MockPayOrder): MockPayOrder {
    this.#handToChannel(order);
    order.state = PayOrderState.Succeeded;
    order.successTime = this.clock.now();
    // Mode 1: the auto division job is queued (division.md section 2).
    if (order.divisionMode === 1 && order.divisionState === 0) order.divisionState = 1;
    if (isCoinWayCode(order.wayCode) && !order.orderTransactionList.some((tx) => tx.status === 'Completed')) {
      this.addTransaction(order.payOrderId, { amount: minorToDecimal(order.amount), status: 'Completed' });
    }
    this.onPaid(order);
    return copy(order);
  }

  #fail(order: MockPayOrder, failure: ChannelFailure): MockPayOrder {
    this.#handToChannel(order);
    order.state = PayOrderState.Failed;
    order.errCode = failure.errCode ?? DEFAULT_FAILURE.errCode;
    order.errMsg = failure.errMsg ?? DEFAULT_FAILURE.errMsg;
    return copy(order);
  }

  #takeDecline(mchOrderNo: string): ChannelFailure | undefined {
    const i = this.#declines.findIndex((d) => d.mchOrderNo === undefined || d.mchOrderNo === mchOrderNo);
    return i === -1 ? undefined : this.#declines.splice(i, 1)[0];
  }
}

/** A refund made the order's refunded sum reach its amount: 2 -> 5 (docs/reference/refunds.md section 2). */
export function markRefunded(order: MockPayOrder): void {
  if (order.state === PayOrderState.Succeeded) order.state = PayOrderState.Refunded;
}

function copy(order: MockPayOrder): MockPayOrder {
  return { ...order, orderTransactionList: order.orderTransactionList.map((tx) => ({ ...tx })) };
}

/** `1050` minor units as the token amount text `10.50` (two decimals, as USD-pegged tokens are quoted). */
function minorToDecimal(minor: number): string {
  return `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** A deterministic placeholder address of the token's chain (TRON base58 or EVM hex); not a real address. */
function addressFor(tokenId: string, seed: string): string {
  const hex = (md5Hex(seed) + md5Hex(`${seed}/2`) + md5Hex(`${seed}/3`)).toLowerCase();
  if (!tokenId.startsWith('TRON')) return `0x${hex.slice(0, 40)}`;
  let address = 'T';
  for (let i = 0; address.length < 34; i += 2) address += BASE58[Number.parseInt(hex.slice(i, i + 2), 16) % 58];
  return address;
}
