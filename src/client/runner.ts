import type * as z from 'zod/mini';
import { endpoints, type OperationName, type ReconcileDefinition } from '../operations/table.js';
import {
  GatewayAbortError,
  GatewayApiError,
  GatewayError,
  GatewayHttpStatusError,
  GatewayOutcomeUnknownError,
  GatewayReconciliationMismatchError,
  GatewayResponseError,
  GatewayResponseMismatchError,
  GatewayTimeoutError,
  GatewayValidationError,
} from '../errors/index.js';
import { PayOrderState } from '../protocol/schemas/enums.js';
import type { HttpExchange, Transport } from '../transport/http.js';
import { decodeResponse } from './decode-response.js';
import { compareRecord } from './reconciliation.js';
import { signRequest, validateParams, type ValidParams } from './encode-request.js';
import { backoffDelay, classifyFailure, failureReason, retryAfterDelay, sleep, type FailureKind, type RetryPolicy } from './retry-policy.js';
import { observe, type GatewayHooks, type ReconcileEvent } from './hooks.js';

/**
 * Per-call options, the optional last argument of every operation. They override the client's settings
 * for one call, e.g. a payer waiting at checkout gets a shorter budget than a background job.
 *
 * @example
 * ```ts
 * import type { RequestOptions } from 'payment-gateway-sdk';
 *
 * const atCheckout: RequestOptions = { totalTimeout: 8_000, maxRetries: 1 };
 * const order = await client.query({ mchOrderNo: 'order-1001' }, atCheckout);
 * ```
 */
export interface RequestOptions {
  /** Aborts the call; it then rejects with {@link GatewayAbortError} (or {@link GatewayOutcomeUnknownError} for a create already sent). */
  signal?: AbortSignal | undefined;
  /** Milliseconds for one attempt, overriding the client's `timeout`. */
  timeout?: number | undefined;
  /** Milliseconds for the whole call, retries and reconciliation included, overriding the client's `totalTimeout`. */
  totalTimeout?: number | undefined;
  /** Retries after the first attempt, overriding the client's `retry.maxRetries`. */
  maxRetries?: number | undefined;
}

/**
 * Per-call options of the operations whose answer proves nothing about the record ({@link GatewayClient.close}
 * answers an empty `data`, {@link GatewayClient.settleRequest} only `{ serverRequestId, status }`):
 * `confirm: true` reads the record back after the call and resolves to it.
 *
 * @example
 * ```ts
 * import type { ConfirmOptions } from 'payment-gateway-sdk';
 *
 * const confirmed: ConfirmOptions & { confirm: true } = { confirm: true, totalTimeout: 20_000 };
 * const order = await client.close({ mchOrderNo: 'order-1001' }, confirmed); // the order as read after closing
 * ```
 */
export interface ConfirmOptions extends RequestOptions {
  /** Read the record back after the call (one more request, bound to the same ids) and resolve to it. */
  confirm?: boolean | undefined;
}

/**
 * A result with what the SDK saw on the wire, from {@link GatewayClient.withResponse}.
 *
 * @example
 * ```ts
 * import type { GatewayResponse, UnifiedOrderResult } from 'payment-gateway-sdk';
 *
 * const response: GatewayResponse<UnifiedOrderResult> = await client.withResponse('unifiedOrder', order);
 * // A recovered create comes from a query, which has no payData: to collect, close it and create a new order.
 * if (response.reconciled && !response.data.payData) await client.close({ payOrderId: response.data.payOrderId });
 * ```
 */
export interface GatewayResponse<T> {
  /** The operation's typed data, as the method would return it. */
  readonly data: T;
  /** The HTTP exchange the data came from (for a reconciled create: the lookup's). */
  readonly http: HttpExchange;
  /** Whether the response's signature was checked and matched (`false` only with `verifyResponses: false`). */
  readonly signatureVerified: boolean;
  /** How many HTTP attempts the call made, lookups included. */
  readonly attempts: number;
  /** `true` when a create's result was recovered by looking the record up after an ambiguous failure. */
  readonly reconciled: boolean;
}

/** What the runner needs from the client. */
export interface RunnerSettings {
  readonly transport: Transport;
  readonly mchNo: string;
  readonly appId: string;
  readonly version: string;
  readonly successCode: number;
  readonly verifyResponses: boolean;
  readonly timeout: number;
  readonly totalTimeout: number;
  readonly retry: RetryPolicy;
  readonly now: () => number;
  readonly hooks: GatewayHooks;
}

interface Call {
  readonly operation: OperationName;
  readonly signal: AbortSignal | undefined;
  readonly timeout: number;
  readonly totalTimeout: number;
  readonly deadline: number;
  readonly maxRetries: number;
  attempts: number;
}

type RetryRule = (kind: FailureKind) => boolean;

/** What a create's attempts did: whether one may have reached the gateway, and how many are still open. */
interface SendProgress {
  inFlight: number;
  mayHaveReached: boolean;
}
// Reads and close may be repeated after any failure that is not a definite answer; a create only when
// the attempt provably never reached the gateway (every ambiguity goes to reconciliation instead).
const REPEATABLE: RetryRule = (kind) => kind !== 'final';
const NOT_SENT_ONLY: RetryRule = (kind) => kind === 'not-sent';

const MAX_TIMER_MS = 2_147_483_647;

/**
 * Runs operations with the retry class their endpoint declares: reads and close are retried on
 * transient failures; creates are never replayed blindly but reconciled by the merchant's key.
 */
export class OperationRunner {
  readonly #settings: RunnerSettings;
  readonly #secret: string;

  constructor(settings: RunnerSettings, secret: string) {
    this.#settings = settings;
    this.#secret = secret;
  }

  async run<T>(operation: OperationName, params: unknown, options: ConfirmOptions = {}): Promise<GatewayResponse<T>> {
    const call = this.#plan(operation, options);
    const valid = validateParams(operation, params);
    const endpoint = endpoints[operation];
    const response =
      endpoint.retry === 'create'
        ? await this.#create<T>(call, valid, endpoint.key ?? '', endpoint.reconcile)
        : endpoint.retry === 'idempotent'
          ? await this.#close<T>(call, valid)
          : await this.#send<T>(call, operation, valid, call.maxRetries, REPEATABLE);
    return options.confirm === true ? this.#confirm<T>(call, valid, response) : response;
  }

  /**
   * Reads back the record of a call whose answer proves nothing about it, and resolves to that record: it
   * must carry what was sent (a settlement also the `serverRequestId` the create answered).
   */
  async #confirm<T>(call: Call, params: ValidParams, response: GatewayResponse<unknown>): Promise<GatewayResponse<T>> {
    const { confirm, key, reconcile } = endpoints[call.operation];
    if (!confirm) throw new Error(`${call.operation} has no confirm`); // refused by #plan
    let found: GatewayResponse<Record<string, unknown>>;
    try {
      found = await this.#send<Record<string, unknown>>(call, confirm.lookup, validateParams(confirm.lookup, confirm.params(params)), call.maxRetries, REPEATABLE);
    } catch (error) {
      if (!(error instanceof GatewayError) || !key) throw error;
      const keyValue = String(params[key]);
      if (error instanceof GatewayApiError && (error.reason === 'record_not_found' || error.reason === 'order_not_found')) {
        throw new GatewayResponseMismatchError(
          `${call.operation} was answered as done, but ${confirm.lookup} finds no record under ${key} '${keyValue}': the answer was not this request's (a replayed response?). Nothing is recorded under that ${key} now, so sending it again with the same ${key} is safe.`,
          { field: key, expected: keyValue, found: undefined },
          { operation: call.operation, status: response.http.status, body: response.http.body, headers: response.http.headers, cause: error },
        );
      }
      throw this.#unknown(call, { name: key, value: keyValue }, error, `its record could not be read back to confirm it`);
    }
    if (reconcile && key) compareRecord(call.operation, key, reconcile, recordFieldsOf(confirm.lookup), params, found.data);
    for (const field of confirm.answered ?? []) {
      const answered = (response.data as Record<string, unknown>)[field];
      if (found.data[field] !== answered) {
        throw new GatewayResponseMismatchError(
          `${call.operation} answered ${field} ${JSON.stringify(answered)}, but the record read back has ${JSON.stringify(found.data[field])}: one of the two answers was not this request's, so neither is returned.`,
          { field, expected: String(answered), found: found.data[field] },
          { operation: call.operation, status: found.http.status, body: found.http.body, headers: found.http.headers },
        );
      }
    }
    return { ...found, data: found.data as T, attempts: call.attempts, reconciled: response.reconciled };
  }

  #plan(operation: OperationName, options: ConfirmOptions): Call {
    const s = this.#settings;
    if (options.confirm !== undefined && options.confirm !== false && (options.confirm !== true || !endpoints[operation].confirm)) {
      const message = options.confirm === true ? `${operation} has no confirm: only close and settleRequest answer too little to prove the record` : 'must be true or false';
      throw new GatewayValidationError(`Invalid ${operation} options, nothing was sent`, [{ path: ['confirm'], message }], { operation });
    }
    const timeout = options.timeout ?? s.timeout;
    const totalTimeout = options.totalTimeout ?? s.totalTimeout;
    const maxRetries = options.maxRetries ?? s.retry.maxRetries;
    // The client's own values were validated at construction; only per-call overrides need checking.
    if (options.timeout !== undefined || options.totalTimeout !== undefined || options.maxRetries !== undefined) {
      const issues = [
        ...checkWhole('timeout', timeout, 1, MAX_TIMER_MS),
        ...checkWhole('totalTimeout', totalTimeout, 1, MAX_TIMER_MS),
        ...checkWhole('maxRetries', maxRetries, 0, 100),
      ];
      if (issues.length > 0) throw new GatewayValidationError(`Invalid ${operation} options, nothing was sent`, issues, { operation });
    }
    return { operation, signal: options.signal, timeout, totalTimeout, deadline: performance.now() + totalTimeout, maxRetries, attempts: 0 };
  }

  /** Close: repeatable; a repeat that finds the order already closed is success. */
  async #close<T>(call: Call, params: ValidParams): Promise<GatewayResponse<T>> {
    try {
      return await this.#send<T>(call, call.operation, params, call.maxRetries, REPEATABLE);
    } catch (error) {
      if (!(error instanceof GatewayApiError)) throw error;
      const order = await this.#send<{ state: number }>(call, 'query', params, call.maxRetries, REPEATABLE).catch(() => undefined);
      if (order?.data.state !== PayOrderState.Closed) throw error;
      return { ...order, data: {} as T };
    }
  }

  /**
   * Creates: ky repeats only attempts that provably did not reach the gateway. Any other failure is
   * settled by a lookup by the merchant's key: a matching record is the result, a record that does not
   * match is a mismatch, and only a record proved absent lets the create be sent again.
   */
  async #create<T>(call: Call, params: ValidParams, keyName: string, reconcile: ReconcileDefinition | undefined): Promise<GatewayResponse<T>> {
    const key = { name: keyName, value: String(params[keyName]) };
    // Each lookup settles the ambiguity before the loop goes on (found: returned; unknown: thrown), so a
    // new pass only remembers that a record may exist, which turns a later refusal into a lookup too.
    let maybeCreated = false;
    let retriesLeft = call.maxRetries;
    for (;;) {
      const attemptsBefore = call.attempts;
      const progress: SendProgress = { inFlight: 0, mayHaveReached: false };
      try {
        return await this.#send<T>(call, call.operation, params, retriesLeft, NOT_SENT_ONLY, progress);
      } catch (error) {
        if (!(error instanceof GatewayError)) throw error;
        retriesLeft -= Math.max(0, call.attempts - attemptsBefore - 1);
        // Judged by what the attempts did, not by the last error alone: an abort or the deadline during
        // ky's wait after a refused connection ends a create that provably never reached the gateway.
        if (!progress.mayHaveReached && progress.inFlight === 0) {
          throw error instanceof GatewayTimeoutError ? this.#timedOut(call, call.operation, 'call', error.cause, false) : error;
        }
        // A refusal after an attempt that may have succeeded (e.g. "duplicate mchOrderNo") is settled by lookup.
        if (classifyCreateFailure(error) === 'final' && !(maybeCreated && error instanceof GatewayApiError)) throw error;
        maybeCreated = true;
        if (!reconcile) throw this.#unknown(call, key, error, 'the gateway offers no lookup for it');
        if (error instanceof GatewayAbortError) throw this.#unknown(call, key, error, 'the call was aborted before the record could be looked up');
        const found = await this.#lookup<T>(call, params, reconcile);
        if (found !== 'absent' && 'unknown' in found) throw this.#unknown(call, key, error, found.unknown);
        if (found !== 'absent') return found;
        // Proved absent: the create may be sent again, as a retry.
        const delayMs = retriesLeft-- > 0 ? this.#retryDelay(call, call.operation, error, call.maxRetries - retriesLeft) : undefined;
        if (delayMs === undefined) throw error;
        try {
          await sleep(delayMs, call.signal);
        } catch (reason) {
          throw new GatewayAbortError(`${call.operation} was aborted by the caller's signal while waiting to retry.`, { operation: call.operation, cause: reason });
        }
      }
    }
  }

  /** The record a create made, `absent` when proved absent, or why the outcome stays unknown. */
  async #lookup<T>(call: Call, params: ValidParams, reconcile: ReconcileDefinition): Promise<GatewayResponse<T> | 'absent' | { readonly unknown: string }> {
    try {
      const lookupParams = validateParams(reconcile.lookup, reconcile.params(params));
      const found = await this.#send<Record<string, unknown>>(call, reconcile.lookup, lookupParams, call.maxRetries, REPEATABLE);
      const unshown = compareRecord(call.operation, endpoints[call.operation].key ?? '', reconcile, recordFieldsOf(reconcile.lookup), params, found.data);
      if (unshown.length > 0) {
        this.#reconciled(call, params, 'unknown');
        return { unknown: `the record found under it does not show ${unshown.join(', ')}, which this request sent, so it cannot be told from an earlier record under the same key` };
      }
      this.#reconciled(call, params, 'found');
      return { ...found, data: reconcile.toResult(found.data) as T, reconciled: true };
    } catch (error) {
      const outcome = error instanceof GatewayReconciliationMismatchError ? 'mismatch' : error instanceof GatewayApiError && (error.reason === 'order_not_found' || error.reason === 'record_not_found') ? 'absent' : 'unknown';
      this.#reconciled(call, params, outcome);
      if (outcome === 'mismatch') throw error;
      if (outcome === 'absent') return outcome;
      const why = error instanceof GatewayError ? `${failureReason(error)}: ${error.message}` : String(error);
      return { unknown: `the record could not be looked up (${why.length > 300 ? `${why.slice(0, 300)}…` : why})` };
    }
  }

  #reconciled(call: Call, params: ValidParams, outcome: ReconcileEvent['outcome']): void {
    const { onReconcile } = this.#settings.hooks;
    const name = endpoints[call.operation].key ?? '';
    if (onReconcile) observe(onReconcile, { operation: call.operation, key: { name, value: String(params[name]) }, outcome });
  }

  #unknown(call: Call, key: { name: string; value: string }, cause: GatewayError, why: string): GatewayOutcomeUnknownError {
    return new GatewayOutcomeUnknownError(
      `${call.operation} may or may not have been processed (last failure: ${failureReason(cause)}), and ${why}. ` +
        `Do not create a new one: reconcile later with ${key.name} '${key.value}' (a repeat with the same ${key.name} is refused if it exists).`,
      key,
      { operation: call.operation, cause },
    );
  }

  /** One signed request, carried by the transport (ky) with up to `maxRetries` retries that `retryWhen` allows. */
  async #send<T>(call: Call, operation: OperationName, params: ValidParams, maxRetries: number, retryWhen: RetryRule, progress?: SendProgress): Promise<GatewayResponse<T>> {
    const s = this.#settings;
    if (call.signal?.aborted) throw new GatewayAbortError(`${operation} was aborted by the caller's signal.`, { operation, cause: call.signal.reason });
    if (performance.now() >= call.deadline) throw this.#timedOut(call, operation, 'call');
    const body = signRequest(operation, params, { mchNo: s.mchNo, appId: s.appId, version: s.version, secret: this.#secret, reqTime: s.now() });
    const { path, binds } = endpoints[operation];
    const asked: Record<string, string> = {};
    for (const field of binds) if (params[field] !== undefined) asked[field] = String(params[field]);
    const { onRequest, onResponse } = s.hooks;
    return s.transport.send<GatewayResponse<T>>({
      operation,
      path,
      body: JSON.stringify(body),
      timeout: call.timeout,
      deadline: call.deadline,
      signal: call.signal,
      maxRetries,
      attempt: async (exchange) => {
        // Numbered across the whole call, lookups and re-sends included, as onRetry's events are.
        const attempt = ++call.attempts;
        // A frozen copy: a hook that redacts or changes what it logs cannot change what is sent.
        if (onRequest) observe(onRequest, { operation, attempt, path, body: Object.freeze({ ...body }) });
        const started = performance.now();
        let http: HttpExchange | undefined;
        if (progress) progress.inFlight++;
        try {
          http = await exchange();
          const decoded = decodeResponse<T>(operation, http, { secret: this.#secret, successCode: s.successCode, verifyResponses: s.verifyResponses, mchNo: s.mchNo, appId: s.appId, asked });
          if (onResponse) observe(onResponse, { operation, attempt, status: http.status, durationMs: performance.now() - started, signatureVerified: decoded.signatureVerified });
          return { data: decoded.data, http, signatureVerified: decoded.signatureVerified, attempts: call.attempts, reconciled: false };
        } catch (error) {
          const failure = error instanceof GatewayError ? error : unexpectedResponseFailure(operation, http, error);
          if (progress && classifyCreateFailure(failure) !== 'not-sent') progress.mayHaveReached = true;
          if (onResponse) observe(onResponse, { operation, attempt, status: http?.status, durationMs: performance.now() - started, signatureVerified: false, error: failure });
          throw failure;
        } finally {
          if (progress) progress.inFlight--;
        }
      },
      planRetry: (error, retry) => (retryWhen(classifyFailure(error)) ? this.#retryDelay(call, operation, error, retry) : undefined),
      timedOut: (scope, cause) => this.#timedOut(call, operation, scope, cause),
    });
  }

  /**
   * The wait before retry number `retry` (a capped Retry-After, else backoff with jitter), told to `onRetry`
   * before it starts; `undefined` when the wait would pass the deadline: the call then fails at once with
   * the real cause instead of timing out later.
   */
  #retryDelay(call: Call, operation: OperationName, error: GatewayError, retry: number): number | undefined {
    const { retry: policy, hooks } = this.#settings;
    const delayMs = retryAfterDelay(error, policy) ?? backoffDelay(retry, policy);
    if (performance.now() + delayMs >= call.deadline) return undefined;
    if (hooks.onRetry) observe(hooks.onRetry, { operation, attempt: call.attempts, delayMs, reason: failureReason(error) });
    return delayMs;
  }

  /** Names the setting that ran out, as configured; only a create that was sent may have been acted on. */
  #timedOut(call: Call, operation: OperationName, scope: 'attempt' | 'call', cause?: unknown, mayHaveActed = endpoints[operation].retry === 'create'): GatewayTimeoutError {
    const what = scope === 'call' ? `did not finish within totalTimeout (${call.totalTimeout} ms)` : `got no complete response within timeout (${call.timeout} ms)`;
    const advice = mayHaveActed
      ? 'The gateway may still have acted on it: look the record up by your key before creating another.'
      : `Nothing changed on the gateway; retry later or raise ${scope === 'call' ? 'totalTimeout' : 'timeout'}.`;
    return new GatewayTimeoutError(`${operation} ${what}. ${advice}`, { operation, cause });
  }
}

/** The fields of a lookup's record, from its schema. */
function recordFieldsOf(lookup: OperationName): string[] {
  return Object.keys((endpoints[lookup].result as z.ZodMiniObject).def.shape);
}

/**
 * Something other than a GatewayError went wrong judging an attempt (a bug, or a hostile body that broke
 * the parser's limits): the response cannot be trusted, and the request may have been processed.
 */
function unexpectedResponseFailure(operation: OperationName, http: HttpExchange | undefined, error: unknown): GatewayResponseError {
  const reason = error instanceof Error ? error.message : String(error);
  return new GatewayResponseError(`${operation} got a response that could not be judged (${reason}): it cannot be trusted.`, {
    operation,
    status: http?.status ?? 0,
    body: http?.body ?? '',
    headers: http?.headers,
    cause: error,
  });
}

/**
 * For a create, only a business refusal, our own validation or a redirect is final; any other failure
 * after sending (a broken, untrusted or oversized response included) may hide a record the gateway made.
 * An abort in flight is ambiguous too.
 */
function classifyCreateFailure(error: GatewayError): FailureKind {
  if (error instanceof GatewayApiError || error instanceof GatewayValidationError) return 'final';
  if (error instanceof GatewayHttpStatusError && error.status >= 300 && error.status < 400) return 'final';
  const kind = classifyFailure(error);
  return kind === 'final' ? 'ambiguous' : kind;
}

function checkWhole(name: string, value: number, min: number, max: number) {
  return Number.isSafeInteger(value) && value >= min && value <= max ? [] : [{ path: [name], message: `must be a whole number from ${min} to ${max}` }];
}
