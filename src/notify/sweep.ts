/**
 * `processor.track` and `processor.sweep`: the way a tracked record (a paid order, an ended refund) is settled when
 * its notification never arrives. The sweep reads each tracked record with its row's signed read and runs the
 * handler its state picks through the same claim as a notification (docs/guides/never-lose-a-paid-order.md). Here:
 * `track`, `untrack` and the sweep's workers, for every tracked kind alike (sweep-kinds.ts); its options are in
 * sweep-options.ts, one record's check in sweep-check.ts, the paging in sweep-pages.ts, the report and its log line
 * in sweep-report.ts.
 *
 * @module
 */
import * as z from 'zod/mini';
import { GatewayAbortError, GatewayError, GatewayValidationError } from '../errors/index.js';
import { parseInput } from '../protocol/schemas/parse.js';
import type { SweepCheckContext } from './sweep-check.js';
import { checkAny } from './sweep-check-keys.js';
import { DEFAULT_CONCURRENCY, DEFAULT_NOT_FOUND_GRACE_MS, sweepOptionsSchema, trackOptionsSchema, type ParsedSweepOptions, type SweepOptions, type TrackOptions } from './sweep-options.js';
import { describeSent, numberKey, sentOf, sentSchema, trackedByNumber, type Sent } from './sweep-keys.js';
import { aRecord, idKey, idSchema, trackedForm, trackedKinds } from './sweep-kinds.js';
import { trackedPages } from './sweep-pages.js';
import { logSweep, SweepTallies, type SweepReport } from './sweep-report.js';
import type { SweepClient, SweeperSettings } from './sweep-settings.js';
import type { TrackableRecord } from './tracked-types.js';
import type { OrderTracking, TrackedOrder } from './tracking.js';

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
   * resolves (a {@link CreatedOrder} or a {@link RecoveredOrder}), or `refundOrder` (a refund, settled by
   * `onRefunded`/`onRefundFailed`: the processor needs both); tracking it again with the same ids does nothing.
   * **After `GatewayOutcomeUnknownError`** track it by its key and what was sent (an {@link Payments.Unconfirmed}, an
   * {@link Refunds.Unconfirmed}): a sweep looks it up by the key, reports one that is not what was sent `mismatched`
   * (no handler runs), tracks one found as any, and reports one proved absent `neverMade` (send it again under
   * the same key if still wanted).
   *
   * @example
   * ```ts
   * const refund = { payOrderId, mchRefundNo: 'refund-1001', refundAmount: 400, currency: 'USD' };
   * try {
   *   await processor.track(await client.refundOrder({ ...refund, refundReason: 'Returned' }));
   * } catch (error) {
   *   if (!(error instanceof GatewayOutcomeUnknownError)) throw error;
   *   await processor.track(refund); // a sweep finds it by mchRefundNo and settles it, or reports it never made
   * }
   * ```
   *
   * @throws {@link GatewayValidationError} when the store cannot track orders, `order` has no ids, its ids are
   * tracked with another key or other values sent (the tracked one is kept: `untrack` it first), a refund by its
   * key has not exactly one order id, or the processor lacks a refund handler
   */
  track(order: TrackableRecord, options?: TrackOptions): Promise<void>;
  /**
   * Stops tracking `order` (or a refund, or a record tracked by its key: give it as tracked) by hand: for one a sweep
   * keeps reporting (`notFound`, `mismatched`, `tooOld`) once you have settled it yourself. Final ones need no call:
   * the sweep forgets them.
   *
   * @throws {@link GatewayValidationError} when the store cannot track orders, or `order` has no ids
   */
  untrack(order: TrackableRecord): Promise<void>;
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
      const form = trackedForm(order);
      const { kind } = form;
      const lacking = settings.kinds[kind.name]?.lacking ?? Object.keys(kind.handlers);
      // A record no handler of this processor could act on would be tracked for nothing, and reported as settled by no one.
      if (lacking.length > 0) {
        const options = Object.keys(kind.handlers);
        const takers = Object.entries(kind.handlers).map(([option, handler]) => `${option}${handler?.states ? ` (${handler.states.join(', ')})` : ''}`);
        throw new GatewayValidationError(`processor.track refused ${aRecord(kind)}: this processor could never act on it`, [
          { path: ['options', options[0]!], message: `is missing: a sweep settles a tracked ${kind.tracking.noun} with ${takers.join(' or ')}; give the processor ${options.join(' and ')}` },
        ]);
      }
      const record = await trackedRecord(form, order, options, settings.now(), settings.digest);
      const kept = await tracking.track(record);
      if (typeof kept !== 'string') {
        throw new GatewayError("The store's tracking.track resolved to no mchOrderNo: it must resolve to the mchOrderNo of the record it keeps (OrderTracking), so that a conflicting track is refused. Fix the store; the order may not be tracked.");
      }
      if (kept !== record.mchOrderNo) throw conflict(form, record, kept);
    },
    async untrack(order) {
      const tracking = trackingOf('untrack');
      const { kind, byKey } = trackedForm(order);
      const { by } = kind.tracking;
      const summary = `Invalid processor.untrack ${kind.tracking.noun}`;
      const key = byKey ? numberKey(kind, parseInput(sentSchema(kind), order, summary, 'request')[by[1]] as string) : idKey(kind, parseInput(idSchema(kind), order, summary, 'request')[by[0]] as string);
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

/** The record `track` writes for what it was given, by its kind and form, with its options checked. */
async function trackedRecord({ kind, byKey }: ReturnType<typeof trackedForm>, order: unknown, options: TrackOptions | undefined, trackedAt: number, digest: SweeperSettings['digest']): Promise<TrackedOrder> {
  const { by, expiry, noun } = kind.tracking;
  const summary = `Invalid processor.track ${noun}`;
  const given = parseInput(byKey ? sentSchema(kind) : idSchema(kind), order, summary, 'request');
  // Only a kind a sweep may close takes a validity; the others take no option.
  const { expiredTime = byKey || expiry === undefined ? undefined : (given[expiry.sent] as number | undefined) } =
    expiry === undefined ? parseInput(z.strictObject({}), options ?? {}, `Invalid processor.track options: ${aRecord(kind)} takes none`, 'options') as TrackOptions : parseInput(trackOptionsSchema(), options ?? {}, 'Invalid processor.track options', 'options');
  const expiresAt = expiredTime === undefined ? undefined : trackedAt + expiredTime * 1_000;
  if (byKey) return trackedByNumber(kind, given, trackedAt, expiresAt, digest);
  return { payOrderId: idKey(kind, given[by[0]] as string), mchOrderNo: given[by[1]] as string, trackedAt, expiresAt };
}

/** A track refused because its key is tracked with another number (or, for one known by its number, other values sent): the tracked record is kept. */
function conflict({ kind, byKey }: ReturnType<typeof trackedForm>, record: TrackedOrder, kept: string): GatewayValidationError {
  const { by, prefix, byKey: keys } = kind.tracking;
  const field = by[1];
  let detail: string;
  if (!byKey) {
    detail = `is ${JSON.stringify(record.mchOrderNo)}, but ${by[0]} ${JSON.stringify(record.payOrderId.slice(prefix.length))} is tracked with ${field} ${JSON.stringify(kept)}`;
  } else {
    const number = record.payOrderId.slice(keys.prefix.length);
    const given = sentOf(kind, number, record.mchOrderNo) as Sent;
    const keptSent = sentOf(kind, number, kept);
    detail = `${JSON.stringify(number)} is tracked with other values sent (${typeof keptSent === 'object' ? describeSent(keptSent) : 'values that cannot be read'}), not (${describeSent(given)})`;
  }
  return new GatewayValidationError(`processor.track refused ${aRecord(kind)} that conflicts with the one tracked`, [
    { path: ['order', field], message: `${detail}: the tracked record is kept. Find which is right; if the tracked one is wrong, processor.untrack it, then track this one` },
  ]);
}

/** Checks every due tracked record, `concurrency` at once, then logs the report and returns it. */
async function runSweep(settings: SweeperSettings, tracking: OrderTracking, client: SweepClient, options: ParsedSweepOptions): Promise<SweepReport> {
  const started = performance.now();
  const { signal, closeExpired = false, notFoundGraceMs = DEFAULT_NOT_FOUND_GRACE_MS, concurrency = DEFAULT_CONCURRENCY } = options;
  const tallies = new SweepTallies(trackedKinds);
  const dueBy = settings.now() - options.olderThanMs;
  const sweep: SweepCheckContext = { settings, tracking, client, signal, closeExpired, notFoundGraceMs, dueBy, tallies };
  const next = trackedPages(tracking, { dueBy, limit: options.limit ?? Number.POSITIVE_INFINITY, concurrency, now: () => settings.now(), signal });
  const worker = async () => {
    for (let order = await next(); order !== undefined; order = await next()) await checkAny(sweep, order);
  };
  // Every worker finishes its check before the report is made, even when the store failed one of them.
  const failure = (await Promise.allSettled(Array.from({ length: concurrency }, worker))).find((r) => r.status === 'rejected')?.reason as unknown;
  const report = tallies.report(Math.round(performance.now() - started));
  logSweep(settings, report, failure);
  if (failure !== undefined) throw failure;
  if (signal?.aborted) throw GatewayAbortError.of('sweep', signal.reason, ` after checking ${tallies.checked()}`);
  return report;
}
