/**
 * Every decision about a failed attempt, from one classification of the failure: whether to send again
 * (ky's `shouldRetry`) and the backoff ky waits, whether a create's record must be looked up, and whether a
 * wait for an order goes on.
 *
 * @module
 */
import { GatewayApiError } from '../operations/api-error.js';
import type { RetryClass } from '../kinds/define-operation.js';
import {
  GatewayAbortError,
  GatewayConnectionError,
  GatewayEmptyResponseError,
  GatewayError,
  GatewayHttpStatusError,
  GatewayNonJsonResponseError,
  GatewayResponseContractError,
  GatewayResponseError,
  GatewayTimeoutError,
  GatewayTruncatedResponseError,
  GatewayValidationError,
} from '../errors/index.js';
import type { RetryPolicy } from './options.js';

/**
 * What a failed attempt tells about the request:
 * - `not-sent`: provably not processed (the connection was refused): any operation may be sent again;
 * - `turned-away`: an unsigned status that says "not taken" (408, 429): a read may be sent again, but a status is
 *   not signed and a proxy may answer it after the gateway acted, so a create's key is looked up first;
 * - `lost`: may have been processed, the answer was lost (timeout, reset, 5xx, an empty or cut body);
 * - `untrusted`: an answer came that cannot be trusted (signature, one reading, another record's, too large);
 * - `contract`: the gateway's own answer broke the documented shape: not lost, and the same again if repeated;
 * - `refused`: the gateway's definite refusal;
 * - `invalid`: refused before sending (our validation) or never to be repeated (a redirect);
 * - `aborted`: the caller's signal.
 */
export type FailureKind = 'not-sent' | 'turned-away' | 'lost' | 'untrusted' | 'contract' | 'refused' | 'invalid' | 'aborted';

export function classify(error: GatewayError): FailureKind {
  if (error instanceof GatewayAbortError) return 'aborted';
  if (error instanceof GatewayValidationError) return 'invalid';
  if (error instanceof GatewayResponseContractError) return 'contract';
  if (error instanceof GatewayApiError) return 'refused';
  if (error instanceof GatewayConnectionError) return error.mayHaveReachedGateway ? 'lost' : 'not-sent';
  if (error instanceof GatewayTimeoutError) return 'lost';
  if (error instanceof GatewayHttpStatusError) {
    if (error.status >= 300 && error.status < 400) return 'invalid';
    if (error.status === 408 || error.status === 429) return 'turned-away';
    return error.status >= 500 ? 'lost' : 'untrusted';
  }
  if (error instanceof GatewayEmptyResponseError || error instanceof GatewayTruncatedResponseError || error instanceof GatewayNonJsonResponseError) return 'lost';
  return 'untrusted';
}

/** Whether an attempt that failed so may be sent again: a create only when it provably never arrived. */
export function mayRepeat(retry: RetryClass, kind: FailureKind): boolean {
  return kind === 'not-sent' || ((kind === 'lost' || kind === 'turned-away') && retry !== 'create');
}

/**
 * Whether a create that failed so may have made its record, which must then be looked up: any failure after
 * sending (an unsigned status too); a refusal unless its row declares it decided before any record is made
 * (`refusedBeforeRecord`), and even then once an earlier attempt may have made the record.
 */
export function mayHaveCreated(kind: FailureKind, earlierMayHave: boolean, finalRefusal: boolean): boolean {
  if (kind === 'refused') return earlierMayHave || !finalRefusal;
  return kind === 'lost' || kind === 'turned-away' || kind === 'untrusted' || kind === 'aborted';
}

/**
 * Whether a failed query ends a wait for an order: everything but what asking again can cure (the network,
 * a lost answer, the gateway's system or database error).
 */
export function endsWait(error: unknown): boolean {
  if (!(error instanceof GatewayError)) return true;
  if (error instanceof GatewayApiError) return error.reason !== 'system_error' && error.reason !== 'database_error';
  const kind = classify(error);
  return kind !== 'not-sent' && kind !== 'turned-away' && kind !== 'lost';
}

/** A short reason for hooks and messages. */
export function failureReason(error: GatewayError): string {
  if (error instanceof GatewayResponseError) return `${error.name} (HTTP ${error.status})`;
  if (error instanceof GatewayApiError) return `${error.name} (${error.reason}: ${JSON.stringify(error.msg.slice(0, 80))})`;
  return error.name;
}

/** The backoff before retry number `retry` (ky's `delay`): doubling from initialDelayMs, at most maxDelayMs. */
export function backoff(retry: number, policy: RetryPolicy): number {
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (retry - 1));
}

/** Equal jitter (ky's `jitter`): half the delay fixed, half random, so retries never bunch at zero. */
export function equalJitter(delayMs: number): number {
  return Math.round(delayMs / 2 + Math.random() * (delayMs / 2));
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
