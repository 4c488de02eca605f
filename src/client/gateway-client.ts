import { definitionOf, OPERATION_NAMES, type operations, type ConfirmedOf, type OperationName, type ParamsOf, type ResultOf } from '../operations/table.js';
import type { ClientNotificationOptions } from '../notify/options.js';
import type { NotificationInput } from '../notify/input.js';
import * as notify from '../notify/verify.js';
import type { PayOrder, QueryParams, RecoveredOrder, UnifiedOrderParams, UnifiedOrderResult } from '../protocol/schemas/order.js';
import { createKyTransport } from '../transport/http.js';
import { composeHooks, recordIds } from './hooks.js';
import { LogObserver } from './logging.js';
import { resolveOptions, type ConfirmOptions, type GatewayClientOptions, type RequestOptions, type ResolvedOptions } from './options.js';
import { OperationRunner, type GatewayResponse, type RunAs } from './runner.js';
import { reissueOrder, type OrderCalls } from './reissue.js';
import { waitForOrder, type WaitForOrderOptions } from './wait-for-order.js';

/**
 * The parameter and result types of one operation, as {@link OperationTypes} lists them.
 *
 * @example
 * ```ts
 * import type { OperationTypes } from './gateway-client.js'; // internal: not exported by the package
 *
 * type Query = OperationTypes['query']; // Operation<QueryParams, PayOrder>
 * async function auditedQuery(params: Query['params']): Promise<Query['result']> {
 *   const order = await client.query(params);
 *   log.info({ payOrderId: order.payOrderId, state: order.state }, 'order read');
 *   return order;
 * }
 * ```
 */
export interface Operation<Params, Result> {
  /** What the method takes. */
  params: Params;
  /** What the method resolves to. */
  result: Result;
}

/**
 * Parameters and results of each operation, by name, derived from the SDK's operation table: one place to
 * type code that handles any operation generically (queues, audit logs, test doubles).
 *
 * @example
 * ```ts
 * import type { OperationName } from 'payment-gateway-sdk';
 * import type { OperationTypes } from './gateway-client.js'; // internal: not exported by the package
 *
 * // A job queued now and run later by a worker, typed by the operation it will call.
 * interface GatewayJob<Op extends OperationName> {
 *   operation: Op;
 *   params: OperationTypes[Op]['params'];
 * }
 * const job: GatewayJob<'query'> = { operation: 'query', params: { mchOrderNo: 'order-1001' } };
 * ```
 */
export type OperationTypes = { [Op in OperationName]: Operation<ParamsOf<Op>, ResultOf<Op>> };

/**
 * An operation's method: its parameters, the per-call options and its result (`confirm: true` where the
 * table offers it).
 *
 * @example
 * ```ts
 * import type { OperationMethod } from './gateway-client.js'; // internal: not exported by the package
 *
 * // Inject just the query method into a service.
 * const readOrder: OperationMethod<'query'> = client.query.bind(client);
 * ```
 */
export type OperationMethod<Op extends OperationName> =
  (typeof operations)[Op] extends { readonly confirm: object }
    ? {
        (params: ParamsOf<Op>, options: ConfirmOptions & { confirm: true }): Promise<ConfirmedOf<Op>>;
        (params: ParamsOf<Op>, options?: ConfirmOptions & { confirm?: false | undefined }): Promise<ResultOf<Op>>;
        (params: ParamsOf<Op>, options?: ConfirmOptions): Promise<ResultOf<Op> | ConfirmedOf<Op>>;
      }
    : (params: ParamsOf<Op>, options?: RequestOptions) => Promise<ResultOf<Op>>;

/**
 * The operation methods of {@link GatewayClient}, one per entry of the SDK's operation table (its TSDoc
 * is the method's). Each validates, signs and sends, verifies the response and resolves to its typed data.
 *
 * @example
 * ```ts
 * import type { OperationMethods } from 'payment-gateway-sdk';
 *
 * // A service that only reads orders gets just that method, e.g. a test double of it.
 * type OrderReader = Pick<OperationMethods, 'query'>;
 * const reader: OrderReader = client;
 * ```
 */
export type OperationMethods = { readonly [Op in keyof typeof operations]: OperationMethod<Op> };

const dataOf = <T>(response: GatewayResponse<T>): T => response.data;

function summarize(options: ResolvedOptions): Record<string, unknown> {
  const { fetch: _fetch, now: _now, hooks: _hooks, logger: _logger, telemetry: _telemetry, secret: _secret, ...rest } = options;
  return { ...rest, secret: '[redacted]' };
}

// The operation methods come from the table (below, in the class's static block): one interface merges
// their types into the class.
export interface GatewayClient extends OperationMethods {}

/**
 * The gateway client: one method per operation of the SDK's operation table (`unifiedOrder`, `query`,
 * `close`, `settleAddressApply`, `settleRequest`, `settleRequestGet`), each validating, signing and sending
 * its request, verifying the response's signature and binding, and resolving to the typed `data`; plus
 * `waitForOrder`, notification verification and `withResponse`. One instance per merchant application; it
 * holds no other state and is safe to share across concurrent calls.
 *
 * @example
 * ```ts
 * import { GatewayClient } from 'payment-gateway-sdk';
 *
 * const client = new GatewayClient({
 *   baseUrl: 'https://pay.example.com',
 *   mchNo: process.env.GATEWAY_MCH_NO!,
 *   appId: process.env.GATEWAY_APP_ID!,
 *   secret: process.env.GATEWAY_SECRET!,
 * });
 * const order = await client.unifiedOrder({
 *   mchOrderNo: 'order-1001', wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD',
 *   subject: 'T-shirt', body: 'Blue T-shirt, size M', notifyUrl: 'https://shop.example.com/pay/notify',
 *   channelExtra: { payDataType: 'codeImgUrl' },
 * });
 * console.log(order.payOrderId, order.payData);
 * ```
 */
export class GatewayClient {
  /** The gateway's base URL. */
  readonly baseUrl: string;
  /** The merchant number sent with every request. */
  readonly mchNo: string;
  /** The merchant application id sent with every request. */
  readonly appId: string;
  /** Whether answers' signatures are verified (the `verifyResponses` option): a sweep refuses a client that does not. */
  readonly verifyResponses: boolean;
  // Kept for verifying notifications; private, so it is in no enumeration, JSON or inspect output.
  readonly #secret: string;
  readonly #summary: Record<string, unknown>;
  readonly #runner: OperationRunner;
  readonly #log: LogObserver;

  static {
    // One method per table entry: validates, signs, sends and resolves to the result the table declares.
    for (const operation of OPERATION_NAMES) {
      const resolvesNothing = definitionOf(operation).resolves === 'nothing';
      const method = {
        [operation](this: GatewayClient, params: unknown, options?: ConfirmOptions): Promise<unknown> {
          const pending = this.#logged(operation, params, this.#runner.run(operation, params, options)).then(dataOf);
          return resolvesNothing && options?.confirm !== true ? pending.then(() => undefined) : pending;
        },
      }[operation];
      Object.defineProperty(GatewayClient.prototype, operation, { value: method, writable: true, configurable: true });
    }
  }

  /**
   * @param options - see {@link GatewayClientOptions}; invalid options throw {@link GatewayValidationError}.
   */
  constructor(options: GatewayClientOptions) {
    const resolved = resolveOptions(options);
    this.baseUrl = resolved.baseUrl;
    this.mchNo = resolved.mchNo;
    this.appId = resolved.appId;
    this.verifyResponses = resolved.verifyResponses;
    this.#secret = resolved.secret;
    this.#summary = summarize(resolved);
    this.#log = new LogObserver(resolved.logLevel, resolved.logger);
    const hooks = composeHooks(resolved.hooks, this.#log.hooks);
    this.#runner = new OperationRunner({ ...resolved, hooks, transport: createKyTransport(resolved) }, resolved.secret);
    this.#log.created(resolved);
  }

  /**
   * Waits for an order's result without a notification: queries it (by `payOrderId` or `mchOrderNo`) until
   * it leaves states 0 and 1, or until `options.until` holds, and resolves to the {@link PayOrder}. The
   * reference gateway notifies only a success: a failure, a close or an expiry is learned by asking.
   *
   * The pause between queries starts at `intervalMs` (1 s) and grows by half each time, up to
   * `maxIntervalMs` (10 s). A query that fails transiently (connection, timeout, 5xx, a broken body, a
   * gateway system error) does not end the wait; any other failure rejects with it at once (invalid ids,
   * `order_not_found`, `signature_invalid`, an untrusted or substituted response).
   *
   * @throws {@link GatewayWaitTimeoutError} (a {@link GatewayTimeoutError}) after `timeout` (5 minutes), with `lastOrder`
   * @throws {@link GatewayAbortError} when `signal` aborts
   * @throws any error of {@link GatewayClient.query} that a retry cannot cure (see above)
   *
   * @example
   * ```ts
   * // The payer came back from the payment page: give the result a few seconds, then show "pending".
   * try {
   *   const order = await client.waitForOrder({ mchOrderNo: 'order-1001' }, { intervalMs: 500, timeout: 8_000 });
   *   return order.state === PayOrderState.Succeeded ? showPaid(order) : showNotPaid(order);
   * } catch (error) {
   *   if (error instanceof GatewayWaitTimeoutError) return showPending();
   *   throw error;
   * }
   * ```
   */
  waitForOrder(ids: QueryParams, options?: WaitForOrderOptions): Promise<PayOrder> {
    // Its queries are not logged as failures: a transient one does not end the wait; the wait's own failure is.
    const query = (params: QueryParams, requestOptions: RequestOptions) => this.#unlogged<PayOrder>('query', params, requestOptions, { purpose: 'wait' });
    return this.#logged('waitForOrder', ids, this.#runner.traced('waitForOrder', ids, () => waitForOrder(query, ids, options)));
  }

  /**
   * The way out of a recovered create: a {@link RecoveredOrder} exists at the gateway but has no `payData`
   * (the lookup after a lost answer cannot return it). Closes it (`close` with `confirm: true`), unless it
   * is already past paying; refuses with {@link GatewayOrderPaidError} if it was paid (or paid and
   * refunded); then, only when a signed query after the close shows the old order closed, failed or revoked
   * (6, 3, 4), creates `params` under their new `mchOrderNo` and resolves to that result. The gateway's
   * answer to a close proves nothing (it answers success when a payer moved the order to paying meanwhile):
   * an old order still 0 or 1 is a {@link GatewayOrderNotFinalError}, never a second order. Store the new
   * `mchOrderNo` with your order. The new create can itself be recovered (rarely): loop while `recovered`.
   *
   * @throws {@link GatewayOrderPaidError} when the recovered order was paid: fulfil it instead
   * @throws {@link GatewayOrderNotFinalError} when the recovered order is still open after the close (the payer may be paying): wait for its final state with {@link GatewayClient.waitForOrder}
   * @throws {@link GatewayValidationError} when `params.mchOrderNo` is the recovered order's own, or `recovered` is not a recovered result
   * @throws any error of {@link GatewayClient.close}, {@link GatewayClient.query} and {@link GatewayClient.unifiedOrder}
   *
   * @example
   * ```ts
   * let order = await client.unifiedOrder(params);
   * while (order.recovered) {
   *   order = await client.reissueOrder(order, { ...params, mchOrderNo: await orders.nextNumber(cartId) });
   * }
   * redirectTo(order.payData); // a CreatedOrder: the gateway's answer, with payData
   * ```
   */
  reissueOrder(recovered: RecoveredOrder, params: UnifiedOrderParams, options?: RequestOptions): Promise<UnifiedOrderResult> {
    // Its calls are not logged one by one: a refused close that reissuing handles is no failure; its own failure is logged once.
    const calls: OrderCalls = {
      close: (ids, closeOptions, readBack) => this.#unlogged<PayOrder>('close', ids, closeOptions, { readBack }),
      query: (ids, queryOptions) => this.#unlogged<PayOrder>('query', ids, queryOptions),
      unifiedOrder: (order, createOptions) => this.#unlogged<UnifiedOrderResult>('unifiedOrder', order, createOptions),
    };
    return this.#logged('reissueOrder', params, this.#runner.traced('reissueOrder', params, () => reissueOrder(calls, recovered, params, options)));
  }

  /**
   * Verifies a payment notification with this client's `secret`, `mchNo` and `appId`; see
   * {@link verifyNotification} for the rules, the inputs and the errors.
   *
   * @example
   * ```ts
   * const notification = await client.verifyNotification(request, { expect: { mchOrderNo: 'order-1001', amount: 1999, currency: 'USD' } });
   * await fulfilOnce(notification.idempotencyKey); // a paid order: the default expect.state
   * return notificationAckResponse();
   * ```
   */
  verifyNotification(input: NotificationInput, options?: ClientNotificationOptions<notify.VerifyNotificationOptions>): Promise<notify.PayOrderNotification> {
    return notify.verifyNotification(input, { ...options, secret: this.#secret, mchNo: this.mchNo, appId: this.appId });
  }

  /**
   * Verifies a settlement notification with this client's credentials; see {@link verifySettlementNotification}.
   *
   * @example
   * ```ts
   * const settlement = await client.verifySettlementNotification(req.body, { expect: { requestId: 'settle-2024-07' } });
   * ```
   */
  verifySettlementNotification(input: NotificationInput, options?: ClientNotificationOptions<notify.VerifySettlementNotificationOptions>): Promise<notify.SettlementNotification> {
    return notify.verifySettlementNotification(input, { ...options, secret: this.#secret, mchNo: this.mchNo, appId: this.appId });
  }

  /**
   * Runs an operation by name and returns its data together with what was seen on the wire: the HTTP
   * exchange, whether the signature verified, how many attempts it took and whether a create's result
   * was recovered by a lookup.
   *
   * @example
   * ```ts
   * const { data, http, signatureVerified, attempts } = await client.withResponse('query', { mchOrderNo: 'order-1001' });
   * console.log(http.status, http.headers.get('date'), signatureVerified, attempts);
   * ```
   */
  withResponse<Op extends OperationName>(operation: Op, params: ParamsOf<Op>, options?: RequestOptions): Promise<GatewayResponse<ResultOf<Op>>> {
    return this.#logged(operation, params, this.#runner.run(operation, params, options));
  }

  /** A call made inside another one (waitForOrder, reissueOrder), which logs its own failure: this one's is not logged. */
  #unlogged<T>(operation: OperationName, params: unknown, options: ConfirmOptions | undefined, how?: RunAs): Promise<T> {
    return this.#runner.run<T>(operation, params, options, how).then(dataOf);
  }

  // A call's final error is seen here: no hook sees it (it may come from no attempt: validation, a lookup, the deadline).
  #logged<T>(operation: string, params: unknown, pending: Promise<T>): Promise<T> {
    if (!this.#log.logsFailures) return pending;
    return pending.catch((error: unknown) => {
      this.#log.failed(operation, recordIds(params), error);
      throw error;
    });
  }

  /** A summary without the secret, so the client can be logged safely. */
  toJSON(): Record<string, unknown> {
    return { ...this.#summary };
  }

  /** Node's `util.inspect` shows the same redacted summary. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `GatewayClient ${JSON.stringify(this.toJSON())}`;
  }
}
