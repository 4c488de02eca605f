/**
 * The transfer kind (the reference gateway's payouts, `shared/spec/transfers.md`), declared once: the transfer states
 * and entry types, the zod schemas of `transferOrder`, `transferQuery` and the transfer notification, the operations'
 * rows and the notification with its tracking. `accountNo`, `accountName` and `bankName` are the payee's personal
 * data ({@link personalData}).
 *
 * @module
 */
import * as z from 'zod/mini';
import { stateNamesOf } from '../../protocol/schemas/enums.js';
import { httpUrl, jsonTextParam, minorUnits, named, optionalText, requiredText, wireInteger, withInput } from '../../protocol/schemas/fields.js';
import { freeText, personalData, type NotUniquelySigned } from '../../protocol/schemas/free-text.js';
import { lazySchema } from '../../protocol/schemas/lazy.js';
import type { AtLeastOne } from '../../protocol/schemas/one-of.js';
import { defineNotificationKind, orderExpect, settledBy, successElseCreated } from '../define-notification.js';
import { defineOperation } from '../define-operation.js';

/**
 * Transfer states (`state` of a {@link Transfers.Transfer}): 0→1→2 or 3; 2, 3 and 4 are final. The gateway notifies 2
 * and 3 only, and never sets 4. A transfer's 2 is money **leaving** the merchant: never a payment.
 *
 * @example
 * ```ts
 * import { Transfers } from 'payment-gateway-sdk';
 *
 * const transfer = await client.transferQuery({ mchOrderNo: 'payout-1001' });
 * if (transfer.state === Transfers.State.Succeeded) markPaidOut(transfer.mchOrderNo);
 * ```
 */
export const TransferOrderState = {
  /** 0: stored, not yet handed to the channel (a system error leaves it here). */
  Created: 0,
  /** 1: the channel is transferring. */
  Transferring: 1,
  /** 2: paid out to the payee. */
  Succeeded: 2,
  /** 3: the transfer failed (see `errCode`/`errMsg`); no money moved. */
  Failed: 3,
  /** 4: closed; declared by the reference, never set by it. */
  Closed: 4,
} as const;

/** A transfer state code, 0 to 4. */
export type TransferOrderState = (typeof TransferOrderState)[keyof typeof TransferOrderState];

/** Checks a {@link TransferOrderState}: a transfer in an unknown state is not safe to act on. */
const transferOrderStateSchema = lazySchema(() => z.enum(TransferOrderState, { error: 'must be a transfer state 0..4' }));

const transferStateNames = stateNamesOf(TransferOrderState);

/**
 * The name of a transfer state, for logs and messages.
 *
 * @example
 * ```ts
 * import { Transfers } from 'payment-gateway-sdk';
 *
 * Transfers.stateName(2); // 'Succeeded'
 * ```
 */
export function transferOrderStateName(state: TransferOrderState): keyof typeof TransferOrderState {
  return transferStateNames(state);
}

/**
 * Where a transfer's money goes, and which channel takes it (spec section 1, step 6): `alipay` takes `ALIPAY_CASH`
 * only, `wxpay` takes `WX_CASH` and `BANK_CARD`.
 *
 * @example
 * ```ts
 * import { Transfers } from 'payment-gateway-sdk';
 *
 * Transfers.ENTRY_TYPES.alipay; // ['ALIPAY_CASH']
 * ```
 */
export const TRANSFER_ENTRY_TYPES = {
  alipay: ['ALIPAY_CASH'],
  wxpay: ['WX_CASH', 'BANK_CARD'],
} as const satisfies Readonly<Record<string, readonly string[]>>;

/** An entry type: `ALIPAY_CASH` (an Alipay account), `WX_CASH` (a WeChat wallet) or `BANK_CARD`. */
export type TransferEntryType = 'ALIPAY_CASH' | 'WX_CASH' | 'BANK_CARD';

// What a channel the SDK knows cannot take; another ifCode is the gateway's to refuse.
const entryTypeTaken = (params: { readonly ifCode: string; readonly entryType: string }): boolean => {
  const taken: readonly string[] | undefined = (TRANSFER_ENTRY_TYPES as Readonly<Record<string, readonly string[]>>)[params.ifCode];
  return taken === undefined || taken.includes(params.entryType);
};

const transferOrderParamsObject = () =>
  z.strictObject({
    /** Your transfer number, unique among your transfers: the key a lost answer is looked up by. Keep it before you call. */
    mchOrderNo: requiredText(),
    /** The channel interface: `alipay`, `wxpay`, ... */
    ifCode: requiredText(),
    /** Where the money goes: `ALIPAY_CASH`, `WX_CASH` or `BANK_CARD` (see {@link TRANSFER_ENTRY_TYPES}). */
    entryType: z.enum(['ALIPAY_CASH', 'WX_CASH', 'BANK_CARD'], { error: 'must be ALIPAY_CASH, WX_CASH or BANK_CARD' }),
    /** The amount in integer minor units (at least 1). */
    amount: minorUnits(),
    /** Three-letter currency code. */
    currency: requiredText(),
    /** The payee's account: an openid, an Alipay login or a card number (personal data: never logged). */
    accountNo: personalData(requiredText()),
    /** The payee's name, which some channels check (personal data). */
    accountName: z.optional(personalData(freeText(requiredText()))),
    /** The payee's bank, for `BANK_CARD` (personal data). */
    bankName: z.optional(personalData(freeText(requiredText()))),
    /** The caller's IP address. */
    clientIp: optionalText(),
    /** The transfer's remark (free text). */
    transferDesc: freeText(requiredText()),
    /** Where the gateway POSTs the transfer notification when it succeeds or fails: an absolute http(s) URL. */
    notifyUrl: z.optional(freeText(httpUrl())),
    /** Channel parameters: an object (serialized for you) or a JSON string. */
    channelExtra: z.optional(freeText(jsonTextParam(z.looseObject({})))),
    /** Your own data, returned as given by `transferQuery` and the notification: an object or a string. */
    extParam: z.optional(freeText(jsonTextParam(z.looseObject({})))),
  });

/** Checks {@link Transfers.CreateParams}, and that a channel the SDK knows takes the entry type (nothing sent otherwise). */
const transferOrderParamsSchema = lazySchema(() =>
  withInput<TransferOrderParams>()(
    transferOrderParamsObject().check(
      z.refine(entryTypeTaken, {
        path: ['entryType'],
        error: (issue) => `channel ${(issue.input as TransferOrderParams).ifCode} does not take this entry type (the gateway would refuse it)`,
      }),
    ),
  ),
);

/**
 * Parameters of {@link GatewayClient.transferOrder}: your transfer number, the channel and entry type, the amount in
 * minor units, the payee's account and a remark.
 *
 * @example
 * ```ts
 * import type { Transfers } from 'payment-gateway-sdk';
 *
 * const payout: Transfers.CreateParams = {
 *   mchOrderNo: 'payout-1001', ifCode: 'wxpay', entryType: 'WX_CASH', amount: 1500, currency: 'CNY',
 *   accountNo: 'o8xYz0123456789', accountName: 'Li Lei', transferDesc: 'Supplier payout, November',
 * };
 * ```
 */
export interface TransferOrderParams extends z.input<ReturnType<typeof transferOrderParamsObject>> {}

const transferOrderResultObject = () =>
  z.looseObject({
    /** The gateway's transfer id. */
    transferId: z.string(),
    /** Your transfer number, as sent. */
    mchOrderNo: z.string(),
    /** The amount, in integer minor units. */
    amount: wireInteger(),
    /** The payee's account (personal data). */
    accountNo: personalData(z.string()),
    /** The payee's name (personal data). */
    accountName: z.optional(personalData(freeText(z.string()))),
    /** The payee's bank (personal data). */
    bankName: z.optional(personalData(freeText(z.string()))),
    /** The transfer's state: 0, 1, or already final (2 or 3). */
    state: transferOrderStateSchema(),
    /** The transfer's number at the channel. */
    channelOrderNo: z.optional(z.string()),
    /** What the channel answered, e.g. WeChat's confirmation package. */
    channelResData: z.optional(freeText(z.string())),
    /** The channel's error code when the transfer failed. */
    errCode: z.optional(z.string()),
    /** The channel's error description when the transfer failed. */
    errMsg: z.optional(freeText(z.string())),
  });
/** The schema typed by {@link Transfers.CreateResult}, so compile errors name it. */
const transferOrderResultSchema = lazySchema(() => named<z.input<ReturnType<typeof transferOrderResultObject>>, TransferOrderResult>()(transferOrderResultObject()));

/**
 * What {@link GatewayClient.transferOrder} resolves to: the transfer the gateway made, from its answer or, after a
 * lost or ambiguous answer, from the transfer found by your `mchOrderNo`. Its `state` may already be final.
 *
 * @example
 * ```ts
 * import { Transfers } from 'payment-gateway-sdk';
 *
 * const describe = (t: Transfers.CreateResult) => (t.state === Transfers.State.Succeeded ? 'paid out' : t.state === Transfers.State.Failed ? `failed: ${t.errMsg}` : 'in progress');
 * ```
 */
export interface TransferOrderResult extends z.output<ReturnType<typeof transferOrderResultObject>>, NotUniquelySigned {}

const transferIdsObject = () =>
  z.strictObject({
    /** Your transfer number, as sent to `transferOrder`. */
    mchOrderNo: z.optional(requiredText()),
    /** The gateway's transfer id (it wins when both are sent). */
    transferId: z.optional(requiredText()),
  });

/** Checks {@link Transfers.QueryParams}: one id at least. */
const transferQueryParamsSchema = lazySchema(() =>
  withInput<TransferQueryParams>()(
    transferIdsObject().check(z.refine((ids) => ids.mchOrderNo !== undefined || ids.transferId !== undefined, { error: 'give mchOrderNo or transferId (at least one)' })),
  ),
);

/**
 * Parameters of {@link GatewayClient.transferQuery}: `mchOrderNo`, `transferId`, or both.
 *
 * @example
 * ```ts
 * import type { Transfers } from 'payment-gateway-sdk';
 *
 * const byOurNumber: Transfers.QueryParams = { mchOrderNo: 'payout-1001' };
 * ```
 */
export type TransferQueryParams = AtLeastOne<z.input<ReturnType<typeof transferIdsObject>>, 'mchOrderNo' | 'transferId'>;

const transferObject = () =>
  z.looseObject({
    /** The gateway's transfer id. */
    transferId: z.string(),
    /** Merchant number. */
    mchNo: z.string(),
    /** Merchant application id. */
    appId: z.string(),
    /** Your transfer number. */
    mchOrderNo: z.string(),
    /** The channel interface. */
    ifCode: z.string(),
    /** Where the money went: `ALIPAY_CASH`, `WX_CASH` or `BANK_CARD`. */
    entryType: z.string(),
    /** The amount, in integer minor units. */
    amount: wireInteger(),
    /** Three-letter currency code. */
    currency: z.string(),
    /** The payee's account (personal data). */
    accountNo: personalData(z.string()),
    /** The payee's name (personal data). */
    accountName: z.optional(personalData(freeText(z.string()))),
    /** The payee's bank (personal data). */
    bankName: z.optional(personalData(freeText(z.string()))),
    /** The transfer's remark (absent when the signature cannot pin it down: see `ambiguousFields`). */
    transferDesc: z.optional(freeText(z.string())),
    /** The transfer's state, see {@link TransferOrderState}. */
    state: transferOrderStateSchema(),
    /** Channel parameters, as sent. */
    channelExtra: z.optional(freeText(z.string())),
    /** The transfer's number at the channel. */
    channelOrderNo: z.optional(z.string()),
    /** What the channel answered. */
    channelResData: z.optional(freeText(z.string())),
    /** The channel's error code when the transfer failed. */
    errCode: z.optional(z.string()),
    /** The channel's error description when the transfer failed. */
    errMsg: z.optional(freeText(z.string())),
    /** Your own data, as sent (absent when the signature cannot pin it down: see `ambiguousFields`). */
    extParam: z.optional(freeText(z.string())),
    /** When the transfer succeeded, milliseconds since the epoch. */
    successTime: z.optional(wireInteger()),
    /** When the transfer was created, milliseconds since the epoch. */
    createdAt: wireInteger(),
  });
/** The schema typed by {@link Transfers.Transfer}, so compile errors name it. */
const transferSchema = lazySchema(() => named<z.input<ReturnType<typeof transferObject>>, Transfer>()(transferObject()));

/**
 * A transfer, as {@link GatewayClient.transferQuery} returns it.
 *
 * @example
 * ```ts
 * import { Transfers } from 'payment-gateway-sdk';
 *
 * // Money left the merchant only in state 2.
 * const paidOut = (t: Transfers.Transfer): number => (t.state === Transfers.State.Succeeded ? t.amount : 0);
 * ```
 */
export interface Transfer extends z.output<ReturnType<typeof transferObject>>, NotUniquelySigned {}

/**
 * Checks a transfer notification: the transfer's fields as `transferQuery` returns them, plus `reqTime`. A payment
 * notification is not one (it has no `transferId`, `entryType`, `accountNo` or `transferDesc`).
 */
const transferNotificationSchema = lazySchema(() =>
  z.looseObject({
    ...transferObject().def.shape,
    /** When the gateway first sent the notification, milliseconds since the epoch (kept on every retry). */
    reqTime: wireInteger(),
  }),
);

const transferExpect = lazySchema(() => orderExpect(TransferOrderState, 'must be a transfer state (0 to 4) or a non-empty list of them'));

/** The transfer operations: rows of the operation table (`operations/table.ts`), checked by `defineOperation`. */
export const operations = {
  /**
   * Pays out to a payee's account (`POST /api/transferOrder`). `mchOrderNo`, unique among your transfers, is the key a
   * lost answer is looked up by; the method docs: {@link GatewayClient.transferOrder}.
   */
  transferOrder: /* @__PURE__ */ defineOperation({
    path: '/api/transferOrder',
    get params() {
      return transferOrderParamsSchema();
    },
    get result() {
      return transferOrderResultSchema();
    },
    retry: 'create',
    key: 'mchOrderNo',
    // The payee's account too: a replayed answer of an earlier transfer under this number paid another payee (masked in a mismatch).
    binds: ['mchOrderNo', 'amount', 'accountNo'],
    // In the reference server's order (shared/spec/transfers.md section 1): the duplicate first, then steps 3-7. The SDK
    // refuses before sending what steps 0 and 2 check (an amount below 1, a notifyUrl not http(s)): parameter_invalid.
    refusals: {
      duplicate_transfer: {
        match: /商户订单\[[^\]]*\]已存在/,
        advice: 'a transfer with this mchOrderNo exists (it may have paid out): look it up; never pay it again under a new mchOrderNo',
      },
      app_config_unavailable: { match: /获取商户应用信息失败/, advice: 'nothing was transferred; retry later with the same mchOrderNo' },
      channel_not_configured: { match: /应用未开通此接口配置/, advice: 'nothing was transferred: this application has no configuration for this ifCode' },
      transfer_channel_unknown: { match: /无此转账通道接口/, advice: 'nothing was transferred: the gateway cannot transfer by this ifCode' },
      entry_type_unsupported: { match: /该接口不支持该入账方式/, advice: 'nothing was transferred: this channel cannot pay to this entryType' },
      transfer_channel_refused: { match: /暂不支持转账业务/, advice: "nothing was transferred: the channel's own check refused it" },
    },
    // Decided after the duplicate check (so no transfer is under this mchOrderNo) and before the transfer is stored.
    // A system error may come after it is stored (state 0): any other refusal is looked up by mchOrderNo.
    refusedBeforeRecord: ['app_config_unavailable', 'channel_not_configured', 'transfer_channel_unknown', 'entry_type_unsupported', 'transfer_channel_refused'],
    reconcile: {
      lookup: 'transferQuery',
      by: ['mchOrderNo'],
      // The record has every field of the answer: it is the result as found (with the query's fields besides).
      toResult: (transfer: Transfer) => transfer,
      decisive: ['amount', 'currency', 'ifCode', 'entryType', 'accountNo'],
    },
    logged: ['transferId', 'state'],
    summary: 'Pays out to a payee. Resolves to the `Transfers.CreateResult`, or the transfer found by `mchOrderNo`: never paid twice.',
  }),
  /** Reads a transfer by `mchOrderNo` or `transferId` (`POST /api/transfer/query`); the method docs: {@link GatewayClient.transferQuery}. */
  transferQuery: /* @__PURE__ */ defineOperation({
    path: '/api/transfer/query',
    get params() {
      return transferQueryParamsSchema();
    },
    get result() {
      return transferSchema();
    },
    retry: 'read',
    binds: ['mchOrderNo', 'transferId'],
    refusals: {
      transfer_not_found: { match: /订单不存在|transfer (?:does not exist|not found)/i, advice: 'the gateway has no such transfer for this merchant: check mchOrderNo or transferId' },
    },
    notFound: ['transfer_not_found'],
    logged: ['transferId', 'state'],
    summary: 'Reads a transfer by `mchOrderNo` or `transferId`. Resolves to the `Transfers.Transfer`.',
  }),
};

/**
 * The gateway's notification of a transfer that ended, at the transfer's `notifyUrl`: `verifyTransferNotification`,
 * `onTransferred`, `onTransferFailed`. It carries `mchOrderNo`, `amount` and `state` like a payment, but its 2 is
 * money leaving the merchant: it is told apart by `transferId` and `entryType`, which no payment has.
 */
export const notification = defineNotificationKind(
  {
    name: 'transfer',
    label: 'transfer notification',
    verifier: 'verifyTransferNotification',
    handlers: {
      onTransferred: { name: 'on_transferred', states: [TransferOrderState.Succeeded] },
      // 4 (closed) is declared by the reference and never set; a gateway that sets it ended the transfer without paying.
      onTransferFailed: { name: 'on_transfer_failed', states: [TransferOrderState.Failed, TransferOrderState.Closed] },
    },
    expectOption: 'expectTransfer',
    identifiedBy: ['transferId', 'entryType'],
    stateField: 'state',
    amountField: 'amount',
    // 0 and 1 may still end either way. The reference never closes a transfer and stops asking the channel about one
    // after a day: the sweep says so of one still open then (stalled), and leaves it tracked.
    tracking: {
      read: 'transferQuery', by: ['transferId', 'mchOrderNo'], open: [TransferOrderState.Created, TransferOrderState.Transferring], states: TransferOrderState,
      notFound: 'transfer_not_found', noun: 'transfer', found: 'transfer found by a sweep', prefix: 'transfer:',
      waited: 'show the transfer as in progress; its notification, a sweep or a later transferQuery will tell',
      // A payment is known by mchOrderNo too: one tracked by its number carries its entryType (the parameters sent do).
      // A number used before may hold a transfer to another payee of the same amount: the payee sent must be the one found.
      byKey: { prefix: 'transfer-key:', currency: requiredText, marker: 'entryType', matched: ['ifCode', 'entryType', 'accountNo'] },
      reportedIn: 'transfers',
      stalled: {
        afterMs: 24 * 60 * 60 * 1000,
        advice: 'the gateway no longer asks the channel about it and never closes it: ask the channel',
      },
    },
    get schema() {
      return transferNotificationSchema();
    },
    get expect() {
      return transferExpect();
    },
    // Required: a signed transferQuery answer carries them too, but a create's answer does not.
    merchantRequired: true,
    // The kind leads, so that no transfer's key can be a payment's (`${payOrderId}:${state}`) or a refund's.
    idempotencyKey: (n) => `transfer:${n.transferId}:${n.state}`,
    // The gateway notifies a transfer when it succeeds or fails, never in another state.
    defaultExpect: { state: [TransferOrderState.Succeeded, TransferOrderState.Failed] },
    // A failed transfer has no successTime: its creation then. Never reqTime, which a re-send renews.
    eventTime: successElseCreated('was transferred', 'was created'),
    recover: 'Read the transfer (client.transferQuery) and record it',
  },
  settledBy<typeof operations>(),
);
