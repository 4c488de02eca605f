import ky, { isTimeoutError, type KyInstance } from 'ky';
import type { OperationName } from '../operations/table.js';
import { GatewayAbortError, GatewayConnectionError, GatewayError, GatewayHttpStatusError, GatewayResponseTooLargeError } from '../errors/index.js';
import { readCappedStream, type CappedRead } from '../util/read-capped-stream.js';

/**
 * A fetch-compatible function: the global `fetch`, or one of your own (proxies, tests, benchmarks). It
 * is called as `fetch(url, { method: 'POST', headers, body, signal, redirect: 'manual' })`.
 *
 * @example
 * ```ts
 * import { GatewayClient, type FetchLike } from 'payment-gateway-sdk';
 *
 * // Mark each request for your egress proxy; keep the rest of init, whose signal carries the SDK's deadline.
 * const viaEgress: FetchLike = (url, init) => {
 *   const headers = new Headers(init.headers);
 *   headers.set('x-egress-route', 'payments');
 *   return fetch(url, { ...init, headers });
 * };
 * const client = new GatewayClient({ ...credentials, fetch: viaEgress });
 * ```
 */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/**
 * What one HTTP exchange returned: status, headers and the whole body as text, from
 * {@link GatewayClient.withResponse}.
 *
 * @example
 * ```ts
 * import type { HttpExchange } from 'payment-gateway-sdk';
 *
 * // Keep the exchange for a dispute: the body is the signed response exactly as received.
 * const evidence = ({ status, headers, body }: HttpExchange) => ({ status, date: headers.get('date'), body });
 * const { http } = await client.withResponse('query', { mchOrderNo: 'order-1001' });
 * await archive.put('order-1001', evidence(http));
 * ```
 */
export interface HttpExchange {
  /** HTTP status code. */
  readonly status: number;
  /** Response headers. */
  readonly headers: Headers;
  /** The whole response body, as text. */
  readonly body: string;
}

/** One call as the transport carries it: ky runs the attempts; the caller judges each one and plans retries. */
export interface TransportCall<T> {
  readonly operation: OperationName;
  readonly path: string;
  /** The signed JSON body, sent unchanged by every attempt. */
  readonly body: string;
  /** Milliseconds for one attempt: connecting, sending, reading and judging the whole body. */
  readonly timeout: number;
  /** `performance.now()` by which the call must be over. */
  readonly deadline: number;
  readonly signal: AbortSignal | undefined;
  /** Retries ky may make after the first attempt. */
  readonly maxRetries: number;
  /** Runs one attempt: `exchange` performs the HTTP exchange; the result is the call's value. */
  readonly attempt: (exchange: () => Promise<HttpExchange>) => Promise<T>;
  /** Milliseconds to wait before retry number `retry` after `error`, or `undefined` to fail with it. */
  readonly planRetry: (error: GatewayError, retry: number) => number | undefined;
  /** The error for an attempt cut by `timeout` (`'attempt'`) or a call cut by its deadline (`'call'`). */
  readonly timedOut: (scope: 'attempt' | 'call', cause: unknown) => GatewayError;
}

/** Carries calls to `{baseUrl}{path}`; what to retry and what a response means are decided above this layer. */
export interface Transport {
  send<T>(call: TransportCall<T>): Promise<T>;
}

/** What the transport needs from the client's options. */
export interface TransportSettings {
  readonly baseUrl: string;
  readonly fetch: FetchLike | undefined;
  readonly maxResponseBytes: number;
}

/**
 * The transport on one ky instance per client. ky runs the attempt loop, the per-attempt `timeout`, the
 * `totalTimeout` and the abortable waits; the payment rules come in through `retry.shouldRetry` and
 * `retry.delay`. Hand-written here: the capped body read (ky reads bodies whole) and the refusal of
 * redirects as answers (a signed body must go nowhere but the gateway).
 */
export function createKyTransport(settings: TransportSettings): Transport {
  // ky's Request carries the URL, the method and each attempt's signal; the attempt hands the signed text
  // to fetch itself (with redirect: 'manual'), as the public (url, init) contract says, so ky never copies
  // or tees the body.
  const api: KyInstance = ky.create({
    baseUrl: settings.baseUrl.replace(/\/*$/, '/'),
    method: 'post',
    // Statuses are judged with the body, above this layer.
    throwHttpErrors: false,
  });

  return {
    async send<T>(call: TransportCall<T>): Promise<T> {
      // Each attempt's value travels with its own Response: an attempt cut by its timeout that still
      // finishes later can never stand in for the one ky resolved with.
      const values = new WeakMap<Response, T>();
      let plannedDelay = 0;
      let fetchEntered = false;
      const judge = (error: unknown) => toGatewayError(error, call, fetchEntered);
      try {
        const response = await api(call.path.replace(/^\/+/, ''), {
          signal: call.signal ?? null,
          timeout: call.timeout,
          // Rounded up, so ky's deadline is never before the runner's, which plans every wait against its own.
          totalTimeout: Math.max(1, Math.ceil(call.deadline - performance.now())),
          retry: {
            limit: call.maxRetries,
            methods: ['post'],
            shouldRetry: ({ error, retryCount }) => {
              const delay = call.planRetry(judge(error), retryCount);
              if (delay === undefined) return false;
              plannedDelay = delay;
              return true;
            },
            delay: () => plannedDelay,
          },
          // Called by ky for each attempt, inside its timeout; the merchant's fetch keeps its (url, init) contract.
          fetch: async (input) => {
            fetchEntered = true;
            const request = input as Request; // ky 2 always passes the Request it built
            let response: Response | undefined;
            const value = await call.attempt(async () => {
              response = await sendOnce(request, call, settings.fetch ?? globalThis.fetch);
              return { status: response.status, headers: response.headers, body: await readCappedText(response, settings.maxResponseBytes, call, request.signal) };
            });
            values.set(response as Response, value);
            return response as Response;
          },
        });
        return values.get(response) as T;
      } catch (error) {
        throw judge(error);
      }
    },
  };
}

async function sendOnce(request: Request, call: TransportCall<unknown>, fetch: FetchLike): Promise<Response> {
  let response: Response;
  try {
    // A headers object of its own per request: a fetch wrapper that adds to init.headers touches no other request.
    const headers = { 'content-type': 'application/json', accept: 'application/json' };
    response = await fetch(request.url, { method: 'POST', headers, body: call.body, signal: request.signal, redirect: 'manual' });
  } catch (error) {
    throw fetchFailure(error, request.signal, call);
  }
  // A 3xx (or a browser's opaque redirect) is an answer, never followed: 307/308 would re-post the signed body.
  if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
    void response.body?.cancel().catch(() => undefined);
    const location = (response.headers.get('location') ?? '').slice(0, 200);
    throw new GatewayHttpStatusError(
      `${call.operation}: the gateway redirected (HTTP ${response.status}${location ? ` to ${JSON.stringify(location)}` : ''}). Redirects are never followed, so the signed request went nowhere else: check baseUrl (https://, host, path prefix).`,
      { operation: call.operation, status: response.status, body: '', headers: response.headers },
    );
  }
  return response;
}

/**
 * Reads the body as text, counting decoded bytes (after any Content-Encoding), and stops as soon as it
 * passes `maxBytes`: a 300 MB body or a gzip bomb costs one chunk of memory, not its size.
 */
async function readCappedText(response: Response, maxBytes: number, call: TransportCall<unknown>, signal: AbortSignal): Promise<string> {
  const tooLarge = (read: string) =>
    new GatewayResponseTooLargeError(
      `${call.operation} got a response body larger than maxResponseBytes (${maxBytes} bytes), so it was discarded: a genuine gateway answer is a few kilobytes. Check baseUrl, or raise maxResponseBytes.`,
      maxBytes,
      { operation: call.operation, status: response.status, body: read, headers: response.headers },
    );
  const { body } = response;
  if (!response.headers.has('content-encoding') && Number(response.headers.get('content-length')) > maxBytes) {
    void body?.cancel().catch(() => undefined);
    throw tooLarge('');
  }
  if (!body) return '';
  let read: CappedRead;
  try {
    read = await readCappedStream(body, maxBytes);
  } catch (error) {
    throw fetchFailure(error, signal, call, true);
  }
  // Of a refused body only the start is decoded, for the error's excerpt.
  if (!read.complete) throw tooLarge(new TextDecoder().decode(read.bytes.subarray(0, 2048)));
  return new TextDecoder().decode(read.bytes);
}

/** What a failed fetch or body read means for the payment: aborted, timed out, or not delivered (provably or not). */
function fetchFailure(error: unknown, signal: AbortSignal, call: TransportCall<unknown>, afterResponse = false): GatewayError {
  if (call.signal?.aborted) return aborted(call);
  if (signal.aborted) return call.timedOut('attempt', error);
  const reason = rootCause(error);
  return new GatewayConnectionError(`${call.operation} could not reach the gateway (${reason}). Check baseUrl and the network.`, {
    operation: call.operation,
    cause: error,
    mayHaveReachedGateway: afterResponse || !NOT_SENT.has(reason),
  });
}

function aborted(call: TransportCall<unknown>): GatewayAbortError {
  return new GatewayAbortError(`${call.operation} was aborted by the caller's signal.`, { operation: call.operation, cause: call.signal?.reason });
}

/** Any failure out of ky, as the GatewayError the caller sees. */
function toGatewayError(error: unknown, call: TransportCall<unknown>, fetchEntered: boolean): GatewayError {
  if (error instanceof GatewayError) return error;
  if (call.signal?.aborted) return aborted(call);
  if (isTimeoutError(error)) return call.timedOut(performance.now() >= call.deadline - 1 ? 'call' : 'attempt', error);
  // Anything else is unexpected: before the first fetch (ky building its Request) nothing was sent; after
  // it, the request may have reached the gateway.
  return new GatewayConnectionError(`${call.operation} failed unexpectedly (${rootCause(error)})${fetchEntered ? '' : ' before anything was sent. Check baseUrl'}.`, {
    operation: call.operation,
    cause: error,
    mayHaveReachedGateway: fetchEntered,
  });
}

// Failures before a connection exists: the request provably never reached the gateway. ('bad port' is
// undici refusing a blocked port such as 6000 before connecting.)
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'bad port']);

// The useful part is deep in the cause chain (TypeError 'fetch failed' -> { code: 'ECONNREFUSED' }).
function rootCause(error: unknown): string {
  let deepestMessage = 'unknown error';
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    if (e instanceof Error) deepestMessage = e.message;
  }
  return deepestMessage;
}
