/**
 * The payment's enumerations: pay-order states, transaction statuses, division modes, pay-data types and way codes.
 *
 * @module
 */
import * as z from 'zod/mini';
import { stateNamesOf } from '../../protocol/schemas/enums.js';
import { openString } from '../../protocol/schemas/fields.js';
import { lazySchema } from '../../protocol/schemas/lazy.js';

/**
 * Pay-order states (`state` in a query, `orderState` in a unified-order result).
 * Transitions: 0→1, 0/1→2 or 3, 0/1→6 (close or expiry), 2→5 (full refund); 3, 5, 6 are final.
 *
 * @example
 * ```ts
 * const current = await client.query({ mchOrderNo: 'order-1001' });
 * if (current.state === PayOrderState.Succeeded) fulfil(current);
 * ```
 */
export const PayOrderState = {
  /** 0: created, not yet handed to the channel. */
  Generated: 0,
  /** 1: waiting for the payer or the channel. */
  Paying: 1,
  /** 2: paid. */
  Succeeded: 2,
  /** 3: the payment failed (see `errCode`/`errMsg`). */
  Failed: 3,
  /** 4: revoked (never set by the reference gateway). */
  Revoked: 4,
  /** 5: fully refunded. */
  Refunded: 5,
  /** 6: closed by the merchant or by expiry. */
  Closed: 6,
} as const;

/** A pay-order state code, 0 to 6. */
export type PayOrderState = (typeof PayOrderState)[keyof typeof PayOrderState];

/** Checks a {@link PayOrderState}. An unknown code is an error: an order in an unknown state is not safe to act on. */
export const payOrderStateSchema = lazySchema(() => z.enum(PayOrderState, { error: 'must be a pay-order state 0..6' }));

const stateNames = stateNamesOf(PayOrderState);

/**
 * The name of a pay-order state, for logs and messages.
 *
 * @example
 * ```ts
 * payOrderStateName(2); // 'Succeeded'
 * ```
 */
export function payOrderStateName(state: PayOrderState): keyof typeof PayOrderState {
  return stateNames(state);
}

/**
 * Whether no further change is expected: failed, refunded or closed. (Succeeded can still become refunded.)
 *
 * @example
 * ```ts
 * isFinalPayOrderState(PayOrderState.Closed); // true
 * ```
 */
export function isFinalPayOrderState(state: PayOrderState): boolean {
  return state === PayOrderState.Failed || state === PayOrderState.Refunded || state === PayOrderState.Closed;
}

/**
 * The on-chain transaction statuses the gateway reports (Cobo WaaS 2.0). The list can grow: an unknown
 * status is kept as received and should be treated as in progress.
 *
 * @example
 * ```ts
 * import type { TransactionStatus } from 'payment-gateway-sdk';
 *
 * // Count a status this SDK does not know apart, so a new upstream status shows up on a dashboard.
 * const known: readonly TransactionStatus[] = ['Submitted', 'PendingScreening', 'PendingAuthorization', 'PendingSignature', 'Broadcasting', 'Confirming', 'Completed', 'Failed', 'Rejected', 'Pending'];
 * const label = (status: TransactionStatus) => (known.includes(status) ? status : 'Other');
 * ```
 */
export const TRANSACTION_STATUSES = [
  'Submitted',
  'PendingScreening',
  'PendingAuthorization',
  'PendingSignature',
  'Broadcasting',
  'Confirming',
  'Completed',
  'Failed',
  'Rejected',
  'Pending',
] as const;

/**
 * A known transaction status, or any other string the gateway adds later. Editors offer the known ones.
 *
 * @example
 * ```ts
 * import { type TransactionStatus } from 'payment-gateway-sdk';
 *
 * // Completed, Failed and Rejected are final; anything else, a status added later included, is in progress.
 * function describeTransfer(status: TransactionStatus): string {
 *   if (status === 'Completed') return 'funds available';
 *   return status === 'Failed' || status === 'Rejected' ? 'not paid' : 'in progress';
 * }
 * ```
 */
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number] | (string & {});

/** Checks a {@link TransactionStatus}: any string; unknown values are kept, to be treated as in progress. */
export const transactionStatusSchema = lazySchema(() => openString<(typeof TRANSACTION_STATUSES)[number]>());

/**
 * How a paid order's funds may be divided among receivers (`divisionMode`, chosen at creation: it cannot change):
 * 0 never (default); 1 once, automatically about 80 s after payment, to your auto-division group; 2 once, when you
 * call {@link GatewayClient.executeDivision}. For WeChat, modes 1 and 2 freeze the order's funds until it is divided;
 * Alipay ignores the mode. The order's division state is not exposed by the API (see the division guide).
 *
 * @example
 * ```ts
 * await client.unifiedOrder({ ...order, divisionMode: DivisionMode.Manual });
 * // once paid:
 * await client.executeDivision({ mchOrderNo: order.mchOrderNo, receivers: [{ receiverId: 800001, divisionProfit: '0.3' }] });
 * ```
 */
export const DivisionMode = {
  /** 0: the order is never divided (default); `executeDivision` refuses it. */
  NotDivided: 0,
  /** 1: divided once, automatically after payment, to your auto-division group; `executeDivision` refuses it. */
  Automatic: 1,
  /** 2: divided once, by your `executeDivision` call (WeChat keeps the funds frozen until then). */
  Manual: 2,
} as const;
/** A division mode code, 0, 1 or 2. */
export type DivisionMode = (typeof DivisionMode)[keyof typeof DivisionMode];
/** Checks a {@link DivisionMode}. */
export const divisionModeSchema = lazySchema(() => z.enum(DivisionMode, { error: 'must be 0 (not divided), 1 (automatic) or 2 (manual)' }));

/**
 * What `payData` holds and what the merchant does with it. The gateway is inconsistent about case
 * (`payurl` vs `payUrl`): results are normalized to these spellings.
 *
 * | value | the merchant does |
 * |---|---|
 * | `payurl` | redirect the payer to the URL |
 * | `form` | render the auto-submitting HTML form |
 * | `codeUrl` | render a QR code of the text |
 * | `codeImgUrl` | show the QR image at the URL |
 * | `wxapp`, `aliapp`, `ysfapp` | pass to the wallet's app/JS API |
 * | `none` | nothing (barcode payments) |
 *
 * @example
 * ```ts
 * import { PAY_DATA_TYPES } from 'payment-gateway-sdk';
 *
 * // The payDataType choices of a checkout setting: 'none' only ever comes back for barcode payments.
 * const choices = PAY_DATA_TYPES.filter((type) => type !== 'none');
 * ```
 */
export const PAY_DATA_TYPES = ['payurl', 'form', 'codeUrl', 'codeImgUrl', 'wxapp', 'aliapp', 'ysfapp', 'none'] as const;
/**
 * A known pay-data type, or another string the gateway may send.
 *
 * @example
 * ```ts
 * import type { PayDataType } from 'payment-gateway-sdk';
 *
 * function collect(type: PayDataType | undefined, payData: string): void {
 *   if (type === 'payurl') window.location.assign(payData);
 *   else if (type === 'codeImgUrl') showQrImage(payData);
 *   else throw new Error(`cannot collect payData of type ${type}`); // a type the page does not handle yet
 * }
 * ```
 */
export type PayDataType = (typeof PAY_DATA_TYPES)[number] | (string & {});

const canonicalPayDataType = new Map<string, string>(PAY_DATA_TYPES.map((t) => [t.toLowerCase(), t]));

/** Reads a received {@link PayDataType}: known values in any case are normalized (`payUrl` is `payurl`), others kept. */
export const payDataTypeSchema = lazySchema(() =>
  // An in-place rewrite rather than a pipe and a transform (0.3 KB gzipped in the bundle).
  z.string().check(z.overwrite((value): PayDataType => canonicalPayDataType.get(value.toLowerCase()) ?? value)) as z.ZodMiniType<PayDataType, string>,
);

/** Checks the `payDataType` a merchant requests in `channelExtra`: only the known spellings, since the gateway would not understand any other. */
export const requestedPayDataTypeSchema = lazySchema(() => z.enum(PAY_DATA_TYPES, { error: `must be one of ${PAY_DATA_TYPES.join(', ')}` }));

/**
 * Way codes seen on the reference gateway. Coin way codes are not published: any string is accepted.
 *
 * @example
 * ```ts
 * import type { WayCode } from 'payment-gateway-sdk';
 *
 * // The WeChat and Alipay ways for a payment picker (editors offer these); coin way codes come from your gateway account.
 * const walletWays: readonly WayCode[] = ['WX_JSAPI', 'WX_H5', 'WX_NATIVE', 'ALI_WAP', 'ALI_PC', 'ALI_QR'];
 * ```
 */
export const KNOWN_WAY_CODES = [
  'QR_CASHIER', 'AUTO_BAR', 'ALI_BAR', 'ALI_JSAPI', 'ALI_LITE', 'ALI_APP', 'ALI_PC', 'ALI_WAP', 'ALI_QR', 'ALI_OC',
  'YSF_BAR', 'YSF_JSAPI', 'WX_JSAPI', 'WX_LITE', 'WX_BAR', 'WX_H5', 'WX_NATIVE', 'WX_APP', 'UP_APP', 'UP_WAP', 'UP_QR',
  'UP_BAR', 'UP_B2B', 'UP_PC', 'UP_JSAPI', 'PP_PC',
] as const;
/**
 * A known way code, or any other string (coin way codes).
 *
 * @example
 * ```ts
 * import { type WayCode } from 'payment-gateway-sdk';
 *
 * const wayCode: WayCode = 'WX_BAR';
 * const needsAuthCode = wayCode.endsWith('_BAR'); // true: a barcode way needs channelExtra.authCode
 * ```
 */
export type WayCode = (typeof KNOWN_WAY_CODES)[number] | (string & {});

/**
 * Whether a way code is a barcode payment, which needs `channelExtra.authCode` (the payer's barcode).
 *
 * @example
 * ```ts
 * isBarcodeWayCode('WX_BAR'); // true
 * ```
 */
export function isBarcodeWayCode(wayCode: string): boolean {
  return wayCode.endsWith('_BAR');
}
