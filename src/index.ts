/**
 * payment-gateway-sdk: a typed, signed, verified client for the Payment Gateway Service.
 *
 * @example
 * ```ts
 * import { GatewayClient } from 'payment-gateway-sdk';
 *
 * const client = new GatewayClient({ baseUrl: 'https://pay.example.com', mchNo, appId, secret });
 * const order = await client.query({ mchOrderNo: 'order-1001' });
 * ```
 *
 * @packageDocumentation
 * @module payment-gateway-sdk
 */
// The public surface: what a merchant imports (at most 100 names). Anything else is internal, whichever
// file exports it: the operation table and its types, the schemas' helper types, error constructors'
// options (test/docs/public-surface.test.ts holds this list). The mock gateway is its own entry: ./testing.

import type { NotificationInput } from './notify/input.js';
import { verifyKind } from './notify/verify.js';
import * as Refunds from './kinds/refunds/public.js';
import type * as Settlements from './kinds/settlements/public.js';
import type * as Transfers from './kinds/transfers/public.js';

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

// Notifications (each other kind's verifier follows its group below: verifyKind runs its row of notify/kinds.ts)
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
} from './kinds/payments/enums.js';
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
} from './kinds/payments/schemas.js';

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
export type * as Payments from './kinds/payments/public.js';
/**
 * The refund kind's names: `Refunds.CreateParams`, `Refunds.Refund`, `Refunds.State`, `Refunds.Notification`...
 *
 * @example
 * ```ts
 * const refund: Refunds.Refund = await client.refundQuery({ mchRefundNo: 'refund-1001' });
 * if (refund.state === Refunds.State.Succeeded) console.log(Refunds.stateName(refund.state));
 * ```
 */
export * as Refunds from './kinds/refunds/public.js';
/**
 * Verifies a refund notification (the gateway's POST to a refund's `notifyUrl`, sent when the refund succeeds,
 * state 2, or fails, state 3) and returns it typed. The rules are those of {@link verifyNotification}; `mchNo`
 * and `appId` are required (a signed `refundQuery` answer, the same record without them, is refused), and a
 * payment notification, or a refund carrying another kind's field, is refused. Process each `idempotencyKey` once.
 *
 * @throws {@link GatewaySignatureError} when `sign` is missing or does not match
 * @throws {@link GatewayValidationError} when the input cannot be read, is for another merchant application,
 *   is not a refund or is shaped as another kind, is of another state than `expect.state` (default 2 or 3), differs
 *   from `expect`, or fails `maxAgeMs`
 *
 * @example
 * ```ts
 * import { NOTIFICATION_ACK, verifyRefundNotification } from 'payment-gateway-sdk';
 *
 * const refund = await verifyRefundNotification(request, {
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9',
 *   expect: { mchRefundNo: 'refund-1001-1', refundAmount: 500, currency: 'USD' },
 * });
 * if (refund.state === 2) await markRefunded(refund.mchRefundNo); // 2: succeeded; 3: failed, no money moved
 * return new Response(NOTIFICATION_ACK);
 * ```
 */
export function verifyRefundNotification(input: NotificationInput, options: Refunds.VerifyOptions): Promise<Refunds.Notification> {
  return verifyKind('refund', input, options);
}
/**
 * The transfer kind's names (payouts): `Transfers.CreateParams`, `Transfers.Transfer`, `Transfers.State`, `Transfers.Notification`...
 *
 * @example
 * ```ts
 * const transfer: Transfers.Transfer = await client.transferQuery({ mchOrderNo: 'payout-1001' });
 * if (transfer.state === Transfers.State.Succeeded) console.log(Transfers.stateName(transfer.state));
 * ```
 */
export * as Transfers from './kinds/transfers/public.js';
/**
 * The division kind's names (profit sharing): `Divisions.BindParams`, `Divisions.ExecParams`, `Divisions.ExecResult`, `Divisions.ExecState`...
 *
 * @example
 * ```ts
 * const division: Divisions.ExecResult = await client.executeDivision({ mchOrderNo: 'order-1001', useSysAutoDivisionReceivers: true });
 * if (division.state === Divisions.ExecState.Accepted) console.log('accepted: the merchant portal shows the result later');
 * ```
 */
export * as Divisions from './kinds/division/public.js';
/**
 * Verifies a transfer notification (the gateway's POST to a transfer's `notifyUrl`, sent once when the transfer
 * succeeds, 2, or fails, 3) and returns it typed. The rules are those of {@link verifyNotification}; a payment or a
 * refund notification is refused here, and a transfer notification by theirs. Process each `idempotencyKey` once.
 *
 * @throws {@link GatewaySignatureError} when `sign` is missing or does not match
 * @throws {@link GatewayValidationError} when the input cannot be read, is for another merchant application, is not a
 *   transfer or is shaped as another kind, differs from `expect`, or fails `maxAgeMs`
 *
 * @example
 * ```ts
 * import { NOTIFICATION_ACK, verifyTransferNotification } from 'payment-gateway-sdk';
 *
 * const transfer = await verifyTransferNotification(request, {
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9',
 *   expect: { mchOrderNo: 'payout-1001', amount: 1500, currency: 'CNY' },
 * });
 * if (transfer.state === 2) await markPaidOut(transfer.mchOrderNo);
 * return new Response(NOTIFICATION_ACK);
 * ```
 */
export function verifyTransferNotification(input: NotificationInput, options: Transfers.VerifyOptions): Promise<Transfers.Notification> {
  return verifyKind('transfer', input, options);
}
/**
 * The settlement kind's names: `Settlements.RequestParams`, `Settlements.Settlement`, `Settlements.Notification`...
 *
 * @example
 * ```ts
 * const record: Settlements.Settlement = await client.settleRequestGet({ requestId: 'settle-2024-07' });
 * ```
 */
export type * as Settlements from './kinds/settlements/public.js';
/**
 * Verifies a settlement notification (the gateway's call to a settlement's `notifyUrl`) and returns it as
 * a settlement record. The gateway does not publish this callback's format: it is taken to be signed like
 * a payment notification and accepted as a form or a JSON body. The rules are those of
 * {@link verifyNotification}: it must carry `reqTime`, `mchNo` and `appId`, the client's own, as every
 * notification does, so a signed `settleRequestGet` answer (the same record without them) is refused.
 *
 * @throws {@link GatewaySignatureError} when `sign` is missing or does not match
 * @throws {@link GatewayValidationError} when the input cannot be read, is for another merchant application,
 *   is not a settlement record or is shaped as another kind, differs from `expect`, or fails `maxAgeMs`
 *
 * @example
 * ```ts
 * import { NOTIFICATION_ACK, verifySettlementNotification } from 'payment-gateway-sdk';
 *
 * const settlement = await verifySettlementNotification(request, {
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9',
 *   expect: { requestId: 'settle-2024-07' },
 * });
 * console.log(settlement.status, settlement.amount);
 * return new Response(NOTIFICATION_ACK);
 * ```
 */
export function verifySettlementNotification(input: NotificationInput, options: Settlements.VerifyOptions): Promise<Settlements.Notification> {
  return verifyKind('settlement', input, options);
}

// Kept one release after the Refunds group took it over.
/**
 * A refund's state codes: {@link Refunds.State}, under its name before the groups.
 *
 * @deprecated Use `Refunds.State` (`Refunds.State.Succeeded`); this name leaves the root in the next release.
 * @category Kinds
 * @example
 * ```ts
 * const refund = await client.refundQuery({ mchRefundNo: 'refund-1001' });
 * if (refund.state === RefundOrderState.Succeeded) console.log('refunded');
 * ```
 */
export const RefundOrderState = Refunds.State;
/** A refund state code, 0 to 4: {@link Refunds.State}. @deprecated Use `Refunds.State`. */
export type RefundOrderState = Refunds.State;

