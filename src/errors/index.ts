/**
 * The error classes: the lowest layer of the SDK, importing nothing else of it.
 *
 * @module
 */
export { GatewayError, isGatewayError, type GatewayErrorOptions } from './gateway-error.js';
export { formatIssues, GatewayPayloadTooLargeError, GatewayValidationError, type ValidationIssue } from './validation.js';
export { GatewaySignatureError } from './signature.js';
export {
  BODY_EXCERPT_LIMIT,
  excerpt,
  GatewayEmptyResponseError,
  GatewayHttpStatusError,
  GatewayNonJsonResponseError,
  GatewayResponseError,
  GatewayResponseMismatchError,
  GatewayResponseContractError,
  GatewayResponseTooLargeError,
  GatewayResponseValidationError,
  type ContractLookup,
  GatewayTruncatedResponseError,
  type ResponseErrorDetails,
  withContractLookup,
} from './response.js';
export { GatewayAbortError, GatewayConnectionError, GatewayTimeoutError } from './network.js';
export { GatewayOutcomeUnknownError, GatewayReconciliationMismatchError, type ReconcileKey, type ReconciliationDifference } from './outcome.js';
