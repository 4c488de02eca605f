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
export { GatewayClient, type Operation, type OperationTypes } from './client/gateway-client.js';
export type { GatewayResponse, RequestOptions } from './client/runner.js';
export { WAIT_FOR_ORDER_DEFAULTS, type WaitForOrderOptions } from './client/wait-for-order.js';
export type { GatewayHooks, ReconcileEvent, RequestEvent, ResponseEvent, RetryEvent } from './client/hooks.js';
export type { GatewayLogger, LogLevel } from './client/logging.js';
export { RETRY_DEFAULTS, type RetryOptions, type RetryPolicy } from './client/retry-policy.js';
export { CLIENT_DEFAULTS, gatewayClientOptionsSchema, type GatewayClientOptions } from './client/options.js';
export {
  COMMON_REQUEST_FIELDS,
  endpoints,
  wireFields,
  type EndpointDefinition,
  type OperationName,
  type ReconcileDefinition,
  type RetryClass,
} from './endpoints.js';
export type { GatewayApiErrorReason } from './api-error-reason.js';
export {
  BODY_EXCERPT_LIMIT,
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
  GatewayResponseTooLargeError,
  GatewayResponseValidationError,
  GatewaySignatureError,
  GatewayTimeoutError,
  GatewayTruncatedResponseError,
  GatewayValidationError,
  GatewayWaitTimeoutError,
  isGatewayError,
  type GatewayErrorOptions,
  type ReconcileKey,
  type ReconciliationDifference,
  type ResponseErrorDetails,
  type ValidationIssue,
} from './errors.js';
export { NOTIFICATION_ACK, notificationAckResponse } from './notify/acknowledge.js';
export {
  verifyNotificationOptionsSchema,
  verifySettlementNotificationOptionsSchema,
  type ClientNotificationOptions,
  type NotificationOptions,
  type PayOrderExpectation,
  type SettlementExpectation,
  type VerifyNotificationOptions,
  type VerifySettlementNotificationOptions,
} from './notify/options.js';
export type { NotificationInput } from './notify/read-input.js';
export type { IdempotentNotification } from './notify/verify-received.js';
export { verifyNotification, verifySettlementNotification, type PayOrderNotification, type SettlementNotification } from './notify/verify.js';
export { payOrderNotificationSchema, settlementNotificationSchema } from './schemas/notification.js';
export { sign, type SignableParams, type SignableValue } from './signing/sign.js';
export { verifySign } from './signing/verify.js';
export { responseEnvelopeSchema, type ResponseEnvelope } from './schemas/envelope.js';
export {
  DivisionMode,
  divisionModeSchema,
  isBarcodeWayCode,
  isFinalPayOrderState,
  isFinalTransactionStatus,
  KNOWN_WAY_CODES,
  PAY_DATA_TYPES,
  PAYOUT_CHANNELS,
  PayOrderState,
  payDataTypeSchema,
  payOrderStateName,
  payOrderStateSchema,
  payoutChannelSchema,
  requestedPayDataTypeSchema,
  TRANSACTION_STATUSES,
  transactionStatusSchema,
  type PayDataType,
  type PayoutChannel,
  type TransactionStatus,
  type WayCode,
} from './schemas/enums.js';
export {
  channelExtraSchema,
  closeParamsSchema,
  closeResultSchema,
  orderTransactionSchema,
  payOrderSchema,
  queryParamsSchema,
  unifiedOrderParamsSchema,
  unifiedOrderResultSchema,
  type ChannelExtra,
  type CloseParams,
  type OrderIds,
  type OrderTransaction,
  type PayOrder,
  type QueryParams,
  type UnifiedOrderParams,
  type UnifiedOrderResult,
} from './schemas/order.js';
export {
  settleAddressApplyParamsSchema,
  settlementRecordSchema,
  settlementResultSchema,
  settleRequestGetParamsSchema,
  settleRequestParamsSchema,
  type SettleAddressApplyParams,
  type SettlementRecord,
  type SettlementResult,
  type SettleRequestFields,
  type SettleRequestGetParams,
  type SettleRequestParams,
} from './schemas/settlement.js';
export type { AtLeastOne, ExactlyOne } from './schemas/one-of.js';
export type { FetchLike, HttpExchange } from './transport/http.js';
export { JsonNumberText } from './json/lossless-json.js';
