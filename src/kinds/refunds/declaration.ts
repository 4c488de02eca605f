/**
 * The refund kind (the reference gateway's refund API, docs/reference/refunds.md), declared once: the refund states,
 * the zod schemas of `refundOrder`, `refundQuery` and the refund notification, the operations' rows and the
 * notification with its tracking.
 *
 * @module
 */
import * as z from 'zod/mini';
import { stateNamesOf } from '../../protocol/schemas/enums.js';
import { httpUrl, jsonTextParam, minorUnits, named, optionalText, requiredText, wireInteger, withInput } from '../../protocol/schemas/fields.js';
import { freeText, type NotUniquelySigned } from '../../protocol/schemas/free-text.js';
import { lazySchema } from '../../protocol/schemas/lazy.js';
import type { AtLeastOne, ExactlyOne } from '../../protocol/schemas/one-of.js';
import { defineNotificationKind, expectedState, settledBy, successElseCreated } from '../define-notification.js';
import { defineOperation, pick } from '../define-operation.js';
import { missingOrderId, orderNotFound } from '../refusals.js';

/**
 * Refund states (`state` of a {@link Refunds.Refund}). Transitions: 0→1, 0/1→2 or 3, 0/1→4 (a refund still open two
 * hours after its creation is closed by the gateway); 2, 3 and 4 are final. The gateway notifies 2 and 3 only.
 * A refund's 2 is money going back to the payer: never a payment.
 *
 * @example
 * ```ts
 * import { Refunds } from 'payment-gateway-sdk';
 *
 * const refund = await client.refundQuery({ mchRefundNo: 'refund-1001' });
 * if (refund.state === Refunds.State.Succeeded) markRefunded(refund.mchRefundNo);
 * ```
 */
export const RefundOrderState = {
  /** 0: created, not yet handed to the channel. */
  Created: 0,
  /** 1: the channel is refunding (the usual answer of a real channel). */
  Refunding: 1,
  /** 2: refunded: the money went back to the payer. */
  Succeeded: 2,
  /** 3: the refund failed (see `errCode`/`errMsg`); no money moved. */
  Failed: 3,
  /** 4: closed: still open two hours after its creation, closed by the gateway; no money moved. */
  Closed: 4,
} as const;

/** A refund state code, 0 to 4. */
export type RefundOrderState = (typeof RefundOrderState)[keyof typeof RefundOrderState];

/** Checks a {@link RefundOrderState}. An unknown code is an error: a refund in an unknown state is not safe to act on. */
const refundOrderStateSchema = lazySchema(() => z.enum(RefundOrderState, { error: 'must be a refund state 0..4' }));

const refundStateNames = stateNamesOf(RefundOrderState);

/**
 * The name of a refund state, for logs and messages.
 *
 * @example
 * ```ts
 * import { Refunds } from 'payment-gateway-sdk';
 *
 * Refunds.stateName(2); // 'Succeeded'
 * ```
 */
export function refundOrderStateName(state: RefundOrderState): keyof typeof RefundOrderState {
  return refundStateNames(state);
}

// Each schema is built on its first use (protocol/schemas/lazy.ts); its type is its builder's return type.

const refundOrderParamsObject = () =>
  z.strictObject({
    /** The gateway's id of the paid order to refund. Give this or `mchOrderNo`. */
    payOrderId: z.optional(requiredText()),
    /** Your number of the paid order to refund. Give this or `payOrderId`. */
    mchOrderNo: z.optional(requiredText()),
    /**
     * Your refund number, unique per merchant: the key a lost answer is looked up by. Keep it with the refund
     * before you call, and never refund the same thing under a new one while this one may exist.
     */
    mchRefundNo: requiredText(),
    /** The amount to refund in integer minor units (at least 1): all of what is left to refund, or part of it. */
    refundAmount: minorUnits(),
    /** Three-letter currency code: the order's. */
    currency: requiredText(),
    /** Why the payer is refunded (free text). */
    refundReason: freeText(requiredText()),
    /** The payer's IP address. */
    clientIp: optionalText(),
    /** Where the gateway POSTs the refund notification when the refund succeeds or fails: an absolute http(s) URL. */
    notifyUrl: z.optional(freeText(httpUrl())),
    /** Channel parameters: an object (serialized for you) or a JSON string. */
    channelExtra: z.optional(freeText(jsonTextParam(z.looseObject({})))),
    /** Your own data, returned as given by `refundQuery` and the notification: an object (serialized for you) or a string. */
    extParam: z.optional(freeText(jsonTextParam(z.looseObject({})))),
  });

/**
 * Checks {@link Refunds.CreateParams}: exactly one order id, at run time (the refinement) and at compile time (the type).
 * Two would let the gateway pick one (it refunds `payOrderId`'s order) while the caller meant the other.
 */
const refundOrderParamsSchema = lazySchema(() =>
  withInput<RefundOrderParams>()(
    refundOrderParamsObject().check(
      z.refine((params) => (params.payOrderId === undefined) !== (params.mchOrderNo === undefined), {
        error: (issue) =>
          (issue.input as RefundOrderFields).payOrderId === undefined
            ? 'give payOrderId or mchOrderNo of the paid order'
            : 'give payOrderId or mchOrderNo of the paid order, not both: the gateway would refund the order of payOrderId whatever mchOrderNo names',
      }),
    ),
  ),
);

/** The fields of {@link Refunds.CreateParams} before the rule "exactly one order id". */
type RefundOrderFields = z.input<ReturnType<typeof refundOrderParamsObject>>;

/**
 * Parameters of {@link GatewayClient.refundOrder}: the paid order (`payOrderId` or `mchOrderNo`, not both), your refund
 * number, the amount in minor units, its currency and a reason.
 *
 * @example
 * ```ts
 * import type { Refunds } from 'payment-gateway-sdk';
 *
 * const refund: Refunds.CreateParams = {
 *   mchOrderNo: 'order-1001', mchRefundNo: 'refund-1001', refundAmount: 400, currency: 'USD',
 *   refundReason: 'Returned: wrong size', notifyUrl: 'https://shop.example.com/pay/notify',
 * };
 * ```
 */
export type RefundOrderParams = ExactlyOne<RefundOrderFields, 'payOrderId' | 'mchOrderNo'>;

const refundOrderResultObject = () =>
  z.looseObject({
    /** The gateway's refund id. */
    refundOrderId: z.string(),
    /** Your refund number, as sent. */
    mchRefundNo: z.string(),
    /** The refunded order's amount, in integer minor units. */
    payAmount: wireInteger(),
    /** The amount of this refund, in integer minor units. */
    refundAmount: wireInteger(),
    /** The refund's state: usually 1 (refunding); 2 or 3 when the channel decided at once. */
    state: refundOrderStateSchema(),
    /** The refund's number at the channel. */
    channelOrderNo: z.optional(z.string()),
    /** The channel's error code when the refund failed. */
    errCode: z.optional(z.string()),
    /** The channel's error description when the refund failed. */
    errMsg: z.optional(freeText(z.string())),
  });
/** The schema typed by {@link Refunds.CreateResult}, so compile errors name it. */
const refundOrderResultSchema = lazySchema(() => named<z.input<ReturnType<typeof refundOrderResultObject>>, RefundOrderResult>()(refundOrderResultObject()));

/**
 * What {@link GatewayClient.refundOrder} resolves to: the refund the gateway made, from its answer or, after a
 * lost answer, from the refund found by your `mchRefundNo`. Its `state` may already be final (2 or 3).
 *
 * @example
 * ```ts
 * import { Refunds } from 'payment-gateway-sdk';
 *
 * const describe = (refund: Refunds.CreateResult) =>
 *   refund.state === Refunds.State.Succeeded ? 'refunded' : refund.state === Refunds.State.Failed ? `failed: ${refund.errMsg}` : 'in progress';
 * ```
 */
export interface RefundOrderResult extends z.output<ReturnType<typeof refundOrderResultObject>>, NotUniquelySigned {}

const refundIdsObject = () =>
  z.strictObject({
    /** Your refund number, as sent to `refundOrder`. */
    mchRefundNo: z.optional(requiredText()),
    /** The gateway's refund id, from the answer of `refundOrder`. */
    refundOrderId: z.optional(requiredText()),
  });

/** The ids a refund is found by; {@link Refunds.QueryParams} needs at least one of them. */
type RefundIds = z.input<ReturnType<typeof refundIdsObject>>;

/** Checks {@link Refunds.QueryParams}: one id at least. */
const refundQueryParamsSchema = lazySchema(() =>
  withInput<RefundQueryParams>()(
    refundIdsObject().check(z.refine((ids) => ids.mchRefundNo !== undefined || ids.refundOrderId !== undefined, { error: 'give mchRefundNo or refundOrderId (at least one)' })),
  ),
);

/**
 * Parameters of {@link GatewayClient.refundQuery}: `mchRefundNo`, `refundOrderId`, or both.
 *
 * @example
 * ```ts
 * import type { Refunds } from 'payment-gateway-sdk';
 *
 * const byOurNumber: Refunds.QueryParams = { mchRefundNo: 'refund-1001' };
 * const byGatewayId: Refunds.QueryParams = { refundOrderId: 'R202406180001' };
 * ```
 */
export type RefundQueryParams = AtLeastOne<RefundIds, 'mchRefundNo' | 'refundOrderId'>;

const refundObject = () =>
  z.looseObject({
    /** The gateway's refund id. */
    refundOrderId: z.string(),
    /** The refunded order's gateway id. */
    payOrderId: z.string(),
    /** Merchant number. */
    mchNo: z.string(),
    /** Merchant application id. */
    appId: z.string(),
    /** Your refund number. */
    mchRefundNo: z.string(),
    /** The refunded order's amount, in integer minor units. */
    payAmount: wireInteger(),
    /** The amount of this refund, in integer minor units. */
    refundAmount: wireInteger(),
    /** Three-letter currency code. */
    currency: z.string(),
    /** The refund's state, see {@link RefundOrderState}. */
    state: refundOrderStateSchema(),
    /** The refund's number at the channel. */
    channelOrderNo: z.optional(z.string()),
    /** The channel's error code when the refund failed. */
    errCode: z.optional(z.string()),
    /** The channel's error description when the refund failed. */
    errMsg: z.optional(freeText(z.string())),
    /** Your own data, as sent (absent when the signature cannot pin it down: see `ambiguousFields`). */
    extParam: z.optional(freeText(z.string())),
    /** When the refund succeeded, milliseconds since the epoch. */
    successTime: z.optional(wireInteger()),
    /** When the refund was created, milliseconds since the epoch. */
    createdAt: wireInteger(),
  });
/** The schema typed by {@link Refunds.Refund}, so compile errors name it. */
const refundSchema = lazySchema(() => named<z.input<ReturnType<typeof refundObject>>, Refund>()(refundObject()));

/**
 * A refund, as {@link GatewayClient.refundQuery} returns it.
 *
 * @example
 * ```ts
 * import { Refunds } from 'payment-gateway-sdk';
 *
 * // Money went back to the payer only in state 2.
 * const refunded = (refund: Refunds.Refund): number => (refund.state === Refunds.State.Succeeded ? refund.refundAmount : 0);
 * ```
 */
export interface Refund extends z.output<ReturnType<typeof refundObject>>, NotUniquelySigned {}

/**
 * Checks a refund notification: the refund's fields as `refundQuery` returns them, plus the `reqTime` the gateway
 * signed it with. Values must already be typed: verification turns the received strings into them first. A
 * payment notification is not one (it has no `refundOrderId`, `mchRefundNo`, `refundAmount` or `payAmount`).
 */
export const refundNotificationSchema = lazySchema(() =>
  z.looseObject({
    ...refundObject().def.shape,
    /** When the gateway first sent the notification, milliseconds since the epoch (kept on every retry). */
    reqTime: wireInteger(),
  }),
);

const refundExpect = lazySchema(() =>
  z.strictObject({
    /** Your refund number, as sent to `refundOrder`. */
    mchRefundNo: z.optional(requiredText()),
    /** The refunded amount in integer minor units. */
    refundAmount: z.optional(minorUnits()),
    /** The currency code, compared case-insensitively. */
    currency: z.optional(requiredText()),
    /** The state, or the states, the notification may carry. Default 2 or 3 (`Refunds.State.Succeeded`, `Failed`): the states the gateway notifies. */
    state: z.optional(expectedState(RefundOrderState, 'must be a refund state (0 to 4) or a non-empty list of them, e.g. RefundOrderState.Succeeded')),
  }),
);

/** The refund operations: rows of the operation table (`operations/table.ts`), checked by `defineOperation`. */
export const operations = {
  /**
   * Refunds a paid order, wholly or in part (`POST /api/refund/refundOrder`). `mchRefundNo` is the key a lost answer
   * is looked up by; the method docs: {@link GatewayClient.refundOrder}.
   */
  refundOrder: /* @__PURE__ */ defineOperation({
    path: '/api/refund/refundOrder',
    get params() {
      return refundOrderParamsSchema();
    },
    get result() {
      return refundOrderResultSchema();
    },
    retry: 'create',
    key: 'mchRefundNo',
    // The answer has no order id: it is bound by what it has.
    binds: ['mchRefundNo', 'refundAmount'],
    // In the reference server's order (docs/reference/refunds.md section 1).
    refusals: {
      missing_order_id: missingOrderId,
      order_not_found: orderNotFound,
      order_not_refundable: {
        match: /订单状态不正确|已全额退款|已完成全部订单退款|order (?:is )?not (?:paid|refundable)|(?:already )?fully refunded|cannot be refunded/i,
        advice: 'the order cannot be refunded: it is not paid (state 2), or it is refunded in full already (state 5); query it to learn its state',
      },
      refund_exceeds_refundable: {
        match: /超出.*可退款|exceeds? (?:the )?(?:refundable|remaining)|more than (?:is )?(?:left|refundable)/i,
        advice: 'no refund was made under this mchRefundNo, and this one is larger than what is left to refund of the order: refund at most the amount paid less what was refunded',
      },
      refund_in_progress: {
        match: /在途退款|refund (?:is )?(?:already )?in progress|refunding (?:in progress|already)/i,
        advice: 'another refund of this order is still in progress (state 1): try again later with the same mchRefundNo, never under a new one',
      },
      duplicate_refund: {
        match: /退款订单号\[[^\]]*\]已存在|mchRefundNo (?:\[[^\]]*\] )?already exists|duplicate (?:mchRefundNo|refund)|refund (?:\[[^\]]*\] )?already exists/i,
        advice: 'a refund with this mchRefundNo exists already: look it up (refundQuery by mchRefundNo); never refund the same thing under a new mchRefundNo',
      },
      refund_unsupported: {
        match: /不支持退款|(?:channel|interface) (?:does not support|cannot) refunds?|refunds? (?:are |is )?not supported/i,
        advice: "this order's payment channel cannot refund through the gateway: refund the payer another way",
      },
    },
    // The order's existence first, the channel last (after the duplicate check): neither can be caused by a refund
    // under this mchRefundNo. The state and sum checks and the duplicate come before it, so a repeat of a refund
    // made is refused by them: those are looked up by mchRefundNo.
    refusedBeforeRecord: ['missing_order_id', 'order_not_found', 'refund_unsupported'],
    reconcile: {
      lookup: 'refundQuery',
      by: ['mchRefundNo'],
      toResult: (refund: Refund) => pick(refund, ['refundOrderId', 'mchRefundNo', 'payAmount', 'refundAmount', 'state', 'channelOrderNo', 'errCode', 'errMsg']),
      decisive: ['refundAmount', 'currency', 'payOrderId', 'mchOrderNo'],
      // The record names its order by payOrderId only: a refund asked by mchOrderNo is compared with the payOrderId
      // a signed query of that order gives (bound to the mchOrderNo asked), never taken on its number alone.
      resolve: { lookup: 'query', by: ['mchOrderNo'], gives: ['payOrderId'] },
    },
    logged: ['refundOrderId', 'state'],
    summary: 'Refunds a paid order, wholly or in part. Resolves to the `Refunds.CreateResult` (its `state` may be final already), or after a lost answer the refund found by `mchRefundNo`: never refunded twice.',
  }),
  /** Reads a refund by `mchRefundNo` or `refundOrderId` (`POST /api/refund/query`); the method docs: {@link GatewayClient.refundQuery}. */
  refundQuery: /* @__PURE__ */ defineOperation({
    path: '/api/refund/query',
    get params() {
      return refundQueryParamsSchema();
    },
    get result() {
      return refundSchema();
    },
    retry: 'read',
    binds: ['mchRefundNo', 'refundOrderId'],
    refusals: {
      refund_not_found: {
        match: /订单不存在|refund(?: order)? (?:does not exist|not found)|no such refund|order does not exist/i,
        advice: 'the gateway has no such refund for this merchant: check mchRefundNo or refundOrderId (a refund whose create was lost and is not found was never made)',
      },
    },
    notFound: ['refund_not_found'],
    logged: ['refundOrderId', 'state'],
    summary: 'Reads a refund by `mchRefundNo` or `refundOrderId`. Resolves to the `Refunds.Refund` asked for, with its order and state.',
  }),
};

/** The gateway's notification of a refund that ended, at the refund's `notifyUrl`: `verifyRefundNotification`, `onRefunded`, `onRefundFailed`. */
export const notification = defineNotificationKind(
  {
    name: 'refund',
    label: 'refund notification',
    verifier: 'verifyRefundNotification',
    handlers: {
      onRefunded: { name: 'on_refunded', states: [RefundOrderState.Succeeded] },
      // 4 (closed) is never notified; a sweep finds it, and it ended without money moving as 3 did.
      onRefundFailed: { name: 'on_refund_failed', states: [RefundOrderState.Failed, RefundOrderState.Closed] },
    },
    expectOption: 'expectRefund',
    identifiedBy: ['refundOrderId', 'mchRefundNo'],
    stateField: 'state',
    amountField: 'refundAmount',
    // 0 and 1 may still end either way; the gateway closes one still open after two hours (4). The kind leads its
    // keys, so that no refund's can be an order's; one tracked by its key names its order by one of the order's ids.
    tracking: {
      read: 'refundQuery', by: ['refundOrderId', 'mchRefundNo'], open: [RefundOrderState.Created, RefundOrderState.Refunding], states: RefundOrderState,
      notFound: 'refund_not_found', noun: 'refund', found: 'refund found by a sweep', prefix: 'refund:',
      waited: "show the refund as in progress, and rely on the refund notification, a processor's sweep or a later refundQuery",
      byKey: { prefix: 'refund-key:', currency: requiredText, of: 'payment' },
      reportedIn: 'refunds',
    },
    get schema() {
      return refundNotificationSchema();
    },
    get expect() {
      return refundExpect();
    },
    // Required: a signed refundQuery answer (the same record, signed with the same secret) carries neither.
    merchantRequired: true,
    // The kind leads, so that no refund's key can be a payment's (`${payOrderId}:${state}`).
    idempotencyKey: (n) => `refund:${n.refundOrderId}:${n.state}`,
    // The gateway notifies a refund when it succeeds or fails, never in another state.
    defaultExpect: { state: [RefundOrderState.Succeeded, RefundOrderState.Failed] },
    // A failed refund has no successTime: its creation (earlier, so refused sooner) then. Never reqTime, which a re-send renews.
    eventTime: successElseCreated('was refunded', 'is of a refund created'),
    recover: 'Read the refund (client.refundQuery) and record it',
  },
  settledBy<typeof operations>(),
);
