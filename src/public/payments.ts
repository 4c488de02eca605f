/**
 * The payment kind's tracking names, as `Payments.*` from the package root: what `processor.track` takes of an
 * order, what a sweep hands `onPaid`, and why it left one unsettled. The order's own types and values
 * (`PayOrder`, `PayOrderState`, `UnifiedOrderParams`, `PayOrderNotification`, `PaidOrder`...) stay at the root,
 * the names every integration writes.
 *
 * @example
 * ```ts
 * import type { Payments } from 'payment-gateway-sdk';
 *
 * const older: Payments.Trackable = { payOrderId: row.gatewayId, mchOrderNo: row.number };
 * await processor.track(older);
 * const unknown: Payments.Unconfirmed = { mchOrderNo: 'order-1002', amount: 1999, currency: 'USD' };
 * await processor.track(unknown);
 * ```
 *
 * @module
 */
export type { SweptPayOrder as Swept, TrackableOrder as Trackable } from '../notify/sweep-settings.js';
export type { UnconfirmedOrder as Unconfirmed } from '../notify/sweep-keys.js';
export type { SweepProblem } from '../notify/sweep-report.js';
