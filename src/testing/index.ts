/**
 * payment-gateway-sdk/testing: an embedded, stateful mock of the Payment Gateway Service for your tests
 * and demos. One import, no separate binary, no account, no network beyond loopback.
 *
 * @example
 * ```ts
 * import { createMockGateway } from 'payment-gateway-sdk/testing';
 *
 * const gateway = createMockGateway({ merchants: [{ mchNo: 'M1', appId: 'app-1', secret: 'test-secret' }] });
 * const server = await gateway.listen({ port: 0 });
 * // ... point your GatewayClient at server.url, drive the gateway with payOrder(), deliverNotifications() ...
 * await server.close();
 * ```
 *
 * @packageDocumentation
 * @module payment-gateway-sdk/testing
 */
export { createMockGateway, type MockGateway } from './mock-gateway.js';
export type { MockKindMethods } from './domain/kinds.js';
export type { MockPaymentMethods } from '../kinds/payments/mock.js';
export type { MockPartMethods, MockPartState } from './domain/parts.js';
export type { MockDivisionMethods } from '../kinds/division/mock-part.js';
export type { MockDivisionState } from '../kinds/division/mock-sections.js';
export type { MockAddressMethods, MockAddressState } from '../kinds/settlements/mock-address-part.js';
export type { MockRefundMethods } from '../kinds/refunds/mock.js';
export type { MockTransferMethods } from '../kinds/transfers/mock.js';
export type { MockSettlementMethods } from '../kinds/settlements/mock.js';
export type { MockGatewayOptions } from './options.js';
export type { MockGatewayEvent } from './log-lines.js';
export type { MockGatewayState } from './domain/controls.js';
export type { MockRequestRecord, MockSignatureRefusal } from './domain/request-log.js';
export type { MockMerchant } from './domain/merchants.js';
export type { ListenOptions, MockGatewayServer } from './http/node-server.js';
export type { ChannelFailure, MockPayOrder, MockTransaction, OrderDecision, TransactionInput } from '../kinds/payments/mock.js';
export { REFUND_EXPIRY_MS, type MockRefund, type RefundChannelScope, type RefundDecision, type RefundMode, type RefundModeTarget } from '../kinds/refunds/mock.js';
export type { MockTransfer } from '../kinds/transfers/mock.js';
export { DIVISION_BIND_TEXTS, type DivisionGroupInput, type MockDivisionGroup, type MockDivisionReceiver, type ReceiverBindRefusal } from '../kinds/division/mock-receivers.js';
export { AUTO_DIVISION_DELAY_MS, DIVISION_EXEC_TEXTS, type DivisionOutcome, type DivisionOutcomeInput, type MockDivisionBatch, type MockDivisionRecord } from '../kinds/division/mock.js';
export { NOTIFY_MAX_ATTEMPTS, NOTIFY_RETRY_STEP_MS, type MockNotification, type NotificationAttempt, type NotificationRouting } from './domain/notifier.js';
export { MockAddressStatus, MockSettlementStatus, type MockAddress, type MockCoinpayRecord, type MockSettlement, type SettlementProgress } from '../kinds/settlements/mock.js';
export { STALL_MAX_MS, type FaultKind, type FaultOptions, type InjectedFault } from './domain/faults.js';
export { COIN_WAY_CODE_PREFIX } from '../kinds/payments/mock-pay-data.js';
export type { ChannelUserMode } from './domain/channel-users.js';
export { MOCK_MESSAGES } from './domain/messages.js';
