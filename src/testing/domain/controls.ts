/**
 * What the pages and the control routes use of the gateway, declared below them so that they never import
 * the gateway itself; `MockGateway` has each of these methods, documented there.
 *
 * @module
 */
import type { ChannelUserMode } from './channel-users.js';
import type { FaultOptions, InjectedFault } from './faults.js';
import type { MockKindRecords } from './kinds.js';
import type { MockPartState } from './parts.js';
import type { MockNotification, NotificationAttempt } from './notifier.js';
import type { MockDecision } from './record-desk.js';
import type { MockRecordBase } from './record-kind.js';
import type { MockRequestRecord } from './request-log.js';

/**
 * A snapshot of the mock gateway, from {@link MockGateway.state} or `GET {base}/_mock/state`.
 *
 * @example
 * ```ts
 * const { orders, notifications, requests }: MockGatewayState = gateway.state();
 * expect(notifications[0]?.attemptLog[0]?.reason).toMatch(/^accepted/);
 * expect(requests[0]?.operation).toBe('unifiedOrder');
 * ```
 */
export interface MockGatewayState extends MockKindRecords, MockPartState {
  /** The mock's clock (milliseconds since the epoch) and its mode. */
  readonly now: number;
  readonly clock: 'manual' | 'real';
  readonly merchants: readonly { readonly mchNo: string; readonly appId: string }[];
  // Then each declared kind's records, newest first, under its plural (orders, refunds...).
  /** Newest first, each with every attempt made. */
  readonly notifications: readonly (MockNotification & { readonly attemptLog: readonly NotificationAttempt[] })[];
  // Then each declared part's members.
  /** The latest 200 requests, newest first, without their bodies: what each asked, what it was answered, and why a signature was refused. */
  readonly requests: readonly Omit<MockRequestRecord, 'body'>[];
}

/**
 * The generic controls of a declared kind's records, each taking the kind's name: what the routes and each kind's
 * derived methods (`kind-methods.ts`) call.
 */
export interface KindControls {
  record(kind: string, ref: string): MockRecordBase | undefined;
  records(kind: string): MockRecordBase[];
  setMode(kind: string, mode: string, target?: object): void;
  settle(kind: string, ref: string, decision: MockDecision): MockRecordBase;
  progress(kind: string, ref: string, to?: string): MockRecordBase;
  control(kind: string, name: string, argument: unknown): unknown;
  alias(kind: string, name: string, ref: string, argument?: unknown): MockRecordBase;
  recordControl(kind: string, name: string, ref: string, argument?: unknown): unknown;
}

export interface GatewayControls extends KindControls {
  now(): number;
  state(): MockGatewayState;
  deliverNotifications(): Promise<NotificationAttempt[]>;
  resendNotification(id: string): Promise<NotificationAttempt>;
  advanceTime(ms: number): void;
  setChannelUserMode(mode: ChannelUserMode): void;
  injectFault(options: FaultOptions): InjectedFault;
  clearFaults(): void;
}
