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
// The public surface: what a merchant imports. Anything else is internal, whichever file exports it
// (test/docs/public-surface.test.ts holds this list). The mock gateway is its own entry: ./testing.

// Client
export { GatewayClient, type Operation, type OperationMethod, type OperationMethods, type OperationTypes } from './client/gateway-client.js';
export { CLIENT_DEFAULTS, RETRY_DEFAULTS, type ConfirmOptions, type GatewayClientOptions, type RequestOptions, type RetryOptions, type RetryPolicy } from './client/options.js';
export { GatewayWaitTimeoutError, WAIT_FOR_ORDER_DEFAULTS, type WaitForOrderOptions } from './client/wait-for-order.js';
export { GatewayOrderPaidError } from './client/reissue.js';
export type { GatewayResponse } from './client/runner.js';
export type { AttemptPurpose, GatewayHooks, ReconcileEvent, RequestEvent, ResponseEvent, RetryEvent } from './client/hooks.js';
export type { GatewayLogger, LogLevel } from './client/logging.js';
export type { FetchLike, HttpExchange } from './transport/http.js';
export { operations, type ConfirmedOf, type OperationName, type ParamsOf, type ResultOf } from './operations/table.js';
export type { ConfirmDefinition, OperationDefinition, ReconcileDefinition, RetryClass } from './operations/define.js';
export { sign, type SignableParams, type SignableValue } from './protocol/signing/sign.js';
export { verifySign, type VerifySignOptions } from './protocol/signing/verify.js';

// Errors
export {
  GatewayAbortError,
  GatewayApiError,
  GatewayConnectionError,
  GatewayEmptyResponseError,
  GatewayError,
  GatewayHttpStatusError,
  GatewayNonJsonResponseError,
  GatewayOutcomeUnknownError,
  GatewayPayloadTooLargeError,
  GatewayReconciliationMismatchError,
  GatewayResponseError,
  GatewayResponseMismatchError,
  GatewayResponseTooLargeError,
  GatewayResponseValidationError,
  GatewaySignatureError,
  GatewayTimeoutError,
  GatewayTruncatedResponseError,
  GatewayValidationError,
  isGatewayError,
  type GatewayErrorOptions,
  type ReconcileKey,
  type ReconciliationDifference,
  type ResponseErrorDetails,
  type ValidationIssue,
} from './errors/index.js';
export type { GatewayApiErrorReason } from './errors/index.js';

// Notifications
export { verifyNotification, verifySettlementNotification, type PayOrderNotification, type SettlementNotification } from './notify/verify.js';
export { NOTIFICATION_ACK, notificationAckResponse } from './notify/acknowledge.js';
export type {
  ClientNotificationOptions,
  NotificationOptions,
  PayOrderExpectation,
  SettlementExpectation,
  VerifyNotificationOptions,
  VerifySettlementNotificationOptions,
} from './notify/options.js';
export type { NotificationInput } from './notify/input.js';
export type { IdempotentNotification } from './notify/verify-received.js';
export {
  createNotificationProcessor,
  type NotificationProcessor,
  type PaymentExpectation,
  type PaymentProcessorOptions,
  type ProcessorExpectation,
  type ProcessorOptions,
  type SettlementProcessorOptions,
} from './notify/processor.js';
export type { NotificationOutcome, NotificationReply } from './notify/reply.js';
export { memoryStore, type MemoryStoreOptions } from './notify/memory-store.js';
export type { NotificationStore, ProcessingContext, RunOnceResult } from './notify/store.js';

// Parameters, results and the values merchants branch on
export {
  DivisionMode,
  isBarcodeWayCode,
  isFinalPayOrderState,
  isFinalTransactionStatus,
  KNOWN_WAY_CODES,
  PAY_DATA_TYPES,
  PayOrderState,
  payOrderStateName,
  TRANSACTION_STATUSES,
  type PayDataType,
  type TransactionStatus,
  type WayCode,
} from './protocol/schemas/enums.js';
export type {
  ChannelExtra,
  CreatedOrder,
  CloseParams,
  OrderIds,
  OrderTransaction,
  PayOrder,
  QueryParams,
  RecoveredOrder,
  UnifiedOrderParams,
  UnifiedOrderResult,
} from './protocol/schemas/order.js';
export type {
  SettleAddressApplyParams,
  SettlementRecord,
  SettlementResult,
  SettleRequestFields,
  SettleRequestGetParams,
  SettleRequestParams,
} from './protocol/schemas/settlement.js';
export type { NotUniquelySigned } from './protocol/schemas/free-text.js';
export type { ResponseEnvelope } from './protocol/schemas/envelope.js';
export type { AtLeastOne, ExactlyOne } from './protocol/schemas/one-of.js';
