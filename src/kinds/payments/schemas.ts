/**
 * Pay orders (spec 2.3-2.5, 4.1-4.3): the zod schemas are the source of truth, and the public types are
 * derived from them. Each field's TSDoc sits on its schema, where the derived type and the API pages read
 * it (`@interface` makes typedoc document a derived type field by field).
 *
 * @module
 */
import * as z from 'zod/mini';
import {
  currencyCode,
  decimalText,
  httpUrl,
  jsonTextParam,
  minorUnits,
  openString,
  optionalText,
  requiredText,
  safeInteger,
  wireInteger,
  named,
  withInput,
} from '../../protocol/schemas/fields.js';
import {
  divisionModeSchema,
  isBarcodeWayCode,
  KNOWN_WAY_CODES,
  payDataTypeSchema,
  payOrderStateSchema,
  requestedPayDataTypeSchema,
  transactionStatusSchema,
} from './enums.js';
import { freeText, type NotUniquelySigned } from '../../protocol/schemas/free-text.js';
import { lazySchema } from '../../protocol/schemas/lazy.js';
import { nearKey } from '../../protocol/schemas/near-key.js';
import type { AtLeastOne } from '../../protocol/schemas/one-of.js';

// Each schema is built on its first use (protocol/schemas/lazy.ts); its type is its builder's return type.

/** Checks {@link ChannelExtra} given as an object, before it is serialized. */
export const channelExtraSchema = lazySchema(() =>
  z.looseObject({
    /** The kind of payment data wanted (QR, H5 and PC ways). */
    payDataType: z.optional(requestedPayDataTypeSchema()),
    /** The payer's barcode (barcode ways `*_BAR`, required there). */
    authCode: z.optional(z.string()),
    /** Alipay buyer id (`ALI_JSAPI`, `ALI_LITE`). */
    buyerUserId: z.optional(z.string()),
    /** WeChat openid (`WX_JSAPI`, `WX_LITE`). */
    openid: z.optional(z.string()),
    /** 1 when `openid` is a sub-merchant openid. */
    isSubOpenId: z.optional(z.literal([0, 1])),
    /** UnionPay user id (`UP_JSAPI`). */
    userId: z.optional(z.string()),
    /** Where PayPal returns a cancelled payment (`PP_PC`). */
    cancelUrl: z.optional(z.string()),
  }).check(z.superRefine(refuseMisspelledKeys)),
);

/**
 * Other channels' keys pass as given, but one that is a known key misspelled (`payDatatype`) is refused: the
 * gateway would ignore it and the order would silently get the default (`codeUrl` for `codeImgUrl`).
 */
function refuseMisspelledKeys(value: Record<string, unknown>, ctx: z.core.$RefinementCtx<Record<string, unknown>>): void {
  const known = Object.keys(channelExtraSchema().def.shape);
  for (const key of Object.keys(value)) {
    const meant = nearKey(key, known);
    if (meant !== undefined) {
      ctx.addIssue({ code: 'custom', path: [key], input: value, message: `is not a key the gateway knows: did you mean '${meant}'? (a misspelled key is ignored by the gateway, so the order would get its default)` });
    }
  }
}

/**
 * `channelExtra` of {@link UnifiedOrderParams} as an object: the members the reference gateway knows, plus
 * any other (serialized as given).
 *
 * @interface
 * @example
 * ```ts
 * import type { ChannelExtra } from 'payment-gateway-sdk';
 *
 * const barcode: ChannelExtra = { authCode: '134567890123456789' };          // WX_BAR, ALI_BAR, ...
 * const qrImage: ChannelExtra = { payDataType: 'codeImgUrl' };                // QR_CASHIER
 * ```
 */
export type ChannelExtra = z.input<ReturnType<typeof channelExtraSchema>>;

/** Checks {@link UnifiedOrderParams}; unknown keys are an error. */
const unifiedOrderParamsObject = () =>
  z.strictObject({
    /** Your order number: unique per merchant; the gateway refuses a duplicate (your idempotency key). */
    mchOrderNo: requiredText(),
    /** Payment way, e.g. `QR_CASHIER`, `WX_BAR`, or a coin way code (any string the gateway offers). */
    wayCode: openString<(typeof KNOWN_WAY_CODES)[number]>(),
    /** Amount in integer minor units (cents), at least 1: 1999 is 19.99. */
    amount: minorUnits(),
    /** Three-letter currency code, e.g. `USD`. */
    currency: currencyCode(),
    /** Goods title. Text holding `&name=` is refused where the gateway's signature could read it as another field. */
    subject: freeText(requiredText()),
    /** Goods description. */
    body: freeText(requiredText()),
    /** The payer's IP address. */
    clientIp: optionalText(),
    /** Where the gateway POSTs the payment notification: an absolute http(s) URL. */
    notifyUrl: z.optional(freeText(httpUrl())),
    /** Where the payer is redirected after paying: an absolute http(s) URL. */
    returnUrl: z.optional(freeText(httpUrl())),
    /** Validity of the order in whole seconds, at least 1 (the gateway's default is 2 hours). */
    expiredTime: z.optional(safeInteger(1)),
    /** Channel parameters: an object (serialized once with `JSON.stringify`) or a ready JSON string. */
    channelExtra: z.optional(freeText(jsonTextParam(channelExtraSchema()))),
    /** Your own extension data, returned in queries and notifications: an object or a JSON string. */
    extParam: z.optional(freeText(jsonTextParam(z.looseObject({})))),
    /** 0 never divided (default), 1 divided automatically after payment, 2 divided by your `executeDivision`: see {@link DivisionMode}. */
    divisionMode: z.optional(divisionModeSchema()),
    /** The payer's user id at the channel. */
    channelUserId: optionalText(),
  }).check(
    z.refine((params) => !isBarcodeWayCode(params.wayCode) || hasAuthCode(params.channelExtra), {
      error: "barcode ways (*_BAR) need channelExtra.authCode, the payer's barcode",
      path: ['channelExtra'],
    }),
  );
/** The schema typed by {@link UnifiedOrderParams}, so compile errors name it. */
export const unifiedOrderParamsSchema = lazySchema(() => named<UnifiedOrderParams, z.output<UnifiedOrderParamsObject>>()(unifiedOrderParamsObject()));
type UnifiedOrderParamsObject = ReturnType<typeof unifiedOrderParamsObject>;

function hasAuthCode(channelExtra: string | undefined): boolean {
  if (!channelExtra) return false;
  try {
    const authCode: unknown = (JSON.parse(channelExtra) as { authCode?: unknown } | null)?.authCode;
    return typeof authCode === 'string' && authCode !== '';
  } catch {
    return false;
  }
}

/**
 * Parameters of {@link GatewayClient.unifiedOrder}. `amount` is in integer minor units (1999 is 19.99).
 *
 * @example
 * ```ts
 * import type { UnifiedOrderParams } from 'payment-gateway-sdk';
 *
 * function qrOrder(cart: { id: string; totalMinor: number; title: string }): UnifiedOrderParams {
 *   return {
 *     mchOrderNo: `cart-${cart.id}`, wayCode: 'QR_CASHIER', amount: cart.totalMinor, currency: 'USD',
 *     subject: cart.title, body: cart.title, channelExtra: { payDataType: 'codeImgUrl' },
 *   };
 * }
 * ```
 */
export interface UnifiedOrderParams extends z.input<UnifiedOrderParamsObject> {}

/** Checks the `data` of a unified-order response (spec 2.5); unknown extra fields are kept. */
export const unifiedOrderResultSchema = lazySchema(() =>
  z.looseObject({
    /** The gateway's order id. */
    payOrderId: z.string(),
    /** Your order number. */
    mchOrderNo: z.string(),
    /** The order state; 3 (failed) comes with `errCode`/`errMsg`. */
    orderState: payOrderStateSchema(),
    /** What `payData` holds (only for states 0, 1, 2), normalized in case. */
    payDataType: z.optional(payDataTypeSchema()),
    /** The payment parameters to collect the payment with. */
    payData: z.optional(freeText(z.string())),
    /** The channel's error code when the payment failed. */
    errCode: z.optional(z.string()),
    /** The channel's error description when the payment failed. */
    errMsg: z.optional(freeText(z.string())),
  }),
);

/**
 * The gateway's answer to {@link GatewayClient.unifiedOrder} (spec 2.5), `recovered: false`: it carries
 * `payData` to collect the payment with (for states 0, 1 and 2). A channel failure is `orderState` 3.
 *
 * @interface
 * @example
 * ```ts
 * import { PayOrderState, type CreatedOrder } from 'payment-gateway-sdk';
 *
 * function nextStep(order: CreatedOrder): string {
 *   if (order.orderState === PayOrderState.Failed) return `declined: ${order.errMsg ?? order.errCode}`;
 *   return order.payData ? `collect via ${order.payDataType}` : 'wait for the notification';
 * }
 * ```
 */
export type CreatedOrder = z.output<ReturnType<typeof unifiedOrderResultSchema>> & NotUniquelySigned & {
  /** `false`: the gateway's own answer, with the payment data. */
  readonly recovered: false;
  /**
   * The order's validity in seconds as this client **sent** it to `unifiedOrder` (`expiredTime`), or the gateway's
   * default, `7200`, when it sent none. Not part of the gateway's answer, nor signed: the SDK adds it from your
   * parameters so that `processor.track(order)` knows when the order expires.
   */
  readonly sentExpiredTime: number;
};

/** The validity of an order created without `expiredTime`: the gateway's default, 2 hours (protocol.md). @internal */
export const GATEWAY_DEFAULT_EXPIRED_TIME_S = 7_200;

/**
 * A {@link GatewayClient.unifiedOrder} result recovered by looking the order up after an ambiguous failure
 * (a timeout or a reset after the gateway made the order): the order exists and matches what you sent, but
 * a query carries no `payData`, so there is nothing to collect the payment with. Close it and create a new
 * order under a new `mchOrderNo`: {@link GatewayClient.reissueOrder} does both in one call.
 *
 * This is a declared interface, not a schema's type: the SDK makes it from the order it found, nothing on
 * the wire has this shape.
 *
 * @example
 * ```ts
 * let order = await client.unifiedOrder(params);
 * while (order.recovered) order = await client.reissueOrder(order, { ...params, mchOrderNo: nextOrderNumber() });
 * redirectTo(order.payData);
 * ```
 */
export interface RecoveredOrder {
  /** `true`: found by a lookup, without payment data. */
  readonly recovered: true;
  /** The gateway's order id. */
  readonly payOrderId: string;
  /** Your order number. */
  readonly mchOrderNo: string;
  /** The order's state when it was looked up; 3 (failed) comes with `errCode`/`errMsg`. */
  readonly orderState: z.output<ReturnType<typeof payOrderStateSchema>>;
  /** The channel's error code when the payment failed. */
  readonly errCode?: string | undefined;
  /** The channel's error description when the payment failed. */
  readonly errMsg?: string | undefined;
  /** Never set: the validity the order was created with is not known (a lookup does not say), so a sweep never closes it when tracked. */
  readonly sentExpiredTime?: undefined;
}

/**
 * The result of {@link GatewayClient.unifiedOrder}: the gateway's answer with the payment data
 * ({@link CreatedOrder}, `recovered: false`), or an order recovered by a lookup without it
 * ({@link RecoveredOrder}, `recovered: true`). `payData` exists only on the first, so code that collects a
 * payment must tell them apart.
 *
 * @example
 * ```ts
 * import type { UnifiedOrderResult } from 'payment-gateway-sdk';
 *
 * const result: UnifiedOrderResult = await client.unifiedOrder(params);
 * if (result.recovered) await client.reissueOrder(result, { ...params, mchOrderNo: `${params.mchOrderNo}-2` });
 * else showQrImage(result.payData);
 * ```
 */
export type UnifiedOrderResult = CreatedOrder | RecoveredOrder;

const orderIdsShape = () => ({
  /** The gateway's order id, from the {@link UnifiedOrderResult} of {@link GatewayClient.unifiedOrder}. */
  payOrderId: z.optional(requiredText()),
  /** Your order number, as sent to {@link GatewayClient.unifiedOrder}. */
  mchOrderNo: z.optional(requiredText()),
});

const orderIdsSchema = () => z.strictObject(orderIdsShape());

/**
 * The ids an order is found by; {@link QueryParams} and {@link CloseParams} need at least one of them.
 *
 * @example
 * ```ts
 * import type { QueryParams } from 'payment-gateway-sdk';
 *
 * // What your order table keeps: your number always, the gateway's id once unifiedOrder answered.
 * const ids = (row: { number: string; gatewayId?: string }): QueryParams => ({ mchOrderNo: row.number, payOrderId: row.gatewayId });
 * ```
 */
export type OrderIds = z.input<ReturnType<typeof orderIdsSchema>>;

/** Checks {@link QueryParams}: at least one id, at run time (the refinement) and at compile time (the input type). */
export const queryParamsSchema = lazySchema(() =>
  withInput<QueryParams>()(
    orderIdsSchema().check(z.refine((ids) => ids.payOrderId !== undefined || ids.mchOrderNo !== undefined, { error: 'give payOrderId or mchOrderNo (at least one)' })),
  ),
);

/**
 * Parameters of {@link GatewayClient.query}: `payOrderId`, `mchOrderNo`, or both (`OrderIds`).
 *
 * @example
 * ```ts
 * import type { QueryParams } from 'payment-gateway-sdk';
 *
 * const byOurNumber: QueryParams = { mchOrderNo: 'order-1001' };
 * const byGatewayId: QueryParams = { payOrderId: 'P202406180001' };
 * // const neither: QueryParams = {}; // does not compile
 * ```
 */
export type QueryParams = AtLeastOne<OrderIds, 'payOrderId' | 'mchOrderNo'>;

/** Checks {@link CloseParams}. */
export const closeParamsSchema = queryParamsSchema;

/**
 * Parameters of {@link GatewayClient.close}: `payOrderId`, `mchOrderNo`, or both (`OrderIds`).
 *
 * @example
 * ```ts
 * import type { CloseParams } from 'payment-gateway-sdk';
 *
 * // The payer abandoned the checkout: close the order so it can no longer be paid.
 * async function abandon(mchOrderNo: string): Promise<void> {
 *   const params: CloseParams = { mchOrderNo };
 *   await client.close(params);
 * }
 * ```
 */
export type CloseParams = QueryParams;

/** Checks one on-chain transaction of an order (spec 2.4); unknown extra fields are kept. */
const orderTransactionObject = () =>
  z.looseObject({
    /** Payment transaction serial number. */
    txId: z.optional(z.string()),
    /** The order this transaction pays. */
    payOrderId: z.optional(z.string()),
    /** On-chain transaction hash. */
    txHash: z.optional(z.string()),
    /** The amount in token units as the exact decimal text received, e.g. `"10.50"` (never a float). */
    amount: z.optional(decimalText()),
    /** Currency/token id, e.g. `TRON_USDT`. */
    tokenId: z.optional(z.string()),
    /** Source address. */
    fromAddress: z.optional(z.string()),
    /** Destination address. */
    toAddress: z.optional(z.string()),
    /** Transaction status; unknown values mean in progress. */
    status: z.optional(transactionStatusSchema()),
    /** Creation time as received (a date-time string). */
    createdAt: z.optional(z.string()),
    /** Update time as received (a date-time string). */
    updatedAt: z.optional(z.string()),
  });
type OrderTransactionObject = ReturnType<typeof orderTransactionObject>;
/** The schema typed by {@link OrderTransaction}, so compile errors name it. */
export const orderTransactionSchema = lazySchema(() => named<z.input<OrderTransactionObject>, OrderTransaction>()(orderTransactionObject()));

/**
 * One on-chain transaction of an order (spec 2.4). `amount` is exact decimal text in token units: add
 * amounts with a decimal library, never with `parseFloat`.
 *
 * @example
 * ```ts
 * import type { OrderTransaction, PayOrder } from 'payment-gateway-sdk';
 *
 * const completedTransfers = (order: PayOrder): OrderTransaction[] =>
 *   (order.orderTransactionList ?? []).filter((tx) => tx.status === 'Completed');
 * ```
 */
export interface OrderTransaction extends z.output<OrderTransactionObject> {}

/** Checks a pay order (spec 2.3); unknown extra fields are kept. */
const payOrderObject = () =>
  z.looseObject({
    /** The gateway's order id. */
    payOrderId: z.string(),
    /** Merchant number. */
    mchNo: z.string(),
    /** Merchant application id. */
    appId: z.string(),
    /** Your order number, as sent at creation. */
    mchOrderNo: z.string(),
    /** The payment interface (channel) code. */
    ifCode: z.string(),
    /** Payment way code. */
    wayCode: z.string(),
    /** Amount in integer minor units. */
    amount: wireInteger(),
    /** Three-letter currency code. */
    currency: z.string(),
    /** Order state, see {@link payment-gateway-sdk!PayOrderState | PayOrderState}. */
    state: payOrderStateSchema(),
    /** The payer's IP address. */
    clientIp: z.optional(z.string()),
    /**
     * Goods title. Absent from a verified record when its signed text could also be read with another title
     * (it holds `&name=`): the values the signature allows are then in `ambiguousFields`.
     */
    subject: z.optional(freeText(z.string())),
    /** Goods description; absent, like `subject`, when the signature cannot pin it down (see `ambiguousFields`). */
    body: z.optional(freeText(z.string())),
    /** The order number at the channel. */
    channelOrderNo: z.optional(z.string()),
    /** The channel's payment error code. */
    errCode: z.optional(z.string()),
    /** The channel's payment error description. */
    errMsg: z.optional(freeText(z.string())),
    /** Your extension parameter, as sent (absent when the signature cannot pin it down: see `ambiguousFields`). */
    extParam: z.optional(freeText(z.string())),
    /** Payment success time, milliseconds since the epoch. */
    successTime: z.optional(wireInteger()),
    /** Creation time, milliseconds since the epoch. */
    createdAt: wireInteger(),
    /** On-chain transactions of the order (coin channel). */
    orderTransactionList: z.optional(z.array(orderTransactionSchema())),
  });
type PayOrderObject = ReturnType<typeof payOrderObject>;
/** The schema typed by {@link PayOrder}, so compile errors name it. */
export const payOrderSchema = lazySchema(() => named<z.input<PayOrderObject>, PayOrder>()(payOrderObject()));

/**
 * A pay order, as {@link GatewayClient.query} returns it (spec 2.3).
 *
 * @example
 * ```ts
 * import { PayOrderState, type PayOrder } from 'payment-gateway-sdk';
 *
 * // Ship only what was paid in full: amounts are integer minor units (1999 is 19.99).
 * function isPaidInFull(order: PayOrder, expectedAmount: number): boolean {
 *   return order.state === PayOrderState.Succeeded && order.amount === expectedAmount;
 * }
 * ```
 */
export interface PayOrder extends z.output<PayOrderObject>, NotUniquelySigned {}

/** Checks the close response's `data`: an empty object (extra fields are tolerated). */
export const closeResultSchema = lazySchema(() => z.looseObject({}));
