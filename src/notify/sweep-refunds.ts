/**
 * The refunds a sweep reads: tracked in the store's order tracking under `refund:<refundOrderId>` (no order id
 * can take that form: `track` refuses it), read with a signed `refundQuery`, and settled through the refund
 * notification's own claim (its row in kinds.ts gives the key and the event time).
 *
 * @module
 */
import type { Refund } from '../protocol/schemas/refund.js';
import { readIds } from './kind-tracking.js';
import { notificationKinds } from './kinds.js';
import type { TrackedOrder } from './tracking.js';
import type { IdempotentNotification } from './verify-received.js';

/**
 * A refund `processor.track` takes: the {@link RefundOrderResult} `refundOrder` resolves to, a {@link Refund}, or
 * the two ids of a refund made before. A record with a `refundOrderId` is a refund.
 *
 * @example
 * ```ts
 * await processor.track(await client.refundOrder({ payOrderId, mchRefundNo: 'refund-1001', refundAmount: 400, currency: 'USD', refundReason: 'Returned' }));
 * await processor.track({ refundOrderId: 'R1623985459000001', mchRefundNo: 'refund-1000' }); // an older refund, from your table
 * ```
 */
export interface TrackableRefund {
  /** The gateway's refund id. */
  readonly refundOrderId: string;
  /** Your refund number, as sent to `refundOrder`. */
  readonly mchRefundNo: string;
}

/**
 * A final refund as a sweep hands it to `onRefunded` (state 2) or `onRefundFailed` (3 or 4): the {@link Refund}
 * of a **signed `refundQuery`**, checked against the tracked refund's `refundOrderId` and `mchRefundNo` and the
 * processor's `mchNo` and `appId`, with the `idempotencyKey` its notification has (`refund:${refundOrderId}:${state}`),
 * so that the two never both run. Unlike a {@link RefundNotification} it has no `reqTime` (nothing was notified);
 * a closed refund (4) is only ever found this way.
 *
 * @interface
 * @example
 * ```ts
 * const onRefunded = async (refund: RefundNotification | SweepReport.SweptRefund) => {
 *   log.info(`refund ${refund.mchRefundNo} ended in state ${refund.state}`, { via: refund.reqTime === undefined ? 'sweep' : 'notification' });
 * };
 * ```
 */
export type SweptRefund = Refund & IdempotentNotification & { readonly reqTime?: undefined };

const PREFIX = 'refund:';

/** The tracked record of a refund: its key in the order tracking, and its number where an order's is. */
export const trackedRefund = (refund: TrackableRefund, trackedAt: number): TrackedOrder => ({
  payOrderId: `${PREFIX}${refund.refundOrderId}`,
  mchOrderNo: refund.mchRefundNo,
  trackedAt,
  expiresAt: undefined,
});

/** The key a refund is tracked under, for `forget`. */
export const refundTrackingKey = (refundOrderId: string): string => `${PREFIX}${refundOrderId}`;

/** Whether a key (an order's payOrderId, given to track) is a tracked refund's: no order may be tracked under one. */
export const isRefundKey = (key: string): boolean => key.startsWith(PREFIX);

/** The ids a tracked refund is read by (its row's `tracking.by`), or `undefined` for a tracked order. */
export function refundIdsOf(tracked: TrackedOrder): TrackableRefund | undefined {
  return isRefundKey(tracked.payOrderId) ? readIds(notificationKinds.refund.tracking, tracked.payOrderId.slice(PREFIX.length), tracked.mchOrderNo) : undefined;
}

/** A refund read by a sweep, as its handler receives it: the notification's key, and when it happened (the row's event time). */
export function sweptRefund(record: Refund): { readonly swept: SweptRefund; readonly eventTime: number } {
  const row = notificationKinds.refund;
  // The row's key and event time read the record's ids, state and times, never reqTime (a re-send renews it).
  const signed = record as Refund & { readonly reqTime: never };
  return { swept: { ...record, idempotencyKey: row.idempotencyKey(signed) }, eventTime: row.eventTime(signed).time };
}
