/**
 * `createMockGateway`: a stateful, in-process gateway that answers the six operations as the reference
 * server does, reachable three ways (a fetch function, msw handlers, a loopback HTTP server), with
 * controls for everything a test needs to make happen on the gateway's side.
 *
 * @module
 */
import type { HttpHandler } from 'msw';
import type { OperationName } from '../operations/table.js';
import { SimulatedClock } from './clock.js';
import { FaultPlan, type FaultKind, type FaultOptions, type InjectedFault } from './faults.js';
import { MerchantRegistry, type MockMerchant } from './merchants.js';
import { createMswHandlers } from './msw-handlers.js';
import { listenOnNode, type ListenOptions, type MockGatewayServer } from './node-server.js';
import { Notifier, signedOrderFields, type MockNotification, type NotificationAttempt, type NotificationRouting } from './notifications.js';
import { OrderBook, type ChannelFailure, type MockPayOrder, type MockTransaction, type TransactionInput } from './orders.js';
import { faultOutcome, frameworkError, render, type Answer, type Outcome } from './respond.js';
import { Refusal } from './refusals.js';
import { BodyTooLarge, tooLargeResponse } from './request-body.js';
import { SettlementDesk, type MockAddress, type MockSettlement, type SettlementProgress } from './settlement.js';
import { acceptRequest, OPERATION_SPECS, readBody, type AcceptedRequest, type OperationSpec } from './wire-request.js';
import { routeTools } from './tools/router.js';

/**
 * Options of {@link createMockGateway}. Only `merchants` is required.
 *
 * @example
 * ```ts
 * const gateway = createMockGateway({
 *   merchants: [{ mchNo: 'M1700000001', appId: 'app-1', secret: 'test-secret-1' }],
 *   startTime: Date.UTC(2024, 6, 1),
 * });
 * ```
 */
export interface MockGatewayOptions {
  /** The merchant applications the gateway knows; requests from others are refused. */
  merchants: readonly MockMerchant[];
  /** Start of the simulated clock (milliseconds since the epoch); default `Date.now()` at creation. Ignored by the `real` clock. */
  startTime?: number | undefined;
  /**
   * `manual` (default): time moves only through {@link MockGateway.advanceTime}, and notifications go out
   * when you call {@link MockGateway.deliverNotifications}. `real`: the wall clock (plus what you advance);
   * expiries happen on time, each notification is sent at once and retried on schedule by itself.
   */
  clock?: 'manual' | 'real' | undefined;
  /** Where notifications go (forwarding, loopback only) and the retry step; default each `notifyUrl`, 30 s steps. */
  notifications?: NotificationRouting | undefined;
  /** The envelope `code` of a success; default `200` (the open-source Jeepay uses `0`). */
  successCode?: number | undefined;
  /** The fetch that delivers notifications to your `notifyUrl`; default the global `fetch` at delivery time. */
  notifyFetch?: typeof globalThis.fetch | undefined;
  /** Milliseconds (real time) before an unanswered notification attempt fails; default 20000, as the gateway. */
  notifyTimeout?: number | undefined;
  /** The gateway's base URL: msw handlers intercept only below it, and every path is routed below its path. Default any origin, no path. */
  baseUrl?: string | undefined;
  /** How many of the latest requests {@link MockGateway.requests} keeps; default 1000, so long soak runs stay flat. */
  requestLogLimit?: number | undefined;
}

/**
 * One request the mock received, for tests that count attempts or inspect what was sent.
 *
 * @example
 * ```ts
 * const creates = gateway.requests.filter((r: MockRequestRecord) => r.operation === 'unifiedOrder');
 * expect(creates).toHaveLength(2);
 * ```
 */
export interface MockRequestRecord {
  readonly operation: OperationName;
  /** Simulated-clock time of arrival. */
  readonly at: number;
  /** The body as received (parsed JSON or form), unless a fault struck before it was read. */
  readonly body?: Readonly<Record<string, unknown>> | undefined;
  /** The envelope `code` answered, unless a fault struck before processing. */
  readonly code?: number | undefined;
  /** The fault that struck this request, if any. */
  readonly fault?: FaultKind | undefined;
}

/**
 * The mock gateway. See {@link createMockGateway}.
 *
 * @example
 * ```ts
 * const gateway: MockGateway = createMockGateway({ merchants: [{ mchNo, appId, secret }] });
 * const client = new GatewayClient({ baseUrl: 'https://gateway.test', mchNo, appId, secret, fetch: gateway.fetch });
 * const order = await client.unifiedOrder({ mchOrderNo: 'o-1', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', subject: 's', body: 'b' });
 * gateway.payOrder(order.payOrderId);
 * ```
 */
export interface MockGateway {
  /** A fetch function that answers as the gateway (any origin): pass it as the client's `fetch`. */
  readonly fetch: (input: Request | string | URL, init?: RequestInit) => Promise<Response>;
  /**
   * msw handlers for the six operations (msw is loaded when this is first read). Typed without msw, so
   * this entry compiles where msw is not installed: pass them to msw with `mockGatewayHandlers(gateway)`
   * from `payment-gateway-sdk/testing/msw`, which gives them msw's type.
   */
  readonly handlers: readonly unknown[];
  /** Starts a real HTTP server on loopback (ephemeral port by default). */
  listen(options?: ListenOptions): Promise<MockGatewayServer>;

  /** The simulated clock (milliseconds since the epoch). */
  now(): number;
  /** Moves the simulated clock forward: unpaid orders past their `expiredTime` close; notification retries fall due. */
  advanceTime(ms: number): void;

  /** A copy of an order, by `payOrderId` or `mchOrderNo`; `undefined` when there is none. */
  order(ref: string): MockPayOrder | undefined;
  /** Copies of all orders, oldest first. */
  orders(): MockPayOrder[];
  /** The channel reports the order paid (state 0/1 -> 2); its notification is queued. Coin orders get a completed transaction. */
  payOrder(ref: string): MockPayOrder;
  /** The channel reports the payment failed (state 0/1 -> 3) with `errCode`/`errMsg`. */
  failOrder(ref: string, failure?: ChannelFailure): MockPayOrder;
  /** The next order (or the one with `failure.mchOrderNo`) fails at the channel when created: `orderState` 3. */
  declineNextPayment(failure?: ChannelFailure): void;
  /** An on-chain transaction of a coin order (`COIN_...` way code), with an exact decimal amount. */
  addTransaction(ref: string, input: TransactionInput): MockTransaction;

  /** Attempts every notification due on the simulated clock; resolves to the attempts made. */
  deliverNotifications(): Promise<NotificationAttempt[]>;
  /** Sends a notification again now, with its original `reqTime` and `sign` (as the gateway's operator can), whatever its state. */
  resendNotification(id: string): Promise<NotificationAttempt>;
  /** When the next notification attempt is due (simulated clock), or `undefined`. */
  nextNotificationAt(): number | undefined;
  /** Every notification and its state. */
  readonly notifications: readonly MockNotification[];
  /** The delivery log: every attempt, in order. */
  readonly deliveries: readonly NotificationAttempt[];

  /** The platform approves a declared address (by `serverRequestId` or `requestId`). */
  approveAddress(ref: string): MockAddress;
  /** The platform rejects a declared address. */
  rejectAddress(ref: string): MockAddress;
  /** A copy of a declared address, by `serverRequestId` or `requestId`. */
  address(ref: string): MockAddress | undefined;
  /** Moves a settlement on: pending -> processing -> completed, or to `to`. */
  progressSettlement(ref: string, to?: SettlementProgress): MockSettlement;
  /** A copy of a settlement, by `requestId` or `serverRequestId`. */
  settlement(ref: string): MockSettlement | undefined;

  /** Arms a fault for the next matching request(s); see {@link FaultOptions}. */
  injectFault(options: FaultOptions): InjectedFault;
  /** Disarms every fault. */
  clearFaults(): void;
  /** Every request received, in order. */
  readonly requests: readonly MockRequestRecord[];

  /** The URL the cashier sends the payer back to: the order's `returnUrl` with the signed fields the gateway adds; `undefined` without `returnUrl`. */
  payerReturnUrl(ref: string): string | undefined;
  /** Everything the mock holds, as `GET /_mock/state` answers it: merchants without secrets, orders newest first, notifications with their attempts, addresses, settlements. */
  state(): MockGatewayState;
}

/**
 * A snapshot of the mock gateway, from {@link MockGateway.state} or `GET {base}/_mock/state`.
 *
 * @example
 * ```ts
 * const { orders, notifications }: MockGatewayState = gateway.state();
 * expect(notifications[0]?.attemptLog[0]?.reason).toMatch(/^accepted/);
 * ```
 */
export interface MockGatewayState {
  /** The mock's clock (milliseconds since the epoch) and its mode. */
  readonly now: number;
  readonly clock: 'manual' | 'real';
  readonly merchants: readonly { readonly mchNo: string; readonly appId: string }[];
  /** Newest first. */
  readonly orders: readonly MockPayOrder[];
  /** Newest first, each with every attempt made. */
  readonly notifications: readonly (MockNotification & { readonly attemptLog: readonly NotificationAttempt[] })[];
  readonly addresses: readonly MockAddress[];
  readonly settlements: readonly MockSettlement[];
}

/**
 * Creates a mock gateway for tests and demos: no account, no network. It verifies each request's
 * signature over the fields the operation knows, enforces the gateway's rules with its error texts,
 * keeps orders, notifications and settlements, and signs every answer with the merchant's secret.
 *
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
  return new InProcessGateway(options);
}

class InProcessGateway implements MockGateway {
  readonly #merchants: MerchantRegistry;
  readonly #clock: SimulatedClock;
  readonly #successCode: number;
  readonly #baseUrl: string | undefined;
  readonly #orders: OrderBook;
  readonly #settlements: SettlementDesk;
  readonly #notifier: Notifier;
  readonly #faults = new FaultPlan();
  readonly #requests: MockRequestRecord[] = [];
  readonly #requestLogLimit: number;
  readonly #basePath: string;
  #handlers: HttpHandler[] | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(options: MockGatewayOptions) {
    if (typeof options !== 'object' || options === null) throw new TypeError('createMockGateway: give options, e.g. { merchants: [{ mchNo, appId, secret }] }');
    this.#merchants = new MerchantRegistry(options.merchants);
    const startTime = options.startTime ?? Date.now();
    if (!Number.isSafeInteger(startTime) || startTime < 1e12 || startTime >= 1e13) throw new TypeError('createMockGateway: startTime must be milliseconds since the epoch (13 digits)');
    if (options.clock !== undefined && options.clock !== 'manual' && options.clock !== 'real') throw new TypeError("createMockGateway: clock must be 'manual' or 'real'");
    this.#clock = new SimulatedClock(startTime, options.clock);
    this.#successCode = options.successCode ?? 200;
    this.#requestLogLimit = options.requestLogLimit ?? 1000;
    if (!Number.isSafeInteger(this.#requestLogLimit) || this.#requestLogLimit < 0) throw new TypeError('createMockGateway: requestLogLimit must be a whole number >= 0');
    this.#baseUrl = options.baseUrl;
    this.#basePath = options.baseUrl === undefined ? '' : new URL(options.baseUrl).pathname.replace(/\/+$/, '');
    const notifyFetch = options.notifyFetch;
    this.#notifier = new Notifier(
      this.#clock,
      (appId) => this.#merchants.get(appId)?.secret ?? '',
      () => notifyFetch ?? globalThis.fetch,
      options.notifyTimeout ?? 20_000,
      options.notifications,
    );
    this.#orders = new OrderBook(this.#clock, (order) => {
      this.#notifier.enqueue(order);
      this.#schedule();
    });
    this.#settlements = new SettlementDesk(this.#clock);
  }

  readonly fetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const outcome = await this.#handle(input instanceof Request && init === undefined ? input : new Request(input, init));
    if (outcome.kind === 'reset') throw new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
    return outcome.response;
  };

  get handlers(): HttpHandler[] {
    this.#handlers ??= createMswHandlers((request) => this.#handle(request), this.#baseUrl);
    return this.#handlers;
  }

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

  now(): number {
    return this.#clock.now();
  }

  advanceTime(ms: number): void {
    this.#clock.advance(ms);
    this.#orders.expire();
    this.#schedule();
  }

  order(ref: string): MockPayOrder | undefined {
    return this.#orders.snapshot(ref);
  }

  orders(): MockPayOrder[] {
    return this.#orders.list();
  }

  payOrder(ref: string): MockPayOrder {
    return this.#orders.pay(ref);
  }

  failOrder(ref: string, failure?: ChannelFailure): MockPayOrder {
    return this.#orders.fail(ref, failure);
  }

  declineNextPayment(failure: ChannelFailure = {}): void {
    this.#orders.declineNext(failure);
  }

  addTransaction(ref: string, input: TransactionInput): MockTransaction {
    return this.#orders.addTransaction(ref, input);
  }

  async deliverNotifications(): Promise<NotificationAttempt[]> {
    const attempts = await this.#notifier.deliverDue();
    this.#schedule();
    return attempts;
  }

  resendNotification(id: string): Promise<NotificationAttempt> {
    return this.#notifier.resend(id).finally(() => this.#schedule());
  }

  nextNotificationAt(): number | undefined {
    return this.#notifier.nextDueAt();
  }

  get notifications(): readonly MockNotification[] {
    return this.#notifier.notifications;
  }

  get deliveries(): readonly NotificationAttempt[] {
    return this.#notifier.log;
  }

  approveAddress(ref: string): MockAddress {
    return this.#settlements.review(ref, 'approve');
  }

  rejectAddress(ref: string): MockAddress {
    return this.#settlements.review(ref, 'reject');
  }

  address(ref: string): MockAddress | undefined {
    return this.#settlements.address(ref);
  }

  progressSettlement(ref: string, to?: SettlementProgress): MockSettlement {
    return this.#settlements.progress(ref, to);
  }

  settlement(ref: string): MockSettlement | undefined {
    return this.#settlements.settlement(ref);
  }

  injectFault(options: FaultOptions): InjectedFault {
    return this.#faults.inject(options);
  }

  clearFaults(): void {
    this.#faults.clear();
  }

  get requests(): readonly MockRequestRecord[] {
    return this.#requests;
  }

  payerReturnUrl(ref: string): string | undefined {
    const order = this.#orders.resolve(ref, 'payerReturnUrl');
    if (order.returnUrl === undefined) return undefined;
    const url = new URL(order.returnUrl);
    const fields = signedOrderFields(order, this.#merchants.get(order.appId)?.secret ?? '', this.#clock.now());
    for (const [key, value] of Object.entries(fields)) url.searchParams.append(key, value);
    return url.href;
  }

  state(): MockGatewayState {
    const log = this.#notifier.log;
    return {
      now: this.#clock.now(),
      clock: this.#clock.mode,
      merchants: this.#merchants.list().map(({ mchNo, appId }) => ({ mchNo, appId })),
      orders: this.#orders.list().reverse(),
      notifications: this.#notifier.notifications.map((n) => ({ ...n, attemptLog: log.filter((a) => a.notificationId === n.id) })).reverse(),
      addresses: this.#settlements.addresses(),
      settlements: this.#settlements.settlements(),
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

  async #handle(request: Request): Promise<Outcome> {
    const url = new URL(request.url);
    // Exactly {base}{path}, as the gateway's router: a client with a wrong base URL fails here as in production.
    const path = url.pathname.startsWith(`${this.#basePath}/`) ? url.pathname.slice(this.#basePath.length) : undefined;
    const spec = path === undefined ? undefined : OPERATION_SPECS.get(path);
    if (!spec) {
      const tool = path === undefined ? undefined : await routeTools(this, request, path, url.origin + this.#basePath);
      return tool ? { kind: 'response', response: tool } : frameworkError(404, url.pathname, this.#clock.now());
    }
    if (request.method !== 'POST') return frameworkError(405, url.pathname, this.#clock.now());
    const record: { -readonly [K in keyof MockRequestRecord]: MockRequestRecord[K] } = { operation: spec.operation, at: this.#clock.now() };
    this.#requests.push(record);
    if (this.#requests.length > this.#requestLogLimit) this.#requests.shift();
    const fault = this.#faults.take(spec.operation);
    if (fault) record.fault = fault.kind;
    if (fault?.when === 'before') return faultOutcome(fault.kind as 'html502' | 'emptyBody' | 'connectionReset');

    let answer: Answer;
    try {
      const body = await readBody(request);
      record.body = body;
      answer = this.#process(spec, acceptRequest(spec, body, this.#merchants), url.origin + this.#basePath);
    } catch (error) {
      if (error instanceof BodyTooLarge) return { kind: 'response', response: tooLargeResponse(error) };
      if (!(error instanceof Refusal)) throw error;
      answer = { kind: 'refusal', code: error.code, msg: error.msg };
    }
    record.code = answer.kind === 'success' ? this.#successCode : answer.code;
    return render(answer, this.#successCode, fault?.kind);
  }

  #process(spec: OperationSpec, request: AcceptedRequest, origin: string): Answer {
    this.#orders.expire();
    const data = OPERATIONS[spec.operation]({ orders: this.#orders, settlements: this.#settlements, ...request, origin });
    return { kind: 'success', data, secret: request.app.secret };
  }
}

interface OperationContext extends AcceptedRequest {
  readonly orders: OrderBook;
  readonly settlements: SettlementDesk;
  readonly origin: string;
}

/** Each operation's business step; routing, binding, signing and errors are shared. */
const OPERATIONS: { readonly [Op in OperationName]: (context: OperationContext) => Readonly<Record<string, unknown>> } = {
  unifiedOrder: ({ orders, origin, ...request }) => orders.create(request, origin),
  query: ({ orders, app, params }) => orders.queryData(orders.find(app, params)),
  close: ({ orders, app, params }) => {
    orders.close(orders.find(app, params));
    return {};
  },
  settleAddressApply: ({ settlements, app, params }) => settlements.declareAddress(app, params),
  settleRequest: ({ settlements, app, params }) => settlements.requestSettlement(app, params),
  settleRequestGet: ({ settlements, app, params }) => settlements.settlementData(app, params),
};
