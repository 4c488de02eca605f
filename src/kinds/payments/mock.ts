/**
 * The mock's pay orders, a kind the generic desk runs (`src/testing/domain/record-desk.ts`), and their state machine
 * (docs/reference/protocol.md section 6): a create decided by the world (a declined payment fails, barcode ways pay at
 * once, the cashier waits for the payer, other ways wait at the channel); 0/1 -> 2 or 3 through the test controls,
 * 0/1 -> 6 by close or by expiry at the order's own `expiredTime` on the simulated clock; close is refused from any
 * other state; `mchOrderNo` is unique per merchant.
 *
 * @module
 */
import * as z from 'zod/mini';
import { md5Hex } from '../../protocol/signing/md5.js';
import { isBarcodeWayCode, PayOrderState } from './enums.js';
import { notification } from './declaration.js';
import type { PayOrder } from './schemas.js';
import { safeInteger } from '../../protocol/schemas/fields.js';
import type { SimulatedClock } from '../../testing/domain/clock.js';
import { DecimalLiteral } from '../../testing/domain/json-text.js';
import { declaredBy, defineMockRecordKind, type MockCreateCall } from '../../testing/domain/record-kind.js';
import type { MockDecision } from '../../testing/domain/record-desk.js';
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

/**
 * How an unpaid order ends: `pay` (2, the channel reports it paid; notified) or `fail` (3, with the channel's error).
 *
 * @example
 * ```ts
 * gateway.settleOrder('order-1', { to: 'fail', errCode: 'CARD_DECLINED' }); // as gateway.failOrder('order-1', { errCode: 'CARD_DECLINED' })
 * ```
 */
export type OrderDecision = MockDecision<'pay' | 'fail'>;

/**
 * The mock gateway's payment methods, made from its declaration (`paymentKind`; `kind-methods.ts` derives them; the
 * compiler checks these signatures against that derivation): their documentation.
 *
 * @example
 * ```ts
 * gateway.payOrder('order-1');
 * expect(gateway.order('order-1')?.state).toBe(PayOrderState.Succeeded);
 * ```
 */
export interface MockPaymentMethods {
  /**
   * A copy of an order, by `payOrderId` or `mchOrderNo`; `undefined` when there is none.
   *
   * @example
   * ```ts
   * expect(gateway.order('order-1')?.state).toBe(PayOrderState.Succeeded);
   * ```
   */
  order(ref: string): MockPayOrder | undefined;
  /**
   * Copies of all orders, oldest first.
   *
   * @example
   * ```ts
   * expect(gateway.orders().filter((o) => o.mchOrderNo === 'cart-44')).toHaveLength(1);
   * ```
   */
  orders(): MockPayOrder[];
  /**
   * Decides an unpaid order (state 0 or 1): `pay` as {@link MockPaymentMethods.payOrder}, `fail` as {@link MockPaymentMethods.failOrder}.
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} when `decision` is wrong; an `Error` when the order is unknown or not 0 or 1
   * @example
   * ```ts
   * gateway.settleOrder('order-1', { to: 'pay' });
   * ```
   */
  settleOrder(ref: string, decision: OrderDecision): MockPayOrder;
  /**
   * The channel reports the order paid (state 0/1 -> 2); its notification is queued. Coin orders get a completed transaction.
   *
   * @throws an `Error` when the order is unknown or not 0 or 1
   * @example
   * ```ts
   * const order = await client.query({ mchOrderNo: 'order-1001' });
   * gateway.payOrder(order.payOrderId);
   * await gateway.deliverNotifications();
   * ```
   */
  payOrder(ref: string): MockPayOrder;
  /**
   * The channel reports the payment failed (state 0/1 -> 3) with `errCode`/`errMsg`.
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} when `failure` is wrong; an `Error` when the order is unknown or not 0 or 1
   * @example
   * ```ts
   * gateway.failOrder('order-1', { errCode: 'CARD_DECLINED', errMsg: 'insufficient funds' });
   * ```
   */
  failOrder(ref: string, failure?: ChannelFailure): MockPayOrder;
  /**
   * The order's validity ends now (state 0/1 -> 6, closed as expired), as if its `expiredTime` had passed; other orders are untouched. No notification.
   *
   * @throws an `Error` when the order is unknown or not 0 or 1
   * @example
   * ```ts
   * gateway.expireOrder('order-1');
   * expect(gateway.order('order-1')?.state).toBe(PayOrderState.Closed);
   * ```
   */
  expireOrder(ref: string): MockPayOrder;
  /**
   * The gateway's fee on an order (`mchFeeAmount`, minor units; 0 by default): a division shares the amount less
   * this fee, less refunds (division.md section 4).
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} unless `mchFeeAmount` is a whole number >= 0; an `Error`
   *   when the order is unknown or the fee is more than its amount
   * @example
   * ```ts
   * gateway.setOrderFee('order-1', 60); // 0.6 % of 10000
   * ```
   */
  setOrderFee(ref: string, mchFeeAmount: number): MockPayOrder;
  /**
   * An on-chain transaction of a coin order (`COIN_...` way code), with an exact decimal amount.
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} when `input` is wrong; an `Error` when the order is unknown or of no coin way
   * @example
   * ```ts
   * gateway.addTransaction('order-1', { amount: '10.50', status: 'Confirming' });
   * ```
   */
  addTransaction(ref: string, input: TransactionInput): MockTransaction;
  /**
   * The next order (or the one with `failure.mchOrderNo`) fails at the channel when created: `orderState` 3.
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} when `failure` is wrong
   * @example
   * ```ts
   * gateway.declineNextPayment({ mchOrderNo: 'order-2', errCode: 'ACQ.PAYMENT_AUTH_CODE_INVALID' });
   * ```
   */
  declineNextPayment(failure?: ChannelFailure): void;
  /**
   * The URL the cashier sends the payer back to: the order's `returnUrl` with the signed fields the gateway adds; `undefined` without `returnUrl`.
   *
   * @throws an `Error` when the order is unknown
   * @example
   * ```ts
   * const back = gateway.payerReturnUrl('order-1');
   * await verifyNotification(new URL(back!).searchParams, merchant);
   * ```
   */
  payerReturnUrl(ref: string): string | undefined;
}

/** Payments' own state besides their orders: the clock (a transaction's time) and the declines a test queued. */
export interface PaymentWorld {
  readonly clock: SimulatedClock;
  readonly declines: ChannelFailure[];
}

const DEFAULT_FAILURE = { errCode: 'MOCK_CHANNEL_DECLINED', errMsg: 'payment declined by the channel (mock)' };

type Call = MockCreateCall<MockPayOrder, PaymentWorld>;
type PayParams = Record<string, string | undefined> & { amount: number; expiredTime?: number; divisionMode?: number };
const paramsOf = (call: Call) => call.request.params as PayParams;

/** The order is with the channel: 1, and the channel's order number. */
function handToChannel(order: MockPayOrder): void {
  order.state = PayOrderState.Paying;
  order.channelOrderNo ??= `CH${order.payOrderId.slice(1)}`;
}

/** The coming decline for this order (the next one, or the one of its `mchOrderNo`), taken from the queue. */
function takeDecline(world: PaymentWorld, mchOrderNo: string): ChannelFailure | undefined {
  const i = world.declines.findIndex((d) => d.mchOrderNo === undefined || d.mchOrderNo === mchOrderNo);
  return i === -1 ? undefined : world.declines.splice(i, 1)[0];
}

/** An on-chain transaction arrives for a coin order at `now`. */
function addTransactionTo(order: MockPayOrder, input: TransactionInput, now: number): MockTransaction {
  if (!isCoinWayCode(order.wayCode)) throw new Error(`addTransaction: order ${order.payOrderId} uses ${order.wayCode}, not a coin way (COIN_...)`);
  const at = new Date(now).toISOString();
  const n = order.orderTransactionList.length + 1;
  const tx: MockTransaction = {
    txId: `${order.payOrderId}-TX${n}`, payOrderId: order.payOrderId, txHash: `0x${md5Hex(`${order.payOrderId}/${n}`).toLowerCase()}${'0'.repeat(32)}`,
    amount: input.amount, tokenId: order.wayCode.slice(5), fromAddress: input.fromAddress ?? addressFor(order.wayCode.slice(5), `payer/${order.payOrderId}`),
    toAddress: order.payData ?? '', status: input.status ?? 'Confirming', createdAt: at, updatedAt: at,
  };
  order.orderTransactionList.push(tx);
  return { ...tx };
}

/** A refund made the order's refunded sum reach its amount: 2 -> 5 (docs/reference/refunds.md section 2). */
export function markRefunded(order: MockPayOrder): void {
  if (order.state === PayOrderState.Succeeded) order.state = PayOrderState.Refunded;
}

/** The payment kind of the mock, run by the generic desk: its records are the orders. */
export const paymentKind = defineMockRecordKind<MockPayOrder, PaymentWorld>()({
  // Its name (the notification's kind), operations, id, key and states are its declaration's; its tracking reports
  // in no field of its own, so it names its plural, and what a record is called: an order.
  ...declaredBy(notification, { create: 'unifiedOrder', held: PayOrderState.Paying, plural: 'orders', noun: 'order' }),
  label: 'Order',
  notFound: MESSAGES.orderNotFound,
  missingRefs: MESSAGES.missingOrderIds,
  // The reference's order.
  refusals: [
    (call) => (paramsOf(call).amount < 1 ? MESSAGES.amountMissing : undefined),
    (call) => urlProtocolRefusal(paramsOf(call).notifyUrl, MESSAGES.notifyUrlProtocol) ?? urlProtocolRefusal(paramsOf(call).returnUrl, MESSAGES.returnUrlProtocol),
    (call) => {
      const { divisionMode } = paramsOf(call);
      return divisionMode !== undefined && ![0, 1, 2].includes(divisionMode) ? MESSAGES.divisionMode : undefined;
    },
    (call) => {
      const { expiredTime } = paramsOf(call);
      return expiredTime !== undefined && expiredTime < 1 ? MESSAGES.expiredTime : undefined;
    },
    (call) => {
      const mchOrderNo = String(paramsOf(call).mchOrderNo);
      return call.taken(mchOrderNo) ? MESSAGES.duplicateOrder(mchOrderNo) : undefined;
    },
    (call) => (isSupportedWayCode(String(paramsOf(call).wayCode)) ? undefined : MESSAGES.unsupportedWayCode),
  ],
  create(call, sequence, interrupted) {
    const { request: { app, blank }, now, origin } = call;
    const p = paramsOf(call);
    const echoed = (name: 'clientIp' | 'extParam') => p[name] ?? (blank.has(name) ? '' : undefined);
    const wayCode = String(p.wayCode);
    const extra = readChannelExtra(wayCode, p.channelExtra);
    const payOrderId = `P${sequence}`;
    const depositAddress = isCoinWayCode(wayCode) ? addressFor(wayCode.slice(5), payOrderId) : undefined;
    const payData = payDataFor(wayCode, payOrderId, extra, origin, depositAddress);
    const order: MockPayOrder = {
      payOrderId, mchNo: app.mchNo, appId: app.appId, mchOrderNo: String(p.mchOrderNo), ifCode: channelOf(wayCode), wayCode, amount: p.amount,
      currency: String(p.currency), state: PayOrderState.Generated, clientIp: echoed('clientIp'), subject: String(p.subject), body: String(p.body),
      extParam: echoed('extParam'), createdAt: now, notifyUrl: p.notifyUrl, returnUrl: p.returnUrl, channelExtra: p.channelExtra,
      divisionMode: p.divisionMode ?? 0, divisionState: 0, mchFeeAmount: 0, expiresAt: now + (p.expiredTime ?? DEFAULT_EXPIRED_TIME_SECONDS) * 1000,
      payDataType: payData.payDataType, payData: payData.payData, orderTransactionList: [],
    };
    // The cashier page waits for the payer (0); other ways are with the channel (1). A system error leaves it 0 (or 1 when its update failed).
    if (interrupted === 'processing' || (interrupted === undefined && wayCode !== 'QR_CASHIER')) handToChannel(order);
    return order;
  },
  // A declined payment fails at once, a barcode is paid at once (synchronous); the others wait.
  decide(order, { world }) {
    const decline = takeDecline(world, order.mchOrderNo);
    if (decline) return { to: 'fail', errCode: decline.errCode, errMsg: decline.errMsg };
    return isBarcodeWayCode(order.wayCode) ? { to: 'pay' } : undefined;
  },
  modes: {},
  decisions: {
    pay: { to: PayOrderState.Succeeded, stamp: 'successTime', button: 'primary', past: 'paid', does: 'the channel reports the order paid (state 2); its notification goes out' },
    fail: { to: PayOrderState.Failed, failure: DEFAULT_FAILURE, button: 'danger', past: 'failed', does: 'the channel reports the payment failed (state 3; --err-code, --err-msg set errCode, errMsg); no notification' },
  },
  aliases: [
    { name: 'payOrder', decision: 'pay', path: 'pay', verb: 'pay', does: 'the channel reports the order paid (state 2); its notification is queued' },
    {
      name: 'failOrder', decision: 'fail', path: 'fail', verb: 'fail', argument: 'failure', body: '{ errCode?, errMsg? }', does: 'the channel reports the payment failed (state 3); no notification',
      bodySchema: z.optional(channelFailureSchema),
      texts: (failure: ChannelFailure | undefined) => ({ errCode: failure?.errCode, errMsg: failure?.errMsg }),
    },
  ],
  recordControls: [
    {
      name: 'expireOrder', path: 'expire', open: true, route: {}, does: 'the order expires now (state 6, closed); no notification',
      verb: { name: 'expire', help: 'the order expires now (state 6, closed); no notification', summary: 'closes an unpaid order as expired' },
      // Its validity ends now; the expiry that runs after the control closes it.
      run: (order: MockPayOrder, _none: undefined, { now }: { readonly now: number }) => {
        order.expiresAt = Math.min(order.expiresAt, now);
        return order;
      },
    },
    {
      name: 'setOrderFee', path: 'fee', argument: 'mchFeeAmount', invalid: 'Invalid setOrderFee mchFeeAmount (a whole number of minor units >= 0)', bodySchema: safeInteger(0),
      does: "the gateway's fee on the order (minor units; 0 by default): a division shares the amount less it", route: { member: 'mchFeeAmount' },
      verb: {
        name: 'order-fee', help: "the gateway's fee on the order (--fee N minor units): a division shares the amount less it", summary: "sets the gateway's fee on an order", option: { name: 'fee', value: 'N', help: 'the fee in minor units' },
        said: (answer: Readonly<Record<string, unknown>>) => `  mchFeeAmount ${String(answer.mchFeeAmount)}: a division shares the amount less it`,
      },
      run: (order: MockPayOrder, fee: number) => {
        if (fee > order.amount) throw new Error(`setOrderFee: the fee ${fee} is more than the order's amount ${order.amount}`);
        order.mchFeeAmount = fee;
        return order;
      },
    },
    {
      name: 'payerReturnUrl', path: 'return-url', does: 'the URL the cashier sends the payer back to',
      // The order's returnUrl with the fields its notification carries, signed now, as the reference's return endpoint adds them.
      run: (order: MockPayOrder, _none: undefined, { signed }: { readonly signed: () => Record<string, string> }) => {
        if (order.returnUrl === undefined) return undefined;
        const url = new URL(order.returnUrl);
        for (const [key, value] of Object.entries(signed())) url.searchParams.append(key, value);
        return url.href;
      },
    },
    {
      name: 'addTransaction', path: 'transactions', argument: 'input', bodySchema: transactionInputSchema, does: 'an on-chain transaction arrives for a coin order',
      run: (order: MockPayOrder, input: TransactionInput, { now }: { readonly now: number }) => addTransactionTo(order, input, now),
    },
  ],
  actions: {
    /**
     * close: 0/1 -> 6, refused from every other state. `payerFirst` (the `closeRacesPayer` fault): a payer
     * reaches the channel between the reference's check and its `UPDATE ... WHERE state = 0`, so the order
     * becomes 1 and stays open, and the close is answered as done all the same.
     */
    close: (order, { payerFirst }) => {
      if (order.state !== PayOrderState.Generated && order.state !== PayOrderState.Paying) throw refuse(MESSAGES.cannotClose);
      if (payerFirst) handToChannel(order);
      else order.state = PayOrderState.Closed;
      return {};
    },
  },
  answers: {
    // payData only while the payer may still pay.
    create: (order) => {
      const paying = order.state <= PayOrderState.Succeeded;
      return {
        payOrderId: order.payOrderId, mchOrderNo: order.mchOrderNo, orderState: order.state,
        payDataType: paying ? order.payDataType : undefined, payData: paying ? order.payData : undefined,
        errCode: order.errCode, errMsg: order.errMsg,
      };
    },
    // The query response data of an order (spec 2.3), transaction amounts as exact decimal literals.
    query: (order) => {
      const transactions = order.orderTransactionList.map((tx) => ({ ...tx, amount: new DecimalLiteral(tx.amount) }));
      return { ...Object.fromEntries(ORDER_FIELDS.map((name) => [name, order[name]])), orderTransactionList: transactions.length > 0 ? transactions : undefined };
    },
  },
  notifiedFields: ORDER_FIELDS,
  expiry: { at: (order) => order.expiresAt, to: PayOrderState.Closed },
  world: ({ clock }) => ({ clock, declines: [] }),
  // The channel has the order; paid: mode 1 queues the auto division job (division.md section 2), a coin order gets its completed transaction.
  effect(order, { clock }) {
    order.channelOrderNo ??= `CH${order.payOrderId.slice(1)}`;
    if (order.state !== PayOrderState.Succeeded) return;
    if (order.divisionMode === 1 && order.divisionState === 0) order.divisionState = 1;
    if (isCoinWayCode(order.wayCode) && !order.orderTransactionList.some((tx) => tx.status === 'Completed')) {
      addTransactionTo(order, { amount: minorToDecimal(order.amount), status: 'Completed' }, clock.now());
    }
  },
  controls: [
    {
      name: 'declineNextPayment', argument: 'failure', method: 'POST', path: 'decline', body: '{ mchOrderNo?, errCode?, errMsg? }', bodySchema: z.optional(channelFailureSchema),
      does: 'the next order (or the one of mchOrderNo) fails at the channel when created: orderState 3',
      run: (world: PaymentWorld, failure: ChannelFailure | undefined) => {
        world.declines.push({ ...failure });
        return { declined: failure?.mchOrderNo ?? 'next' };
      },
    },
  ],
  // Its table is the dashboard's first, the Orders (with each order's refunds and the cashier's link), and its lines
  // `mock list`'s first: its own section, no generic columns.
  ownSection: true,
  columns: [],
  // It has no modes.
  modeDoes: '',
  settleDoes: "decides an unpaid order: 'pay' (2, the channel reports it paid; notified) or 'fail' (3, the channel's error)",
});

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
