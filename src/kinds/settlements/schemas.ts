/**
 * Crypto settlement (spec 2.6-2.7, 4.4-4.6): the zod schemas, and the public types derived from them.
 *
 * @module
 */
import * as z from 'zod/mini';
import { httpUrl, minorUnits, optionalText, requiredText, wireInteger, named, withInput } from '../../protocol/schemas/fields.js';
import { freeText, type NotUniquelySigned } from '../../protocol/schemas/free-text.js';
import { lazySchema } from '../../protocol/schemas/lazy.js';
import type { ExactlyOne } from '../../protocol/schemas/one-of.js';

// Each schema is built on its first use (protocol/schemas/lazy.ts); its type is its builder's return type.

/** Checks {@link Settlements.AddressApplyParams}. */
const settleAddressApplyParamsObject = () =>
  z.strictObject({
    /** Your request id for this declaration (the gateway refuses a duplicate). */
    requestId: requiredText(),
    /** Settlement token id, `{CHAIN}_{SYMBOL}` exactly as the gateway names it (e.g. `TRON_USDT`). */
    tokenId: requiredText(),
    /** The withdrawal address to declare. */
    address: requiredText(),
    /** A remark for the reviewer. */
    remark: freeText(optionalText()),
  });
/** The schema typed by {@link Settlements.AddressApplyParams}, so compile errors name it. */
export const settleAddressApplyParamsSchema = lazySchema(() => named<SettleAddressApplyParams, z.output<ReturnType<typeof settleAddressApplyParamsObject>>>()(settleAddressApplyParamsObject()));

/**
 * Parameters of {@link GatewayClient.settleAddressApply}.
 *
 * @example
 * ```ts
 * import type { Settlements } from 'payment-gateway-sdk';
 *
 * const declaration: Settlements.AddressApplyParams = {
 *   requestId: 'addr-2024-001', tokenId: 'TRON_USDT', address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', remark: 'treasury',
 * };
 * const { serverRequestId } = await client.settleAddressApply(declaration); // settle to it once approved
 * ```
 */
export interface SettleAddressApplyParams extends z.input<ReturnType<typeof settleAddressApplyParamsObject>> {}

const settleRequestShape = () => ({
  /** Your request id: the idempotency key of the settlement (the gateway refuses a duplicate). */
  requestId: requiredText(),
  /** Amount in integer minor units of `currency`: 150000 is 1,500.00 USD. */
  amount: minorUnits(),
  /** Settlement token id (e.g. `TRON_USDT`). */
  tokenId: requiredText(),
  /** Only `Crypto` is supported through this API (OffRamp fiat payouts are not). */
  payoutChannel: z.literal('Crypto', { error: "must be 'Crypto': only crypto payouts are supported through this API (OffRamp fiat payouts are not)" }),
  /** Only `USD` is supported. */
  currency: z.literal('USD', { error: "must be 'USD': the gateway settles in USD only" }),
  /** Where the gateway calls back about this settlement: an absolute http(s) URL. */
  notifyUrl: z.optional(freeText(httpUrl())),
  /** The `serverRequestId` of an approved declared address ({@link GatewayClient.settleAddressApply}). Give this or `address`. */
  addrServerRequestId: z.optional(requiredText()),
  /** A withdrawal address. Give this or `addrServerRequestId`. */
  address: z.optional(requiredText()),
});

const settleRequestFieldsSchema = () => z.strictObject(settleRequestShape());

/**
 * The fields of {@link Settlements.RequestParams}, each documented; the parameter type itself also requires
 * exactly one of `addrServerRequestId` and `address`.
 *
 * @example
 * ```ts
 * import type { Settlements } from 'payment-gateway-sdk';
 *
 * // The part of a settlement that a monthly payout job fixes in its configuration.
 * const monthlyDefaults: Pick<Settlements.RequestParams, 'tokenId' | 'payoutChannel' | 'currency'> = {
 *   tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD',
 * };
 * ```
 */
export type SettleRequestFields = z.input<ReturnType<typeof settleRequestFieldsSchema>>;

/** Checks {@link Settlements.RequestParams}: exactly one of the two destinations, at run time and in the type. */
export const settleRequestParamsSchema = lazySchema(() =>
  withInput<SettleRequestParams>()(
    settleRequestFieldsSchema().check(
      z.refine((p) => (p.addrServerRequestId === undefined) !== (p.address === undefined), {
        error: 'give exactly one of addrServerRequestId (a declared address) and address',
      }),
    ),
  ),
);

/**
 * Parameters of {@link GatewayClient.settleRequest}: exactly one of `addrServerRequestId` and `address`
 * (`SettleRequestFields`). `amount` is in integer minor units of `currency` (150000 is 1,500.00 USD).
 *
 * @example
 * ```ts
 * import type { Settlements } from 'payment-gateway-sdk';
 *
 * const monthly: Settlements.RequestParams = {
 *   requestId: 'settle-2024-07', amount: 150000, tokenId: 'TRON_USDT',
 *   payoutChannel: 'Crypto', currency: 'USD', addrServerRequestId: 'SRV-ADDR-1',
 * };
 * await client.settleRequest(monthly);
 * ```
 */
export type SettleRequestParams = ExactlyOne<SettleRequestFields, 'addrServerRequestId' | 'address'>;

/** Checks {@link Settlements.RequestGetParams}. */
const settleRequestGetParamsObject = () =>
  z.strictObject({
    /** The `requestId` you gave the settlement. */
    requestId: requiredText(),
  });
/** The schema typed by {@link Settlements.RequestGetParams}, so compile errors name it. */
export const settleRequestGetParamsSchema = lazySchema(() => named<SettleRequestGetParams, z.output<ReturnType<typeof settleRequestGetParamsObject>>>()(settleRequestGetParamsObject()));

/**
 * Parameters of {@link GatewayClient.settleRequestGet}.
 *
 * @example
 * ```ts
 * import type { Settlements } from 'payment-gateway-sdk';
 *
 * const lookup: Settlements.RequestGetParams = { requestId: 'settle-2024-07' };
 * const record = await client.settleRequestGet(lookup);
 * ```
 */
export interface SettleRequestGetParams extends z.input<ReturnType<typeof settleRequestGetParamsObject>> {}

/** Checks a settlement result (spec 2.6); unknown extra fields are kept. */
const settlementResultObject = () =>
  z.looseObject({
    /** The gateway's id for the request (for an address: the `addrServerRequestId` to settle to). */
    serverRequestId: z.string(),
    /**
     * Processing status. The spec does not define its values ("not shown"), so it stays a number: the mock
     * gateway uses 0 pending, 1 processing, 2 completed, 3 failed for settlements, and 0 under review,
     * 1 approved, 2 rejected for addresses (`MockSettlementStatus`, `MockAddressStatus`).
     */
    status: wireInteger(),
  });
/** The schema typed by {@link Settlements.Result}, so compile errors name it. */
export const settlementResultSchema = lazySchema(() => named<z.input<ReturnType<typeof settlementResultObject>>, SettlementResult>()(settlementResultObject()));

/**
 * The result of {@link GatewayClient.settleAddressApply} and {@link GatewayClient.settleRequest} (spec 2.6).
 *
 * @example
 * ```ts
 * import type { Settlements } from 'payment-gateway-sdk';
 *
 * // Keep the gateway's id with your request, e.g. to settle to a declared address later.
 * async function remember(requestId: string, result: Settlements.Result): Promise<void> {
 *   await db.settlements.update(requestId, { serverRequestId: result.serverRequestId, gatewayStatus: result.status });
 * }
 * ```
 */
export interface SettlementResult extends z.output<ReturnType<typeof settlementResultObject>>, NotUniquelySigned {}

/** Checks a settlement record (spec 2.7); unknown extra fields are kept. */
const settlementRecordObject = () =>
  z.looseObject({
    /** The gateway's id of the settlement request. */
    serverRequestId: z.string(),
    /** Your request id. */
    requestId: z.string(),
    /** Settlement token id. */
    tokenId: z.string(),
    /** Fiat currency (`USD`). */
    currency: z.string(),
    /** Amount in integer minor units. */
    amount: wireInteger(),
    /** Processing status: the spec does not define its values (see {@link Settlements.Result.status}). */
    status: wireInteger(),
    /** Withdrawal address (for a declared address: the address it resolved to). */
    address: z.optional(z.string()),
    /** Callback address. */
    notifyUrl: z.optional(freeText(z.string())),
  });
/** The schema typed by {@link Settlements.Settlement}, so compile errors name it. */
export const settlementRecordSchema = lazySchema(() => named<z.input<ReturnType<typeof settlementRecordObject>>, SettlementRecord>()(settlementRecordObject()));

/**
 * A settlement record, as {@link GatewayClient.settleRequestGet} returns it (spec 2.7).
 *
 * @example
 * ```ts
 * import type { Settlements } from 'payment-gateway-sdk';
 *
 * // Reconcile the books: the gateway settled what was asked, in integer minor units.
 * const settledAsAsked = (record: Settlements.Settlement, askedMinor: number) => record.currency === 'USD' && record.amount === askedMinor;
 * ```
 */
export interface SettlementRecord extends z.output<ReturnType<typeof settlementRecordObject>>, NotUniquelySigned {}
