/**
 * payment-gateway-sdk: a typed, signed, verified client for the Payment Gateway Service.
 *
 * @example
 * ```ts
 * import { GatewayClient } from 'payment-gateway-sdk';
 *
 * const client = new GatewayClient({ baseUrl, mchNo, appId, secret });
 * const order = await client.query({ mchOrderNo: 'order-1001' });
 * ```
 *
 * @packageDocumentation
 * @module payment-gateway-sdk
 */
// The public surface: what a merchant imports (at most 100 names). Anything else is internal, whichever
// file exports it: the operation table and its types, the schemas' helper types, error constructors'
// options (test/docs/public-surface.test.ts holds this list). The mock gateway is its own entry: ./testing.

// Client
export { GatewayClient, type OperationMethods } from './client/gateway-client.js';
export { CLIENT_DEFAULTS, RETRY_DEFAULTS, type GatewayClientOptions, type RequestOptions } from './client/options.js';
export { GatewayWaitTimeoutError, WAIT_FOR_ORDER_DEFAULTS } from './client/wait-for-record.js';
export { GatewayOrderPaidError } from './client/reissue.js';
export { GatewayOrderNotFinalError } from './client/order-not-final.js';
export type { GatewayHooks } from './client/hooks.js';
export type { GatewayLogger, LogLevel } from './client/logging.js';
export type { OperationName } from './operations/table.js';
export { sign } from './protocol/signing/sign.js';
export { verifySign, type VerifySignOptions } from './protocol/signing/verify.js';

// Errors
export {
  GatewayAbortError,
  GatewayConnectionError,
  GatewayEmptyResponseError,
  GatewayError,
  GatewayHttpStatusError,
  GatewayNonJsonResponseError,
  GatewayOutcomeUnknownError,
  GatewayPayloadTooLargeError,
  GatewayReconciliationMismatchError,
  GatewayResponseContractError,
  GatewayResponseError,
  GatewayResponseMismatchError,
  GatewayResponseTooLargeError,
  GatewayResponseValidationError,
  GatewaySignatureError,
  GatewayTimeoutError,
  GatewayTruncatedResponseError,
  GatewayValidationError,
  isGatewayError,
} from './errors/index.js';
export { GatewayApiError, type GatewayApiErrorReason } from './operations/api-error.js';

// Notifications
export {
  verifyNotification,
  type PayOrderExpectation,
  type PayOrderNotification,
  type VerifyNotificationOptions,
} from './notify/verify.js';
export { NOTIFICATION_ACK, notificationAckResponse } from './notify/acknowledge.js';
export type { NotificationOptions } from './notify/options.js';
export type { NotificationInput } from './notify/input.js';
export { createNotificationProcessor } from './notify/processor.js';
export type {
  NotificationProcessor,
  NotificationProcessorOptions,
  PaymentExpectation,
  PaymentNotificationProcessor,
  PaymentProcessorOptions,
} from './notify/processor-options.js';
export type { NotificationOutcome, NotificationReply } from './notify/reply.js';
export { memoryStore } from './notify/memory-store.js';
export type { NotificationStore, ProcessingContext } from './notify/store.js';
// Tracking and sweeping orders: no paid order left behind
export type { SweepOptions } from './notify/sweep-options.js';
export type { SweepReport } from './notify/sweep-report.js';
export type { PaidOrder } from './notify/sweep-settings.js';

// Parameters, results and the values merchants branch on
export {
  DivisionMode,
  isFinalPayOrderState,
  PAY_DATA_TYPES,
  PayOrderState,
  payOrderStateName,
  type PayDataType,
  type TransactionStatus,
  type WayCode,
} from './protocol/schemas/enums.js';
export type {
  ChannelExtra,
  CreatedOrder,
  CloseParams,
  OrderTransaction,
  PayOrder,
  QueryParams,
  RecoveredOrder,
  UnifiedOrderParams,
  UnifiedOrderResult,
} from './protocol/schemas/order.js';

// Each other kind's names in one group (`Refunds.CreateParams`, `Refunds.State.Succeeded`): a kind adds one name
// here, two with its verifier. Payments keep their order types at the root; their tracking types are `Payments.*`.
/**
 * The payment kind's tracking types: `Payments.Trackable`, `Payments.Unconfirmed`, `Payments.Swept`, `Payments.SweepProblem`.
 *
 * @example
 * ```ts
 * const unknown: Payments.Unconfirmed = { mchOrderNo: 'order-1002', amount: 1999, currency: 'USD' };
 * await processor.track(unknown);
 * ```
 */
export type * as Payments from './public/payments.js';
/**
 * The refund kind's names: `Refunds.CreateParams`, `Refunds.Refund`, `Refunds.State`, `Refunds.Notification`...
 *
 * @example
 * ```ts
 * const refund: Refunds.Refund = await client.refundQuery({ mchRefundNo: 'refund-1001' });
 * if (refund.state === Refunds.State.Succeeded) console.log(Refunds.stateName(refund.state));
 * ```
 */
export * as Refunds from './public/refunds.js';
export { verifyRefundNotification } from './public/refunds.js';
/**
 * The transfer kind's names (payouts): `Transfers.CreateParams`, `Transfers.Transfer`, `Transfers.State`, `Transfers.Notification`...
 *
 * @example
 * ```ts
 * const transfer: Transfers.Transfer = await client.transferQuery({ mchOrderNo: 'payout-1001' });
 * if (transfer.state === Transfers.State.Succeeded) console.log(Transfers.stateName(transfer.state));
 * ```
 */
export * as Transfers from './public/transfers.js';
export { verifyTransferNotification } from './public/transfers.js';
/**
 * The settlement kind's names: `Settlements.RequestParams`, `Settlements.Settlement`, `Settlements.Notification`...
 *
 * @example
 * ```ts
 * const record: Settlements.Settlement = await client.settleRequestGet({ requestId: 'settle-2024-07' });
 * ```
 */
export type * as Settlements from './public/settlements.js';
export { verifySettlementNotification } from './public/settlements.js';
export { RefundOrderState } from './public/deprecated.js';
