/**
 * Checking one tracked record of any tracked kind by its ids: its row's signed read, the binding to what was
 * tracked, then the notification's own claim for a final one (the handler its state picks), each outcome counted in
 * the sweep's tallies. What a kind alone can do (close an open order past its validity) is its row's capability.
 *
 * @module
 */
import { isoTime } from '../util/iso-time.js';
import { GatewayError } from '../errors/index.js';
import { isOpen, readIds } from '../kinds/kind-tracking.js';
import type { ProcessingContext } from './store.js';
import { idKey, type KeyOwner, type TrackedKind } from './sweep-kinds.js';
import type { Outcome, SweepTallies, Tally } from './sweep-report.js';
import type { SweepClient, SweeperSettings, SweptRefusal } from './sweep-settings.js';
import type { OrderTracking, TrackedOrder } from './tracking.js';
import type { IdempotentNotification } from './verify-received.js';

/** What checking a tracked record needs: the processor's settings, the store, the client, the sweep's options and its tallies. @internal */
export interface SweepCheckContext {
  readonly settings: SweeperSettings;
  readonly tracking: OrderTracking;
  readonly client: SweepClient;
  readonly signal: AbortSignal | undefined;
  readonly closeExpired: boolean;
  readonly notFoundGraceMs: number;
  /** Records last checked at or before this time are due in this sweep. */
  readonly dueBy: number;
  readonly tallies: SweepTallies;
}

/** A signed record as the sweep reads it: fields by name. @internal */
export type SignedRecord = Readonly<Record<string, unknown>>;

/** What the claim of a swept record runs, and the field it is counted in when it ran now. */
interface SweptEffect {
  readonly swept: IdempotentNotification;
  readonly eventTime: number;
  readonly ran: string;
  readonly happened: string;
  readonly handler: string;
  check(): Promise<SweptRefusal>;
  run(context: ProcessingContext): unknown;
}

/** Calls the client's operation `name` (a row's read, or its close): the client has a method of that name for every tracked kind it serves. @internal */
export function call(client: SweepClient, name: string, params: Readonly<Record<string, string>>, options: object): Promise<SignedRecord> {
  return (client as unknown as Record<string, (params: object, options: object) => Promise<SignedRecord>>)[name]!(params, options);
}

/** Why this processor cannot settle a record of `kind`: a handler of the row it lacks, or a client without the row's read. @internal */
export function cannotSettle(sweep: SweepCheckContext, kind: TrackedKind): string | undefined {
  const lacking = sweep.settings.kinds[kind.name]?.lacking ?? Object.keys(kind.handlers);
  const { noun, read } = kind.tracking;
  // Tracked by a processor with the kind's handlers (track refuses others), swept by one without: never acted on here.
  if (lacking.length > 0) return `this processor cannot settle ${noun}s (it has no ${lacking.join(' or ')}): sweep with one that has`;
  if (typeof (sweep.client as unknown as Record<string, unknown>)[read] !== 'function') return `this processor cannot settle ${noun}s (its client has no ${read}): sweep with one that has`;
  return undefined;
}

/** Checks one record tracked by its id, and counts it as its kind's; a store failure is counted as `failed`. @internal */
export async function checkTracked(sweep: SweepCheckContext, tracked: TrackedOrder, { kind, rest: id }: KeyOwner): Promise<void> {
  const ids = readIds(kind.tracking, id, tracked.mchOrderNo);
  sweep.tallies.checking(kind);
  try {
    await checkById(sweep, kind, tracked, ids);
  } catch (error) {
    sweep.tallies.record(kind, ids).count('failed', `the store failed: ${(error as Error)?.message ?? String(error)}`, error);
  }
}

async function checkById(sweep: SweepCheckContext, kind: TrackedKind, tracked: TrackedOrder, ids: Readonly<Record<string, string>>): Promise<void> {
  const tally = sweep.tallies.record(kind, ids);
  const cannot = cannotSettle(sweep, kind);
  if (cannot !== undefined) return tally.count('failed', cannot);
  const { read, notFound } = kind.tracking;
  let record: SignedRecord;
  try {
    record = await call(sweep.client, read, ids, { signal: sweep.signal });
  } catch (error) {
    if (!isRefusal(error, notFound)) return tally.count('failed', `the ${read} failed: ${(error as Error)?.message ?? String(error)}`, error);
    return unknown(sweep, kind, tracked, tally, error);
  }
  await settle(sweep, kind, tracked, ids, record, false);
}

/**
 * Acts on a signed read of a tracked record: runs the handler its state picks through its notification's claim,
 * forgets a final one no handler takes (`closed`), leaves an open one tracked, or closes it past its validity
 * when the kind can and the sweep was asked to. @internal
 */
export async function settle(sweep: SweepCheckContext, kind: TrackedKind, tracked: TrackedOrder, ids: Readonly<Record<string, string>>, record: SignedRecord, closing: boolean): Promise<void> {
  const { settings } = sweep;
  const tally = sweep.tallies.record(kind, ids);
  const mismatch = bindingProblem(kind.tracking.noun, ids, record, settings);
  if (mismatch !== undefined) return tally.count('mismatched', mismatch);
  const state = record[kind.stateField ?? 'state'] as number;
  if (isOpen(kind.tracking, state)) {
    const { expiry } = kind.tracking;
    // A record whose validity is unknown is never closed: the payer may still be paying.
    if (expiry !== undefined && !closing && sweep.closeExpired && tracked.expiresAt !== undefined && settings.now() >= tracked.expiresAt) {
      return closeExpired(sweep, kind, tracked, ids, expiry.close);
    }
    const { stalled } = kind.tracking;
    const createdAt = record['createdAt'];
    if (stalled !== undefined && typeof createdAt === 'number' && settings.now() - createdAt > stalled.afterMs) {
      tally.note('warning', `the ${kind.tracking.noun} is still in state ${state} ${Math.floor((settings.now() - createdAt) / 3_600_000)} hours after its creation: ${stalled.advice}`);
    }
    return tally.count('open');
  }
  const swept = settings.kinds[kind.name]!;
  const handler = swept.handlerOf(record as unknown as IdempotentNotification);
  if (handler === undefined) {
    tally.count('closed');
    return forget(sweep, tracked, tally);
  }
  // The row's key and event time read the record's ids, state and times, never reqTime (a re-send renews it).
  const signed = record as never;
  const found = { ...record, idempotencyKey: kind.idempotencyKey(signed) } as unknown as IdempotentNotification;
  const event = kind.eventTime(signed);
  return claim(sweep, tracked, tally, {
    swept: found, eventTime: event.time, ran: handler.ran, happened: event.happened, handler: handler.option,
    check: () => swept.checkExpectation(found),
    run: (context) => handler.run(found, context),
  });
}

/** Closes an open record past its validity with a confirmed close (the row's capability), then settles what it reads back. */
async function closeExpired(sweep: SweepCheckContext, kind: TrackedKind, tracked: TrackedOrder, ids: Readonly<Record<string, string>>, close: string): Promise<void> {
  let record: SignedRecord;
  try {
    record = await call(sweep.client, close, ids, { confirm: true, signal: sweep.signal });
  } catch (error) {
    return sweep.tallies.record(kind, ids).count('failed', `expired, but the confirmed close failed: ${(error as Error)?.message ?? String(error)}`, error);
  }
  return settle(sweep, kind, tracked, ids, record, true);
}

/** Runs a final record's handler through its notification's claim, after the processor's expect. */
async function claim(sweep: SweepCheckContext, tracked: TrackedOrder, tally: Tally<Outcome>, effect: SweptEffect): Promise<void> {
  const refusal = await effect.check();
  if (refusal?.kind === 'refused') return tally.count('mismatched', refusal.error.message, refusal.error);
  if (refusal?.kind === 'failed') return tally.count('failed', `your expect function failed: ${String((refusal.error as Error)?.message ?? refusal.error)}`, refusal.error);
  let result: Awaited<ReturnType<SweeperSettings['runOnce']>>;
  try {
    // The notification's own claim: the horizon judged in the same tick as the ask, after expect (a done mark may be forgotten meanwhile).
    result = await sweep.settings.runOnce(effect.swept.idempotencyKey, effect.eventTime, async (context) => {
      await effect.run(context);
    });
  } catch (error) {
    return tally.count('failed', `${effect.handler} or the store failed: ${(error as Error)?.message ?? String(error)}`, error);
  }
  if (result.status === 'stale') {
    return tally.count('tooOld', `${effect.happened} at ${isoTime(effect.eventTime)}, before ${isoTime(result.horizon)}, the oldest event the store remembers processing: it may have been processed already. Check it by hand; the sweep never records it`);
  }
  if (result.status === 'busy') return tally.count('busy');
  tally.count(result.status === 'ran' ? effect.ran : 'alreadyDone');
  if (result.warning !== undefined) tally.note('warning', result.warning);
  await forget(sweep, tracked, tally);
}

/** Counts a record the gateway does not know: open within the grace, `notFound` after it. */
async function unknown(sweep: SweepCheckContext, kind: TrackedKind, tracked: TrackedOrder, tally: Tally<Outcome>, error: unknown): Promise<void> {
  const now = sweep.settings.now();
  if (tracked.notFoundSince === undefined) await sweep.tracking.notFound(tracked.payOrderId, now);
  const since = tracked.notFoundSince ?? now;
  if (now - since < sweep.notFoundGraceMs) return tally.count('open');
  const { noun, notFound } = kind.tracking;
  return tally.count('notFound', `the gateway has not known this ${noun} since ${new Date(since).toISOString()} (${notFound}): it was never acted on. Check the client's baseUrl and credentials, or the ${noun}'s origin`, error);
}

/** Forgets a settled record; a store that cannot is noted, and the next sweep reads the record again. @internal */
export const forget = (sweep: SweepCheckContext, tracked: TrackedOrder, tally: Tally<Outcome>) =>
  sweep.tracking.forget(tracked.payOrderId).catch((error: unknown) => tally.note('forget', 'settled, but the store could not forget it: the next sweep checks it again', error));

/** The record a kind's record found by its number is tracked by from then on: its id's key. @internal */
export const trackedById = (kind: TrackedKind, id: string, number: string, trackedAt: number, expiresAt: number | undefined): TrackedOrder => ({ payOrderId: idKey(kind, id), mchOrderNo: number, trackedAt, expiresAt });

/** What a sweep acts on must be the tracked record of this merchant application, whatever the client checked. @internal */
export function bindingProblem(noun: string, ids: object, record: object, settings: SweeperSettings): string | undefined {
  const want: Readonly<Record<string, string>> = { ...ids, mchNo: settings.mchNo, appId: settings.appId };
  const read = record as Readonly<Record<string, unknown>>;
  const differing = Object.keys(want).filter((key) => read[key] !== want[key]);
  if (differing.length === 0) return undefined;
  return `the signed record read is not the tracked ${noun} of this merchant application (${differing.map((key) => `${key} ${JSON.stringify(read[key])}, not ${JSON.stringify(want[key])}`).join('; ')}): not acted on`;
}

/** Whether `error` is the gateway's refusal for `reason` (a `GatewayApiError`, a class of the layer above this one). @internal */
export function isRefusal(error: unknown, reason: string): boolean {
  return error instanceof GatewayError && error.name === 'GatewayApiError' && (error as { readonly reason?: unknown }).reason === reason;
}
