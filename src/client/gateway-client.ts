import type { OperationName } from '../operations/table.js';
import type { ClientNotificationOptions, VerifyNotificationOptions, VerifySettlementNotificationOptions } from '../notify/options.js';
import type { NotificationInput } from '../notify/read-input.js';
import * as notify from '../notify/verify.js';
import type { CloseParams, PayOrder, QueryParams, UnifiedOrderParams, UnifiedOrderResult } from '../protocol/schemas/order.js';
import type {
  SettleAddressApplyParams,
  SettlementRecord,
  SettlementResult,
  SettleRequestGetParams,
  SettleRequestParams,
} from '../protocol/schemas/settlement.js';
import { createKyTransport } from '../transport/http.js';
import { composeHooks } from './hooks.js';
import { LogObserver } from './logging.js';
import { resolveOptions, type GatewayClientOptions, type ResolvedOptions } from './options.js';
import { OperationRunner, type ConfirmOptions, type GatewayResponse, type RequestOptions } from './runner.js';
import { waitForOrder, type WaitForOrderOptions } from './wait-for-order.js';

/**
 * Parameters and results of each operation, by name: one place to derive the types of code that handles
 * any operation generically (queues, audit logs, test doubles).
 *
 * @example
 * ```ts
 * import type { OperationName, OperationTypes } from 'payment-gateway-sdk';
 *
 * // A job queued now and run later by a worker, typed by the operation it will call.
 * interface GatewayJob<Op extends OperationName> {
 *   operation: Op;
 *   params: OperationTypes[Op]['params'];
 * }
 * const job: GatewayJob<'query'> = { operation: 'query', params: { mchOrderNo: 'order-1001' } };
 * ```
 */
export interface OperationTypes {
  /** Create an order. */
  unifiedOrder: Operation<UnifiedOrderParams, UnifiedOrderResult>;
  /** Read an order. */
  query: Operation<QueryParams, PayOrder>;
  /** Close an order. */
  close: Operation<CloseParams, void>;
  /** Declare a settlement address. */
  settleAddressApply: Operation<SettleAddressApplyParams, SettlementResult>;
  /** Request a settlement. */
  settleRequest: Operation<SettleRequestParams, SettlementResult>;
  /** Read a settlement. */
  settleRequestGet: Operation<SettleRequestGetParams, SettlementRecord>;
}

/**
 * The parameter and result types of one operation, as {@link OperationTypes} lists them.
 *
 * @example
 * ```ts
 * import type { OperationTypes } from 'payment-gateway-sdk';
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

const dataOf = <T>(response: GatewayResponse<T>): T => response.data;

function summarize(options: ResolvedOptions): Record<string, unknown> {
  const { fetch: _fetch, now: _now, hooks: _hooks, logger: _logger, secret: _secret, ...rest } = options;
  return { ...rest, secret: '[redacted]' };
}

/**
 * The gateway client: validates, signs and sends each operation, verifies the response's signature and
 * returns its typed `data`. One instance per merchant application; it holds no other state and is safe
 * to share across concurrent calls.
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
  // Kept for verifying notifications; private, so it is in no enumeration, JSON or inspect output.
  readonly #secret: string;
  readonly #summary: Record<string, unknown>;
  readonly #runner: OperationRunner;
  readonly #log: LogObserver;

  /**
   * @param options - see {@link GatewayClientOptions}; invalid options throw {@link GatewayValidationError}.
   */
  constructor(options: GatewayClientOptions) {
    const resolved = resolveOptions(options);
    this.baseUrl = resolved.baseUrl;
    this.mchNo = resolved.mchNo;
    this.appId = resolved.appId;
    this.#secret = resolved.secret;
    this.#summary = summarize(resolved);
    this.#log = new LogObserver(resolved.logLevel, resolved.logger);
    const hooks = composeHooks(resolved.hooks, this.#log.hooks);
    this.#runner = new OperationRunner({ ...resolved, hooks, transport: createKyTransport(resolved) }, resolved.secret);
    this.#log.created(resolved);
  }

  /**
   * Creates a payment order (`POST /api/pay/unifiedOrder`) and returns the payment parameters.
   * A channel failure is a result (`orderState` 3 with `errCode`/`errMsg`), not an exception.
   * `mchOrderNo` is your idempotency key: the gateway refuses a second order with the same one.
   *
   * @throws {@link GatewayValidationError} for invalid parameters (nothing is sent)
   * @throws {@link GatewayApiError} when the gateway refuses, e.g. a duplicate `mchOrderNo`
   *
   * @example
   * ```ts
   * const result = await client.unifiedOrder({
   *   mchOrderNo: 'order-1001', wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD',
   *   subject: 'T-shirt', body: 'Blue T-shirt', channelExtra: { payDataType: 'codeImgUrl' },
   * });
   * if (result.orderState === PayOrderState.Failed) console.warn(result.errCode, result.errMsg);
   * else showQrImage(result.payData);
   * ```
   */
  unifiedOrder(params: UnifiedOrderParams, options?: RequestOptions): Promise<UnifiedOrderResult> {
    return this.#call('unifiedOrder', params, options);
  }

  /**
   * Reads an order's latest state (`POST /api/pay/query`) by `payOrderId` or `mchOrderNo`, including its
   * on-chain transactions (`orderTransactionList`, amounts as exact decimal strings).
   *
   * @example
   * ```ts
   * const order = await client.query({ mchOrderNo: 'order-1001' });
   * if (order.state === PayOrderState.Succeeded) fulfil(order);
   * ```
   */
  query(params: QueryParams, options?: RequestOptions): Promise<PayOrder> {
    return this.#call('query', params, options);
  }

  /**
   * Waits for an order's result without a notification: queries it (by `payOrderId` or `mchOrderNo`) until
   * it leaves states 0 and 1, or until `options.until` holds, and resolves to the {@link PayOrder}. The
   * reference gateway notifies only a success: a failure, a close or an expiry is learned by asking.
   *
   * The pause between queries starts at `intervalMs` (1 s) and grows by half each time, up to
   * `maxIntervalMs` (10 s). A query that fails transiently (connection, timeout, 5xx, a broken body, a
   * gateway system error) does not end the wait; any other failure rejects with it at once (invalid ids,
   * `order_not_found`, `signature_invalid`, an untrusted response).
   *
   * @throws {@link GatewayWaitTimeoutError} (a {@link GatewayTimeoutError}) after `timeout` (5 minutes), with `lastOrder`
   * @throws {@link GatewayAbortError} when `signal` aborts
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
    const query = (params: QueryParams, requestOptions: RequestOptions) => this.#runner.run<PayOrder>('query', params, requestOptions).then(dataOf);
    return this.#logged('waitForOrder', waitForOrder(query, ids, options));
  }

  /**
   * Closes an unpaid order (`POST /api/pay/close`); resolves when the gateway accepted the close.
   * Only states 0 and 1 can be closed; a paying order may still become paid, so query after closing.
   * The gateway answers an empty `data`, which proves nothing about the order: with `{ confirm: true }`
   * the order is queried by the same ids after the close and resolves to it (state 6, or 2 when the payer
   * paid before the close landed).
   *
   * @throws {@link GatewayApiError} when the order cannot be closed (already paid, not found)
   * @throws {@link GatewayEmptyResponseError} when the channel refused the close (the gateway sends an empty body)
   *
   * @example
   * ```ts
   * await client.close({ mchOrderNo: 'order-1001' });
   * const order = await client.close({ mchOrderNo: 'order-1002' }, { confirm: true });
   * if (order.state === PayOrderState.Succeeded) fulfil(order); // paid just before the close
   * ```
   */
  close(params: CloseParams, options: ConfirmOptions & { confirm: true }): Promise<PayOrder>;
  close(params: CloseParams, options?: ConfirmOptions & { confirm?: false | undefined }): Promise<void>;
  close(params: CloseParams, options?: ConfirmOptions): Promise<PayOrder | void>;
  close(params: CloseParams, options?: ConfirmOptions): Promise<PayOrder | void> {
    return this.#logged('close', this.#runner.run<PayOrder>('close', params, options)).then((response) => (options?.confirm === true ? response.data : undefined));
  }

  /**
   * Declares a crypto address to receive settlements (`POST /api/channelbiz/coinpay/settleAddressApply`).
   * The platform reviews it; once approved, settle to it with `addrServerRequestId: result.serverRequestId`.
   *
   * @example
   * ```ts
   * const { serverRequestId, status } = await client.settleAddressApply({
   *   requestId: 'addr-2024-001', tokenId: 'TRON_USDT', address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', remark: 'treasury',
   * });
   * ```
   */
  settleAddressApply(params: SettleAddressApplyParams, options?: RequestOptions): Promise<SettlementResult> {
    return this.#call('settleAddressApply', params, options);
  }

  /**
   * Requests a settlement of available balance (`POST /api/channelbiz/coinpay/settleRequest`) to a declared
   * address (`addrServerRequestId`) or a given one (`address`): exactly one of the two. Only
   * `payoutChannel: 'Crypto'` and `currency: 'USD'` are supported. `requestId` is your idempotency key.
   * The answer, `{ serverRequestId, status }`, repeats nothing of the request: with `{ confirm: true }` the
   * record is read back by `requestId` and must carry the `serverRequestId` answered and every field sent
   * that it shows; it resolves to that {@link SettlementRecord} (for a declared address, compare its
   * `address` with the one you declared: the record does not show `addrServerRequestId`).
   *
   * @example
   * ```ts
   * const result = await client.settleRequest({
   *   requestId: 'settle-2024-07', amount: 150000, tokenId: 'TRON_USDT',
   *   payoutChannel: 'Crypto', currency: 'USD', addrServerRequestId: 'SRV-ADDR-1',
   * });
   * const record = await client.settleRequest({ ...monthly, requestId: 'settle-2024-08' }, { confirm: true });
   * ```
   */
  settleRequest(params: SettleRequestParams, options: ConfirmOptions & { confirm: true }): Promise<SettlementRecord>;
  settleRequest(params: SettleRequestParams, options?: ConfirmOptions & { confirm?: false | undefined }): Promise<SettlementResult>;
  settleRequest(params: SettleRequestParams, options?: ConfirmOptions): Promise<SettlementResult | SettlementRecord>;
  settleRequest(params: SettleRequestParams, options?: ConfirmOptions): Promise<SettlementResult | SettlementRecord> {
    return this.#call('settleRequest', params, options);
  }

  /**
   * Reads a settlement request by your `requestId` (`POST /api/channelbiz/coinpay/settleRequestGet`).
   *
   * @example
   * ```ts
   * const record = await client.settleRequestGet({ requestId: 'settle-2024-07' });
   * console.log(record.status, record.amount);
   * ```
   */
  settleRequestGet(params: SettleRequestGetParams, options?: RequestOptions): Promise<SettlementRecord> {
    return this.#call('settleRequestGet', params, options);
  }

  /**
   * Verifies a payment notification with this client's `secret`, `mchNo` and `appId`; see
   * {@link verifyNotification} for the rules, the inputs and the errors.
   *
   * @example
   * ```ts
   * const notification = await client.verifyNotification(request, { expect: { mchOrderNo: 'order-1001', amount: 1999 } });
   * if (notification.state === PayOrderState.Succeeded) await fulfilOnce(notification.idempotencyKey);
   * return notificationAckResponse();
   * ```
   */
  verifyNotification(input: NotificationInput, options?: ClientNotificationOptions<VerifyNotificationOptions>): Promise<notify.PayOrderNotification> {
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
  verifySettlementNotification(input: NotificationInput, options?: ClientNotificationOptions<VerifySettlementNotificationOptions>): Promise<notify.SettlementNotification> {
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
  withResponse<Op extends OperationName>(operation: Op, params: OperationTypes[Op]['params'], options?: RequestOptions): Promise<GatewayResponse<OperationTypes[Op]['result']>> {
    return this.#logged(operation, this.#runner.run(operation, params, options));
  }

  #call<Op extends OperationName>(operation: Op, params: unknown, options?: RequestOptions): Promise<OperationTypes[Op]['result']> {
    return this.#logged(operation, this.#runner.run<OperationTypes[Op]['result']>(operation, params, options)).then(dataOf);
  }

  // A call's final error is seen here: no hook sees it (it may come from no attempt: validation, a lookup, the deadline).
  #logged<T>(operation: string, pending: Promise<T>): Promise<T> {
    if (!this.#log.logsFailures) return pending;
    return pending.catch((error: unknown) => {
      this.#log.failed(operation, error);
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
