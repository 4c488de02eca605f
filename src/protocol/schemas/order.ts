import * as z from 'zod/mini';
import { decimalText, httpUrl, jsonTextParam, minorUnits, openString, optionalText, requiredText, safeInteger, wireInteger } from './fields.js';
import type { Assert, SameShape } from './shape-check.js';
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
  type PayDataType,
  type PayOrderState,
  type TransactionStatus,
  type WayCode,
} from './enums.js';
import type { AtLeastOne } from './one-of.js';

/** Checks {@link ChannelExtra} given as an object, before it is serialized. */
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

/** Checks {@link UnifiedOrderParams}; unknown keys are an error. */
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

/** Checks the `data` of a unified-order response (spec 2.5); unknown extra fields are kept. */
export const unifiedOrderResultSchema = z.looseObject({
  payOrderId: z.string(),
  mchOrderNo: z.string(),
  orderState: payOrderStateSchema,
  payDataType: z.optional(payDataTypeSchema),
  payData: z.optional(z.string()),
  errCode: z.optional(z.string()),
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
export interface UnifiedOrderResult {
  /** The gateway's order id. */
  payOrderId: string;
  /** Your order number. */
  mchOrderNo: string;
  /** The order state; 3 (failed) comes with `errCode`/`errMsg`. */
  orderState: PayOrderState;
  /** What `payData` holds (only for states 0, 1, 2), normalized in case. */
  payDataType?: PayDataType | undefined;
  /** The payment parameters to collect the payment with. */
  payData?: string | undefined;
  /** The channel's error code when the payment failed. */
  errCode?: string | undefined;
  /** The channel's error description when the payment failed. */
  errMsg?: string | undefined;
  /** Any other field the gateway adds. */
  [field: string]: unknown;
}
type _UnifiedOrderResultMatch = Assert<SameShape<UnifiedOrderResult, z.output<typeof unifiedOrderResultSchema>>>;

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

/** Checks {@link QueryParams}. */
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

/** Checks {@link CloseParams}. */
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

/** Checks one on-chain transaction of an order (spec 2.4); unknown extra fields are kept. */
export const orderTransactionSchema = z.looseObject({
  txId: z.optional(z.string()),
  payOrderId: z.optional(z.string()),
  txHash: z.optional(z.string()),
  amount: z.optional(decimalText()),
  tokenId: z.optional(z.string()),
  fromAddress: z.optional(z.string()),
  toAddress: z.optional(z.string()),
  status: z.optional(transactionStatusSchema),
  createdAt: z.optional(z.string()),
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
export interface OrderTransaction {
  /** Payment transaction serial number. */
  txId?: string | undefined;
  /** The order this transaction pays. */
  payOrderId?: string | undefined;
  /** On-chain transaction hash. */
  txHash?: string | undefined;
  /** The amount in token units as the exact decimal text received, e.g. `"10.50"` (never a float). */
  amount?: string | undefined;
  /** Currency/token id, e.g. `TRON_USDT`. */
  tokenId?: string | undefined;
  /** Source address. */
  fromAddress?: string | undefined;
  /** Destination address. */
  toAddress?: string | undefined;
  /** Transaction status; unknown values mean in progress. */
  status?: TransactionStatus | undefined;
  /** Creation time as received (a date-time string). */
  createdAt?: string | undefined;
  /** Update time as received (a date-time string). */
  updatedAt?: string | undefined;
  /** Any other field the gateway adds. */
  [field: string]: unknown;
}
type _OrderTransactionMatch = Assert<SameShape<OrderTransaction, z.output<typeof orderTransactionSchema>>>;

/** Checks a pay order (spec 2.3); unknown extra fields are kept. */
export const payOrderSchema = z.looseObject({
  payOrderId: z.string(),
  mchNo: z.string(),
  appId: z.string(),
  mchOrderNo: z.string(),
  ifCode: z.string(),
  wayCode: z.string(),
  amount: wireInteger(),
  currency: z.string(),
  state: payOrderStateSchema,
  clientIp: z.optional(z.string()),
  subject: z.string(),
  body: z.string(),
  channelOrderNo: z.optional(z.string()),
  errCode: z.optional(z.string()),
  errMsg: z.optional(z.string()),
  extParam: z.optional(z.string()),
  successTime: z.optional(wireInteger()),
  createdAt: wireInteger(),
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
export interface PayOrder {
  /** The gateway's order id. */
  payOrderId: string;
  /** Merchant number. */
  mchNo: string;
  /** Merchant application id. */
  appId: string;
  /** Your order number, as sent at creation. */
  mchOrderNo: string;
  /** The payment interface (channel) code. */
  ifCode: string;
  /** Payment way code. */
  wayCode: string;
  /** Amount in integer minor units. */
  amount: number;
  /** Three-letter currency code. */
  currency: string;
  /** Order state, see {@link PayOrderState}. */
  state: PayOrderState;
  /** The payer's IP address. */
  clientIp?: string | undefined;
  /** Goods title. */
  subject: string;
  /** Goods description. */
  body: string;
  /** The order number at the channel. */
  channelOrderNo?: string | undefined;
  /** The channel's payment error code. */
  errCode?: string | undefined;
  /** The channel's payment error description. */
  errMsg?: string | undefined;
  /** Your extension parameter, as sent. */
  extParam?: string | undefined;
  /** Payment success time, milliseconds since the epoch. */
  successTime?: number | undefined;
  /** Creation time, milliseconds since the epoch. */
  createdAt: number;
  /** On-chain transactions of the order (coin channel). */
  orderTransactionList?: OrderTransaction[] | undefined;
  /** Any other field the gateway adds. */
  [field: string]: unknown;
}
type _PayOrderMatch = Assert<SameShape<PayOrder, z.output<typeof payOrderSchema>>>;

/** Checks the close response's `data`: an empty object (extra fields are tolerated). */
export const closeResultSchema = z.looseObject({});
