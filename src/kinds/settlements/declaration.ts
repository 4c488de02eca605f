/**
 * The crypto settlement kind, declared once: the rows of `settleAddressApply`, `settleRequest` and
 * `settleRequestGet`, and the settlement notification (not tracked: a settlement has no state a sweep reads). Its
 * schemas are beside it (`schemas.ts`).
 *
 * @module
 */
import * as z from 'zod/mini';
import { minorUnits, requiredText, wireInteger } from '../../protocol/schemas/fields.js';
import { lazySchema } from '../../protocol/schemas/lazy.js';
import {
  settleAddressApplyParamsSchema,
  settlementRecordSchema,
  settlementResultSchema,
  settleRequestGetParamsSchema,
  settleRequestParamsSchema,
  type SettlementRecord,
} from './schemas.js';
import { defineNotificationKind } from '../define-notification.js';
import { defineOperation, pick } from '../define-operation.js';
import { duplicateRequest } from '../refusals.js';

/**
 * Checks a settlement notification: the settlement-record fields (spec 2.7), plus what every notification
 * carries (its callback format is not published): the merchant fields and `reqTime`. Required, so that a
 * signed `settleRequestGet` answer (the same record, signed with the same secret, but without them) is not
 * taken for a notification.
 */
const settlementNotificationSchema = lazySchema(() =>
  z.looseObject({
    ...settlementRecordSchema().def.shape,
    /** The merchant number (checked against the verifier's). */
    mchNo: z.string(),
    /** The application id (checked against the verifier's). */
    appId: z.string(),
    /** When the gateway first sent the callback, milliseconds since the epoch (kept on every retry). */
    reqTime: wireInteger(),
  }),
);

const settlementExpect = lazySchema(() =>
  z.strictObject({
    /** Your settlement `requestId`. */
    requestId: z.optional(requiredText()),
    /** The amount in integer minor units. */
    amount: z.optional(minorUnits()),
    /** The currency code, compared case-insensitively. */
    currency: z.optional(requiredText()),
    /** The settlement token id, e.g. `TRON_USDT`. */
    tokenId: z.optional(requiredText()),
  }),
);

/** The settlement operations: rows of the operation table (`operations/table.ts`), checked by `defineOperation`. */
export const operations = {
  /** Declares a settlement address (`POST /api/channelbiz/coinpay/settleAddressApply`); the method docs: {@link GatewayClient.settleAddressApply}. */
  settleAddressApply: /* @__PURE__ */ defineOperation({
    path: '/api/channelbiz/coinpay/settleAddressApply',
    get params() {
      return settleAddressApplyParamsSchema();
    },
    get result() {
      return settlementResultSchema();
    },
    retry: 'create',
    key: 'requestId',
    // The answer is { serverRequestId, status }: nothing of the request to bind, and no lookup.
    binds: [],
    refusals: { duplicate_request: duplicateRequest },
    logged: ['serverRequestId', 'status'],
    summary: 'Declares a crypto address for settlements, reviewed by the platform. Resolves to `{ serverRequestId, status }`.',
  }),
  /** Requests a settlement (`POST /api/channelbiz/coinpay/settleRequest`); the method docs: {@link GatewayClient.settleRequest}. */
  settleRequest: /* @__PURE__ */ defineOperation({
    path: '/api/channelbiz/coinpay/settleRequest',
    get params() {
      return settleRequestParamsSchema();
    },
    get result() {
      return settlementResultSchema();
    },
    retry: 'create',
    key: 'requestId',
    // The answer is { serverRequestId, status }: nothing to bind; confirm reads the record by requestId.
    binds: [],
    refusals: {
      duplicate_request: duplicateRequest,
      address_not_approved: {
        match: /地址未审核通过|address (?:is )?(?:not (?:yet )?approved|under review|rejected)/i,
        advice: 'the declared address is not approved: the platform has not reviewed it yet, or rejected it; settle to it once approved, or declare another address',
      },
      address_token_mismatch: {
        match: /地址币种不匹配|address (?:is )?for another token|address token (?:does not match|mismatch)/i,
        advice: 'the declared address was declared for another tokenId: settle with the token it was declared for, or declare this address for this token',
      },
      address_not_found: {
        match: /地址不存在|(?:declared )?address (?:does not exist|not found)|no (?:such |declared )?address/i,
        advice: 'the gateway has no declared address with this addrServerRequestId for this merchant: use the serverRequestId that settleAddressApply answered',
      },
    },
    // The destination's checks: the request's own address, whatever exists under its requestId.
    refusedBeforeRecord: ['address_not_approved', 'address_token_mismatch', 'address_not_found'],
    reconcile: {
      lookup: 'settleRequestGet',
      by: ['requestId'],
      toResult: (record: SettlementRecord) => pick(record, ['serverRequestId', 'status']),
      decisive: ['amount', 'tokenId', 'currency', 'address', 'addrServerRequestId'],
    },
    confirm: { lookup: 'settleRequestGet', by: ['requestId'], answered: ['serverRequestId'] },
    logged: ['serverRequestId', 'status'],
    summary: 'Settles available balance to a declared or given crypto address. Resolves to `{ serverRequestId, status }`; with `{ confirm: true }`, to the `Settlements.Settlement` read back and checked.',
  }),
  /** Reads a settlement (`POST /api/channelbiz/coinpay/settleRequestGet`); the method docs: {@link GatewayClient.settleRequestGet}. */
  settleRequestGet: /* @__PURE__ */ defineOperation({
    path: '/api/channelbiz/coinpay/settleRequestGet',
    get params() {
      return settleRequestGetParamsSchema();
    },
    get result() {
      return settlementRecordSchema();
    },
    retry: 'read',
    binds: ['requestId'],
    refusals: {
      record_not_found: { match: /记录不存在|(?:record|settlement|request) (?:does not exist|not found)|no (?:such )?(?:record|settlement)/i, advice: 'the gateway has no such record: check requestId' },
    },
    notFound: ['record_not_found'],
    logged: ['serverRequestId', 'status'],
    summary: 'Reads a settlement by your `requestId`. Resolves to the `Settlements.Settlement` asked for.',
  }),
};

/** The gateway's call to a settlement's `notifyUrl`: `verifySettlementNotification`, `onSettlement`. */
export const notification = defineNotificationKind(
  {
    name: 'settlement',
    label: 'settlement notification',
    verifier: 'verifySettlementNotification',
    handlers: {
      onSettlement: { name: 'on_settlement' },
    },
    expectOption: 'expectSettlement',
    identifiedBy: ['serverRequestId'],
    // Your requestId names it, as it names the settlement's create and read.
    ids: ['requestId'],
    amountField: 'amount',
    get schema() {
      return settlementNotificationSchema();
    },
    get expect() {
      return settlementExpect();
    },
    // Required as in a payment notification: a settleRequestGet answer, signed alike, carries neither.
    merchantRequired: true,
    // Unchanged since the first release, as the payment's: durable stores hold these keys.
    idempotencyKey: (n) => `${n.serverRequestId}:${n.status}`,
    // Signed for the merchant's own callback only, and re-sent with its original reqTime: no payer can have it signed again.
    eventTime: (n) => ({ field: 'reqTime', time: n.reqTime, happened: 'was signed' }),
    recover: 'Read the settlement (client.settleRequestGet) and record it',
  },
);
