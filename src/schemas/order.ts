import * as z from 'zod/mini';
import {
  divisionModeSchema,
  isBarcodeWayCode,
  KNOWN_WAY_CODES,
  payDataTypeSchema,
  payOrderStateSchema,
  requestedPayDataTypeSchema,
  transactionStatusSchema,
} from './enums.js';
import { decimalText, httpUrl, jsonTextParam, minorUnits, openString, optionalText, requiredText, safeInteger, wireInteger } from './fields.js';
import type { AtLeastOne } from './one-of.js';

/**
 * `channelExtra` as an object: the members the reference gateway knows by way code, plus any other.
 * `authCode` for barcode ways (`*_BAR`), `buyerUserId` for `ALI_JSAPI`/`ALI_LITE`, `openid` for
 * `WX_JSAPI`/`WX_LITE`, `userId` for `UP_JSAPI`, `payDataType` for QR/H5/PC ways, `cancelUrl` for `PP_PC`.
 */
export const channelExtraSchema = z.looseObject({
  /** The kind of payment data wanted (QR, H5 and PC ways). */
  payDataType: z.optional(requestedPayDataTypeSchema),
  /** The payer's barcode (barcode ways, required there). */
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
});

/** Zod schema of the parameters of {@link GatewayClient.unifiedOrder}. Unknown keys are an error. */
export const unifiedOrderParamsSchema = z
  .strictObject({
    /** Your order number: unique per merchant; the gateway refuses a duplicate (your idempotency key). */
    mchOrderNo: requiredText(),
    /** Payment way, e.g. `QR_CASHIER`, `WX_BAR`, or a coin way code. */
    wayCode: openString<(typeof KNOWN_WAY_CODES)[number]>(),
    /** Amount in integer minor units (cents), at least 1. */
    amount: minorUnits(),
    /** Currency code, e.g. `USD`. */
    currency: requiredText(),
    /** Goods title. */
    subject: requiredText(),
    /** Goods description. */
    body: requiredText(),
    /** The payer's IP address. */
    clientIp: optionalText(),
    /** Where the gateway POSTs the payment notification. */
    notifyUrl: z.optional(httpUrl()),
    /** Where the payer is redirected after paying. */
    returnUrl: z.optional(httpUrl()),
    /** Validity of the order in seconds (the gateway's default is 2 hours). */
    expiredTime: z.optional(safeInteger(1)),
    /** Channel parameters: an object (serialized for you) or a ready JSON string. */
    channelExtra: z.optional(jsonTextParam(channelExtraSchema)),
    /** Your own extension data, returned in queries and notifications: an object or a JSON string. Avoid `&` and `=`. */
    extParam: z.optional(jsonTextParam(z.looseObject({}))),
    /** 0 not divided (default), 1 automatic, 2 manual. */
    divisionMode: z.optional(divisionModeSchema),
    /** The payer's user id at the channel. */
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

/** Parameters of {@link GatewayClient.unifiedOrder}. */
export type UnifiedOrderParams = z.input<typeof unifiedOrderParamsSchema>;

/** Zod schema of the unified-order result (spec 2.5). Unknown extra fields are kept. */
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

/** The result of {@link GatewayClient.unifiedOrder} (spec 2.5). A channel failure is `orderState` 3, not an exception. */
export type UnifiedOrderResult = z.output<typeof unifiedOrderResultSchema>;

const orderIdsShape = {
  /** The gateway's order id. */
  payOrderId: z.optional(requiredText()),
  /** Your order number. */
  mchOrderNo: z.optional(requiredText()),
};

const oneOrderId = z.refine<{ payOrderId?: string | undefined; mchOrderNo?: string | undefined }>((ids) => ids.payOrderId !== undefined || ids.mchOrderNo !== undefined, {
  error: 'give payOrderId or mchOrderNo (at least one)',
});

/** Zod schema of the parameters of {@link GatewayClient.query}. */
export const queryParamsSchema = z.strictObject(orderIdsShape).check(oneOrderId);
/** Parameters of {@link GatewayClient.query}: `payOrderId`, `mchOrderNo`, or both. */
export type QueryParams = AtLeastOne<z.input<typeof queryParamsSchema>, 'payOrderId' | 'mchOrderNo'>;

/** Zod schema of the parameters of {@link GatewayClient.close}. */
export const closeParamsSchema = z.strictObject(orderIdsShape).check(oneOrderId);
/** Parameters of {@link GatewayClient.close}: `payOrderId`, `mchOrderNo`, or both. */
export type CloseParams = AtLeastOne<z.input<typeof closeParamsSchema>, 'payOrderId' | 'mchOrderNo'>;

/** Zod schema of one on-chain transaction of an order (spec 2.4). */
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

/** One on-chain transaction of an order (spec 2.4). */
export type OrderTransaction = z.output<typeof orderTransactionSchema>;

/** Zod schema of a pay order (spec 2.3). Unknown extra fields are kept. */
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

/** A pay order, as {@link GatewayClient.query} returns it (spec 2.3). */
export type PayOrder = z.output<typeof payOrderSchema>;

/** Zod schema of the close response's `data`: an empty object (extra fields are tolerated). */
export const closeResultSchema = z.looseObject({});
