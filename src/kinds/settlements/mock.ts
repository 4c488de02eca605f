/**
 * The mock's settlement requests (docs/reference/protocol.md section 7), a record kind of the generic desk: refused
 * by the rules of spec 4.5, stored pending, then stepped on by a test: pending, processing, then completed or
 * failed (`progressSettlement`). The gateway does not publish its status integers, so the mock uses its own, exported
 * as {@link MockSettlementStatus}: code that reads them should treat them as opaque numbers. A settlement with a
 * `notifyUrl` is notified once it is completed or failed, in the form the SDK assumes (the callback's format is not
 * published: docs/reference/protocol.md section 3): the settlement record with `mchNo`, `appId` and `reqTime`, signed.
 * The declared addresses a settlement may go to are the kind's world (`mock-addresses.ts`).
 *
 * @module
 */
import { notification } from './declaration.js';
import type { MockDecision } from '../../testing/domain/record-desk.js';
import { defineMockRecordKind, type MockCreateCall } from '../../testing/domain/record-kind.js';
import { MESSAGES } from '../../testing/domain/refusals.js';
import { AddressBook, MockAddressStatus, type MockCoinpayRecord } from './mock-addresses.js';

export { ADDRESS_STATUS_NAMES, MockAddressStatus, type MockAddress, type MockCoinpayRecord } from './mock-addresses.js';

/**
 * The mock's settlement states: pending, then processing, then completed or failed, moved by
 * {@link MockSettlementMethods.progressSettlement}.
 *
 * @example
 * ```ts
 * gateway.progressSettlement('settle-1', 'completed');
 * expect((await client.settleRequestGet({ requestId: 'settle-1' })).status).toBe(MockSettlementStatus.Completed);
 * ```
 */
export const MockSettlementStatus = { Pending: 0, Processing: 1, Completed: 2, Failed: 3 } as const;
/** A settlement state in the mock (see the constant of the same name). */
export type MockSettlementStatus = (typeof MockSettlementStatus)[keyof typeof MockSettlementStatus];

/** Each settlement status's name, for the log and the dashboard. */
export const SETTLEMENT_STATUS_NAMES: Readonly<Record<MockSettlementStatus, string>> = ['pending', 'processing', 'completed', 'failed'];

/**
 * A settlement request as the mock holds it.
 *
 * @example
 * ```ts
 * const settlement: MockSettlement | undefined = gateway.settlement('settle-2024-07');
 * ```
 */
export interface MockSettlement extends MockCoinpayRecord {
  currency: string;
  amount: number;
  payoutChannel: string;
  /** The withdrawal address: the one given, or the declared one's. */
  address: string;
  addrServerRequestId?: string | undefined;
  notifyUrl?: string | undefined;
  status: MockSettlementStatus;
  createdAt: number;
}

/**
 * The target of {@link MockSettlementMethods.progressSettlement}; by default the next step.
 *
 * @example
 * ```ts
 * const to: SettlementProgress = 'failed';
 * gateway.progressSettlement('settle-1', to);
 * ```
 */
export type SettlementProgress = 'processing' | 'completed' | 'failed';

/**
 * The mock gateway's settlement methods, made from its declaration (`settlementKind`; `kind-methods.ts` derives them;
 * the compiler checks these signatures against that derivation): their documentation. `progressSettlement` is the
 * settlements' own (they declare `steps`); `settleSettlement` takes a decision as any kind's settle does.
 *
 * @example
 * ```ts
 * gateway.progressSettlement('settle-1'); // pending -> processing
 * gateway.progressSettlement('settle-1'); // processing -> completed
 * ```
 */
export interface MockSettlementMethods {
  /**
   * A copy of a settlement, by `requestId` or `serverRequestId`; `undefined` when there is none.
   *
   * @example
   * ```ts
   * expect(gateway.settlement('settle-1')?.status).toBe(MockSettlementStatus.Pending);
   * ```
   */
  settlement(ref: string): MockSettlement | undefined;
  /**
   * Copies of all settlements, oldest first.
   *
   * @example
   * ```ts
   * expect(gateway.settlements()).toHaveLength(1);
   * ```
   */
  settlements(): MockSettlement[];
  /**
   * How the coming settlements go: `hold` pending (status 0, the default) until `progressSettlement` moves them,
   * `completed` at once (2), or `failed` at once (3), both notified. With `target`, only the settlement of that
   * `requestId`: its own mode wins.
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} when `mode` or `target` is wrong
   * @example
   * ```ts
   * gateway.setSettlementMode('completed', { requestId: 'settle-7' }); // only this one completes at once
   * ```
   */
  setSettlementMode(mode: 'hold' | 'completed' | 'failed', target?: { readonly requestId: string }): void;
  /**
   * Moves an open settlement (status 0 or 1) to `to`: `processing` (1), `completed` (2) or `failed` (3), as
   * {@link MockSettlementMethods.progressSettlement} with its `to`. Completed and failed are notified to the
   * settlement's `notifyUrl`, when it has one.
   *
   * @throws an `Error` when the settlement is unknown or already final
   * @example
   * ```ts
   * gateway.settleSettlement('settle-1', { to: 'failed' });
   * ```
   */
  settleSettlement(ref: string, decision: MockDecision<SettlementProgress>): MockSettlement;
  /**
   * Moves a settlement on: pending -> processing -> completed, or to `to`. Completed and failed are notified to the
   * settlement's `notifyUrl`, when it has one.
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} when `to` is wrong; an `Error` when the settlement is
   *   unknown or already final
   * @example
   * ```ts
   * gateway.progressSettlement('settle-1', 'completed');
   * ```
   */
  progressSettlement(ref: string, to?: SettlementProgress): MockSettlement;
}

type Call = MockCreateCall<MockSettlement, AddressBook>;
const paramsOf = (call: Call) => call.request.params as Record<string, string | undefined> & { amount: number };
/** The declared address a settlement names, when it names one (else the choice's refusal came first). */
const declaredOf = (call: Call) => {
  const p = paramsOf(call);
  return p.addrServerRequestId === undefined ? undefined : (call.world.declared(call.request.app.mchNo, p.addrServerRequestId) ?? null);
};

/** The settlement kind of the mock, run by the generic desk. */
export const settlementKind = defineMockRecordKind<MockSettlement, AddressBook>()({
  name: notification.name,
  // Its notification carries what the declaration's schema does: the record, mchNo, appId (and reqTime).
  notification,
  plural: 'settlements',
  label: 'Settlement',
  operations: { create: 'settleRequest', query: 'settleRequestGet' },
  id: 'serverRequestId',
  key: 'requestId',
  stateField: 'status',
  // Lower case, as the log and the dashboard name them.
  states: {
    names: Object.fromEntries(Object.values(MockSettlementStatus).map((status) => [SETTLEMENT_STATUS_NAMES[status], status])),
    open: [MockSettlementStatus.Pending, MockSettlementStatus.Processing],
    // The final ones, in the form the SDK assumes (the callback's format is not published).
    notified: [MockSettlementStatus.Completed, MockSettlementStatus.Failed],
    held: MockSettlementStatus.Pending,
  },
  notFound: MESSAGES.settlementNotFound,
  // Spec 4.5's rules, then the duplicate, then the declared address.
  refusals: [
    (call) => (paramsOf(call).amount < 1 ? MESSAGES.settleAmount : undefined),
    (call) => (paramsOf(call).payoutChannel !== 'Crypto' ? MESSAGES.payoutChannelUnsupported : undefined),
    (call) => (paramsOf(call).currency !== 'USD' ? MESSAGES.currencyUnsupported : undefined),
    (call) => ((paramsOf(call).addrServerRequestId === undefined) === (paramsOf(call).address === undefined) ? MESSAGES.addressChoice : undefined),
    (call) => {
      const requestId = String(paramsOf(call).requestId);
      return call.taken(requestId) ? MESSAGES.duplicateRequestId(requestId) : undefined;
    },
    (call) => (declaredOf(call) === null ? MESSAGES.addressNotFound : undefined),
    (call) => (declaredOf(call) && declaredOf(call)?.status !== MockAddressStatus.Approved ? MESSAGES.addressNotApproved : undefined),
    (call) => (declaredOf(call) && declaredOf(call)?.tokenId !== String(paramsOf(call).tokenId) ? MESSAGES.addressTokenMismatch : undefined),
  ],
  create(call, sequence) {
    const { request: { app }, now } = call;
    const p = paramsOf(call);
    return {
      serverRequestId: `SR${sequence}`, requestId: String(p.requestId), mchNo: app.mchNo, appId: app.appId, tokenId: String(p.tokenId), currency: 'USD', amount: p.amount,
      payoutChannel: 'Crypto', address: String(declaredOf(call)?.address ?? p.address), addrServerRequestId: p.addrServerRequestId, notifyUrl: p.notifyUrl,
      status: MockSettlementStatus.Pending, createdAt: now,
    };
  },
  // Named after their decisions: a failed settlement carries no channel error (no errCode, errMsg).
  modes: { hold: undefined, completed: 'completed', failed: 'failed' },
  decisions: {
    processing: { to: MockSettlementStatus.Processing, past: 'processing', does: 'a pending settlement is processing (status 1)' },
    completed: { to: MockSettlementStatus.Completed, button: 'primary', past: 'completed', does: 'an open settlement completes (status 2); it is notified' },
    failed: { to: MockSettlementStatus.Failed, button: 'danger', past: 'failed', does: 'an open settlement fails (status 3); it is notified' },
  },
  steps: {
    next: { [MockSettlementStatus.Pending]: 'processing', [MockSettlementStatus.Processing]: 'completed' },
    button: 'Progress',
    does: "moves a settlement on: pending, processing, completed (or to 'failed')",
  },
  world: ({ clock }) => new AddressBook(clock),
  columns: [
    { title: 'serverRequestId', field: 'serverRequestId', as: 'code' },
    { title: 'requestId', field: 'requestId', as: 'code' },
    { title: 'Amount', field: 'amount', as: 'amount', currency: 'currency' },
    { title: 'Token', field: 'tokenId', as: 'text' },
    { title: 'Status', field: 'status', as: 'state' },
  ],
  settleDoes: "moves an open settlement to 'processing' (1), 'completed' (2) or 'failed' (3); 2 and 3 are notified",
  modeDoes: "how the coming settlements go: 'hold' pending (the default) until progressed, 'completed' or 'failed' at once",
});
