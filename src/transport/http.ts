/**
 * The transport: one signed request's attempts, carried by ky, whose retry runs the waits. Each attempt
 * becomes an {@link HttpExchange} (the status, headers and whole body of any answer) or a
 * {@link TransportFailure} that says how far it got, handed to the caller's judge; what an answer means and
 * whether to send again are decided above it (client/policy.ts), because the payment rules judge each attempt
 * by its body.
 *
 * @module
 */
import ky, { isHTTPError, isTimeoutError, type KyInstance } from 'ky';
import { readCappedStream } from '../util/read-capped-stream.js';
import { createNodeSend, failedAfterConnect, type Answer, type NodeSend } from './node-http.js';
import { serverRetryWaitMs } from './retry-after.js';

/**
 * A fetch-compatible function: the global `fetch`, or one of your own (proxies, tests, benchmarks). It
 * is called as `fetch(url, { method: 'POST', headers, body, signal, redirect: 'manual' })`, with a headers
 * object of its own for each request.
 *
 * @example
 * ```ts
 * import { GatewayClient } from 'payment-gateway-sdk';
 *
 * // Mark each request for your egress proxy; keep the rest of init, whose signal carries the SDK's deadline.
 * const viaEgress: GatewayClient.FetchLike = (url, init) => {
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
 * import type { GatewayClient } from 'payment-gateway-sdk';
 *
 * // Keep the exchange for a dispute: the body is the signed response exactly as received.
 * const evidence = ({ status, headers, body }: GatewayClient.HttpExchange) => ({ status, date: headers.get('date'), body });
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

/** One signed request to carry: the signed body to one URL, each attempt within a time limit. */
export interface HttpRequest {
  readonly url: string;
  /** The signed JSON text, sent as it is. */
  readonly body: string;
  /** Milliseconds for each attempt: connecting, sending and reading the whole body (ky's `timeout`). */
  readonly timeout: number;
  /** The caller's signal. */
  readonly signal: AbortSignal | undefined;
  /**
   * Sent on a connection of its own (on Node): a create the gateway offers no lookup for, which a pooled connection
   * the server closes as it is reused would turn into an unknown outcome.
   */
  readonly freshConnection?: boolean;
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

  /** For a timeout or an abort outside an attempt (in a wait): what the last attempt's judge threw. */
  lastFailure?: unknown;
}

/** Carries exchanges to the gateway. */
export interface Transport {
  /**
   * Sends one signed request, repeated as `plan` allows, until an attempt's judge returns a value.
   * @throws what the last attempt's judge threw; a {@link TransportFailure} (`timeout` or `aborted`, its
   * `lastFailure` what the judge last threw) when the time ran out or the caller aborted outside an attempt
   */
  exchange<T>(request: HttpRequest, plan: RetryPlan<T>): Promise<T>;
}

/** Judges one attempt's outcome: returns the call's value, or throws the failure the plan then weighs. */
export type Judge<T> = (outcome: HttpExchange | TransportFailure) => T;

/**
 * How one signed request is repeated: ky's retry carries it out (the waits, Retry-After, the total time),
 * and the caller says which failures may be sent again, because the payment rules judge each attempt by its body.
 */
export interface RetryPlan<T> {
  /** How many times the request may be sent again after its first attempt. */
  readonly limit: number;
  /** Milliseconds for every attempt and wait together (ky's `totalTimeout`). */
  readonly totalTimeout: number;
  /** The longest wait a `Retry-After` of a 429 or 503 may ask for (ky's `maxRetryAfter`). */
  readonly maxRetryAfter: number;
  /** The backoff before retry number `retry` (from 1) when no `Retry-After` says otherwise (ky's `delay`). */
  delay(retry: number): number;
  /** The wait actually taken from a backoff (ky's `jitter`). */
  jitter(delayMs: number): number;
  /** Starts an attempt: the judge it returns is called once, with what the attempt got. */
  begin(): Judge<T>;
  /** Whether a failure a judge threw may be sent again. */
  mayRetry(failure: unknown): boolean;
  /** Told when a wait is over, before the next attempt starts: the failure, and the wait (the backoff taken, else as measured). */
  retrying?: ((failure: unknown, waitedMs: number) => void) | undefined;
}

/** What the transport needs from the client's options. */
export interface TransportSettings {
  readonly fetch: FetchLike | undefined;
  readonly maxResponseBytes: number;
}

// The statuses whose Retry-After ky honours; a failure with another status is retried on backoff alone.
const RETRY_AFTER_STATUSES = [429, 503];

/** One attempt of a request, judged once: by its own outcome, or by ky's timeout when that comes first. */
interface Attempt<T> {
  readonly judge: Judge<T>;
  judged?: { readonly value: T } | Failed;
}

/** A judged failure: when it ended, and ky's error that ended it, if any. */
interface Failed {
  readonly failure: unknown;
  readonly at: number;
  readonly kyError: unknown;
}

/**
 * The transport on one ky instance per client. ky builds each request and runs its timeout, abort and
 * retries; hand-written here, each with its reason: the capped body read (ky reads bodies whole),
 * redirects refused as answers, and each attempt judged by its body before ky decides to retry. On Node, unless
 * the merchant gives a `fetch`, each attempt goes over node:http(s) with a keep-alive agent (./node-http.ts).
 */
export function createKyTransport(settings: TransportSettings): Transport {
  const api: KyInstance = ky.create({ method: 'post' });
  const nodeSend = settings.fetch ? undefined : createNodeSend();
  const carrier = nodeSend ? viaNode(nodeSend) : viaFetch(settings.fetch ?? globalThis.fetch);
  return {
    async exchange<T>(request: HttpRequest, plan: RetryPlan<T>): Promise<T> {
      let attempt: Attempt<T> | undefined;
      // The backoff ky took from the plan for the coming wait; none when ky waits a Retry-After instead.
      let backoff: number | undefined;
      const failed = (): Failed | undefined => (attempt?.judged && 'failure' in attempt.judged ? attempt.judged : undefined);
      // ky's timeout rejects while the attempt's fetch still runs: the attempt is judged a timeout then.
      const timedOut = (kyError: unknown) => {
        if (attempt && !attempt.judged) settle(attempt, new TransportFailure('timeout', 'timed out', undefined, { cause: kyError }), kyError);
      };
      // ky's totalTimeout starts about now: what is left of it decides whether a Retry-After can be waited out.
      const deadline = performance.now() + plan.totalTimeout;
      try {
        await api(request.url, {
          timeout: request.timeout,
          totalTimeout: Math.max(1, plan.totalTimeout),
          signal: request.signal ?? null,
          retry: {
            limit: plan.limit,
            methods: ['post'], // which POSTs may be repeated is the plan's to say (a create only when provably not sent)
            statusCodes: RETRY_AFTER_STATUSES,
            afterStatusCodes: RETRY_AFTER_STATUSES,
            maxRetryAfter: plan.maxRetryAfter,
            delay: plan.delay,
            jitter: (delayMs) => (backoff = plan.jitter(delayMs)),
            shouldRetry: ({ error }) => {
              backoff = undefined;
              if (isTimeoutError(error)) timedOut(error);
              const failure = failed();
              if (!failure || !plan.mayRetry(failure.failure)) return false;
              // A 429/503 reaches ky as its HTTPError, whose Retry-After ky reads; any other failure waits the backoff.
              if (!isHTTPError(error)) return true;
              // A wait longer than the call has left would end on the total timeout anyway: fail now, with the status.
              const wait = serverRetryWaitMs(error.response.headers);
              return wait !== undefined && Math.min(wait, plan.maxRetryAfter) >= deadline - performance.now() ? false : undefined;
            },
          },
          // Only when someone listens: a hook costs ky a few µs per call to merge.
          ...(plan.retrying && {
            hooks: {
              beforeRetry: [
                () => {
                  const failure = failed();
                  plan.retrying?.(failure?.failure, backoff ?? (failure ? performance.now() - failure.at : 0));
                },
              ],
            },
          }),
          // Runs inside ky's timeout, so the limit covers reading the body too. The merchant's fetch keeps its
          // (url, init) contract and gets the exact signed text: ky's Request carries only the URL and signal.
          fetch: async (input) => {
            const current: Attempt<T> = (attempt = { judge: plan.begin() });
            const { signal } = input as Request; // ky 2 always passes the Request it built
            let outcome: HttpExchange | TransportFailure;
            try {
              const answer = await carrier(request, signal);
              outcome = { status: answer.status, headers: answer.headers, body: await readCappedText(answer, settings.maxResponseBytes, signal) };
            } catch (error) {
              // ky's own timeout aborted the attempt, not the caller: ky judges it, by its TimeoutError.
              if (signal.aborted && !request.signal?.aborted) throw error;
              outcome = error instanceof TransportFailure ? error : unreadable(error);
            }
            settle(current, outcome);
            const judged = current.judged!;
            if (!('failure' in judged)) return new Response(null);
            // Handed to ky as the status it is, so that ky reads its Retry-After.
            if (!(outcome instanceof TransportFailure) && RETRY_AFTER_STATUSES.includes(outcome.status)) return new Response(null, { status: outcome.status, headers: outcome.headers });
            throw judged.failure;
          },
        });
      } catch (error) {
        if (isTimeoutError(error)) timedOut(error);
        // An answer judged good stands, even if ky's clock ran out as it was being judged.
        if (attempt?.judged && 'value' in attempt.judged) return attempt.judged.value;
        const last = failed();
        // The last attempt's failure, unless ky ended the call outside an attempt: in a wait, or before the first.
        if (last && (last.failure === error || last.kyError === error || isHTTPError(error))) throw last.failure;
        const outside = failureOf(error, request.signal, attempt !== undefined);
        if (outside.kind === 'aborted' || outside.kind === 'timeout') outside.lastFailure = last?.failure;
        throw outside;
      }
      return (attempt!.judged as { readonly value: T }).value;
    },
  };
}

/** Judges an attempt once: its value, or what its judge threw, when, and ky's error that ended it. */
function settle<T>(attempt: Attempt<T>, outcome: HttpExchange | TransportFailure, kyError?: unknown): void {
  if (attempt.judged) return;
  try {
    attempt.judged = { value: attempt.judge(outcome) };
  } catch (failure) {
    attempt.judged = { failure, at: performance.now(), kyError };
  }
}

/** Sends one attempt and resolves to its answer; a redirect is refused, never followed. */
type Carrier = (request: HttpRequest, signal: AbortSignal) => Promise<Answer>;

// A headers object of its own per request: a fetch wrapper that adds to init.headers touches no other request.
const jsonHeaders = () => ({ 'content-type': 'application/json', accept: 'application/json' });

function viaFetch(fetch: FetchLike): Carrier {
  return async (request, signal) => {
    let response: Response;
    try {
      response = await fetch(request.url, { method: 'POST', headers: jsonHeaders(), body: request.body, signal, redirect: 'manual' });
    } catch (error) {
      throw networkFailure(error, signal, false);
    }
    let answer: Answer & { readonly redirected: boolean };
    try {
      // A browser's opaque redirect has status 0: an answer all the same, never followed.
      answer = {
        status: response.status,
        headers: response.headers,
        redirected: response.type === 'opaqueredirect',
        read: (maxBytes) => (response.body ? readCappedStream(response.body, maxBytes) : Promise.resolve({ bytes: new Uint8Array(0), complete: true })),
        discard: () => void response.body?.cancel().catch(() => undefined),
      };
    } catch (error) {
      throw unreadable(error);
    }
    return refuseRedirect(answer, answer.redirected);
  };
}

function viaNode(send: NodeSend): Carrier {
  return async (request, signal) => {
    let answer: Answer;
    try {
      answer = await send(request.url, request.body, signal, request.freshConnection === true);
    } catch (error) {
      throw networkFailure(error, signal, failedAfterConnect(error));
    }
    return refuseRedirect(answer, false);
  };
}

/** A 3xx is an answer, never followed: 307/308 would re-post the signed body elsewhere. */
function refuseRedirect(answer: Answer, opaque: boolean): Answer {
  if (!opaque && (answer.status < 300 || answer.status >= 400)) return answer;
  answer.discard();
  const location = (answer.headers.get('location') ?? '').slice(0, 200) || undefined;
  throw new TransportFailure('redirect', `HTTP ${answer.status}`, { status: answer.status, headers: answer.headers, bodyStart: '', location });
}

/**
 * Reads the body as text, counting decoded bytes (after any Content-Encoding), and stops as soon as it
 * passes `maxBytes`: a 300 MB body or a gzip bomb costs one chunk of memory, not its size.
 */
async function readCappedText(answer: Answer, maxBytes: number, signal: AbortSignal): Promise<string> {
  const tooLarge = (start: string) => new TransportFailure('too-large', `over ${maxBytes} bytes`, { status: answer.status, headers: answer.headers, bodyStart: start, limit: maxBytes });
  let declaredTooLarge: boolean;
  try {
    declaredTooLarge = !answer.headers.has('content-encoding') && Number(answer.headers.get('content-length')) > maxBytes;
  } catch (error) {
    throw unreadable(error);
  }
  if (declaredTooLarge) {
    answer.discard();
    throw tooLarge('');
  }
  let read;
  try {
    read = await answer.read(maxBytes);
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
function networkFailure(error: unknown, signal: AbortSignal, mayHaveArrived: boolean): TransportFailure {
  if (signal.aborted) return new TransportFailure('aborted', 'aborted', undefined, { cause: error }); // ky tells timeout from the caller
  const reason = rootCause(error);
  return new TransportFailure(mayHaveArrived || !NOT_SENT.has(reason) ? 'maybe-sent' : 'not-sent', reason, undefined, { cause: error });
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
