/**
 * The request primitive every method runs on: validate, sign, send through the transport, judge the
 * answer, and repeat or reconcile as the operation's retry class and the policy allow.
 *
 * @module
 */
import { GatewayApiError, refusedBeforeRecord } from '../operations/api-error.js';
import { pickFields, type ConfirmDefinition, type OperationDefinition, type ReconcileDefinition } from '../kinds/define-operation.js';
import { definitionOf, OPERATION_NAMES, type OperationName } from '../operations/table.js';
import { resultFields } from '../operations/wire.js';
import { maskPersonalFields } from '../protocol/schemas/free-text.js';
import { objectFields } from '../protocol/schemas/introspect.js';
import {
  GatewayAbortError,
  GatewayError,
  GatewayOutcomeUnknownError,
  GatewayReconciliationMismatchError,
  GatewayResponseContractError,
  GatewayResponseError,
  GatewayResponseMismatchError,
  GatewayTimeoutError,
  GatewayValidationError,
  type ContractLookup,
  type ReconcileKey,
  withContractLookup,
} from '../errors/index.js';
import { parseInput } from '../protocol/schemas/parse.js';
import type { Telemetry, TelemetrySpan } from '../telemetry/telemetry.js';
import { TransportFailure, type HttpExchange, type Judge, type Transport } from '../transport/http.js';
import { serverRetryWaitMs } from '../transport/retry-after.js';
import { decodeResponse } from './decode-response.js';
import { signRequest, validateParams, type ValidParams } from './encode-request.js';
import { fromTransport, unexpectedFailure } from './failures.js';
import { observe, recordIds, type AttemptPurpose, type GatewayHooks, type ReconcileEvent } from './hooks.js';
import { callOptionsSchema, type ConfirmOptions, type RetryPolicy } from './options.js';
import { backoff, classify, equalJitter, failureReason, mayHaveCreated, mayRepeat, sleep } from './policy.js';
import { GatewayOrderNotFinalError } from './order-not-final.js';
import { compareRecord } from './reconciliation.js';
import type { PayOrder } from '../kinds/payments/schemas.js';

/**
 * A result with what the SDK saw on the wire, from {@link GatewayClient.withResponse}.
 *
 * @example
 * ```ts
 * import type { GatewayClient, UnifiedOrderResult } from 'payment-gateway-sdk';
 *
 * const response: GatewayClient.GatewayResponse<UnifiedOrderResult> = await client.withResponse('unifiedOrder', order);
 * // A recovered create comes from a query, which has no payData: to collect, close it and create a new order.
 * if (response.data.recovered) await client.close({ payOrderId: response.data.payOrderId });
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
  /** `true` when a create's result was recovered by looking the record up after an ambiguous failure or a refusal. */
  readonly reconciled: boolean;
  /**
   * `true` when a create was refused because its record exists already and the record found under its key matches
   * everything sent: a repeat (yours, after a timeout or a double click, or an earlier attempt's), answered with the
   * record made the first time, as an idempotency key is.
   */
  readonly replayed: boolean;
}

/** What the runner needs from the client. */
export interface RunnerSettings {
  readonly transport: Transport;
  readonly baseUrl: string;
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
  readonly telemetry: Telemetry | undefined;
}

/**
 * Filled by a call to close whose refusal was checked by reading the order back (as `confirm` reads it):
 * that read, so that a caller judging the refusal need not read the order again. One per call.
 */
export interface ReadBack<R = Record<string, unknown>> {
  response?: GatewayResponse<R>;
}

/** How the client runs a call: why its attempts are made, and where a close's check puts what it read. */
export interface RunAs {
  readonly purpose?: AttemptPurpose;
  readonly readBack?: ReadBack;
}

/** One call: its budget, its clock and its attempts so far (numbered across lookups too). */
interface Call {
  readonly operation: OperationName;
  readonly signal: AbortSignal | undefined;
  readonly timeout: number;
  readonly totalTimeout: number;
  readonly started: number;
  readonly deadline: number;
  readonly maxRetries: number;
  readonly purpose: AttemptPurpose;
  attempts: number;
  /** What a refused close's check read back, after the close: a `confirm` reuses it. */
  readonly readBack: ReadBack;
  /** The call's span, when the client has a telemetry. */
  readonly span: TelemetrySpan | undefined;
}

/** What one send's attempts did, for a create: whether one may have reached the gateway. */
interface SendProgress {
  mayHaveReached: boolean;
}

/**
 * Runs operations with the retry class the table declares: reads and close are repeated after transient
 * failures; creates are never replayed blindly but reconciled by the merchant's key.
 */
export class OperationRunner {
  readonly #settings: RunnerSettings;
  readonly #secret: string;
  // Each operation's URL, resolved once: the base URL with its path.
  readonly #urls = new Map<OperationName, string>();

  constructor(settings: RunnerSettings, secret: string) {
    this.#settings = settings;
    this.#secret = secret;
  }

  run<T>(operation: OperationName, params: unknown, options: ConfirmOptions = {}, how: RunAs = {}): Promise<GatewayResponse<T>> {
    return this.traced(operation, params, (span) => this.#run<T>(operation, params, options, how, span), (response) => response.data);
  }

  /**
   * Runs a client method in its span when the client has a telemetry (nothing more when not): the record's
   * ids from its parameters, then from its result.
   */
  traced<R>(method: string, params: unknown, run: (span: TelemetrySpan | undefined) => Promise<R>, record: (result: R) => unknown = (result) => result): Promise<R> {
    const { telemetry } = this.#settings;
    if (!telemetry) return run(undefined);
    return telemetry.operation(method, recordIds(params), async (span) => {
      const result = await run(span);
      span.identify(recordIds(record(result)));
      return result;
    });
  }

  async #run<T>(operation: OperationName, params: unknown, options: ConfirmOptions, how: RunAs, span: TelemetrySpan | undefined): Promise<GatewayResponse<T>> {
    const call = this.#plan(operation, options, how, span);
    const valid = validateParams(operation, params);
    const definition = definitionOf(operation);
    const sent =
      definition.retry === 'create'
        ? await this.#create<T>(call, valid, createKey(definition, valid), definition.reconcile)
        : definition.retry === 'idempotent'
          ? await this.#close<T>(call, valid)
          : await this.#send<T>(call, operation, valid);
    // The gateway's own answer becomes the method's result; a record recovered by a lookup already is one.
    const { answer } = definition;
    const response = answer && !sent.reconciled ? { ...sent, data: answer(sent.data as never, valid as never) as T } : sent;
    return options.confirm === true ? this.#confirm<T>(call, valid, response) : response;
  }

  /** The call's options, parsed by the same rules as the client's; a call cannot turn on what its operation lacks. */
  #plan(operation: OperationName, options: ConfirmOptions, { purpose = 'request', readBack = {} }: RunAs, span: TelemetrySpan | undefined): Call {
    const s = this.#settings;
    const parsed = parseInput(callOptionsSchema, options ?? {}, `Invalid ${operation} options, nothing was sent`, 'options', operation);
    if (parsed.confirm === true && !definitionOf(operation).confirm) {
      const message = `${operation} has no confirm: only ${OPERATION_NAMES.filter((name) => definitionOf(name).confirm).join(' and ')} answer too little to prove the record`;
      throw new GatewayValidationError(`Invalid ${operation} options, nothing was sent`, [{ path: ['confirm'], message }], { operation });
    }
    const totalTimeout = parsed.totalTimeout ?? s.totalTimeout;
    const started = performance.now();
    return {
      operation,
      signal: parsed.signal,
      timeout: parsed.timeout ?? s.timeout,
      totalTimeout,
      started,
      deadline: started + totalTimeout,
      maxRetries: parsed.maxRetries ?? s.retry.maxRetries,
      purpose,
      attempts: 0,
      readBack,
      span,
    };
  }

  /**
   * Close: repeatable; a refusal whose check finds the order already closed (the row's `confirm.done`) is a success. The check reads
   * the order as `confirm` would, so the call keeps the read (`readBack`) instead of reading it again.
   */
  async #close<T>(call: Call, params: ValidParams): Promise<GatewayResponse<T>> {
    try {
      return await this.#send<T>(call, call.operation, params);
    } catch (error) {
      const { confirm } = definitionOf(call.operation);
      if (!(error instanceof GatewayApiError) || !confirm) throw error;
      const order = await this.#readBack(call, confirm, params, 'fallback').catch(() => undefined);
      if (order === undefined) throw error;
      call.readBack.response = order;
      if (!confirm.done?.(order.data)) throw error;
      return { ...order, data: {} as T };
    }
  }

  /** The record of a call, read by a lookup of the table (its `confirm` or `reconcile`) with the ids it was sent. */
  async #readBack(call: Call, by: { readonly lookup: OperationName; readonly by: readonly string[] }, params: ValidParams, purpose: AttemptPurpose): Promise<GatewayResponse<Record<string, unknown>>> {
    const read = (span?: TelemetrySpan) => this.#send<Record<string, unknown>>(call, by.lookup, validateParams(by.lookup, pickFields(params, by.by)), { purpose, span });
    return call.span ? call.span.lookup(by.lookup, purpose, read) : read();
  }

  /**
   * Creates: an attempt is sent again only when it provably never reached the gateway. Any other failure is
   * settled by a lookup by the merchant's key: a matching record is the result, another record a mismatch,
   * and only a record proved absent lets the create be sent again.
   */
  async #create<T>(call: Call, params: ValidParams, key: ReconcileKey, reconcile: ReconcileDefinition<OperationName> | undefined): Promise<GatewayResponse<T>> {
    let maybeCreated = false;
    let retriesLeft = call.maxRetries;
    for (;;) {
      const attemptsBefore = call.attempts;
      const progress: SendProgress = { mayHaveReached: false };
      try {
        return await this.#send<T>(call, call.operation, params, { retries: retriesLeft, progress });
      } catch (error) {
        if (!(error instanceof GatewayError)) throw error;
        // The gateway's own answer, broken: looked up once so the caller learns the record, never resolved from.
        if (error instanceof GatewayResponseContractError) throw await this.#contractBroken(call, params, key, reconcile, error);
        retriesLeft -= Math.max(0, call.attempts - attemptsBefore - 1);
        // Judged by what the attempts did, not by the last error alone: an abort or the deadline while
        // waiting after a refused connection ends a create that provably never reached the gateway.
        if (!progress.mayHaveReached) throw error instanceof GatewayTimeoutError ? this.#timedOut(call, 'call', error.cause, call.operation, false) : error;
        const kind = classify(error);
        // A refusal is believed at once only when decided before any record; any other is looked up by the key.
        const refusal = error instanceof GatewayApiError ? error : undefined;
        if (!mayHaveCreated(kind, maybeCreated, refusal !== undefined && refusedBeforeRecord(call.operation, refusal))) throw error;
        maybeCreated = true;
        if (!reconcile) throw this.#unknown(call, key, error, 'the gateway offers no lookup for it', params);
        if (kind === 'aborted') throw this.#unknown(call, key, error, 'the call was aborted before the record could be looked up');
        const found = await this.#lookup<T>(call, params, key, reconcile, error);
        if (found !== 'absent' && 'unknown' in found) throw this.#unknown(call, key, error, found.unknown);
        if (found !== 'absent') return refusal ? { ...found, replayed: true } : found;
        // Proved absent: a refusal stands, with its advice; any other failure may be sent again.
        if (refusal) throw refusal;
        // Sent again, as a retry: at once (the lookup was the pause), or after the Retry-After a 429 asked.
        if (kind === 'turned-away') await this.#waitAsked(call, error);
        if (retriesLeft <= 0) throw error;
        retriesLeft--;
        const { onRetry } = this.#settings.hooks;
        if (onRetry) observe(onRetry, { operation: call.operation, purpose: call.purpose, ids: recordIds(params), attempt: call.attempts, delayMs: 0, reason: failureReason(error) });
      }
    }
  }

  /**
   * A create answered success whose data breaks the schema: it was made. One lookup by the merchant's key tells
   * the caller what the gateway holds (attached as `lookup`); the call still fails, loudly, whatever it finds.
   */
  async #contractBroken(call: Call, params: ValidParams, key: ReconcileKey, reconcile: ReconcileDefinition<OperationName> | undefined, error: GatewayResponseContractError): Promise<GatewayResponseContractError> {
    const dont = `Do not send it again under a new ${key.name}: the gateway answered success, so the record exists`;
    const { oneShot } = definitionOf(call.operation);
    if (oneShot) return withContractLookup(error, undefined, `Do not send it again: the gateway answered success, so it was done, and it can tell no repeat; ${oneShot.findOut(params)}`);
    if (!reconcile) return withContractLookup(error, undefined, `${dont}; the gateway offers no lookup for it, so keep ${key.name} '${key.value}' with it`);
    let lookup: ContractLookup;
    try {
      const { data } = await this.#readBack(call, reconcile, params, 'reconcile');
      // Shown as this create's record only when it matches what was sent (a reused key finds another record), and
      // by this one lookup alone: a decisive field the record cannot show leaves it unknown.
      const unshown = compareRecord(call.operation, key.name, reconcile.decisive, resultFields(reconcile.lookup), params, data);
      lookup =
        unshown.length === 0
          ? { outcome: 'found', record: maskPersonalFields(data, objectFields(definitionOf(reconcile.lookup).result).personal) }
          : { outcome: 'unknown', error: new GatewayError(`the record found under ${key.name} '${key.value}' does not show ${unshown.join(', ')}, which this request sent`, { operation: call.operation }) };
    } catch (lookupError) {
      lookup = isNotFound(lookupError, reconcile.lookup) ? { outcome: 'absent' } : { outcome: 'unknown', error: lookupError };
    }
    // No onReconcile: this lookup settles nothing (the call fails whatever it finds); the error carries it as `lookup`.
    const seen =
      lookup.outcome === 'found'
        ? `${reconcile.lookup} finds it under ${key.name} '${key.value}' (error.lookup.record)`
        : lookup.outcome === 'absent'
          ? `${reconcile.lookup} does not find it under ${key.name} '${key.value}' yet (look again later)`
          : `${reconcile.lookup} could not read it back (error.lookup.error)`;
    return withContractLookup(error, lookup, `${dont}: ${seen}`);
  }

  /** The record a create made, `absent` when proved absent, or why the outcome stays unknown. */
  async #lookup<T>(call: Call, params: ValidParams, key: ReconcileKey, reconcile: ReconcileDefinition<OperationName>, failure: GatewayError): Promise<GatewayResponse<T> | 'absent' | { readonly unknown: string }> {
    try {
      const found = await this.#readBack(call, reconcile, params, 'reconcile');
      const { sent, decisive } = await this.#resolved(call, params, reconcile);
      const unshown = compareRecord(call.operation, key.name, decisive, resultFields(reconcile.lookup), sent, found.data);
      if (unshown.length > 0) {
        this.#reconciled(call, key, 'unknown');
        return { unknown: `the record found under it does not show ${unshown.join(', ')}, which this request sent, so it cannot be told from an earlier record under the same key` };
      }
      this.#reconciled(call, key, 'found');
      return { ...found, data: reconcile.toResult(found.data) as T, reconciled: true };
    } catch (error) {
      const outcome = error instanceof GatewayReconciliationMismatchError ? 'mismatch' : isNotFound(error, reconcile.lookup) ? 'absent' : 'unknown';
      this.#reconciled(call, key, outcome);
      // The key holds another request's record: this one was not made under it, whatever the failure said.
      if (error instanceof GatewayReconciliationMismatchError) throw new GatewayReconciliationMismatchError(error.key, error.differences, { operation: call.operation, cause: failure });
      if (outcome === 'absent') return outcome;
      const why = error instanceof GatewayError ? `${failureReason(error)}: ${error.message}` : String(error);
      return { unknown: `the record could not be looked up (${why.length > 300 ? `${why.slice(0, 300)}…` : why})` };
    }
  }

  /**
   * What a record found must match: the create's parameters, and where the row's `resolve` applies (an id the
   * record does not show was sent, the id it shows was not), the ids a signed read by the sent ones gives.
   */
  async #resolved(call: Call, params: ValidParams, reconcile: ReconcileDefinition<OperationName>): Promise<{ readonly sent: Readonly<Record<string, unknown>>; readonly decisive: readonly string[] }> {
    const { resolve, decisive } = reconcile;
    if (!resolve || !resolve.gives.some((field) => params[field] === undefined) || !resolve.by.every((field) => params[field] !== undefined)) return { sent: params, decisive };
    const parent = await this.#readBack(call, resolve, params, 'reconcile');
    return { sent: { ...pickFields(parent.data, resolve.gives), ...params }, decisive: decisive.filter((field) => !resolve.by.includes(field)) };
  }

  /**
   * Reads back the record of a call whose answer proves nothing about it, and resolves to that record: it
   * must carry what was sent (a settlement also the `serverRequestId` the create answered).
   */
  async #confirm<T>(call: Call, params: ValidParams, response: GatewayResponse<unknown>): Promise<GatewayResponse<T>> {
    const { confirm, key, reconcile } = definitionOf(call.operation);
    if (!confirm) throw new Error(`${call.operation} has no confirm`); // refused by #plan
    // A refused close's check has already read the record, after the close: that read is the read-back.
    let found = call.readBack.response;
    try {
      found ??= await this.#readBack(call, confirm, params, 'confirm');
    } catch (error) {
      if (!(error instanceof GatewayError) || !key) throw error;
      const keyValue = String(params[key]);
      if (isNotFound(error, confirm.lookup)) {
        throw new GatewayResponseMismatchError(
          `${call.operation} was answered as done, but ${confirm.lookup} finds no record under ${key} '${keyValue}': the answer was not this request's (a replayed response?). Nothing is recorded under that ${key} now, so sending it again with the same ${key} is safe.`,
          { field: key, expected: keyValue, found: undefined },
          { operation: call.operation, status: response.http.status, body: response.http.body, headers: response.http.headers, cause: error },
        );
      }
      throw this.#unknown(call, { name: key, value: keyValue }, error, 'its record could not be read back to confirm it');
    }
    if (key) compareRecord(call.operation, key, reconcile?.decisive ?? [], resultFields(confirm.lookup), params, found.data);
    // A success answer (close's constant `data: {}`, maybe replayed) proves nothing: the record read back must.
    if (confirm.settled && !confirm.settled(found.data)) throw new GatewayOrderNotFinalError(found.data as unknown as PayOrder, { operation: call.operation });
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
    return { ...found, data: found.data as T, attempts: call.attempts, reconciled: response.reconciled, replayed: response.replayed };
  }

  /**
   * One signed request, sent until it succeeds or the policy says stop: up to `retries` more attempts (the
   * call's `maxRetries` by default), each repeating the exact signed bytes, each within its own timeout and
   * the call's deadline. ky runs the attempts and the waits; a create's attempts are repeated only when
   * provably not sent.
   */
  async #send<T>(call: Call, operation: OperationName, params: ValidParams, how: { retries?: number; progress?: SendProgress; purpose?: AttemptPurpose; span?: TelemetrySpan | undefined } = {}): Promise<GatewayResponse<T>> {
    const s = this.#settings;
    const { retries = call.maxRetries, progress, purpose = call.purpose, span = call.span } = how;
    const { path, binds, retry: retryClass } = definitionOf(operation);
    // Compared as typed values: a binding names only fields whose parameter and answer have one type.
    const asked: Record<string, string | number> = {};
    for (const field of binds) if (params[field] !== undefined) asked[field] = params[field];
    const ids = recordIds(params);
    if (call.signal?.aborted) throw GatewayAbortError.of(operation, call.signal.reason);
    if (performance.now() >= call.deadline) throw this.#timedOut(call, 'call');
    const body = signRequest(operation, params, { mchNo: s.mchNo, appId: s.appId, version: s.version, secret: this.#secret, reqTime: s.now() });
    const text = JSON.stringify(body);
    const url = this.#urlOf(operation, path);
    const { onRequest, onResponse, onRetry } = s.hooks;
    // Set when an attempt ran out of the call's own time: its timeout, naming totalTimeout, ends the call.
    let outOfTime = false;
    // One attempt: told to the hooks and the span, its outcome judged by the payment rules.
    const begin = (): Judge<GatewayResponse<T>> => {
      // Numbered across the whole call, lookups and re-sends included, as onRetry's events are.
      const attempt = ++call.attempts;
      // A frozen copy: a hook that redacts or changes what it logs cannot change what is sent.
      if (onRequest) observe(onRequest, { operation, purpose, ids, attempt, path, body: Object.freeze({ ...body }) });
      const traced = span?.attempt(url);
      const started = performance.now();
      // The attempt's limit is its timeout, or what is left of the call's, which then names totalTimeout.
      const scope = call.deadline - started <= call.timeout ? 'call' : 'attempt';
      return (outcome) => {
        const http = outcome instanceof TransportFailure ? undefined : outcome;
        if (outcome instanceof TransportFailure && outcome.kind === 'timeout' && scope === 'call') outOfTime = true;
        let error: GatewayError;
        try {
          if (!http) throw outcome;
          const decoded = decodeResponse<T>(operation, http, { secret: this.#secret, successCode: s.successCode, verifyResponses: s.verifyResponses, mchNo: s.mchNo, appId: s.appId, asked, url, sent: params });
          if (onResponse) observe(onResponse, { operation, purpose, ids, attempt, status: http.status, durationMs: performance.now() - started, signatureVerified: decoded.signatureVerified });
          traced?.end(http.status);
          return { data: decoded.data, http, signatureVerified: decoded.signatureVerified, attempts: call.attempts, reconciled: false, replayed: false };
        } catch (thrown) {
          error = thrown instanceof GatewayError ? thrown : (fromTransport(thrown, operation, (cause) => this.#timedOut(call, scope, cause, operation)) ?? unexpectedFailure(operation, http, thrown));
        }
        const kind = classify(error);
        if (progress && kind !== 'not-sent' && kind !== 'invalid') progress.mayHaveReached = true;
        if (onResponse) observe(onResponse, { operation, purpose, ids, attempt, status: http?.status, durationMs: performance.now() - started, signatureVerified: false, error });
        traced?.end(http?.status, error);
        throw error;
      };
    };
    const { retry: policy } = s;
    try {
      return await s.transport.exchange(
        { url, body: text, timeout: call.timeout, signal: call.signal, freshConnection: onItsOwnConnection(definitionOf(operation)) },
        {
          limit: retries,
          totalTimeout: Math.ceil(call.deadline - performance.now()),
          maxRetryAfter: policy.maxRetryAfterMs,
          delay: (retry) => backoff(retry, policy),
          jitter: equalJitter,
          begin,
          mayRetry: (failure) => !outOfTime && failure instanceof GatewayError && mayRepeat(retryClass, classify(failure)),
          retrying:
            onRetry &&
            ((failure, waitedMs) => {
              if (failure instanceof GatewayError) observe(onRetry, { operation, purpose, ids, attempt: call.attempts, delayMs: Math.round(waitedMs), reason: failureReason(failure) });
            }),
        },
      );
    } catch (thrown) {
      if (!(thrown instanceof TransportFailure)) throw thrown;
      // ky's clock ran out just after the attempt that spent the call's time: that attempt's timeout says so.
      if (outOfTime && thrown.kind === 'timeout' && thrown.lastFailure instanceof GatewayError) throw thrown.lastFailure;
      throw this.#outsideAttempts(call, operation, thrown);
    }
  }

  /**
   * Before a create turned away by an unsigned status (408, 429) and proved absent is sent again: the wait its
   * `Retry-After` asks, within the policy's cap; one past the call's deadline ends the call with that status.
   */
  async #waitAsked(call: Call, error: GatewayError): Promise<void> {
    const asked = error instanceof GatewayResponseError && error.headers ? serverRetryWaitMs(error.headers) : undefined;
    const wait = Math.min(asked ?? 0, this.#settings.retry.maxRetryAfterMs);
    if (performance.now() + wait >= call.deadline) throw error;
    await sleep(wait, call.signal).catch((reason: unknown) => {
      throw GatewayAbortError.of(call.operation, reason, ' while waiting to send it again');
    });
  }

  /** The call ended outside an attempt (in a wait, or before the first): by the caller's signal, or its deadline. */
  #outsideAttempts(call: Call, operation: OperationName, failure: TransportFailure): GatewayError {
    const waiting = failure.lastFailure === undefined ? '' : ' while waiting to retry';
    if (failure.kind === 'aborted') return GatewayAbortError.of(operation, call.signal?.reason ?? failure.cause, waiting);
    if (failure.kind === 'timeout') return this.#timedOut(call, 'call', failure.lastFailure ?? failure.cause, operation);
    return fromTransport(failure, operation, (cause) => this.#timedOut(call, 'call', cause, operation)) ?? unexpectedFailure(operation, undefined, failure);
  }

  #urlOf(operation: OperationName, path: string): string {
    let url = this.#urls.get(operation);
    if (url === undefined) this.#urls.set(operation, (url = `${this.#settings.baseUrl.replace(/\/+$/, '')}${path}`));
    return url;
  }

  #reconciled(call: Call, key: ReconcileKey, outcome: ReconcileEvent['outcome']): void {
    const { onReconcile } = this.#settings.hooks;
    if (onReconcile) observe(onReconcile, { operation: call.operation, key: { ...key }, outcome });
  }

  #unknown(call: Call, key: ReconcileKey, cause: GatewayError, why: string, params: ValidParams = {}): GatewayOutcomeUnknownError {
    const { reconcile, oneShot } = definitionOf(call.operation);
    if (oneShot) {
      // No key of the merchant's, no lookup, no repeat told apart: only a person can learn it, never a second call.
      return new GatewayOutcomeUnknownError(
        `${call.operation} may or may not have been processed (last failure: ${failureReason(cause)}), and ${why}. It was sent once and is never sent again by the SDK: ${oneShot.findOut(params)}.`,
        key,
        { operation: call.operation, cause },
      );
    }
    const next = reconcile
      ? `send it again with the same ${key.name} (the SDK looks the key up first and resolves to the record if it exists), look it up with ${reconcile.lookup}, or hand it to processor.track for the sweep`
      : `the gateway can neither look it up nor tell a repeat: do not send it again; ask the gateway's operator (the merchant portal) what became of it`;
    return new GatewayOutcomeUnknownError(
      `${call.operation} may or may not have been processed (last failure: ${failureReason(cause)}), and ${why}. Never send it under a new ${key.name} while ${key.name} '${key.value}' may hold it: ${next}.`,
      key,
      { operation: call.operation, cause },
    );
  }

  /** Names the setting that ran out as configured, the attempts and the time taken; only a create that was sent may have been acted on. */
  #timedOut(call: Call, scope: 'attempt' | 'call', cause?: unknown, operation: OperationName = call.operation, mayHaveActed = definitionOf(operation).retry === 'create'): GatewayTimeoutError {
    const elapsed = Math.round(performance.now() - call.started);
    const what = scope === 'call' ? `did not finish within totalTimeout (${call.totalTimeout} ms)` : `got no complete response within timeout (${call.timeout} ms)`;
    const last = cause instanceof GatewayError ? `, the last failing with ${failureReason(cause)}` : '';
    const story = `${call.attempts} attempt${call.attempts === 1 ? '' : 's'} in ${elapsed} ms${last}`;
    const advice = mayHaveActed
      ? 'The gateway may still have acted on it: look the record up by your key before creating another.'
      : `Nothing changed on the gateway; retry later or raise ${scope === 'call' ? 'totalTimeout' : 'timeout'}.`;
    return new GatewayTimeoutError(`${operation} ${what} (${story}). ${advice}`, { operation, cause });
  }
}

/** A create with no lookup (a bind, an exec, an address declared): a reset on a pooled connection would leave it unknown. */
function onItsOwnConnection(definition: OperationDefinition): boolean {
  return definition.retry === 'create' && definition.reconcile === undefined;
}

/** What names a create's record in an unknown outcome: its key, or the first given of a one-shot create's names. */
function createKey(definition: OperationDefinition, params: ValidParams): ReconcileKey {
  const name = definition.key ?? definition.oneShot?.named.find((field) => params[field] !== undefined) ?? '';
  return { name, value: String(params[name]) };
}

/** Whether a lookup's refusal proves its record absent, as the lookup's row says (`notFound`). */
function isNotFound(error: unknown, lookup: OperationName): boolean {
  return error instanceof GatewayApiError && (definitionOf(lookup).notFound?.includes(error.reason) ?? false);
}
