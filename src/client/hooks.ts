import { recordFields } from '../kinds/define-operation.js';
import { definitionOf, OPERATION_NAMES, type OperationName } from '../operations/table.js';

/**
 * Why an HTTP attempt was made: the operation called (`request`), a lookup that settles an ambiguous create
 * (`reconcile`), the read-back of `confirm: true` (`confirm`), close's check of an order it could not close
 * (`fallback`), or a query of `waitForOrder` or `waitForRefund` (`wait`).
 *
 * @example
 * ```ts
 * import type { GatewayHooks } from 'payment-gateway-sdk';
 *
 * // An attempt's purpose is GatewayHooks.RequestEvent['purpose'].
 * const label = (e: GatewayHooks.RequestEvent): string => (e.purpose === 'request' ? e.operation : `${e.operation} (${e.purpose})`);
 * ```
 */
export type AttemptPurpose = 'request' | 'reconcile' | 'confirm' | 'fallback' | 'wait';
import type { GatewayError, GatewayOutcomeUnknownError, GatewayReconciliationMismatchError, ReconcileKey } from '../errors/index.js';

/**
 * Sent before each HTTP attempt. The body is the signed request: it never contains the secret.
 *
 * @example
 * ```ts
 * import { GatewayClient, type GatewayHooks } from 'payment-gateway-sdk';
 *
 * // The body holds order details (subject, clientIp): log where the call goes, not what it carries.
 * const onRequest = ({ operation, attempt, path }: GatewayHooks.RequestEvent) => log.debug({ operation, attempt, path }, 'gateway request');
 * const client = new GatewayClient({ ...credentials, hooks: { onRequest } });
 * ```
 */
export interface RequestEvent {
  /** The operation of the HTTP request (for a lookup: the read, e.g. `query`). */
  readonly operation: OperationName;
  /** Why the attempt was made: see `AttemptPurpose`. */
  readonly purpose: AttemptPurpose;
  /** The record's keys the request carries (`mchOrderNo`, `payOrderId`, `requestId`), for logs. */
  readonly ids: Readonly<Record<string, string>>;
  /** 1 for the first attempt of the call; lookups made to reconcile a create count on. */
  readonly attempt: number;
  /** The operation path below `baseUrl`. */
  readonly path: string;
  /**
   * The JSON body as sent, as a frozen copy: it cannot change what is sent. To redact it for a log,
   * copy it first (`{ ...body, clientIp: '***' }`); assigning to it throws, and a hook that throws is ignored.
   */
  readonly body: Readonly<Record<string, string | number>>;
}

/**
 * Sent after each HTTP attempt, successful or not.
 *
 * @example
 * ```ts
 * import { GatewayClient, type GatewayHooks } from 'payment-gateway-sdk';
 *
 * function onResponse({ operation, status, durationMs, error }: GatewayHooks.ResponseEvent): void {
 *   metrics.timing(`gateway.${operation}`, durationMs, { status: status ?? 'none', outcome: error?.name ?? 'ok' });
 * }
 * const client = new GatewayClient({ ...credentials, hooks: { onResponse } });
 * ```
 */
export interface ResponseEvent {
  /** The operation of the HTTP request (for a lookup: the read, e.g. `query`). */
  readonly operation: OperationName;
  /** Why the attempt was made: see `AttemptPurpose`. */
  readonly purpose: AttemptPurpose;
  /** The record's keys the request carries (`mchOrderNo`, `payOrderId`, `requestId`), for logs. */
  readonly ids: Readonly<Record<string, string>>;
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

/**
 * Sent when the wait before a retry is over, just before the retry is sent (ky's `beforeRetry`). A create
 * sent again after a lookup proved it absent is sent at once: its event has `delayMs: 0`.
 *
 * @example
 * ```ts
 * import { GatewayClient, type GatewayHooks } from 'payment-gateway-sdk';
 *
 * // Retries are normal; many in a row mean the gateway or the network is degrading.
 * const onRetry = ({ operation, attempt, delayMs, reason }: GatewayHooks.RetryEvent) => log.warn({ operation, attempt, delayMs, reason }, 'gateway retry');
 * const client = new GatewayClient({ ...credentials, hooks: { onRetry } });
 * ```
 */
export interface RetryEvent {
  /** The operation of the HTTP request (for a lookup: the read, e.g. `query`). */
  readonly operation: OperationName;
  /** Why the attempt was made: see `AttemptPurpose`. */
  readonly purpose: AttemptPurpose;
  /** The record's keys the request carries (`mchOrderNo`, `payOrderId`, `requestId`), for logs. */
  readonly ids: Readonly<Record<string, string>>;
  /** The attempt that failed. */
  readonly attempt: number;
  /** How long the SDK waited before this retry, in ms: the backoff with jitter it drew, or a capped `Retry-After` as waited. */
  readonly delayMs: number;
  /** Why: the failure's class name and HTTP status. */
  readonly reason: string;
}

/**
 * Sent after a create whose outcome was ambiguous (a timeout, a reset, a 5xx…) was looked up by the
 * merchant's key: what the lookup found decides what the client does next.
 *
 * @example
 * ```ts
 * import { GatewayClient, type GatewayHooks } from 'payment-gateway-sdk';
 *
 * // 'unknown' ends in GatewayOutcomeUnknownError: worth a metric, and a reconciliation job later.
 * const onReconcile = ({ operation, key, outcome }: GatewayHooks.ReconcileEvent) => metrics.increment(`gateway.${operation}.reconcile.${outcome}`, { [key.name]: key.value });
 * const client = new GatewayClient({ ...credentials, hooks: { onReconcile } });
 * ```
 */
export interface ReconcileEvent {
  /** The create that was reconciled (`unifiedOrder`, `settleRequest`), not the lookup. */
  readonly operation: OperationName;
  /** The merchant's key the record was looked up by, e.g. `{ name: 'mchOrderNo', value: 'order-1001' }`. */
  readonly key: ReconcileKey;
  /**
   * `found`: the record exists and matches the request; it is the call's result. `absent`: the gateway
   * has no such record, so the create is sent again if retries and time are left. `unknown`: the lookup
   * failed too; the call ends in {@link GatewayOutcomeUnknownError}. `mismatch`: another record holds the
   * key; the call ends in {@link GatewayReconciliationMismatchError}.
   */
  readonly outcome: 'found' | 'absent' | 'unknown' | 'mismatch';
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
  /** Before each HTTP attempt. Its `body` is a frozen copy: nothing a hook does to it changes what is sent. */
  onRequest?: ((event: RequestEvent) => void) | undefined;
  /** After each HTTP attempt. */
  onResponse?: ((event: ResponseEvent) => void) | undefined;
  /** Before waiting to retry. */
  onRetry?: ((event: RetryEvent) => void) | undefined;
  /** After each lookup that settles an ambiguous create. */
  onReconcile?: ((event: ReconcileEvent) => void) | undefined;
}

/** The events the hooks receive, by name: `GatewayHooks.RequestEvent`, `GatewayHooks.RetryEvent`... */
export declare namespace GatewayHooks {
  export { type ReconcileEvent as ReconcileEvent, type RequestEvent as RequestEvent, type ResponseEvent as ResponseEvent, type RetryEvent as RetryEvent };
}

/**
 * Both sets observe every event, the merchant's first; a hook that throws or rejects does not keep the
 * other from it. An event only one set observes costs nothing more.
 */
export function composeHooks(first: GatewayHooks, second: GatewayHooks): GatewayHooks {
  return {
    onRequest: both(first.onRequest, second.onRequest),
    onResponse: both(first.onResponse, second.onResponse),
    onRetry: both(first.onRetry, second.onRetry),
    onReconcile: both(first.onReconcile, second.onReconcile),
  };
}

function both<E>(first: ((event: E) => void) | undefined, second: ((event: E) => void) | undefined): ((event: E) => void) | undefined {
  if (!first || !second) return first ?? second;
  return (event) => {
    observe(first, event);
    observe(second, event);
  };
}

/**
 * Calls an observer (a hook, a logger method). What it throws, or the promise it returns rejects with, is
 * ignored: an observer's bug must not change a payment call's outcome nor end the process.
 */
export function observe<A extends unknown[]>(observer: (...args: A) => unknown, ...args: A): void {
  try {
    const result = observer(...args);
    if (typeof (result as PromiseLike<unknown> | null | undefined)?.then === 'function') (result as PromiseLike<unknown>).then(undefined, () => undefined);
  } catch {
    /* ignored on purpose */
  }
}

// The fields that name a record in any operation of the table, read from the rows once (the SDK's own table).
let recordKeys: readonly string[] | undefined;

/** The record keys among a call's parameters (text or numbers only: the parameters may be invalid). */
export function recordIds(params: unknown): Record<string, string> {
  const ids: Record<string, string> = {};
  if (typeof params !== 'object' || params === null) return ids;
  recordKeys ??= [...new Set(OPERATION_NAMES.flatMap((operation) => recordFields(definitionOf(operation))))];
  for (const field of recordKeys) {
    const value: unknown = (params as Record<string, unknown>)[field];
    if (typeof value === 'string' || typeof value === 'number') ids[field] = String(value);
  }
  return ids;
}
