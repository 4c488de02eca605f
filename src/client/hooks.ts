import type { OperationName } from '../endpoints.js';
import type { GatewayError } from '../errors.js';

/** Sent before each HTTP attempt. The body is the signed request: it never contains the secret. */
export interface RequestEvent {
  /** The operation of the call. */
  readonly operation: OperationName;
  /** 1 for the first attempt of the call; lookups made to reconcile a create count on. */
  readonly attempt: number;
  /** The operation path below `baseUrl`. */
  readonly path: string;
  /** The JSON body as sent. */
  readonly body: Readonly<Record<string, string | number>>;
}

/** Sent after each HTTP attempt, successful or not. */
export interface ResponseEvent {
  /** The operation of the call. */
  readonly operation: OperationName;
  /** The attempt this response answers. */
  readonly attempt: number;
  /** HTTP status, when a response arrived. */
  readonly status: number | undefined;
  /** Milliseconds from sending to the decoded response or the failure. */
  readonly durationMs: number;
  /** Whether the response's signature verified. */
  readonly signatureVerified: boolean;
  /** The failure of this attempt, if it failed. */
  readonly error?: GatewayError;
}

/** Sent before waiting to retry. */
export interface RetryEvent {
  /** The operation of the call. */
  readonly operation: OperationName;
  /** The attempt that failed. */
  readonly attempt: number;
  /** How long the SDK waits before the next attempt. */
  readonly delayMs: number;
  /** Why: the failure's class name and HTTP status. */
  readonly reason: string;
}

/**
 * Observability hooks. They observe only: what they return is ignored and what they throw is swallowed,
 * so a logging bug cannot change the outcome of a payment call.
 *
 * @example
 * ```ts
 * const client = new GatewayClient({
 *   ...credentials,
 *   hooks: {
 *     onRetry: ({ operation, attempt, delayMs, reason }) => log.warn({ operation, attempt, delayMs, reason }, 'retrying'),
 *     onResponse: ({ operation, status, durationMs }) => metrics.timing(`gateway.${operation}`, durationMs, { status }),
 *   },
 * });
 * ```
 */
export interface GatewayHooks {
  /** Before each HTTP attempt. */
  onRequest?: ((event: RequestEvent) => void) | undefined;
  /** After each HTTP attempt. */
  onResponse?: ((event: ResponseEvent) => void) | undefined;
  /** Before waiting to retry. */
  onRetry?: ((event: RetryEvent) => void) | undefined;
}
