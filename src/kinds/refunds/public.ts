/**
 * The refund kind's public names, as `Refunds.*` from the package root: what `refundOrder` and `refundQuery` take
 * and resolve to, the state values a merchant branches on, the notification and what it must match, and what
 * `processor.track` and `processor.sweep` take and hand over of a refund.
 *
 * @example
 * ```ts
 * import { Refunds } from 'payment-gateway-sdk';
 *
 * const params: Refunds.CreateParams = { payOrderId: 'P202406180001', mchRefundNo: 'refund-1001', refundAmount: 400, currency: 'USD', refundReason: 'Returned' };
 * const refund: Refunds.Refund = await client.refundQuery({ mchRefundNo: params.mchRefundNo });
 * if (refund.state === Refunds.State.Succeeded) console.log(Refunds.stateName(refund.state)); // 'Succeeded'
 * ```
 *
 * @module
 */
export {
  RefundOrderState as State,
  refundOrderStateName as stateName,
  type Refund,
  type RefundOrderParams as CreateParams,
  type RefundOrderResult as CreateResult,
  type RefundQueryParams as QueryParams,
} from './declaration.js';
import type { KindNotification, KindVerifyOptions } from '../../notify/verify.js';
import type { KindSweepProblem, KindSweepReport } from '../../notify/sweep-report.js';
import type { Swept as SweptOf, Trackable as TrackableOf, Unconfirmed as UnconfirmedOf } from '../../notify/tracked-types.js';

/**
 * A final refund as a sweep hands it to `onRefunded` (state 2) or `onRefundFailed` (3 or 4): the {@link Refunds.Refund}
 * of a **signed `refundQuery`**, checked against the tracked refund's `refundOrderId` and `mchRefundNo` and the
 * processor's `mchNo` and `appId`, with the `idempotencyKey` its notification has (`refund:${refundOrderId}:${state}`),
 * so that the two never both run. Unlike a {@link Refunds.Notification} it has no `reqTime` (nothing was notified);
 * a closed refund (4) is only ever found this way.
 *
 * @interface
 * @example
 * ```ts
 * const onRefunded = async (refund: Refunds.Notification | Refunds.Swept) => {
 *   log.info(`refund ${refund.mchRefundNo} ended in state ${refund.state}`, { via: refund.reqTime === undefined ? 'sweep' : 'notification' });
 * };
 * ```
 */
export type Swept = SweptOf<'refund'>;

/**
 * A refund `processor.track` takes: the {@link Refunds.CreateResult} `refundOrder` resolves to, a {@link Refunds.Refund}, or
 * the two ids of a refund made before. A record with a `refundOrderId` is a refund.
 *
 * @example
 * ```ts
 * await processor.track(await client.refundOrder({ payOrderId, mchRefundNo: 'refund-1001', refundAmount: 400, currency: 'USD', refundReason: 'Returned' }));
 * await processor.track({ refundOrderId: 'R1623985459000001', mchRefundNo: 'refund-1000' }); // an older refund, from your table
 * ```
 */
export type Trackable = TrackableOf<'refund'>;

/**
 * A refund `processor.track` takes when `refundOrder` rejected with `GatewayOutcomeUnknownError`: known by your
 * `mchRefundNo`, the amount and currency sent, and exactly one id of the order refunded, as sent. A sweep looks it
 * up by `mchRefundNo`; a record found must be of that amount, currency and order (one refunded by `mchOrderNo` is
 * compared with the `payOrderId` a signed query of the order gives), else it is `mismatched` and no handler runs.
 * Found, it is tracked and settled as any refund; proved absent, it is reported `neverMade` and no longer tracked.
 *
 * @example
 * ```ts
 * await processor.track({ mchRefundNo: 'refund-1001', refundAmount: 400, currency: 'USD', mchOrderNo: 'order-1001' });
 * ```
 */
export type Unconfirmed = UnconfirmedOf<'refund'>;

/**
 * Why a sweep did not settle a refund: what {@link Refunds.SweepReport}'s `problems` lists.
 *
 * @example
 * ```ts
 * for (const p of report.refunds.problems) log.warn(`${p.kind}: refund ${p.mchRefundNo} (${p.refundOrderId}): ${p.message}`);
 * ```
 */
export type SweepProblem = KindSweepProblem<'refund'>;

/**
 * What one sweep did with tracked refunds (`report.refunds`): `refunded` (2) and `refundFailed` (3 or 4, a closed
 * refund is never notified) count those whose `onRefunded`, `onRefundFailed` ran, now forgotten. Every checked refund
 * is counted in exactly one of the fields after `checked`.
 *
 * @example
 * ```ts
 * const { refunds } = await processor.sweep({ olderThanMs: 60_000 });
 * metrics.count('refunds.settled_by_sweep', refunds.refunded + refunds.refundFailed); // > 0: refund notifications are lost
 * if (refunds.failed + refunds.notFound + refunds.mismatched + refunds.tooOld > 0) alertOnCall(refunds.problems);
 * ```
 */
export type SweepReport = KindSweepReport<'refund'>;

/**
 * A verified refund notification: the refund's fields typed as the gateway's refund query returns them
 * (numbers for `refundAmount`, `payAmount`, `state`, `successTime`, `createdAt`), `reqTime`, unknown extra
 * fields kept, and `idempotencyKey` (`refund:${refundOrderId}:${state}`). Its `state` 2 is money going back to
 * the payer, never a payment.
 *
 * @interface
 * @example
 * ```ts
 * const refund: Refunds.Notification = await verifyRefundNotification(request, credentials);
 * if (refund.state === 2) await markRefunded(refund.mchRefundNo, refund.refundAmount); // 2: succeeded, 3: failed
 * ```
 */
export type Notification = KindNotification<'refund'>;

/**
 * Options of {@link verifyRefundNotification}: {@link NotificationOptions} and what the refund must match
 * (`expect`: `mchRefundNo`, `refundAmount` with `currency`, `state`, by default 2 or 3, the states the gateway
 * notifies; a mismatch is a {@link GatewayValidationError}).
 *
 * @interface
 * @example
 * ```ts
 * const options: Refunds.VerifyOptions = {
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9',
 *   expect: { mchRefundNo: 'refund-1001-1', refundAmount: 500, currency: 'USD' },
 * };
 * ```
 */
export type VerifyOptions = KindVerifyOptions<'refund'>;


/**
 * What a refund processor's notification must match (`expectRefund`), e.g. from your refund record. The state is
 * not among them: `onRefunded` runs for state 2 only, `onRefundFailed` for 3 and 4.
 *
 * @example
 * ```ts
 * const expected: Refunds.Expectation = { mchRefundNo: 'refund-1001-1', refundAmount: 500, currency: 'USD' };
 * ```
 */
export type Expectation = Omit<NonNullable<VerifyOptions['expect']>, 'state'>;
