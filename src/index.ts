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
  verifyRefundNotification,
  verifySettlementNotification,
  type PayOrderExpectation,
  type PayOrderNotification,
  type RefundNotification,
  type SettlementExpectation,
  type SettlementNotification,
  type VerifyNotificationOptions,
  type VerifyRefundNotificationOptions,
  type VerifySettlementNotificationOptions,
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
  RefundExpectation,
  SettlementProcessorOptions,
} from './notify/processor-options.js';
export type { NotificationOutcome, NotificationReply } from './notify/reply.js';
export { memoryStore } from './notify/memory-store.js';
export type { NotificationStore, ProcessingContext } from './notify/store.js';
// Tracking and sweeping orders: no paid order left behind
export type { SweepOptions } from './notify/sweep-options.js';
export type { SweepReport } from './notify/sweep-report.js';
export type { PaidOrder, SweptPayOrder } from './notify/sweep-settings.js';

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
export { RefundOrderState, refundOrderStateName, type Refund, type RefundOrderParams, type RefundOrderResult, type RefundQueryParams } from './protocol/schemas/refund.js';
export type {
  SettleAddressApplyParams,
  SettlementRecord,
  SettlementResult,
  SettleRequestGetParams,
  SettleRequestParams,
} from './protocol/schemas/settlement.js';
