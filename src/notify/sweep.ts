/**
 * `processor.track` and `processor.sweep`: the way a paid order is fulfilled when its notification never
 * arrives. The sweep reads each tracked order with a signed query and runs `onPaid` through the same claim as a
 * notification (docs/guides/never-lose-a-paid-order.md).
 *
 * @module
 */
import * as z from 'zod/mini';
import { GatewayAbortError, GatewayError, GatewayValidationError } from '../errors/index.js';
import { PayOrderState } from '../protocol/schemas/enums.js';
import { requiredText, safeInteger } from '../protocol/schemas/fields.js';
import { lazySchema } from '../protocol/schemas/lazy.js';
import type { PayOrder } from '../protocol/schemas/order.js';
import { parseInput } from '../protocol/schemas/parse.js';
import { RefundOrderState, type Refund } from '../protocol/schemas/refund.js';
import type { NotificationStore, ProcessingContext, RunOnceResult } from './store.js';
import { isRefundKey, refundIdsOf, refundOpen, refundTrackingKey, sweptRefund, trackedRefund, type SweptRefund, type TrackableRefund } from './sweep-refunds.js';
import type { OrderTracking, TrackedOrder } from './tracking.js';
import type { IdempotentNotification } from './verify-received.js';
import type { PayOrderNotification } from './verify.js';
import { LOG_LEVELS, type LogLevel } from '../util/log-levels.js';

/**
 * A paid order as a sweep hands it to `onPaid`: the {@link PayOrder} of a **signed query** (its signature,
 * one reading and shape verified by the client, bound to the ids asked for, then checked here against the
 * tracked order's `payOrderId` and `mchOrderNo` and the processor's `mchNo` and `appId`), with the same
 * `idempotencyKey` a notification of that payment has (`${payOrderId}:2`), so the two can never both run.
 *
 * It differs from a {@link PayOrderNotification} in one field: there is no `reqTime` (nothing was notified).
 * Tell the two apart by `reqTime === undefined`. Everything `onPaid` acts on (ids, merchant, app, state,
 * amount, currency) is as trustworthy as a notification's.
 *
 * @interface
 * @example
 * ```ts
 * const onPaid = async (paid: PaidOrder) => {
 *   const via = paid.reqTime === undefined ? 'sweep' : 'notification'; // paid is a SweptPayOrder in the first case
 *   await orders.markPaid(paid.mchOrderNo, paid.amount, via);
 * };
 * ```
 */
export type SweptPayOrder = PayOrder & IdempotentNotification & { readonly reqTime?: undefined };

/**
 * What `onPaid` receives: a verified notification ({@link PayOrderNotification}), or a paid order found by
 * `processor.sweep` ({@link SweptPayOrder}, without `reqTime`). Both are state 2 and passed your `expect`.
 *
 * @example
 * ```ts
 * const onPaid = async (paid: PaidOrder, { signal }: ProcessingContext) => {
 *   signal.throwIfAborted();
 *   await ship(paid.mchOrderNo, paid.amount, paid.currency);
 * };
 * ```
 */
export type PaidOrder = PayOrderNotification | SweptPayOrder;

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
export interface SweepClient {
  /** Reads an order with a signed query ({@link GatewayClient.query}), by both ids so that the answer is bound to both. */
  query(params: TrackableOrder, options?: { signal?: AbortSignal | undefined }): Promise<PayOrder>;
  /** Reads a refund with a signed query ({@link GatewayClient.refundQuery}), by both ids: what sweeping tracked refunds needs. */
  refundQuery?(params: TrackableRefund, options?: { signal?: AbortSignal | undefined }): Promise<Refund>;
  /** Closes an order and reads it back ({@link GatewayClient.close} with `confirm: true`). */
  close(params: TrackableOrder, options: { confirm: true; signal?: AbortSignal | undefined }): Promise<PayOrder>;
  /** The client's merchant number: when present, it must be the processor's. */
  readonly mchNo?: string | undefined;
  /** The client's application id: when present, it must be the processor's. */
  readonly appId?: string | undefined;
  /** `false` when the client does not verify answers' signatures: a sweep never acts on unverified records, so it is refused. */
  readonly verifyResponses?: boolean | undefined;
}

/**
 * An order `processor.track` takes: a {@link CreatedOrder} or {@link RecoveredOrder} as `unifiedOrder`
 * resolves to it, or the two ids of an order you created before (to track orders created elsewhere).
 *
 * @example
 * ```ts
 * await processor.track(await client.unifiedOrder(params));
 * await processor.track({ payOrderId: row.gatewayId, mchOrderNo: row.number }); // an older order, from your table
 * ```
 */
export interface TrackableOrder {
  /** The gateway's order id. */
  readonly payOrderId: string;
  /** Your order number. */
  readonly mchOrderNo: string;
  /** The validity its `unifiedOrder` sent, in seconds (a {@link CreatedOrder} carries it): when `closeExpired` may close it. */
  readonly sentExpiredTime?: number | undefined;
}

/**
 * Options of `processor.track`.
 *
 * @example
 * ```ts
 * const order = await client.unifiedOrder({ ...params, expiredTime: 900 });
 * await processor.track(order, { expiredTime: 900 }); // as sent to unifiedOrder: 15 minutes
 * ```
 */
export interface TrackOptions {
  /**
   * The order's validity in seconds, as sent to `unifiedOrder` (`expiredTime`): `closeExpired` closes it once
   * this has passed since `track`. Default: the `sentExpiredTime` a {@link CreatedOrder} carries; for a
   * {@link RecoveredOrder} or bare ids, none: the validity is unknown and the sweep never closes the order.
   * At most `315360000` (ten years).
   */
  expiredTime?: number | undefined;
}

/**
 * Options of `processor.sweep`.
 *
 * @example
 * ```ts
 * const report = await processor.sweep({ olderThanMs: 60_000, limit: 5_000, concurrency: 16, closeExpired: true });
 * ```
 */
export interface SweepOptions {
  /**
   * Check only orders tracked, or last checked by any sweep, at least this many milliseconds ago. It leaves the
   * notification its chance first, and spreads a fleet's sweeps: an order one sweep checked is not checked
   * again by another for this long. `0` checks every tracked order. Times are the processor's `now` option
   * (default `Date.now`), as `track` recorded them.
   */
  olderThanMs: number;
  /** The most records (orders and refunds) this sweep checks. Default: every due one. */
  limit?: number | undefined;
  /** How many orders or refunds are checked at once (each a query, with the client's retry rules). Default `8`, at most `64`. */
  concurrency?: number | undefined;
  /** Stops taking orders when aborted; the checks under way finish, then the sweep rejects with {@link GatewayAbortError}. */
  signal?: AbortSignal | undefined;
  /**
   * Close an order that is still open (state 0 or 1) past its expiry, with a confirmed close (`close` with
   * `confirm: true`): closed only when a signed read shows it closed; paid meanwhile, it is fulfilled. Default `false`.
   */
  closeExpired?: boolean | undefined;
  /**
   * How long, in milliseconds, the gateway may answer `order_not_found` for a tracked order before the sweep
   * reports it as `notFound` (until then it counts as `open`). Default `600000` (10 minutes).
   */
  notFoundGraceMs?: number | undefined;
}

/**
 * Why a sweep did not settle an order: what {@link SweepReport.problems} lists.
 *
 * @example
 * ```ts
 * for (const p of report.problems) log.warn(`${p.kind}: ${p.mchOrderNo} (${p.payOrderId}): ${p.message}`);
 * ```
 */
export interface SweepProblem {
  /**
   * The report field it is counted in (`failed`, `notFound`, `mismatched`, `tooOld`); or, for an order counted as
   * settled, `forget` (the store could not forget it: the next sweep reads it again) or `warning` (the store's
   * warning about the run, e.g. a Redis lease lost while `onPaid` ran).
   */
  readonly kind: 'failed' | 'notFound' | 'mismatched' | 'tooOld' | 'forget' | 'warning';
  /** The tracked order's gateway id. */
  readonly payOrderId: string;
  /** The tracked order's number. */
  readonly mchOrderNo: string;
  /** What happened, in English. */
  readonly message: string;
  /** The error, when one was thrown. */
  readonly error?: unknown;
}

/**
 * What one sweep did. Every checked order is counted in exactly one of the fields after `checked`.
 *
 * @example
 * ```ts
 * const report: SweepReport = await processor.sweep({ olderThanMs: 60_000 });
 * metrics.count('orders.fulfilled_by_sweep', report.paid); // > 0 means notifications are being lost
 * if (report.failed + report.notFound + report.mismatched + report.tooOld > 0) alert(report.problems);
 * ```
 */
export interface SweepReport {
  /** Orders read from the gateway in this sweep. */
  readonly checked: number;
  /** Paid orders whose `onPaid` ran in this sweep (their notification was lost or late): now forgotten. */
  readonly paid: number;
  /** Paid orders already processed (by a notification or another sweep): now forgotten. */
  readonly alreadyDone: number;
  /** Orders still open (state 0 or 1), or not found for less than `notFoundGraceMs`: still tracked. */
  readonly open: number;
  /** Orders final and not paid (failed, revoked, refunded, closed; closed now by `closeExpired` too): now forgotten. */
  readonly closed: number;
  /** Orders whose lookup, close, `expect` function, `onPaid` or store failed: still tracked, checked again later. */
  readonly failed: number;
  /** Paid orders another delivery or sweep was processing at that moment: still tracked. */
  readonly busy: number;
  /** Orders the gateway has not known for `notFoundGraceMs`: never fulfilled, still tracked (reported every sweep). */
  readonly notFound: number;
  /** Orders whose signed record is not the tracked order's, or a paid one that does not match `expect`: never fulfilled, still tracked. */
  readonly mismatched: number;
  /** Paid orders older than the store remembers processed events (Redis `doneTtlMs`): never fulfilled by a sweep, still tracked. */
  readonly tooOld: number;
  /** The orders behind `failed`, `notFound`, `mismatched` and `tooOld`, the first 100. */
  readonly problems: readonly SweepProblem[];
  /** The tracked refunds this sweep read, counted apart from the orders (every field above counts orders only). */
  readonly refunds: RefundSweepReport;
  /** How long the sweep took. */
  readonly durationMs: number;
}

/**
 * Why a sweep did not settle a refund: what {@link RefundSweepReport.problems} lists.
 *
 * @example
 * ```ts
 * for (const p of report.refunds.problems) log.warn(`${p.kind}: refund ${p.mchRefundNo} (${p.refundOrderId}): ${p.message}`);
 * ```
 */
export interface RefundSweepProblem extends Omit<SweepProblem, 'payOrderId' | 'mchOrderNo'> {
  /** The tracked refund's gateway id. */
  readonly refundOrderId: string;
  /** The tracked refund's number. */
  readonly mchRefundNo: string;
}

/**
 * What one sweep did with tracked refunds ({@link SweepReport.refunds}). Every checked refund is counted in exactly
 * one of the fields after `checked`.
 *
 * @example
 * ```ts
 * const { refunds } = await processor.sweep({ olderThanMs: 60_000 });
 * metrics.count('refunds.settled_by_sweep', refunds.refunded + refunds.refundFailed); // > 0: refund notifications are lost
 * if (refunds.failed + refunds.notFound + refunds.mismatched + refunds.tooOld > 0) alertOnCall(refunds.problems);
 * ```
 */
export interface RefundSweepReport {
  /** Refunds read from the gateway in this sweep. */
  readonly checked: number;
  /** Refunds found succeeded (2) whose `onRefunded` ran in this sweep: now forgotten. */
  readonly refunded: number;
  /** Refunds found failed (3) or closed (4, never notified) whose `onRefundFailed` ran in this sweep: now forgotten. */
  readonly refundFailed: number;
  /** Final refunds already processed (by a notification or another sweep): now forgotten. */
  readonly alreadyDone: number;
  /** Refunds still 0 or 1, or not found for less than `notFoundGraceMs`: left alone, still tracked. */
  readonly open: number;
  /** Refunds whose lookup, `expectRefund` function, handler or store failed: still tracked, checked again later. */
  readonly failed: number;
  /** Final refunds another delivery or sweep was processing at that moment: still tracked. */
  readonly busy: number;
  /** Refunds the gateway has not known (`refund_not_found`) for `notFoundGraceMs`: never acted on, still tracked. */
  readonly notFound: number;
  /** Refunds whose signed record is not the tracked refund's, or that do not match `expectRefund`: never acted on, still tracked. */
  readonly mismatched: number;
  /** Final refunds older than the store remembers processed events: never acted on by a sweep, still tracked. */
  readonly tooOld: number;
  /** The refunds behind `failed`, `notFound`, `mismatched` and `tooOld`, the first 100. */
  readonly problems: readonly RefundSweepProblem[];
}

/**
 * `track` and `sweep`, the methods a payment processor gains: see {@link createNotificationProcessor} and
 * the guide "Never lose a paid order".
 *
 * @example
 * ```ts
 * const order = await client.unifiedOrder(params);
 * await processor.track(order);
 * setInterval(() => processor.sweep({ olderThanMs: 60_000 }).catch(log.error), 60_000);
 * ```
 */
export interface OrderSweeper {
  /**
   * Records `order` in the processor's store until a sweep finds it final. Call it right after `unifiedOrder`
   * resolves (a {@link CreatedOrder} or a {@link RecoveredOrder}); tracking it again with the same ids does nothing.
   * A refund (a record with a `refundOrderId`: what `refundOrder` resolves to, or `{ refundOrderId, mchRefundNo }`)
   * is tracked alike, until a sweep finds it final and runs `onRefunded` or `onRefundFailed`; it needs a processor
   * with both.
   *
   * @throws {@link GatewayValidationError} when the store cannot track orders, `order` has no ids, its `payOrderId`
   * is tracked with another `mchOrderNo` (a refund's `refundOrderId` with another `mchRefundNo`; the tracked record
   * is kept: `untrack` it first if it is the wrong one), or it is a refund and the processor lacks `onRefunded` or `onRefundFailed`
   */
  track(order: TrackableOrder | TrackableRefund, options?: TrackOptions): Promise<void>;
  /**
   * Stops tracking `order` (or a refund) by hand: for one a sweep keeps reporting (`notFound`, `mismatched`,
   * `tooOld`) once you have settled it yourself. Final ones need no call: the sweep forgets them.
   *
   * @throws {@link GatewayValidationError} when the store cannot track orders, or `order` has no ids
   */
  untrack(order: TrackableOrder | TrackableRefund): Promise<void>;
  /**
   * Reads every tracked order due (see {@link SweepOptions.olderThanMs}) with a signed query and settles it:
   * runs `onPaid` for a paid one through the notification's own exactly-once claim, forgets a final one,
   * reports the rest. Logs one line with the report. Safe to run from any number of processes at once.
   *
   * @throws {@link GatewayValidationError} when the processor has no `client`, the store cannot track orders, or an option is invalid
   * @throws {@link GatewayAbortError} when `signal` aborted (after the checks under way finished)
   * @throws the store's error when it cannot hand out tracked orders
   */
  sweep(options: SweepOptions): Promise<SweepReport>;
}

/** A logger of the processor's options (a `GatewayLogger`, pino, the console): what a sweep logs to. */
export interface SweepLogger {
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

/** What a swept paid order's `expect` check found: nothing (it matches), or why it must not be fulfilled. */
export type SweptRefusal = { readonly kind: 'refused'; readonly error: GatewayError } | { readonly kind: 'failed'; readonly error: unknown } | undefined;

/** What the processor hands the sweeper. @internal */
export interface SweeperSettings {
  readonly store: NotificationStore<ProcessingContext>;
  readonly client: SweepClient | undefined;
  readonly mchNo: string;
  readonly appId: string;
  /** `undefined` in a processor without `onPaid`: it tracks no order. */
  readonly onPaid: ((paid: SweptPayOrder, context: ProcessingContext) => unknown) | undefined;
  /** A swept final refund's handler (by its state) and `expectRefund`; `undefined` unless both refund handlers are given. */
  readonly refunds: { readonly run: (refund: SweptRefund, context: ProcessingContext) => unknown; readonly checkExpectation: (refund: SweptRefund) => Promise<SweptRefusal> } | undefined;
  /** The notification's claim, asked once: `stale` when the event is older than the store's horizon, judged as the claim is asked. */
  readonly runOnce: (key: string, eventTime: number, effect: (context: ProcessingContext) => Promise<void>) => Promise<RunOnceResult | { readonly status: 'stale'; readonly horizon: number }>;
  /** The processor's `expect` (fixed and function), applied to a swept paid order as to a notification. */
  readonly checkExpectation: (paid: SweptPayOrder) => Promise<SweptRefusal>;
  readonly now: () => number;
  /** Where the sweep's line goes: the processor's `logger`, or the console. */
  readonly logger: SweepLogger | undefined;
  /** The processor's `logLevel`: the line is `info` (`warn` when something needs you), left out below that; always logged when not set. */
  readonly logLevel: LogLevel | undefined;
}

const DEFAULT_CONCURRENCY = 8;
const MAX_CONCURRENCY = 64;
const DEFAULT_NOT_FOUND_GRACE_MS = 600_000;
const MAX_PROBLEMS = 100;

// Built on first use (protocol/schemas/lazy.ts): an import that never tracks or sweeps builds none.
// Ten years: every store holds the expiry exactly (past 2^53 ms a SQLite row or a Redis record read back fails every sweep).
const MAX_EXPIRED_TIME_S = 315_360_000;
const expiredTimeSchema = () => z.optional(safeInteger(1).check(z.maximum(MAX_EXPIRED_TIME_S, { error: `must be at most ${MAX_EXPIRED_TIME_S} (ten years)` })));
// A CreatedOrder carries the validity its unifiedOrder sent; a RecoveredOrder or bare ids carry none.
const trackSchema = lazySchema(() =>
  z.object({
    // No order id may be a tracked refund's key: an order tracked under one would be read as a refund.
    payOrderId: requiredText().check(z.refine((id) => !isRefundKey(id), { error: 'must not begin with "refund:": track a refund by its refundOrderId and mchRefundNo' })),
    mchOrderNo: requiredText(),
    sentExpiredTime: expiredTimeSchema(),
  }),
);
const trackRefundSchema = lazySchema(() => z.object({ refundOrderId: requiredText(), mchRefundNo: requiredText() }));
/** A refund is recognised by its `refundOrderId` (a {@link Refund} carries a `payOrderId` too). */
const isRefund = (record: unknown): record is TrackableRefund => typeof record === 'object' && record !== null && 'refundOrderId' in record;
const trackOptionsSchema = lazySchema(() => z.strictObject({ expiredTime: expiredTimeSchema() }));
const sweepOptionsSchema = lazySchema(() =>
  z.strictObject({
    olderThanMs: safeInteger(0),
    limit: z.optional(safeInteger(1)),
    concurrency: z.optional(safeInteger(1).check(z.maximum(MAX_CONCURRENCY, { error: `must be at most ${MAX_CONCURRENCY}` }))),
    signal: z.optional(z.custom<AbortSignal>((v) => v instanceof AbortSignal, { error: 'must be an AbortSignal' })),
    closeExpired: z.optional(z.boolean({ error: 'must be true or false' })),
    notFoundGraceMs: z.optional(safeInteger(0)),
  }),
);

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

/** The `track` and `sweep` of a payment processor. @internal */
export function orderSweeper(settings: SweeperSettings): OrderSweeper {
  const trackingOf = (method: string): OrderTracking => {
    const tracking = settings.store.tracking;
    if (tracking === undefined) {
      throw new GatewayValidationError(`processor.${method} needs a store that can track orders`, [
        { path: ['store', 'tracking'], message: 'is missing: use memoryStore(), sqliteStore({ path }), postgresStore({ pool }) or redisStore({ client }), or give your own store an OrderTracking' },
      ]);
    }
    return tracking;
  };
  return {
    async track(order, options = {}) {
      const tracking = trackingOf('track');
      const refund = isRefund(order);
      const missing = refund ? (settings.refunds === undefined ? 'onRefunded and onRefundFailed' : undefined) : settings.onPaid === undefined ? 'onPaid' : undefined;
      // A record no handler of this processor could act on would be tracked for nothing, and reported as settled by no one.
      if (missing !== undefined) {
        throw new GatewayValidationError(`processor.track refused ${refund ? 'a refund' : 'an order'}: this processor could never act on it`, [
          { path: ['options', missing.split(' ')[0]!], message: `is missing: a sweep settles ${refund ? 'a tracked refund with onRefunded (2) or onRefundFailed (3, 4)' : 'a tracked order with onPaid'}; give the processor ${missing}` },
        ]);
      }
      const trackedAt = settings.now();
      let record: TrackedOrder;
      if (refund) {
        record = trackedRefund(parseInput(trackRefundSchema(), order, 'Invalid processor.track refund', 'request'), trackedAt);
        // A refund has no validity to give: nothing of a sweep closes it (the gateway does, after two hours).
        parseInput(z.strictObject({}), options ?? {}, 'Invalid processor.track options: a refund takes none', 'options');
      } else {
        const { payOrderId, mchOrderNo, sentExpiredTime } = parseInput(trackSchema(), order, 'Invalid processor.track order', 'request');
        const { expiredTime = sentExpiredTime } = parseInput(trackOptionsSchema(), options ?? {}, 'Invalid processor.track options', 'options');
        record = { payOrderId, mchOrderNo, trackedAt, expiresAt: expiredTime === undefined ? undefined : trackedAt + expiredTime * 1_000 };
      }
      const kept = await tracking.track(record);
      if (typeof kept !== 'string') {
        throw new GatewayError("The store's tracking.track resolved to no mchOrderNo: it must resolve to the mchOrderNo of the record it keeps (OrderTracking), so that a conflicting track is refused. Fix the store; the order may not be tracked.");
      }
      if (kept !== record.mchOrderNo) throw conflict(refund ? ['refundOrderId', 'mchRefundNo', (order as TrackableRefund).refundOrderId] : ['payOrderId', 'mchOrderNo', record.payOrderId], record.mchOrderNo, kept);
    },
    async untrack(order) {
      const tracking = trackingOf('untrack');
      const key = isRefund(order)
        ? refundTrackingKey(parseInput(trackRefundSchema(), order, 'Invalid processor.untrack refund', 'request').refundOrderId)
        : parseInput(trackSchema(), order, 'Invalid processor.untrack order', 'request').payOrderId;
      await tracking.forget(key);
    },
    async sweep(options) {
      const tracking = trackingOf('sweep');
      const parsed = parseInput(sweepOptionsSchema(), options ?? {}, 'Invalid processor.sweep options', 'options');
      const client = settings.client;
      if (client === undefined) {
        throw new GatewayValidationError('processor.sweep needs a client to query orders with', [
          { path: ['client'], message: 'is missing: pass createNotificationProcessor({ ..., client }) with the GatewayClient of this merchant application' },
        ]);
      }
      if (parsed.signal?.aborted) throw GatewayAbortError.of('sweep', parsed.signal.reason, ' before it started');
      return runSweep(settings, tracking, client, parsed);
    },
  };
}

/** A track refused because its id is tracked with another number: the tracked record is kept. */
function conflict([idField, noField, id]: readonly [string, string, string], given: string, kept: string): GatewayValidationError {
  const what = idField === 'payOrderId' ? 'an order' : 'a refund';
  return new GatewayValidationError(`processor.track refused ${what} that conflicts with the one tracked`, [
    {
      path: ['order', noField],
      message: `is ${JSON.stringify(given)}, but ${idField} ${JSON.stringify(id)} is tracked with ${noField} ${JSON.stringify(kept)}: the tracked record is kept. Find which is right; if the tracked one is wrong, processor.untrack it, then track this one`,
    },
  ]);
}

type ParsedSweepOptions = z.output<ReturnType<typeof sweepOptionsSchema>>;
type Counted = Exclude<keyof SweepReport, 'checked' | 'problems' | 'durationMs' | 'refunds'>;
type RefundCounted = Exclude<keyof RefundSweepReport, 'checked' | 'problems'>;
/** Where one tracked record's outcome is counted and its problem listed: the order's fields, or the refund's. */
interface Tally<Field extends string> {
  count(field: Field, message?: string, error?: unknown): void;
  note(kind: SweepProblem['kind'], message: string, error?: unknown): void;
}
/** What the claim of a swept record ran, and the field it is counted in when it ran now. */
interface SweptEffect<Field extends string> {
  readonly swept: IdempotentNotification;
  readonly eventTime: number;
  readonly ran: Field;
  readonly happened: string;
  readonly handler: string;
  check(): Promise<SweptRefusal>;
  run(context: ProcessingContext): unknown;
}

async function runSweep(settings: SweeperSettings, tracking: OrderTracking, client: SweepClient, options: ParsedSweepOptions): Promise<SweepReport> {
  const started = performance.now();
  const { signal, closeExpired = false, notFoundGraceMs = DEFAULT_NOT_FOUND_GRACE_MS, concurrency = DEFAULT_CONCURRENCY } = options;
  const counts: Record<Counted, number> = { paid: 0, alreadyDone: 0, open: 0, closed: 0, failed: 0, busy: 0, notFound: 0, mismatched: 0, tooOld: 0 };
  const refundCounts: Record<RefundCounted | 'checked', number> = { checked: 0, refunded: 0, refundFailed: 0, alreadyDone: 0, open: 0, failed: 0, busy: 0, notFound: 0, mismatched: 0, tooOld: 0 };
  let checked = 0; // orders; refunds count theirs in refundCounts
  const problems: SweepProblem[] = [];
  const refundProblems: RefundSweepProblem[] = [];
  const tallyOf = <Field extends string>(fields: Record<Field, number>, listed: object[], ids: object): Tally<Field> => {
    const note = (kind: SweepProblem['kind'], message: string, error?: unknown) => {
      if (listed.length < MAX_PROBLEMS) listed.push({ kind, ...ids, message, ...(error === undefined ? {} : { error }) });
    };
    return {
      note,
      count(field, message, error) {
        fields[field]++;
        if (message !== undefined) note(field as SweepProblem['kind'], message, error);
      },
    };
  };
  const forget = (order: TrackedOrder, tally: Tally<string>) =>
    tracking.forget(order.payOrderId).catch((error: unknown) => tally.note('forget', 'settled, but the store could not forget it: the next sweep checks it again', error));

  /** Runs a final record's handler through its notification's claim, after the processor's expect. */
  async function claim<Field extends string>(order: TrackedOrder, tally: Tally<Field | 'mismatched' | 'failed' | 'tooOld' | 'busy' | 'alreadyDone'>, effect: SweptEffect<Field>): Promise<void> {
    const refusal = await effect.check();
    if (refusal?.kind === 'refused') return tally.count('mismatched', refusal.error.message, refusal.error);
    if (refusal?.kind === 'failed') return tally.count('failed', `your expect function failed: ${String((refusal.error as Error)?.message ?? refusal.error)}`, refusal.error);
    let result: Awaited<ReturnType<SweeperSettings['runOnce']>>;
    try {
      // The notification's own claim: the horizon judged in the same tick as the ask, after expect (a done mark may be forgotten meanwhile).
      result = await settings.runOnce(effect.swept.idempotencyKey, effect.eventTime, async (context) => {
        await effect.run(context);
      });
    } catch (error) {
      return tally.count('failed', `${effect.handler} or the store failed: ${(error as Error)?.message ?? String(error)}`, error);
    }
    if (result.status === 'stale') {
      return tally.count('tooOld', `${effect.happened} at ${isoTime(effect.eventTime)}, before ${isoTime(result.horizon)}, the oldest event the store remembers processing: it may have been processed already. Check it by hand; the sweep never ${effect.ran === 'paid' ? 'fulfils' : 'records'} it`);
    }
    if (result.status === 'busy') return tally.count('busy');
    tally.count(result.status === 'ran' ? effect.ran : 'alreadyDone');
    if (result.warning !== undefined) tally.note('warning', result.warning);
    await forget(order, tally);
  }

  /** Counts a record the gateway does not know: open within the grace, `notFound` after it. */
  async function unknown(order: TrackedOrder, tally: Tally<'open' | 'notFound'>, reason: string, what: string, error: unknown): Promise<void> {
    const now = settings.now();
    if (order.notFoundSince === undefined) await tracking.notFound(order.payOrderId, now);
    const since = order.notFoundSince ?? now;
    if (now - since < notFoundGraceMs) return tally.count('open');
    const never = what === 'order' ? 'fulfilled' : 'acted on';
    return tally.count('notFound', `the gateway has not known this ${what} since ${new Date(since).toISOString()} (${reason}): it was never ${never}. Check the client's baseUrl and credentials, or the ${what}'s origin`, error);
  }

  async function settle(order: TrackedOrder, record: PayOrder, closing: boolean): Promise<void> {
    const tally = tallyOf(counts, problems, { payOrderId: order.payOrderId, mchOrderNo: order.mchOrderNo });
    const mismatch = bindingProblem('order', { payOrderId: order.payOrderId, mchOrderNo: order.mchOrderNo }, record, settings);
    if (mismatch !== undefined) return tally.count('mismatched', mismatch);
    if (record.state === PayOrderState.Succeeded) {
      const paid: SweptPayOrder = { ...record, idempotencyKey: `${record.payOrderId}:${PayOrderState.Succeeded}` };
      const { onPaid } = settings;
      return claim(order, tally, {
        swept: paid, eventTime: record.successTime ?? record.createdAt, ran: 'paid', happened: 'paid', handler: 'onPaid',
        check: () => settings.checkExpectation(paid),
        run: (context) => onPaid?.(paid, context),
      });
    }
    if (record.state === PayOrderState.Generated || record.state === PayOrderState.Paying) {
      // An order whose validity is unknown is never closed: the payer may still be paying.
      if (!closing && closeExpired && order.expiresAt !== undefined && settings.now() >= order.expiresAt) return closeOrder(order);
      return tally.count('open');
    }
    tally.count('closed');
    await forget(order, tally);
  }

  async function closeOrder(order: TrackedOrder): Promise<void> {
    let record: PayOrder;
    try {
      record = await client.close(idsOf(order), { confirm: true, signal });
    } catch (error) {
      return tallyOf(counts, problems, idsOf(order)).count('failed', `expired, but the confirmed close failed: ${(error as Error)?.message ?? String(error)}`, error);
    }
    return settle(order, record, true);
  }

  async function checkOrder(order: TrackedOrder): Promise<void> {
    // Tracked by a processor with onPaid (track refuses others), swept by one without: never acted on here.
    if (settings.onPaid === undefined) {
      return tallyOf(counts, problems, idsOf(order)).count('failed', 'this processor cannot settle orders (it has no onPaid): sweep with one that has');
    }
    let record: PayOrder;
    try {
      record = await client.query(idsOf(order), { signal });
    } catch (error) {
      const tally = tallyOf(counts, problems, idsOf(order));
      if (!isRefusal(error, 'order_not_found')) return tally.count('failed', `the query failed: ${(error as Error)?.message ?? String(error)}`, error);
      return unknown(order, tally, 'order_not_found', 'order', error);
    }
    await settle(order, record, false);
  }

  async function checkRefund(order: TrackedOrder, ids: TrackableRefund): Promise<void> {
    const tally = tallyOf(refundCounts, refundProblems, ids);
    const refunds = settings.refunds;
    // Tracked by a processor with refund handlers (track refuses others), swept by one without: never acted on here.
    if (refunds === undefined || client.refundQuery === undefined) {
      return tally.count('failed', 'this processor cannot settle refunds (it needs onRefunded and onRefundFailed, and a client with refundQuery): sweep with one that can');
    }
    let record: Refund;
    try {
      record = await client.refundQuery(ids, { signal });
    } catch (error) {
      if (!isRefusal(error, 'refund_not_found')) return tally.count('failed', `the refund query failed: ${(error as Error)?.message ?? String(error)}`, error);
      return unknown(order, tally, 'refund_not_found', 'refund', error);
    }
    const mismatch = bindingProblem('refund', ids, record, settings);
    if (mismatch !== undefined) return tally.count('mismatched', mismatch);
    if (refundOpen(record)) return tally.count('open');
    const { swept, eventTime } = sweptRefund(record);
    return claim(order, tally, {
      swept, eventTime, ran: record.state === RefundOrderState.Succeeded ? 'refunded' : 'refundFailed', happened: 'ended', handler: 'the refund handler',
      check: () => refunds.checkExpectation(swept),
      run: (context) => refunds.run(swept, context),
    });
  }

  // Each tracked record is an order or a refund (by its key), checked and counted as such.
  const check = async (order: TrackedOrder) => {
    const refund = refundIdsOf(order);
    if (refund !== undefined) refundCounts.checked++;
    else checked++;
    try {
      await (refund === undefined ? checkOrder(order) : checkRefund(order, refund));
    } catch (error) {
      const tally = refund === undefined ? tallyOf(counts, problems, idsOf(order)) : tallyOf(refundCounts, refundProblems, refund);
      tally.count('failed', `the store failed: ${(error as Error)?.message ?? String(error)}`, error);
    }
  };

  const dueBy = settings.now() - options.olderThanMs;
  let left = options.limit ?? Number.POSITIVE_INFINITY;
  const buffer: TrackedOrder[] = [];
  let refill: Promise<void> | undefined;
  let exhausted = false;
  // Orders are taken from the store a page at a time, as the workers need them, so each is marked checked
  // shortly before it is: another process's sweep skips it meanwhile.
  const next = async (): Promise<TrackedOrder | undefined> => {
    while (buffer.length === 0 && !exhausted && !signal?.aborted) {
      refill ??= (async () => {
        const size = Math.min(left, Math.max(concurrency * 2, 16));
        // Marked checked after dueBy, so that this sweep never takes an order twice, even within one millisecond.
        const page = await tracking.checkOut(dueBy, Math.max(settings.now(), dueBy + 1), size).catch((error: unknown) => {
          exhausted = true; // the store failed: every worker stops taking orders
          throw error;
        });
        left -= page.length;
        if (page.length === 0 || left <= 0) exhausted = true;
        buffer.push(...page);
      })().finally(() => (refill = undefined));
      await refill;
    }
    return signal?.aborted ? undefined : buffer.shift();
  };
  const worker = async () => {
    for (let order = await next(); order !== undefined; order = await next()) await check(order);
  };
  // Every worker finishes its check before the report is made, even when the store failed one of them.
  const failure = (await Promise.allSettled(Array.from({ length: concurrency }, worker))).find((r) => r.status === 'rejected')?.reason as unknown;
  const refunds: RefundSweepReport = { ...refundCounts, problems: refundProblems };
  const report: SweepReport = { checked, ...counts, refunds, problems, durationMs: Math.round(performance.now() - started) };
  log(settings, report, failure);
  if (failure !== undefined) throw failure;
  if (signal?.aborted) throw GatewayAbortError.of('sweep', signal.reason, ` after checking ${checked} orders and ${refundCounts.checked} refunds`);
  return report;
}

/** A time as ISO 8601, or as its number when no Date can hold it. @internal */
export function isoTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}

const idsOf = (order: TrackedOrder): TrackableOrder => ({ payOrderId: order.payOrderId, mchOrderNo: order.mchOrderNo });

/** What a sweep acts on must be the tracked order or refund of this merchant application, whatever the client checked. */
function bindingProblem(what: 'order' | 'refund', ids: object, record: object, settings: SweeperSettings): string | undefined {
  const want: Readonly<Record<string, string>> = { ...ids, mchNo: settings.mchNo, appId: settings.appId };
  const read = record as Readonly<Record<string, unknown>>;
  const differing = Object.keys(want).filter((key) => read[key] !== want[key]);
  if (differing.length === 0) return undefined;
  return `the signed record read is not the tracked ${what} of this merchant application (${differing.map((key) => `${key} ${JSON.stringify(read[key])}, not ${JSON.stringify(want[key])}`).join('; ')}): not acted on`;
}

function log({ logger, logLevel }: SweeperSettings, report: SweepReport, failure: unknown): void {
  const { problems, refunds: { problems: refundProblems, ...refunds }, ...orders } = report;
  // Refunds' counts follow the orders', each named `refunds.<count>`; a sweep that found no refund adds none.
  const fields = { ...orders, ...(refunds.checked > 0 ? Object.fromEntries(Object.entries(refunds).map(([key, value]) => [`refunds.${key}`, value])) : {}) };
  const counted = Object.entries(fields).map(([key, value]) => `${key} ${value}`).join(', ');
  const trouble = needsYou(report) || needsYou(report.refunds) || failure !== undefined;
  if (logLevel !== undefined && LOG_LEVELS.indexOf(logLevel) < LOG_LEVELS.indexOf(trouble ? 'warn' : 'info')) return;
  const line = `[payment-gateway-sdk] sweep: ${counted}${failure === undefined ? '' : `; stopped: ${(failure as Error)?.message ?? String(failure)}`}`;
  // The console gets the line alone: the fields repeat it (Node would print them over several lines).
  if (logger === undefined) return trouble ? console.warn(line) : console.info(line);
  if (trouble) logger.warn(line, { ...fields, problems: problems.length + refundProblems.length });
  else logger.info(line, fields);
}

/** Whether the counts say something needs you: a failure, an unknown record, a mismatch or a record too old. */
const needsYou = (counts: Pick<SweepReport, 'failed' | 'notFound' | 'mismatched' | 'tooOld'>): boolean => counts.failed + counts.notFound + counts.mismatched + counts.tooOld > 0;

/** Whether `error` is the gateway's refusal for `reason` (a `GatewayApiError`, a class of the layer above this one). */
function isRefusal(error: unknown, reason: string): boolean {
  return error instanceof GatewayError && error.name === 'GatewayApiError' && (error as { readonly reason?: unknown }).reason === reason;
}

/**
 * The refund side of a sweep, by name: `SweepReport.Refunds` (the counts), `SweepReport.RefundProblem`,
 * `SweepReport.SweptRefund` (what `onRefunded` and `onRefundFailed` receive from a sweep) and
 * `SweepReport.TrackableRefund` (what `processor.track` takes of a refund).
 */
export declare namespace SweepReport {
  export { type RefundSweepReport as Refunds, type RefundSweepProblem as RefundProblem, type SweptRefund as SweptRefund, type TrackableRefund as TrackableRefund };
}
