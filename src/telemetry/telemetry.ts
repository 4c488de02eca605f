/**
 * The SDK's own telemetry interface: what the client's runner, its attempts and the notification processor
 * report, when given one. Types only, so that the root entry costs nothing for it; `openTelemetry()` from
 * `payment-gateway-sdk/opentelemetry` implements it with `@opentelemetry/api` (docs/guides/observability.md).
 *
 * @module
 */

/**
 * One client call, or a lookup inside one, as the SDK reports it to a {@link Telemetry}: its HTTP
 * attempts, the record's ids once an answer shows them, and the lookups a create's reconciliation or a
 * `confirm` makes.
 *
 * @example
 * ```ts
 * import type { TelemetrySpan } from 'payment-gateway-sdk/opentelemetry';
 *
 * // A span that only counts attempts, e.g. for a test double of a Telemetry.
 * function countingSpan(counts: { attempts: number }): TelemetrySpan {
 *   return {
 *     identify: () => undefined,
 *     attempt: () => ({ end: () => void counts.attempts++ }),
 *     lookup: (_operation, _purpose, run) => run(countingSpan(counts)),
 *   };
 * }
 * ```
 */
export interface TelemetrySpan {
  /** The record's ids as the answer shows them: the fields the operation table's rows name records by (`payOrderId`, `mchRefundNo`...). */
  identify(ids: Readonly<Record<string, string>>): void;
  /** An HTTP attempt to `url` (the operation's URL) starts now; {@link TelemetryAttempt.end} when it is judged. */
  attempt(url: string): TelemetryAttempt;
  /** A lookup inside this call (`purpose`: `reconcile`, `confirm`, `fallback`), its attempts its own; `run` runs inside it. */
  lookup<R>(operation: string, purpose: string, run: (span: TelemetrySpan) => Promise<R>): Promise<R>;
}

/**
 * One HTTP attempt of a {@link TelemetrySpan}.
 *
 * @example
 * ```ts
 * import type { TelemetryAttempt } from 'payment-gateway-sdk/opentelemetry';
 *
 * const started = performance.now();
 * const attempt: TelemetryAttempt = { end: (status, error) => log.debug({ status, error: error?.name, ms: performance.now() - started }) };
 * ```
 */
export interface TelemetryAttempt {
  /**
   * The attempt was judged: `status` is the HTTP status when an answer came; `error` the attempt's failure
   * (a `GatewayError`: its `name` is its class), when it failed.
   */
  end(status: number | undefined, error?: Error): void;
}

/**
 * What a notification processor did with one delivery, as a {@link Telemetry} sees it: the processor's
 * `NotificationOutcome`. `notification` is there only once verified.
 *
 * @example
 * ```ts
 * import type { TelemetryNotificationOutcome } from 'payment-gateway-sdk/opentelemetry';
 *
 * const acknowledged = (outcome: TelemetryNotificationOutcome) => outcome.kind === 'processed' || outcome.kind === 'duplicate';
 * ```
 */
export interface TelemetryNotificationOutcome {
  /** `processed`, `duplicate`, `busy`, `refused`, `unhandled` (no handler of its kind and state), `stale` (older than the store remembers) or `failed`. */
  readonly kind: 'processed' | 'duplicate' | 'busy' | 'refused' | 'unhandled' | 'stale' | 'failed';
  /** The verified notification, when it was verified. */
  readonly notification?: object | undefined;
  /** Why it was refused or failed. */
  readonly error?: unknown;
}

/**
 * Where the client and the notification processor report their calls, attempts, notifications and
 * sweeps: the `telemetry` option of `GatewayClient` and `createNotificationProcessor`. Use `openTelemetry()`
 * from `payment-gateway-sdk/opentelemetry`; implement it yourself only to bridge another tracing system.
 *
 * Each method runs `run` inside what it reports and resolves to what `run` resolves to, or rejects with what
 * it rejects with. What a telemetry records must never change an outcome: an implementation catches its own
 * failures, and never records the secret, a `sign`, the signing string or a body.
 *
 * @example
 * ```ts
 * import { GatewayClient, createNotificationProcessor } from 'payment-gateway-sdk';
 * import { openTelemetry } from 'payment-gateway-sdk/opentelemetry';
 *
 * const telemetry = openTelemetry(); // the global providers of @opentelemetry/api
 * const client = new GatewayClient({ ...credentials, telemetry });
 * const processor = createNotificationProcessor({ ...credentials, telemetry, onPaid });
 * ```
 */
export interface Telemetry {
  /** A client method call (`unifiedOrder`, `query`, `waitForOrder`...) with the record's ids it was given. */
  operation<R>(operation: string, ids: Readonly<Record<string, string>>, run: (span: TelemetrySpan) => Promise<R>): Promise<R>;
  /**
   * One delivery handled by a notification processor. `kind` is the name of its notification kind (`payment`,
   * `refund`, `settlement`), or `unknown` for a message of no kind or of two: the SDK's own, never a received value.
   * `ids` names the fields of the outcome's verified notification that name its record (its kind's declaration, e.g.
   * `payOrderId`, `mchOrderNo`): the only ones to record of it, as the notification carries much else.
   */
  notification<R extends TelemetryNotificationOutcome>(kind: string, run: () => Promise<R>, ids?: readonly string[]): Promise<R>;
  /** The merchant's handler, by its kind's name for it (`on_paid`, `on_refunded`, `on_refund_failed`, `on_settlement`), inside the notification or sweep it serves. */
  handler(name: `on_${string}`, run: () => unknown): Promise<unknown>;
  /** One sweep of a processor; the report's numeric members are its counts. */
  sweep<R extends object>(run: () => Promise<R>): Promise<R>;
}
