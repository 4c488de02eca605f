import * as z from 'zod/mini';
import {
  divisionModeSchema,
  isBarcodeWayCode,
  KNOWN_WAY_CODES,
  PAY_DATA_TYPES,
  payDataTypeSchema,
  payOrderStateSchema,
  requestedPayDataTypeSchema,
  transactionStatusSchema,
  type DivisionMode,
  type WayCode,
} from './enums.js';
import { decimalText, httpUrl, jsonTextParam, minorUnits, openString, optionalText, requiredText, safeInteger, wireInteger } from './fields.js';
import type { AtLeastOne } from './one-of.js';
import type { Assert, SameShape } from './shape-check.js';

/**
 * `channelExtra` as an object: the members the reference gateway knows by way code, plus any other.
 * `authCode` for barcode ways (`*_BAR`), `buyerUserId` for `ALI_JSAPI`/`ALI_LITE`, `openid` for
 * `WX_JSAPI`/`WX_LITE`, `userId` for `UP_JSAPI`, `payDataType` for QR/H5/PC ways, `cancelUrl` for `PP_PC`.
 *
 * @example
 * ```ts
 * import { channelExtraSchema } from 'payment-gateway-sdk';
 *
 * channelExtraSchema.safeParse({ payDataType: 'codeImgUrl' }).success;  // true
 * channelExtraSchema.safeParse({ payDataType: 'qr' }).success;          // false: not a payDataType the gateway knows
 * ```
 */
export const channelExtraSchema = z.looseObject({
  payDataType: z.optional(requestedPayDataTypeSchema),
  authCode: z.optional(z.string()),
  buyerUserId: z.optional(z.string()),
  openid: z.optional(z.string()),
  isSubOpenId: z.optional(z.literal([0, 1])),
  userId: z.optional(z.string()),
  cancelUrl: z.optional(z.string()),
});

/**
 * `channelExtra` of {@link UnifiedOrderParams} as an object: the members the reference gateway knows,
 * plus any other (serialized as given).
 *
 * @example
 * ```ts
 * import type { ChannelExtra } from 'payment-gateway-sdk';
 *
 * const barcode: ChannelExtra = { authCode: '134567890123456789' };          // WX_BAR, ALI_BAR, ...
 * const qrImage: ChannelExtra = { payDataType: 'codeImgUrl' };                // QR_CASHIER
 * ```
 */
export interface ChannelExtra {
  /** The kind of payment data wanted (QR, H5 and PC ways). */
  payDataType?: (typeof PAY_DATA_TYPES)[number] | undefined;
  /** The payer's barcode (barcode ways `*_BAR`, required there). */
  authCode?: string | undefined;
  /** Alipay buyer id (`ALI_JSAPI`, `ALI_LITE`). */
  buyerUserId?: string | undefined;
  /** WeChat openid (`WX_JSAPI`, `WX_LITE`). */
  openid?: string | undefined;
  /** 1 when `openid` is a sub-merchant openid. */
  isSubOpenId?: 0 | 1 | undefined;
  /** UnionPay user id (`UP_JSAPI`). */
  userId?: string | undefined;
  /** Where PayPal returns a cancelled payment (`PP_PC`). */
  cancelUrl?: string | undefined;
  /** Any other member the channel takes. */
  [member: string]: unknown;
}
type _ChannelExtraMatches = Assert<SameShape<ChannelExtra, z.input<typeof channelExtraSchema>>>;


/**
 * Zod schema of the parameters of {@link GatewayClient.unifiedOrder}. Unknown keys are an error.
 * The client applies it; use it to check an order before it is queued for sending.
 *
 * @example
 * ```ts
 * import { unifiedOrderParamsSchema } from 'payment-gateway-sdk';
 *
 * const checked = unifiedOrderParamsSchema.safeParse({
 *   mchOrderNo: 'order-1001', wayCode: 'WX_BAR', amount: 1999, currency: 'USD', subject: 'T-shirt', body: 'Blue T-shirt',
 * });
 * checked.success; // false: barcode ways (*_BAR) need channelExtra.authCode
 * ```
 */
export const unifiedOrderParamsSchema = z
  .strictObject({
    mchOrderNo: requiredText(),
    wayCode: openString<(typeof KNOWN_WAY_CODES)[number]>(),
    amount: minorUnits(),
    currency: requiredText(),
    subject: requiredText(),
    body: requiredText(),
    clientIp: optionalText(),
    notifyUrl: z.optional(httpUrl()),
    returnUrl: z.optional(httpUrl()),
    expiredTime: z.optional(safeInteger(1)),
    channelExtra: z.optional(jsonTextParam(channelExtraSchema)),
    extParam: z.optional(jsonTextParam(z.looseObject({}))),
    divisionMode: z.optional(divisionModeSchema),
    channelUserId: optionalText(),
  })
  .check(
    z.refine((params) => !isBarcodeWayCode(params.wayCode) || hasAuthCode(params.channelExtra), {
      error: 'barcode ways (*_BAR) need channelExtra.authCode, the payer\'s barcode',
      path: ['channelExtra'],
    }),
  );

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
export interface UnifiedOrderParams {
  /** Your order number: unique per merchant; the gateway refuses a duplicate (your idempotency key). */
  mchOrderNo: string;
  /** Payment way, e.g. `QR_CASHIER`, `WX_BAR`, or a coin way code (any string the gateway offers). */
  wayCode: WayCode;
  /** Amount in integer minor units (cents), at least 1: 1999 is 19.99. */
  amount: number;
  /** Currency code, e.g. `USD`. */
  currency: string;
  /** Goods title. Avoid `&` and `=` (the gateway does not escape them in notifications). */
  subject: string;
  /** Goods description. Avoid `&` and `=`. */
  body: string;
  /** The payer's IP address. */
  clientIp?: string | undefined;
  /** Where the gateway POSTs the payment notification: an absolute http(s) URL. */
  notifyUrl?: string | undefined;
  /** Where the payer is redirected after paying: an absolute http(s) URL. */
  returnUrl?: string | undefined;
  /** Validity of the order in whole seconds, at least 1 (the gateway's default is 2 hours). */
  expiredTime?: number | undefined;
  /** Channel parameters: an object (serialized once with `JSON.stringify`) or a ready JSON string. */
  channelExtra?: ChannelExtra | string | undefined;
  /** Your own extension data, returned in queries and notifications: an object or a JSON string. Avoid `&` and `=`. */
  extParam?: Record<string, unknown> | string | undefined;
  /** 0 not divided (default), 1 automatic, 2 manual: see {@link DivisionMode}. */
  divisionMode?: DivisionMode | undefined;
  /** The payer's user id at the channel. */
  channelUserId?: string | undefined;
}
type _UnifiedOrderParamsMatch = Assert<SameShape<UnifiedOrderParams, z.input<typeof unifiedOrderParamsSchema>>>;

/**
 * Zod schema of the unified-order result (spec 2.5). Unknown extra fields are kept.
 *
 * @example
 * ```ts
 * import { unifiedOrderResultSchema } from 'payment-gateway-sdk';
 *
 * // A result stored as JSON earlier is checked again when read back.
 * const result = unifiedOrderResultSchema.parse(JSON.parse(row.gatewayResult));
 * ```
 */
export const unifiedOrderResultSchema = z.looseObject({
  /** The gateway's order id. */
  payOrderId: z.string(),
  /** Your order number. */
  mchOrderNo: z.string(),
  /** The order state; 3 (failed) comes with `errCode`/`errMsg`. */
  orderState: payOrderStateSchema,
  /** What `payData` holds (only for states 0, 1, 2), normalized in case. */
  payDataType: z.optional(payDataTypeSchema),
  /** The payment parameters to collect the payment with. */
  payData: z.optional(z.string()),
  /** The channel's error code when the payment failed. */
  errCode: z.optional(z.string()),
  /** The channel's error description when the payment failed. */
  errMsg: z.optional(z.string()),
});

/**
 * The result of {@link GatewayClient.unifiedOrder} (spec 2.5). A channel failure is `orderState` 3, not an exception.
 *
 * @example
 * ```ts
 * import { PayOrderState, type UnifiedOrderResult } from 'payment-gateway-sdk';
 *
 * function nextStep(result: UnifiedOrderResult): string {
 *   if (result.orderState === PayOrderState.Failed) return `declined: ${result.errMsg ?? result.errCode}`;
 *   if (result.orderState === PayOrderState.Succeeded) return 'paid';
 *   return result.payData ? `collect via ${result.payDataType}` : 'wait for the notification';
 * }
 * ```
 */
export type UnifiedOrderResult = z.output<typeof unifiedOrderResultSchema>;

const orderIdsShape = {
  payOrderId: z.optional(requiredText()),
  mchOrderNo: z.optional(requiredText()),
};

/**
 * The ids an order is found by; {@link QueryParams} and {@link CloseParams} need at least one of them.
 *
 * @example
 * ```ts
 * import type { OrderIds } from 'payment-gateway-sdk';
 *
 * // What your order table keeps: your number always, the gateway's id once unifiedOrder answered.
 * const ids = (row: { number: string; gatewayId?: string }): OrderIds => ({ mchOrderNo: row.number, payOrderId: row.gatewayId });
 * ```
 */
export interface OrderIds {
  /** The gateway's order id, from the {@link UnifiedOrderResult} of {@link GatewayClient.unifiedOrder}. */
  payOrderId?: string | undefined;
  /** Your order number, as sent to {@link GatewayClient.unifiedOrder}. */
  mchOrderNo?: string | undefined;
}

const oneOrderId = z.refine<{ payOrderId?: string | undefined; mchOrderNo?: string | undefined }>((ids) => ids.payOrderId !== undefined || ids.mchOrderNo !== undefined, {
  error: 'give payOrderId or mchOrderNo (at least one)',
});

/**
 * Zod schema of the parameters of {@link GatewayClient.query}.
 *
 * @example
 * ```ts
 * import { queryParamsSchema } from 'payment-gateway-sdk';
 *
 * queryParamsSchema.safeParse({ mchOrderNo: 'order-1001' }).success; // true
 * queryParamsSchema.safeParse({}).success;                           // false: give payOrderId or mchOrderNo
 * ```
 */
export const queryParamsSchema = z.strictObject(orderIdsShape).check(oneOrderId);
/**
 * Parameters of {@link GatewayClient.query}: `payOrderId`, `mchOrderNo`, or both.
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
type _QueryParamsMatch = Assert<SameShape<OrderIds, z.input<typeof queryParamsSchema>>>;

/**
 * Zod schema of the parameters of {@link GatewayClient.close}.
 *
 * @example
 * ```ts
 * import { closeParamsSchema } from 'payment-gateway-sdk';
 *
 * closeParamsSchema.safeParse({ payOrderId: 'P202406180001' }).success; // true
 * closeParamsSchema.safeParse({ mchOrderNo: '' }).success;              // false: must not be empty
 * ```
 */
export const closeParamsSchema = z.strictObject(orderIdsShape).check(oneOrderId);
/**
 * Parameters of {@link GatewayClient.close}: `payOrderId`, `mchOrderNo`, or both.
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
export type CloseParams = AtLeastOne<OrderIds, 'payOrderId' | 'mchOrderNo'>;
type _CloseParamsMatch = Assert<SameShape<OrderIds, z.input<typeof closeParamsSchema>>>;

/**
 * Zod schema of one on-chain transaction of an order (spec 2.4).
 *
 * @example
 * ```ts
 * import { orderTransactionSchema } from 'payment-gateway-sdk';
 *
 * const tx = orderTransactionSchema.parse({ txId: 'TX1001', amount: '10.50', tokenId: 'TRON_USDT', status: 'Completed' });
 * tx.amount; // '10.50': exact text, never a float
 * ```
 */
export const orderTransactionSchema = z.looseObject({
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
  status: z.optional(transactionStatusSchema),
  /** Creation time as received (a date-time string). */
  createdAt: z.optional(z.string()),
  /** Update time as received (a date-time string). */
  updatedAt: z.optional(z.string()),
});

/**
 * One on-chain transaction of an order (spec 2.4). `amount` is exact decimal text in token units:
 * add amounts with a decimal library, never with `parseFloat`.
 *
 * @example
 * ```ts
 * import type { OrderTransaction, PayOrder } from 'payment-gateway-sdk';
 *
 * const completedTransfers = (order: PayOrder): OrderTransaction[] =>
 *   (order.orderTransactionList ?? []).filter((tx) => tx.status === 'Completed');
 * ```
 */
export type OrderTransaction = z.output<typeof orderTransactionSchema>;

/**
 * Zod schema of a pay order (spec 2.3). Unknown extra fields are kept.
 *
 * @example
 * ```ts
 * import * as z from 'zod/mini';
 * import { payOrderSchema } from 'payment-gateway-sdk';
 *
 * // A fulfilment job carries the order it was queued for; the worker checks it again.
 * const fulfilmentJob = z.object({ order: payOrderSchema, queuedAt: z.number() });
 * const job = fulfilmentJob.parse(JSON.parse(message));
 * ```
 */
export const payOrderSchema = z.looseObject({
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
  /** Order state, see {@link PayOrderState}. */
  state: payOrderStateSchema,
  /** The payer's IP address. */
  clientIp: z.optional(z.string()),
  /** Goods title. */
  subject: z.string(),
  /** Goods description. */
  body: z.string(),
  /** The order number at the channel. */
  channelOrderNo: z.optional(z.string()),
  /** The channel's payment error code. */
  errCode: z.optional(z.string()),
  /** The channel's payment error description. */
  errMsg: z.optional(z.string()),
  /** Your extension parameter, as sent. */
  extParam: z.optional(z.string()),
  /** Payment success time, milliseconds since the epoch. */
  successTime: z.optional(wireInteger()),
  /** Creation time, milliseconds since the epoch. */
  createdAt: wireInteger(),
  /** On-chain transactions of the order (coin channel). */
  orderTransactionList: z.optional(z.array(orderTransactionSchema)),
});

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
export type PayOrder = z.output<typeof payOrderSchema>;

/**
 * Zod schema of the close response's `data`: an empty object (extra fields are tolerated).
 *
 * @example
 * ```ts
 * import { closeResultSchema } from 'payment-gateway-sdk';
 *
 * closeResultSchema.safeParse({}).success; // true
 * ```
 */
export const closeResultSchema = z.looseObject({});
