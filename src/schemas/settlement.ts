import * as z from 'zod/mini';
import { httpUrl, minorUnits, optionalText, requiredText, wireInteger } from './fields.js';
import type { ExactlyOne } from './one-of.js';

/** Zod schema of the parameters of {@link GatewayClient.settleAddressApply}. */
export const settleAddressApplyParamsSchema = z.strictObject({
  /** Your request id for this declaration. */
  requestId: requiredText(),
  /** Settlement token id, `{CHAIN}_{SYMBOL}` exactly as the gateway names it (e.g. `TRON_USDT`). */
  tokenId: requiredText(),
  /** The withdrawal address to declare. */
  address: requiredText(),
  /** A remark for the reviewer. */
  remark: optionalText(),
});
/** Parameters of {@link GatewayClient.settleAddressApply}. */
export type SettleAddressApplyParams = z.input<typeof settleAddressApplyParamsSchema>;

/** Zod schema of the parameters of {@link GatewayClient.settleRequest}. */
export const settleRequestParamsSchema = z
  .strictObject({
    /** Your request id: the idempotency key of the settlement. */
    requestId: requiredText(),
    /** Amount in integer minor units. */
    amount: minorUnits(),
    /** Settlement token id (e.g. `TRON_USDT`). */
    tokenId: requiredText(),
    /** Only `Crypto` is supported through this API. */
    payoutChannel: z.literal('Crypto', { error: "must be 'Crypto': only crypto payouts are supported through this API (OffRamp fiat payouts are not)" }),
    /** Only `USD` is supported. */
    currency: z.literal('USD', { error: "must be 'USD': the gateway settles in USD only" }),
    /** Where the gateway calls back about this settlement. */
    notifyUrl: z.optional(httpUrl()),
    /** The `serverRequestId` of an approved declared address. Give this or `address`. */
    addrServerRequestId: z.optional(requiredText()),
    /** A withdrawal address. Give this or `addrServerRequestId`. */
    address: z.optional(requiredText()),
  })
  .check(
    z.refine((p) => (p.addrServerRequestId === undefined) !== (p.address === undefined), {
      error: 'give exactly one of addrServerRequestId (a declared address) and address',
    }),
  );
/** Parameters of {@link GatewayClient.settleRequest}: exactly one of `addrServerRequestId` and `address`. */
export type SettleRequestParams = ExactlyOne<z.input<typeof settleRequestParamsSchema>, 'addrServerRequestId' | 'address'>;

/** Zod schema of the parameters of {@link GatewayClient.settleRequestGet}. */
export const settleRequestGetParamsSchema = z.strictObject({
  /** The `requestId` you gave the settlement. */
  requestId: requiredText(),
});
/** Parameters of {@link GatewayClient.settleRequestGet}. */
export type SettleRequestGetParams = z.input<typeof settleRequestGetParamsSchema>;

/** Zod schema of a settlement result (spec 2.6). */
export const settlementResultSchema = z.looseObject({
  /** The gateway's id for the request (for an address: the `addrServerRequestId` to settle to). */
  serverRequestId: z.string(),
  /** Processing status; the gateway does not publish its values, so it stays a number. */
  status: wireInteger(),
});
/** The result of {@link GatewayClient.settleAddressApply} and {@link GatewayClient.settleRequest} (spec 2.6). */
export type SettlementResult = z.output<typeof settlementResultSchema>;

/** Zod schema of a settlement record (spec 2.7). */
export const settlementRecordSchema = z.looseObject({
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
  /** Processing status (values not published). */
  status: wireInteger(),
  /** Withdrawal address. */
  address: z.optional(z.string()),
  /** Callback address. */
  notifyUrl: z.optional(z.string()),
});
/** A settlement record, as {@link GatewayClient.settleRequestGet} returns it (spec 2.7). */
export type SettlementRecord = z.output<typeof settlementRecordSchema>;
