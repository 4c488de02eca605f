import ky, { type KyInstance } from 'ky';
import type { OperationName } from '../endpoints.js';
import { GatewayAbortError, GatewayConnectionError, GatewayTimeoutError } from '../errors.js';

/** A fetch-compatible function: the global `fetch`, or one of your own (proxies, tests, benchmarks). */
export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

/** What one HTTP exchange returned: status, headers and the whole body as text. */
export interface HttpExchange {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
}

/** Per-attempt controls. */
export interface AttemptOptions {
  readonly operation: OperationName;
  /** Milliseconds for the whole attempt: connecting, sending, and reading the entire body. */
  readonly timeout: number;
  readonly signal?: AbortSignal | undefined;
}

/** Sends JSON bodies to `{baseUrl}{path}` and returns the raw exchange; retries are decided above this layer. */
export interface Transport {
  post(path: string, body: Readonly<Record<string, unknown>>, options: AttemptOptions): Promise<HttpExchange>;
}

/**
 * The ky-based transport. ky's own retries and timeout are off: one deadline signal covers the request
 * and the body read (ky's timeout does not cover reading a body after the response resolves), and the
 * retry policy belongs to the client, which knows which operations are safe to repeat.
 */
export function createKyTransport(baseUrl: string, fetch: FetchLike | undefined): Transport {
  const api: KyInstance = ky.create({
    prefix: baseUrl,
    timeout: false,
    retry: 0,
    throwHttpErrors: false,
    ...(fetch ? { fetch: fetch as typeof globalThis.fetch } : {}),
  });
  return {
    async post(path, body, { operation, timeout, signal }) {
      const deadline = AbortSignal.timeout(timeout);
      const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
      try {
        const response = await api.post(path, { json: body, signal: combined });
        return { status: response.status, headers: response.headers, body: await response.text() };
      } catch (error) {
        if (signal?.aborted) {
          throw new GatewayAbortError(`${operation} was aborted by the caller's signal.`, { operation, cause: signal.reason });
        }
        if (deadline.aborted) {
          throw new GatewayTimeoutError(`${operation} got no complete response within ${timeout} ms. The gateway may still have acted on it.`, { operation, cause: error });
        }
        const reason = describe(error);
        throw new GatewayConnectionError(`${operation} could not reach the gateway (${reason}). Check baseUrl and the network.`, {
          operation,
          cause: error,
          mayHaveReachedGateway: !NOT_SENT_CODES.has(reason),
        });
      }
    },
  };
}

// Failures that happen before a connection exists: the request provably never reached the gateway.
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

// The useful part is deep in the cause chain (ky NetworkError -> TypeError 'fetch failed' -> { code: 'ECONNREFUSED' }).
function describe(error: unknown): string {
  let deepestMessage = 'unknown error';
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    if (e instanceof Error) deepestMessage = e.message;
  }
  return deepestMessage;
}
