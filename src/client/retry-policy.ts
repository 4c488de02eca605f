import {
  GatewayConnectionError,
  GatewayEmptyResponseError,
  GatewayError,
  GatewayHttpStatusError,
  GatewayNonJsonResponseError,
  GatewayResponseError,
  GatewayTimeoutError,
  GatewayTruncatedResponseError,
} from '../errors/index.js';

/**
 * Retry settings: how often and how patiently transient failures are retried. Only what you give
 * changes; the rest keeps {@link RETRY_DEFAULTS}. Retries stay within the call's `totalTimeout`.
 *
 * @example
 * ```ts
 * import { GatewayClient, type RetryOptions } from 'payment-gateway-sdk';
 *
 * // A nightly reconciliation job can wait longer than a payer at checkout.
 * const patient: RetryOptions = { maxRetries: 5, maxDelayMs: 30_000 };
 * const client = new GatewayClient({ ...credentials, retry: patient, totalTimeout: 300_000 });
 * ```
 */
export interface RetryOptions {
  /** Retries after the first attempt (reads, close, and creates that provably did not reach the gateway). Default 2. */
  maxRetries?: number;
  /** Delay before the first retry in ms; doubles each retry, with jitter. Default 500. */
  initialDelayMs?: number;
  /** Upper bound of one backoff delay in ms. Default 8000. */
  maxDelayMs?: number;
  /** Upper bound of a delay asked for by `Retry-After` in ms. Default 10000. */
  maxRetryAfterMs?: number;
}

/**
 * {@link RetryOptions} with every default applied.
 *
 * @example
 * ```ts
 * import { RETRY_DEFAULTS, type RetryPolicy } from 'payment-gateway-sdk';
 *
 * // The most each retry waits when the gateway sends no Retry-After: doubling from initialDelayMs up to maxDelayMs.
 * const backoffCeilings = (policy: RetryPolicy): number[] =>
 *   Array.from({ length: policy.maxRetries }, (_, i) => Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** i));
 * backoffCeilings(RETRY_DEFAULTS); // [500, 1000]
 * ```
 */
export type RetryPolicy = Required<RetryOptions>;

/**
 * The defaults of {@link RetryOptions}.
 *
 * @example
 * ```ts
 * import { GatewayClient, RETRY_DEFAULTS } from 'payment-gateway-sdk';
 *
 * // Two more retries than usual for a batch job, whatever the default becomes.
 * const client = new GatewayClient({ ...credentials, retry: { maxRetries: RETRY_DEFAULTS.maxRetries + 2 } });
 * ```
 */
export const RETRY_DEFAULTS: RetryPolicy = { maxRetries: 2, initialDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 10_000 };

/**
 * How far a failed attempt got:
 * - `not-sent`: provably not processed (connection refused, 408, 429): any operation may be sent again;
 * - `ambiguous`: may have been processed (timeout, reset, 5xx, a broken or untrusted body);
 * - `final`: a definite answer (business error, bad input): repeating would not help.
 */
export type FailureKind = 'not-sent' | 'ambiguous' | 'final';

export function classifyFailure(error: GatewayError): FailureKind {
  if (error instanceof GatewayConnectionError) return error.mayHaveReachedGateway ? 'ambiguous' : 'not-sent';
  if (error instanceof GatewayTimeoutError) return 'ambiguous';
  if (error instanceof GatewayHttpStatusError) {
    if (error.status === 408 || error.status === 429) return 'not-sent';
    return error.status >= 500 ? 'ambiguous' : 'final';
  }
  if (error instanceof GatewayEmptyResponseError || error instanceof GatewayTruncatedResponseError || error instanceof GatewayNonJsonResponseError) {
    return 'ambiguous';
  }
  return 'final';
}

/** A short reason for hooks and messages. */
export function failureReason(error: GatewayError): string {
  if (error instanceof GatewayResponseError) return `${error.name} (HTTP ${error.status})`;
  return error.name;
}

/** Exponential backoff with equal jitter: half the delay fixed, half random, so retries never bunch at zero. */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** The delay a 429/503 asks for with `Retry-After` (seconds or an HTTP date), capped; undefined when absent. */
export function retryAfterDelay(error: GatewayError, policy: RetryPolicy, now: number = Date.now()): number | undefined {
  if (!(error instanceof GatewayHttpStatusError) || (error.status !== 429 && error.status !== 503)) return undefined;
  const header = error.headers?.get('retry-after')?.trim();
  if (!header) return undefined;
  const ms = /^\d+$/.test(header) ? Number(header) * 1000 : Date.parse(header) - now;
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(Math.max(0, ms), policy.maxRetryAfterMs);
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
