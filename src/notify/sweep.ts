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
import type { NotificationStore, ProcessingContext, RunOnceResult } from './store.js';
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
 * const client: SweepClient = new GatewayClient(config);
 * const processor = createNotificationProcessor({ ...config, store, onPaid, client });
 * ```
 */
export interface SweepClient {
  /** Reads an order with a signed query ({@link GatewayClient.query}), by both ids so that the answer is bound to both. */
  query(params: TrackableOrder, options?: { signal?: AbortSignal | undefined }): Promise<PayOrder>;
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
}

/**
 * Options of `processor.track`.
 *
 * @example
 * ```ts
 * await processor.track(order, { expiredTime: 900 }); // as sent to unifiedOrder: 15 minutes
 * ```
 */
export interface TrackOptions {
  /**
   * The order's validity in seconds, as sent to `unifiedOrder` (`expiredTime`): `closeExpired` closes it once
   * this has passed since `track`. Default `7200`, the gateway's default; at most `315360000` (ten years).
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
  /** The most orders this sweep checks. Default: every due order. */
  limit?: number | undefined;
  /** How many orders are checked at once (each a query, with the client's retry rules). Default `8`, at most `64`. */
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
  /** How long the sweep took. */
  readonly durationMs: number;
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
   * resolves (a {@link CreatedOrder} or a {@link RecoveredOrder}); tracking an order twice keeps the first record.
   *
   * @throws {@link GatewayValidationError} when the store cannot track orders, or `order` has no ids
   */
  track(order: TrackableOrder, options?: TrackOptions): Promise<void>;
  /**
   * Stops tracking `order` by hand: for one a sweep keeps reporting (`notFound`, `mismatched`, `tooOld`) once you
   * have settled it yourself. Final orders need no call: the sweep forgets them.
   *
   * @throws {@link GatewayValidationError} when the store cannot track orders, or `order` has no ids
   */
  untrack(order: TrackableOrder): Promise<void>;
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
interface SweepLogger {
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
  readonly onPaid: (paid: SweptPayOrder, context: ProcessingContext) => unknown;
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

const DEFAULT_EXPIRED_TIME_S = 7_200;
const DEFAULT_CONCURRENCY = 8;
const MAX_CONCURRENCY = 64;
const DEFAULT_NOT_FOUND_GRACE_MS = 600_000;
const MAX_PROBLEMS = 100;

// Built on first use (protocol/schemas/lazy.ts): an import that never tracks or sweeps builds none.
const trackSchema = lazySchema(() => z.object({ payOrderId: requiredText(), mchOrderNo: requiredText() }));
// Ten years: every store holds the expiry exactly (past 2^53 ms a SQLite row or a Redis record read back fails every sweep).
const MAX_EXPIRED_TIME_S = 315_360_000;
const trackOptionsSchema = lazySchema(() =>
  z.strictObject({ expiredTime: z.optional(safeInteger(1).check(z.maximum(MAX_EXPIRED_TIME_S, { error: `must be at most ${MAX_EXPIRED_TIME_S} (ten years)` }))) }),
);
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
      const { payOrderId, mchOrderNo } = parseInput(trackSchema(), order, 'Invalid processor.track order', 'request');
      const { expiredTime = DEFAULT_EXPIRED_TIME_S } = parseInput(trackOptionsSchema(), options ?? {}, 'Invalid processor.track options', 'options');
      const trackedAt = settings.now();
      await tracking.track({ payOrderId, mchOrderNo, trackedAt, expiresAt: trackedAt + expiredTime * 1_000 });
    },
    async untrack(order) {
      const tracking = trackingOf('untrack');
      await tracking.forget(parseInput(trackSchema(), order, 'Invalid processor.untrack order', 'request').payOrderId);
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

type ParsedSweepOptions = z.output<ReturnType<typeof sweepOptionsSchema>>;
type Counted = Exclude<keyof SweepReport, 'checked' | 'problems' | 'durationMs'>;

async function runSweep(settings: SweeperSettings, tracking: OrderTracking, client: SweepClient, options: ParsedSweepOptions): Promise<SweepReport> {
  const started = performance.now();
  const { signal, closeExpired = false, notFoundGraceMs = DEFAULT_NOT_FOUND_GRACE_MS, concurrency = DEFAULT_CONCURRENCY } = options;
  const counts: Record<Counted, number> = { paid: 0, alreadyDone: 0, open: 0, closed: 0, failed: 0, busy: 0, notFound: 0, mismatched: 0, tooOld: 0 };
  const problems: SweepProblem[] = [];
  const note = (kind: SweepProblem['kind'], order: TrackedOrder, message: string, error?: unknown) => {
    if (problems.length < MAX_PROBLEMS) problems.push({ kind, payOrderId: order.payOrderId, mchOrderNo: order.mchOrderNo, message, ...(error === undefined ? {} : { error }) });
  };
  const count = (field: Counted, order: TrackedOrder, message?: string, error?: unknown) => {
    counts[field]++;
    if (message !== undefined) note(field as SweepProblem['kind'], order, message, error);
  };
  const forget = (order: TrackedOrder) =>
    tracking.forget(order.payOrderId).catch((error: unknown) => note('forget', order, 'settled, but the store could not forget it: the next sweep checks it again', error));

  /** Runs onPaid for a paid, bound record through the notification's claim. */
  async function fulfil(order: TrackedOrder, record: PayOrder): Promise<void> {
    const paid: SweptPayOrder = { ...record, idempotencyKey: `${record.payOrderId}:${PayOrderState.Succeeded}` };
    const paidAt = record.successTime ?? record.createdAt;
    const refusal = await settings.checkExpectation(paid);
    if (refusal?.kind === 'refused') return count('mismatched', order, refusal.error.message, refusal.error);
    if (refusal?.kind === 'failed') return count('failed', order, `your expect function failed: ${String((refusal.error as Error)?.message ?? refusal.error)}`, refusal.error);
    let result: Awaited<ReturnType<SweeperSettings['runOnce']>>;
    try {
      // The notification's own claim: the horizon judged in the same tick as the ask, after expect (a done mark may be forgotten meanwhile).
      result = await settings.runOnce(paid.idempotencyKey, paidAt, async (context) => {
        await settings.onPaid(paid, context);
      });
    } catch (error) {
      return count('failed', order, `onPaid or the store failed: ${(error as Error)?.message ?? String(error)}`, error);
    }
    if (result.status === 'stale') {
      return count('tooOld', order, `paid at ${isoTime(paidAt)}, before ${isoTime(result.horizon)}, the oldest event the store remembers processing: it may have been processed already. Check it by hand; the sweep never fulfils it`);
    }
    if (result.status === 'busy') return count('busy', order);
    count(result.status === 'ran' ? 'paid' : 'alreadyDone', order);
    if (result.warning !== undefined) note('warning', order, result.warning);
    await forget(order);
  }

  async function settle(order: TrackedOrder, record: PayOrder, closing: boolean): Promise<void> {
    const mismatch = bindingProblem(order, record, settings);
    if (mismatch !== undefined) return count('mismatched', order, mismatch);
    if (record.state === PayOrderState.Succeeded) return fulfil(order, record);
    if (record.state === PayOrderState.Generated || record.state === PayOrderState.Paying) {
      if (!closing && closeExpired && settings.now() >= order.expiresAt) return closeOrder(order);
      return count('open', order);
    }
    count('closed', order);
    await forget(order);
  }

  async function closeOrder(order: TrackedOrder): Promise<void> {
    let record: PayOrder;
    try {
      record = await client.close(idsOf(order), { confirm: true, signal });
    } catch (error) {
      return count('failed', order, `expired, but the confirmed close failed: ${(error as Error)?.message ?? String(error)}`, error);
    }
    return settle(order, record, true);
  }

  async function check(order: TrackedOrder): Promise<void> {
    let record: PayOrder;
    try {
      record = await client.query(idsOf(order), { signal });
    } catch (error) {
      if (!isRefusal(error, 'order_not_found')) {
        return count('failed', order, `the query failed: ${(error as Error)?.message ?? String(error)}`, error);
      }
      const now = settings.now();
      if (order.notFoundSince === undefined) await tracking.notFound(order.payOrderId, now);
      const since = order.notFoundSince ?? now;
      if (now - since < notFoundGraceMs) return count('open', order);
      return count('notFound', order, `the gateway has not known this order since ${new Date(since).toISOString()} (order_not_found): it was never fulfilled. Check the client's baseUrl and credentials, or the order's origin`, error);
    }
    await settle(order, record, false);
  }

  const dueBy = settings.now() - options.olderThanMs;
  let left = options.limit ?? Number.POSITIVE_INFINITY;
  let checked = 0;
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
    for (let order = await next(); order !== undefined; order = await next()) {
      checked++;
      try {
        await check(order);
      } catch (error) {
        count('failed', order, `the store failed: ${(error as Error)?.message ?? String(error)}`, error);
      }
    }
  };
  // Every worker finishes its check before the report is made, even when the store failed one of them.
  const failure = (await Promise.allSettled(Array.from({ length: concurrency }, worker))).find((r) => r.status === 'rejected')?.reason as unknown;
  const report: SweepReport = { checked, ...counts, problems, durationMs: Math.round(performance.now() - started) };
  log(settings, report, failure);
  if (failure !== undefined) throw failure;
  if (signal?.aborted) throw GatewayAbortError.of('sweep', signal.reason, ` after checking ${checked} orders`);
  return report;
}

/** A time as ISO 8601, or as its number when no Date can hold it. @internal */
export function isoTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}

const idsOf = (order: TrackedOrder): TrackableOrder => ({ payOrderId: order.payOrderId, mchOrderNo: order.mchOrderNo });

/** What a sweep acts on must be the tracked order of this merchant application, whatever the client checked. */
function bindingProblem(order: TrackedOrder, record: PayOrder, settings: SweeperSettings): string | undefined {
  const want = { payOrderId: order.payOrderId, mchOrderNo: order.mchOrderNo, mchNo: settings.mchNo, appId: settings.appId };
  const differing = (Object.keys(want) as (keyof typeof want)[]).filter((key) => record[key] !== want[key]);
  if (differing.length === 0) return undefined;
  return `the signed record read is not the tracked order of this merchant application (${differing.map((key) => `${key} ${JSON.stringify(record[key])}, not ${JSON.stringify(want[key])}`).join('; ')}): not acted on`;
}

function log({ logger, logLevel }: SweeperSettings, report: SweepReport, failure: unknown): void {
  const { problems, ...fields } = report;
  const counted = Object.entries(fields).map(([key, value]) => `${key} ${value}`).join(', ');
  const trouble = report.failed + report.notFound + report.mismatched + report.tooOld > 0 || failure !== undefined;
  if (logLevel !== undefined && LOG_LEVELS.indexOf(logLevel) < LOG_LEVELS.indexOf(trouble ? 'warn' : 'info')) return;
  const line = `[payment-gateway-sdk] sweep: ${counted}${failure === undefined ? '' : `; stopped: ${(failure as Error)?.message ?? String(failure)}`}`;
  // The console gets the line alone: the fields repeat it (Node would print them over several lines).
  if (logger === undefined) return trouble ? console.warn(line) : console.info(line);
  if (trouble) logger.warn(line, { ...fields, problems: problems.length });
  else logger.info(line, fields);
}

/** Whether `error` is the gateway's refusal for `reason` (a `GatewayApiError`, a class of the layer above this one). */
function isRefusal(error: unknown, reason: string): boolean {
  return error instanceof GatewayError && error.name === 'GatewayApiError' && (error as { readonly reason?: unknown }).reason === reason;
}
