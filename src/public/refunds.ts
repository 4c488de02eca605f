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
} from '../protocol/schemas/refund.js';
export type { RefundNotification as Notification, VerifyRefundNotificationOptions as VerifyOptions } from '../notify/verify.js';
export type { RefundExpectation as Expectation } from '../notify/processor-options.js';
export type { SweptRefund as Swept, TrackableRefund as Trackable } from '../notify/sweep-settings.js';
export type { UnconfirmedRefund as Unconfirmed } from '../notify/sweep-keys.js';
export type { RefundSweepProblem as SweepProblem, RefundSweepReport as SweepReport } from '../notify/sweep-report.js';
