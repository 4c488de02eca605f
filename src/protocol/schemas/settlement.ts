import * as z from 'zod/mini';
import { httpUrl, minorUnits, optionalText, requiredText, wireInteger } from './fields.js';
import type { Assert, SameShape } from './shape-check.js';
import type { ExactlyOne } from './one-of.js';

/** Checks {@link SettleAddressApplyParams}. */
export const settleAddressApplyParamsSchema = z.strictObject({
  requestId: requiredText(),
  tokenId: requiredText(),
  address: requiredText(),
  remark: optionalText(),
});
/**
 * Parameters of {@link GatewayClient.settleAddressApply}.
 *
 * @example
 * ```ts
 * import type { SettleAddressApplyParams } from 'payment-gateway-sdk';
 *
 * const declaration: SettleAddressApplyParams = {
 *   requestId: 'addr-2024-001', tokenId: 'TRON_USDT', address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', remark: 'treasury',
 * };
 * const { serverRequestId } = await client.settleAddressApply(declaration); // settle to it once approved
 * ```
 */
export interface SettleAddressApplyParams {
  /** Your request id for this declaration (the gateway refuses a duplicate). */
  requestId: string;
  /** Settlement token id, `{CHAIN}_{SYMBOL}` exactly as the gateway names it (e.g. `TRON_USDT`). */
  tokenId: string;
  /** The withdrawal address to declare. */
  address: string;
  /** A remark for the reviewer. */
  remark?: string | undefined;
}
type _SettleAddressApplyParamsMatch = Assert<SameShape<SettleAddressApplyParams, z.input<typeof settleAddressApplyParamsSchema>>>;

/** Checks {@link SettleRequestParams}. */
export const settleRequestParamsSchema = z
  .strictObject({
    requestId: requiredText(),
    amount: minorUnits(),
    tokenId: requiredText(),
    payoutChannel: z.literal('Crypto', { error: "must be 'Crypto': only crypto payouts are supported through this API (OffRamp fiat payouts are not)" }),
    currency: z.literal('USD', { error: "must be 'USD': the gateway settles in USD only" }),
    notifyUrl: z.optional(httpUrl()),
    addrServerRequestId: z.optional(requiredText()),
    address: z.optional(requiredText()),
  })
  .check(
    z.refine((p) => (p.addrServerRequestId === undefined) !== (p.address === undefined), {
      error: 'give exactly one of addrServerRequestId (a declared address) and address',
    }),
  );
/**
 * Parameters of {@link GatewayClient.settleRequest}: exactly one of `addrServerRequestId` and `address`.
 * `amount` is in integer minor units of `currency` (150000 is 1,500.00 USD).
 *
 * @example
 * ```ts
 * import type { SettleRequestParams } from 'payment-gateway-sdk';
 *
 * const monthly: SettleRequestParams = {
 *   requestId: 'settle-2024-07', amount: 150000, tokenId: 'TRON_USDT',
 *   payoutChannel: 'Crypto', currency: 'USD', addrServerRequestId: 'SRV-ADDR-1',
 * };
 * await client.settleRequest(monthly);
 * ```
 */
export type SettleRequestParams = ExactlyOne<SettleRequestFields, 'addrServerRequestId' | 'address'>;

/**
 * The fields of {@link SettleRequestParams}, each documented; the parameter type itself also requires
 * exactly one of `addrServerRequestId` and `address`.
 *
 * @example
 * ```ts
 * import type { SettleRequestFields } from 'payment-gateway-sdk';
 *
 * // The part of a settlement that a monthly payout job fixes in its configuration.
 * const monthlyDefaults: Pick<SettleRequestFields, 'tokenId' | 'payoutChannel' | 'currency'> = {
 *   tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD',
 * };
 * ```
 */
export interface SettleRequestFields {
  /** Your request id: the idempotency key of the settlement (the gateway refuses a duplicate). */
  requestId: string;
  /** Amount in integer minor units of `currency`: 150000 is 1,500.00 USD. */
  amount: number;
  /** Settlement token id (e.g. `TRON_USDT`). */
  tokenId: string;
  /** Only `Crypto` is supported through this API (OffRamp fiat payouts are not). */
  payoutChannel: 'Crypto';
  /** Only `USD` is supported. */
  currency: 'USD';
  /** Where the gateway calls back about this settlement: an absolute http(s) URL. */
  notifyUrl?: string | undefined;
  /** The `serverRequestId` of an approved declared address ({@link GatewayClient.settleAddressApply}). Give this or `address`. */
  addrServerRequestId?: string | undefined;
  /** A withdrawal address. Give this or `addrServerRequestId`. */
  address?: string | undefined;
}
type _SettleRequestParamsMatch = Assert<SameShape<SettleRequestFields, z.input<typeof settleRequestParamsSchema>>>;

/** Checks {@link SettleRequestGetParams}. */
export const settleRequestGetParamsSchema = z.strictObject({
  requestId: requiredText(),
});
/**
 * Parameters of {@link GatewayClient.settleRequestGet}.
 *
 * @example
 * ```ts
 * import type { SettleRequestGetParams } from 'payment-gateway-sdk';
 *
 * const lookup: SettleRequestGetParams = { requestId: 'settle-2024-07' };
 * const record = await client.settleRequestGet(lookup);
 * ```
 */
export interface SettleRequestGetParams {
  /** The `requestId` you gave the settlement. */
  requestId: string;
}
type _SettleRequestGetParamsMatch = Assert<SameShape<SettleRequestGetParams, z.input<typeof settleRequestGetParamsSchema>>>;

/** Checks a settlement result (spec 2.6); unknown extra fields are kept. */
export const settlementResultSchema = z.looseObject({
  serverRequestId: z.string(),
  status: wireInteger(),
});
/**
 * The result of {@link GatewayClient.settleAddressApply} and {@link GatewayClient.settleRequest} (spec 2.6).
 * `status` stays a number: the gateway does not publish what its values mean.
 *
 * @example
 * ```ts
 * import type { SettlementResult } from 'payment-gateway-sdk';
 *
 * // Keep the gateway's id with your request, e.g. to settle to a declared address later.
 * async function remember(requestId: string, result: SettlementResult): Promise<void> {
 *   await db.settlements.update(requestId, { serverRequestId: result.serverRequestId, gatewayStatus: result.status });
 * }
 * ```
 */
export interface SettlementResult {
  /** The gateway's id for the request (for an address: the `addrServerRequestId` to settle to). */
  serverRequestId: string;
  /** Processing status; the gateway does not publish its values, so it stays a number. */
  status: number;
  /** Any other field the gateway adds. */
  [field: string]: unknown;
}
type _SettlementResultMatch = Assert<SameShape<SettlementResult, z.output<typeof settlementResultSchema>>>;

/** Checks a settlement record (spec 2.7); unknown extra fields are kept. */
export const settlementRecordSchema = z.looseObject({
  serverRequestId: z.string(),
  requestId: z.string(),
  tokenId: z.string(),
  currency: z.string(),
  amount: wireInteger(),
  status: wireInteger(),
  address: z.optional(z.string()),
  notifyUrl: z.optional(z.string()),
});
/**
 * A settlement record, as {@link GatewayClient.settleRequestGet} returns it (spec 2.7).
 *
 * @example
 * ```ts
 * import type { SettlementRecord } from 'payment-gateway-sdk';
 *
 * // Reconcile the books: the gateway settled what was asked, in integer minor units.
 * const matches = (record: SettlementRecord, askedMinor: number) => record.currency === 'USD' && record.amount === askedMinor;
 * ```
 */
export interface SettlementRecord {
  /** The gateway's id of the settlement request. */
  serverRequestId: string;
  /** Your request id. */
  requestId: string;
  /** Settlement token id. */
  tokenId: string;
  /** Fiat currency (`USD`). */
  currency: string;
  /** Amount in integer minor units. */
  amount: number;
  /** Processing status (values not published). */
  status: number;
  /** Withdrawal address. */
  address?: string | undefined;
  /** Callback address. */
  notifyUrl?: string | undefined;
  /** Any other field the gateway adds. */
  [field: string]: unknown;
}
type _SettlementRecordMatch = Assert<SameShape<SettlementRecord, z.output<typeof settlementRecordSchema>>>;
