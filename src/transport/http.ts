/**
 * The transport: one HTTP exchange with the gateway, carried by ky. It turns a request into an
 * {@link HttpExchange} (the status, headers and whole body of any answer) or a {@link TransportFailure}
 * that says how far the request got, and calls nothing back: what an answer means and whether to send
 * again are decided above it (client/policy.ts), because the payment rules judge each attempt by its body.
 *
 * @module
 */
import ky, { isTimeoutError, type KyInstance } from 'ky';
import { readCappedStream } from '../util/read-capped-stream.js';

/**
 * A fetch-compatible function: the global `fetch`, or one of your own (proxies, tests, benchmarks). It
 * is called as `fetch(url, { method: 'POST', headers, body, signal, redirect: 'manual' })`, with a headers
 * object of its own for each request.
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

/** One exchange to carry: the signed body to one URL, within a time limit. */
export interface HttpRequest {
  readonly url: string;
  /** The signed JSON text, sent as it is. */
  readonly body: string;
  /** Milliseconds for the exchange: connecting, sending and reading the whole body. */
  readonly timeout: number;
  /** The caller's signal. */
  readonly signal: AbortSignal | undefined;
}

/**
 * How far a failed exchange got:
 * - `aborted`: the caller's signal;
 * - `timeout`: the exchange's time ran out;
 * - `not-sent`: provably never reached the server (connection refused, DNS, a port the runtime blocks);
 * - `maybe-sent`: failed after it may have reached the server (a reset, a body cut off);
 * - `redirect`: a 3xx, never followed (a 307 would re-post the signed body elsewhere);
 * - `too-large`: the body passed `maxResponseBytes`; reading stopped;
 * - `unreadable`: an answer came, but as something that is no readable Response (a broken `fetch` of your own).
 */
export type TransportFailureKind = 'aborted' | 'timeout' | 'not-sent' | 'maybe-sent' | 'redirect' | 'too-large' | 'unreadable';

/** A failed exchange, with what is known of the answer. */
export class TransportFailure extends Error {
  constructor(
    readonly kind: TransportFailureKind,
    /** The root cause's code or message (`ECONNREFUSED`, `bad port`...), for the caller's message. */
    readonly reason: string,
    readonly answer?: { readonly status: number; readonly headers: Headers; readonly bodyStart: string; readonly location?: string | undefined; readonly limit?: number | undefined },
    options?: { cause?: unknown },
  ) {
    super(`${kind}: ${reason}`, options);
  }
}

/** Carries exchanges to the gateway. */
export interface Transport {
  exchange(request: HttpRequest): Promise<HttpExchange>;
}

/** What the transport needs from the client's options. */
export interface TransportSettings {
  readonly fetch: FetchLike | undefined;
  readonly maxResponseBytes: number;
}

/**
 * The transport on one ky instance per client. ky builds each request and runs its timeout and abort;
 * hand-written here, each with its reason: the capped body read (ky reads bodies whole) and redirects
 * refused as answers.
 */
export function createKyTransport(settings: TransportSettings): Transport {
  // Statuses are judged with the body, above this layer; attempts are planned there too.
  const api: KyInstance = ky.create({ method: 'post', throwHttpErrors: false, retry: 0 });
  return {
    async exchange(request: HttpRequest): Promise<HttpExchange> {
      let exchange: HttpExchange | undefined;
      let fetchEntered = false;
      try {
        await api(request.url, {
          timeout: request.timeout,
          signal: request.signal ?? null,
          // Runs inside ky's timeout, so the limit covers reading the body too. The merchant's fetch keeps its
          // (url, init) contract and gets the exact signed text: ky's Request carries only the URL and signal.
          fetch: async (input) => {
            fetchEntered = true;
            const { signal } = input as Request; // ky 2 always passes the Request it built
            const response = await send(request, signal, settings.fetch ?? globalThis.fetch);
            exchange = { status: response.status, headers: response.headers, body: await readCappedText(response, settings.maxResponseBytes, signal) };
            return response;
          },
        });
      } catch (error) {
        throw failureOf(error, request.signal, fetchEntered);
      }
      return exchange as HttpExchange;
    },
  };
}

async function send(request: HttpRequest, signal: AbortSignal, fetch: FetchLike): Promise<Response> {
  let response: Response;
  try {
    // A headers object of its own per request: a fetch wrapper that adds to init.headers touches no other request.
    const headers = { 'content-type': 'application/json', accept: 'application/json' };
    response = await fetch(request.url, { method: 'POST', headers, body: request.body, signal, redirect: 'manual' });
  } catch (error) {
    throw networkFailure(error, signal, false);
  }
  let redirected: boolean;
  try {
    // A 3xx (or a browser's opaque redirect) is an answer, never followed: 307/308 would re-post the signed body.
    redirected = response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
  } catch (error) {
    throw unreadable(error);
  }
  if (redirected) {
    void response.body?.cancel().catch(() => undefined);
    const location = (response.headers.get('location') ?? '').slice(0, 200) || undefined;
    throw new TransportFailure('redirect', `HTTP ${response.status}`, { status: response.status, headers: response.headers, bodyStart: '', location });
  }
  return response;
}

/**
 * Reads the body as text, counting decoded bytes (after any Content-Encoding), and stops as soon as it
 * passes `maxBytes`: a 300 MB body or a gzip bomb costs one chunk of memory, not its size.
 */
async function readCappedText(response: Response, maxBytes: number, signal: AbortSignal): Promise<string> {
  const tooLarge = (start: string) => new TransportFailure('too-large', `over ${maxBytes} bytes`, { status: response.status, headers: response.headers, bodyStart: start, limit: maxBytes });
  let declaredTooLarge: boolean;
  try {
    declaredTooLarge = !response.headers.has('content-encoding') && Number(response.headers.get('content-length')) > maxBytes;
  } catch (error) {
    throw unreadable(error);
  }
  const { body } = response;
  if (declaredTooLarge) {
    void body?.cancel().catch(() => undefined);
    throw tooLarge('');
  }
  if (!body) return '';
  let read;
  try {
    read = await readCappedStream(body, maxBytes);
  } catch (error) {
    throw networkFailure(error, signal, true);
  }
  // Of a refused body only the start is decoded, for the error's excerpt.
  if (!read.complete) throw tooLarge(new TextDecoder().decode(read.bytes.subarray(0, 2048)));
  return new TextDecoder().decode(read.bytes);
}

/** What a `fetch` of the merchant's returned is no Response that can be read. */
function unreadable(error: unknown): TransportFailure {
  return new TransportFailure('unreadable', error instanceof Error ? error.message : String(error), undefined, { cause: error });
}

/** A failed fetch or body read: the signal's doing, or the network's (provably before sending, or not). */
function networkFailure(error: unknown, signal: AbortSignal, afterResponse: boolean): TransportFailure {
  if (signal.aborted) return new TransportFailure('aborted', 'aborted', undefined, { cause: error }); // ky tells timeout from the caller
  const reason = rootCause(error);
  return new TransportFailure(afterResponse || !NOT_SENT.has(reason) ? 'maybe-sent' : 'not-sent', reason, undefined, { cause: error });
}

/** Any failure out of ky, as a classified failure. */
function failureOf(error: unknown, callerSignal: AbortSignal | undefined, fetchEntered: boolean): TransportFailure {
  if (callerSignal?.aborted) return new TransportFailure('aborted', 'aborted by the caller', undefined, { cause: callerSignal.reason });
  if (isTimeoutError(error)) return new TransportFailure('timeout', 'timed out', undefined, { cause: error });
  if (error instanceof TransportFailure) return error;
  // Anything else is unexpected: before fetch (ky building its Request) nothing was sent; after it, maybe.
  return new TransportFailure(fetchEntered ? 'maybe-sent' : 'not-sent', rootCause(error), undefined, { cause: error });
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
