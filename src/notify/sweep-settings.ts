/**
 * What a sweep works with: the client it reads through, what it hands `onPaid`, and what the processor gives it.
 *
 * @module
 */
import { GatewayValidationError, type GatewayError } from '../errors/index.js';
import type { Swept, SweepReads } from './tracked-types.js';
import type { NotificationStore, ProcessingContext, RunOnceResult } from './store.js';
import type { IdempotentNotification } from './verify-received.js';
import type { PayOrderNotification } from './verify.js';
import type { LogLevel } from '../util/log-levels.js';


/**
 * What `onPaid` receives: a verified notification ({@link PayOrderNotification}), or a paid order found by
 * `processor.sweep` ({@link Payments.Swept}, without `reqTime`). Both are state 2 and passed your `expect`.
 *
 * @example
 * ```ts
 * const onPaid = async (paid: PaidOrder, { signal }: ProcessingContext) => {
 *   signal.throwIfAborted();
 *   await ship(paid.mchOrderNo, paid.amount, paid.currency);
 * };
 * ```
 */
export type PaidOrder = PayOrderNotification | Swept<'payment'>;

/**
 * What a sweep needs of a `GatewayClient`: `query`, and `close` with `confirm: true` for `closeExpired`. A
 * `GatewayClient` is one; pass the client of the same merchant application as the processor.
 *
 * @example
 * ```ts
 * const client = new GatewayClient(config); // a GatewayClient is a SweepClient
 * const processor = createNotificationProcessor({ ...config, store, onPaid, client });
 * ```
 */
export interface SweepClient extends SweepReads {
  /** The client's merchant number: when present, it must be the processor's. */
  readonly mchNo?: string | undefined;
  /** The client's application id: when present, it must be the processor's. */
  readonly appId?: string | undefined;
  /** `false` when the client does not verify answers' signatures: a sweep never acts on unverified records, so it is refused. */
  readonly verifyResponses?: boolean | undefined;
}




/** What a swept paid order's `expect` check found: nothing (it matches), or why it must not be fulfilled. */
export type SweptRefusal = { readonly kind: 'refused'; readonly error: GatewayError } | { readonly kind: 'failed'; readonly error: unknown } | undefined;

/** A logger of the processor's options (a `GatewayLogger`, pino, the console): what a sweep logs to. */
export interface SweepLogger {
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

/** How a sweep settles a final record of one tracked kind: the handler its state picks, and the kind's expectation. @internal */
export interface SweptKind {
  /** The row's handler options this processor lacks: it settles the kind only when it lacks none. */
  readonly lacking: readonly string[];
  /** The handler the swept record's state picks (its option, its report field, its run), or `undefined` when none takes it. */
  handlerOf(record: IdempotentNotification): { readonly option: string; readonly ran: string; run(record: IdempotentNotification, context: ProcessingContext): unknown } | undefined;
  /** The kind's expectation (fixed and function), applied to a swept record as to a notification. */
  checkExpectation(record: IdempotentNotification): Promise<SweptRefusal>;
}

/** What the processor hands the sweeper. @internal */
export interface SweeperSettings {
  readonly store: NotificationStore<ProcessingContext>;
  readonly client: SweepClient | undefined;
  readonly mchNo: string;
  readonly appId: string;
  /** The digest, keyed by the merchant's secret, of what the store keeps of a sent value it may not hold (`byKey.matched`). */
  readonly digest: (text: string) => Promise<string>;
  /** Every tracked kind's, by its name. */
  readonly kinds: Readonly<Record<string, SweptKind>>;
  /** The notification's claim, asked once: `stale` when the event is older than the store's horizon, judged as the claim is asked. */
  readonly runOnce: (key: string, eventTime: number, effect: (context: ProcessingContext) => Promise<void>) => Promise<RunOnceResult | { readonly status: 'stale'; readonly horizon: number }>;
  readonly now: () => number;
  /** Where the sweep's line goes: the processor's `logger`, or the console. */
  readonly logger: SweepLogger | undefined;
  /** The processor's `logLevel`: the line is `info` (`warn` when something needs you), left out below that; always logged when not set. */
  readonly logLevel: LogLevel | undefined;
}

/** Checks that a sweep's client is the processor's merchant application (when it says which) and verifies answers. @internal */
export function checkSweepClient(client: SweepClient | undefined, mchNo: string, appId: string): void {
  if (client === undefined) return;
  const issues = (['mchNo', 'appId'] as const)
    .filter((key) => typeof client[key] === 'string' && client[key] !== { mchNo, appId }[key])
    .map((key) => ({ path: ['client', key], message: `is ${JSON.stringify(client[key])}, not the processor's ${JSON.stringify({ mchNo, appId }[key])}: pass the client of the same merchant application` }));
  if (client.verifyResponses === false) {
    issues.push({ path: ['client', 'verifyResponses'], message: 'is false: a sweep fulfils orders from what the gateway answers, so it needs a client that verifies the answers\' signatures' });
  }
  if (issues.length > 0) throw new GatewayValidationError('Invalid createNotificationProcessor options', issues);
}
