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
import type { Swept as SweptOf, Trackable as TrackableOf, Unconfirmed as UnconfirmedOf } from '../../notify/tracked-types.js';

/**
 * A paid order as a sweep hands it to `onPaid`: the {@link PayOrder} of a **signed query** (verified by the
 * client, bound to the ids asked for, checked against the tracked order and the processor's `mchNo` and `appId`),
 * with the `idempotencyKey` a notification of that payment has (`${payOrderId}:2`), so the two never both run.
 * It differs from a {@link PayOrderNotification} only in having no `reqTime`: tell them apart by
 * `reqTime === undefined`. Everything `onPaid` acts on is as trustworthy as a notification's.
 *
 * @interface
 * @example
 * ```ts
 * const onPaid = async (paid: PaidOrder) => {
 *   const via = paid.reqTime === undefined ? 'sweep' : 'notification'; // paid is a Payments.Swept in the first case
 *   await orders.markPaid(paid.mchOrderNo, paid.amount, via);
 * };
 * ```
 */
export type Swept = SweptOf<'payment'>;

/**
 * An order `processor.track` takes: a {@link CreatedOrder} or {@link RecoveredOrder} as `unifiedOrder`
 * resolves to it, or the two ids of an order you created before (to track orders created elsewhere).
 *
 * @example
 * ```ts
 * await processor.track(await client.unifiedOrder(params));
 * await processor.track({ payOrderId: row.gatewayId, mchOrderNo: row.number }); // an older order, from your table
 * ```
 */
export type Trackable = TrackableOf<'payment'>;

/**
 * An order `processor.track` takes when `unifiedOrder` rejected with `GatewayOutcomeUnknownError`: known by your
 * `mchOrderNo` and what you sent. A sweep looks it up by `mchOrderNo`; a record found must have the amount and
 * currency sent (else it is `mismatched` and `onPaid` never runs), and is then tracked and settled as any order.
 * One the gateway proves absent is reported `neverMade` and no longer tracked. A `UnifiedOrderParams` is one.
 *
 * @example
 * ```ts
 * try {
 *   await processor.track(await client.unifiedOrder(params));
 * } catch (error) {
 *   if (!(error instanceof GatewayOutcomeUnknownError)) throw error;
 *   await processor.track({ mchOrderNo: params.mchOrderNo, amount: params.amount, currency: params.currency });
 * }
 * ```
 */
export type Unconfirmed = UnconfirmedOf<'payment'>;

export type { SweepProblem } from '../../notify/sweep-report.js';
