/**
 * The mock gateway: a stateful, in-process gateway that answers every operation as the reference
 * server does, reachable three ways (a fetch function, msw handlers, a loopback HTTP server), with the
 * controls a test needs to make things happen on the gateway's side.
 *
 * @module
 */
import type { HttpHandler } from 'msw';
import { parseInput } from '../protocol/schemas/parse.js';
import { ChannelUserDesk, channelUserModeSchema, type ChannelUserMode } from './domain/channel-users.js';
import { SimulatedClock } from './domain/clock.js';
import type { MockGatewayState } from './domain/controls.js';
import { FaultPlan, type FaultOptions, type InjectedFault } from './domain/faults.js';
import { MerchantRegistry } from './domain/merchants.js';
import { Notifier, signedRecordFields, type MockNotification, type NotificationAttempt } from './domain/notifier.js';
import { createDesks, MOCK_KINDS, viewedFields, type KindNamed, type MockDesks, type MockKindName, type MockKindRecords } from './domain/kinds.js';
import type { MockDecision, RecordDesk } from './domain/record-desk.js';
import type { DecisionOf, ModeOf, RecordOf } from './domain/record-kind.js';
import { RequestLog, type MockRequestRecord } from './domain/request-log.js';
import { createRequestHandler } from './http/handler.js';
import { createMswHandlers } from './http/msw-handlers.js';
import { listenOnNode, type ListenOptions, type MockGatewayServer } from './http/node-server.js';
import type { Outcome } from './http/respond.js';
import type { MockKindMethods } from './domain/kinds.js';
import { addKindMethods, type AliasNameOf, type ControlNameOf, type RecordControlNameOf } from './kind-methods.js';
import { createPartWorlds, partState, runDue, type MockPartWorlds } from './domain/mock-part.js';
import { PART_VIEWS, type MockPartMethods, type MockPartState } from './domain/parts.js';
import { addPartMethods } from './part-methods.js';
import { notificationEvent, requestEvent } from './log-lines.js';
import { mockGatewayOptionsSchema, type MockGatewayOptions } from './options.js';

/** How many of the latest requests {@link MockGateway.state} shows. */
const STATE_REQUESTS = 200;

/**
 * Creates a mock gateway for tests and demos: no account, no network. It verifies each request's
 * signature over the fields the operation knows, enforces the gateway's rules with its error texts,
 * keeps orders, notifications and settlements, and signs every answer with the merchant's secret.
 *
 * @throws {@link payment-gateway-sdk!GatewayValidationError} when an option is wrong, naming each problem
 * @example
 * ```ts
 * import { GatewayClient } from 'payment-gateway-sdk';
 * import { createMockGateway } from 'payment-gateway-sdk/testing';
 *
 * const merchant = { mchNo: 'M1700000001', appId: 'app-1', secret: 'test-secret-1' };
 * const gateway = createMockGateway({ merchants: [merchant] });
 * const server = await gateway.listen({ port: 0 });
 * const client = new GatewayClient({ baseUrl: server.url, ...merchant });
 *
 * const order = await client.unifiedOrder({
 *   mchOrderNo: 'order-1', wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD',
 *   subject: 'T-shirt', body: 'Blue, M', notifyUrl: 'http://127.0.0.1:3000/notify',
 * });
 * gateway.payOrder(order.payOrderId);
 * await gateway.deliverNotifications();   // POSTs the signed form to notifyUrl
 * await server.close();
 * ```
 */
export function createMockGateway(options: MockGatewayOptions): MockGateway {
  return new MockGateway(options);
}

/**
 * The mock gateway, made by {@link createMockGateway}. Besides the methods below, each declared record kind gives it
 * methods named after the kind ({@link MockKindMethods}: `order(ref)`, `payOrder`, `refunds()`, `setRefundMode`,
 * `progressSettlement`...), and each declared part its controls and reads ({@link MockPartMethods}:
 * `createDivisionGroup`, `divisions()`, `approveAddress`...), each documented where its kind or part is declared.
 *
 * @example
 * ```ts
 * const gateway: MockGateway = createMockGateway({ merchants: [{ mchNo, appId, secret }] });
 * const client = new GatewayClient({ baseUrl: 'https://gateway.test', mchNo, appId, secret, fetch: gateway.fetch });
 * const order = await client.unifiedOrder({ mchOrderNo: 'o-1', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', subject: 's', body: 'b' });
 * gateway.payOrder(order.payOrderId);
 * ```
 */
export class MockGateway {
  readonly #merchants: MerchantRegistry;
  readonly #clock: SimulatedClock;
  readonly #baseUrl: string | undefined;
  readonly #desks: MockDesks;
  readonly #channelUsers: ChannelUserDesk;
  readonly #parts: MockPartWorlds;
  readonly #notifier: Notifier;
  readonly #faults = new FaultPlan();
  readonly #requests: RequestLog;
  readonly #handle: (request: Request) => Promise<Outcome>;
  #handlers: HttpHandler[] | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  // Each declared part's methods (`createDivisionGroup`...) run on its world, kept here.
  static {
    addPartMethods(MockGateway.prototype, (gateway: MockGateway, part) => gateway.#parts[part]);
  }

  /** @internal Use {@link createMockGateway}. */
  constructor(options: MockGatewayOptions) {
    const o = parseInput(mockGatewayOptionsSchema, options ?? {}, 'Invalid createMockGateway options', 'options');
    const log = o.log;
    this.#merchants = new MerchantRegistry(o.merchants);
    this.#clock = new SimulatedClock(o.startTime ?? Date.now(), o.clock);
    this.#baseUrl = o.baseUrl;
    this.#requests = new RequestLog(o.requestLogLimit ?? 1000);
    this.#notifier = new Notifier({
      clock: this.#clock,
      secretOf: (appId) => this.#merchants.get(appId)?.secret ?? '',
      fetch: () => o.notifyFetch ?? globalThis.fetch,
      timeoutMs: o.notifyTimeout ?? 20_000,
      routing: o.notifications ?? {},
      onAttempt: (attempt) => {
        if (log === undefined) return;
        const kind = this.#notifier.notifications.find((n) => n.id === attempt.notificationId)?.kind ?? '';
        log(notificationEvent({ ...attempt, fields: viewedFields(kind, attempt.fields) }));
      },
    });
    this.#desks = createDesks(
      this.#clock,
      (kind, record) => {
        this.#notifier.enqueueRecord(kind, record);
        this.#schedule();
      },
      (kind, record) => signedRecordFields(kind, record, this.#merchants.get(record.appId)?.secret ?? '', this.#clock.now()),
    );
    this.#channelUsers = new ChannelUserDesk(this.#merchants);
    this.#parts = createPartWorlds(PART_VIEWS, { clock: this.#clock, merchants: this.#merchants, desks: this.#desks });
    this.#handle = createRequestHandler({
      basePath: o.baseUrl === undefined ? '' : new URL(o.baseUrl).pathname.replace(/\/+$/, ''),
      successCode: o.successCode ?? 200,
      clock: this.#clock,
      merchants: this.#merchants,
      desks: this.#desks,
      channelUsers: this.#channelUsers,
      parts: this.#parts,
      faults: this.#faults,
      requests: this.#requests,
      controls: this,
      onRequest: (record) => log?.(requestEvent(record)),
    });
  }

  /**
   * A fetch function that answers as the gateway (any origin): pass it as the client's `fetch`. A
   * `connectionReset` fault rejects it with a `TypeError`, as a network failure does.
   *
   * @example
   * ```ts
   * const client = new GatewayClient({ baseUrl: 'https://gateway.test', mchNo, appId, secret, fetch: gateway.fetch });
   * ```
   */
  readonly fetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const outcome = await this.#handle(input instanceof Request && init === undefined ? input : new Request(input, init));
    if (outcome.kind === 'reset') throw new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
    return outcome.response;
  };

  /**
   * msw handlers for every operation (msw is loaded when this is first read). Typed without msw, so
   * this entry compiles where msw is not installed: pass them to msw with `mockGatewayHandlers(gateway)`
   * from `payment-gateway-sdk/testing/msw`, which gives them msw's type.
   *
   * @example
   * ```ts
   * import { setupServer } from 'msw/node';
   * import { mockGatewayHandlers } from 'payment-gateway-sdk/testing/msw';
   *
   * const server = setupServer(...mockGatewayHandlers(gateway)); // these handlers, with msw's type
   * ```
   */
  get handlers(): readonly unknown[] {
    this.#handlers ??= createMswHandlers((request) => this.#handle(request), this.#baseUrl);
    return this.#handlers;
  }

  /**
   * Starts a real HTTP server on loopback (an ephemeral port by default) that answers only requests
   * addressed to itself ({@link ListenOptions}).
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} when an option is wrong
   * @example
   * ```ts
   * const server = await gateway.listen({ port: 0 });
   * const client = new GatewayClient({ baseUrl: server.url, mchNo, appId, secret });
   * await server.close();
   * ```
   */
  async listen(options?: ListenOptions): Promise<MockGatewayServer> {
    this.#stopped = false;
    const server = await listenOnNode((request) => this.#handle(request), options);
    return {
      ...server,
      close: () => {
        this.#stopped = true;
        clearTimeout(this.#timer);
        return server.close();
      },
    };
  }

  /**
   * The simulated clock, milliseconds since the epoch.
   *
   * @example
   * ```ts
   * const paidAt = gateway.now();
   * ```
   */
  now(): number {
    return this.#clock.now();
  }

  /**
   * Moves the simulated clock forward: unpaid orders past their `expiredTime` close; notification retries fall due;
   * mode 1 orders paid 80 s (`AUTO_DIVISION_DELAY_MS`) ago are divided to their merchant's auto group.
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} unless `ms` is a whole number >= 0
   * @example
   * ```ts
   * gateway.advanceTime(2 * 60 * 60 * 1000); // two hours: an unpaid order with the default expiry closes
   * ```
   */
  advanceTime(ms: number): void {
    this.#clock.advance(ms);
    for (const kind of MOCK_KINDS) this.#desks[kind.name].expire();
    runDue(PART_VIEWS, this.#parts);
    this.#schedule();
  }

  /**
   * Attempts every notification due on the simulated clock; resolves to the attempts made.
   *
   * @example
   * ```ts
   * const [attempt] = await gateway.deliverNotifications();
   * expect(attempt?.delivered).toBe(true);
   * ```
   */
  async deliverNotifications(): Promise<NotificationAttempt[]> {
    const attempts = await this.#notifier.deliverDue();
    this.#schedule();
    return attempts;
  }

  /**
   * Sends a notification again now, with its original `reqTime` and `sign` (as the gateway's operator can), whatever its
   * state: by its id (`N1`, `N2`...) or by what it notifies (a payment's `payOrderId` or `mchOrderNo`, a refund's
   * `refundOrderId` or `mchRefundNo`).
   *
   * @throws an `Error` when no notification (or more than one, of several merchants) is about `ref`
   * @example
   * ```ts
   * await gateway.resendNotification('N1');
   * await gateway.resendNotification('refund-1001'); // the refund's notification, by its mchRefundNo
   * ```
   */
  resendNotification(ref: string): Promise<NotificationAttempt> {
    return this.#notifier.resend(ref).finally(() => this.#schedule());
  }

  /**
   * When the next notification attempt is due (simulated clock), or `undefined`.
   *
   * @example
   * ```ts
   * for (let due = gateway.nextNotificationAt(); due !== undefined; due = gateway.nextNotificationAt()) {
   *   gateway.advanceTime(due - gateway.now());
   *   await gateway.deliverNotifications();
   * }
   * ```
   */
  nextNotificationAt(): number | undefined {
    return this.#notifier.nextDueAt();
  }

  /**
   * Every notification and its state.
   *
   * @example
   * ```ts
   * expect(gateway.notifications[0]?.state).toBe('delivered');
   * ```
   */
  get notifications(): readonly MockNotification[] {
    return this.#notifier.notifications;
  }

  /**
   * The delivery log: every attempt, in order.
   *
   * @example
   * ```ts
   * expect(gateway.deliveries.map((d) => d.delivered)).toEqual([false, true]);
   * ```
   */
  get deliveries(): readonly NotificationAttempt[] {
    return this.#notifier.log;
  }

  /**
   * A copy of a record of a declared kind (`refund`), by its id or its key; `undefined` when there is none.
   *
   * @example
   * ```ts
   * expect(gateway.record('refund', 'refund-1001')?.state).toBe(RefundOrderState.Succeeded);
   * ```
   */
  record<K extends MockKindName>(kind: K, ref: string): RecordOf<KindNamed<K>> | undefined {
    return this.#desks[kind].snapshot(ref);
  }

  /**
   * Copies of every record of a declared kind, oldest first.
   *
   * @example
   * ```ts
   * expect(gateway.records('refund')).toHaveLength(2);
   * ```
   */
  records<K extends MockKindName>(kind: K): RecordOf<KindNamed<K>>[] {
    return this.#desks[kind].list();
  }

  /**
   * How the coming records of a declared kind go: each mode leads to a decision at once, or holds them until
   * {@link MockGateway.settle}. With `target` (the record's key), only that record: its own mode wins.
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} when `mode` or `target` is wrong
   * @example
   * ```ts
   * gateway.setMode('refund', 'hold');
   * gateway.setMode('refund', 'fail', { mchRefundNo: 'refund-1002' });
   * ```
   */
  setMode<K extends MockKindName>(kind: K, mode: ModeOf<KindNamed<K>>, target?: object): void {
    this.#desks[kind].setMode(mode, target);
  }

  /**
   * Decides an open record of a declared kind; a notified state is notified to its `notifyUrl`.
   *
   * @throws an `Error` when the record is unknown or already final
   * @example
   * ```ts
   * gateway.settle('refund', 'refund-1001', { to: 'fail', errCode: 'NOT_ENOUGH_BALANCE' });
   * ```
   */
  settle<K extends MockKindName>(kind: K, ref: string, decision: MockDecision<DecisionOf<KindNamed<K>>>): RecordOf<KindNamed<K>> {
    return this.#desks[kind].settle(ref, decision);
  }

  /**
   * Steps an open record of a declared kind that declares `steps` (settlements) on: to `to`, by default its state's
   * next step.
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} when `to` is wrong; an `Error` when the kind declares no
   *   steps, or the record is unknown or already final
   * @example
   * ```ts
   * gateway.progress('settlement', 'settle-1'); // as gateway.progressSettlement('settle-1')
   * ```
   */
  progress<K extends MockKindName>(kind: K, ref: string, to?: DecisionOf<KindNamed<K>>): RecordOf<KindNamed<K>> {
    return this.#desks[kind].progress(ref, to);
  }

  /**
   * One of a declared kind's own controls, by its method name (e.g. `refuseRefunds`); returns what its control route answers.
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} when `argument` is wrong
   * @example
   * ```ts
   * gateway.control('refund', 'refuseRefunds', { ifCode: 'wxpay' }); // as gateway.refuseRefunds({ ifCode: 'wxpay' })
   * ```
   */
  control<K extends MockKindName>(kind: K, name: ControlNameOf<KindNamed<K>>, argument: unknown): unknown {
    return this.#desks[kind].control(name, argument);
  }

  /**
   * A decision of a declared kind under its alias's name (e.g. `payOrder`), with the failure's texts its argument gives.
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} when `argument` is wrong; an `Error` when the record is unknown or already final
   * @example
   * ```ts
   * gateway.alias('payment', 'failOrder', 'order-1', { errCode: 'CARD_DECLINED' }); // as gateway.failOrder('order-1', { errCode: 'CARD_DECLINED' })
   * ```
   */
  alias<K extends MockKindName>(kind: K, name: AliasNameOf<KindNamed<K>>, ref: string, argument?: unknown): RecordOf<KindNamed<K>> {
    return (this.#desks[kind] as unknown as RecordDesk).alias(name, ref, argument) as RecordOf<KindNamed<K>>;
  }

  /**
   * A declared kind's control on one record, by its method name (e.g. `setOrderFee`); returns what the method returns.
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} when `argument` is wrong; an `Error` when the record is unknown (or final, for a control of open records)
   * @example
   * ```ts
   * gateway.recordControl('payment', 'setOrderFee', 'order-1', 60); // as gateway.setOrderFee('order-1', 60)
   * ```
   */
  recordControl<K extends MockKindName>(kind: K, name: RecordControlNameOf<KindNamed<K>>, ref: string, argument?: unknown): unknown {
    return (this.#desks[kind] as unknown as RecordDesk).recordControl(name, ref, argument);
  }

  /**
   * What the stand-in channel login does with the coming returns of `GET /api/channelUserId/jump`: `succeed` (the
   * default: the payer's fake id, `oMock…` for wxpay, `2088…` for alipay, the same for an application and channel)
   * or `fail` (the code exchange fails: the browser comes back to `redirectUrl` without `channelUserId`, as from
   * the reference).
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} when `mode` is neither
   * @example
   * ```ts
   * gateway.setChannelUserMode('fail');
   * const jump = client.channelUserUrl({ ifCode: 'wxpay', redirectUrl: 'https://shop.example/pay/openid' });
   * const login = (await gateway.fetch(jump, { redirect: 'manual' })).headers.get('location')!; // the stand-in channel login
   * const back = (await gateway.fetch(login, { redirect: 'manual' })).headers.get('location')!; // redirectUrl, no channelUserId
   * expect(() => client.readChannelUserRedirect(back, { acceptAnySession: true })).toThrow(/channelUserId: is missing/);
   * ```
   */
  setChannelUserMode(mode: ChannelUserMode): void {
    this.#channelUsers.setMode(parseInput(channelUserModeSchema, mode, 'Invalid setChannelUserMode mode', 'options'));
  }

  /**
   * Arms a fault for the next matching request(s); see {@link FaultOptions}.
   *
   * @throws {@link payment-gateway-sdk!GatewayValidationError} when an option is wrong
   * @example
   * ```ts
   * gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'after' });
   * ```
   */
  injectFault(options: FaultOptions): InjectedFault {
    return this.#faults.inject(options);
  }

  /**
   * Disarms every fault.
   *
   * @example
   * ```ts
   * afterEach(() => gateway.clearFaults());
   * ```
   */
  clearFaults(): void {
    this.#faults.clear();
  }

  /**
   * The latest requests received (`requestLogLimit`, default 1000), oldest first.
   *
   * @example
   * ```ts
   * expect(gateway.requests.map((r) => r.operation)).toEqual(['unifiedOrder', 'query']);
   * ```
   */
  get requests(): readonly MockRequestRecord[] {
    return this.#requests.records;
  }

  /**
   * Everything the mock holds, as `GET /_mock/state` answers it: merchants without secrets, each kind's records
   * newest first (orders, refunds, transfers, settlements), notifications with their attempts, each part's members
   * (division groups, receivers with accounts masked, batches and records; declared addresses), and the latest 200 requests.
   *
   * @example
   * ```ts
   * const { orders, requests } = gateway.state();
   * ```
   */
  state(): MockGatewayState {
    runDue(PART_VIEWS, this.#parts);
    const log = this.#notifier.log;
    return {
      now: this.#clock.now(),
      clock: this.#clock.mode,
      merchants: this.#merchants.list().map(({ mchNo, appId }) => ({ mchNo, appId })),
      // Each declared kind's records under its plural, the orders first.
      ...(Object.fromEntries(MOCK_KINDS.map((kind) => [kind.plural, this.#desks[kind.name].list().reverse()])) as unknown as MockKindRecords),
      notifications: this.#notifier.notifications
        .map((n) => ({ ...n, fields: viewedFields(n.kind, n.fields), attemptLog: log.filter((a) => a.notificationId === n.id).map((a) => ({ ...a, fields: viewedFields(n.kind, a.fields) })) }))
        .reverse(),
      ...(partState(PART_VIEWS, this.#parts) as unknown as MockPartState),
      requests: this.#requests.recent(STATE_REQUESTS),
    };
  }

  // On the real clock the mock sends notifications itself: one timer, set for the next attempt due.
  #schedule(): void {
    if (this.#clock.mode !== 'real' || this.#stopped) return;
    clearTimeout(this.#timer);
    const due = this.#notifier.nextDueAt();
    if (due === undefined) return;
    this.#timer = setTimeout(() => {
      this.deliverNotifications().catch(() => this.#schedule());
    }, Math.min(Math.max(0, due - this.#clock.now()), 2 ** 31 - 1));
    (this.#timer as { unref?: () => void }).unref?.();
  }
}

// Each declared kind's methods (`setRefundMode`...), typed by the interface of the same name below.
addKindMethods(MockGateway.prototype);

/**
 * The methods each declared record kind gives the gateway ({@link MockKindMethods}) and each declared part
 * ({@link MockPartMethods}), merged into the class's type.
 *
 * @example
 * ```ts
 * gateway.setRefundMode('hold');
 * gateway.setDivisionOutcome({ outcome: 'accepted' });
 * ```
 */
// The methods are put on the prototype by addKindMethods above and addPartMethods in the class.
export interface MockGateway extends MockKindMethods, MockPartMethods {}
