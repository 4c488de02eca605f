/**
 * Checking a record tracked by its number alone (sweep-keys.ts): its row's signed read by the number, the binding
 * of what is found to what was sent, then the record is tracked by its ids and settled as any (sweep-check.ts).
 * Proved absent (the read's not-found refusal, at lookups `notFoundGraceMs` apart), it was never made: reported,
 * and forgotten.
 *
 * @module
 */
import { readIds } from '../kinds/kind-tracking.js';
import { bindingProblem, call, cannotSettle, checkTracked, forget, isRefusal, settle, trackedById, type SignedRecord, type SweepCheckContext } from './sweep-check.js';
import { describeSent, matchedDifferences, sentDifferences, sentOf, type Sent } from './sweep-keys.js';
import { aRecord, keyOwner, trackedKind, type TrackedKind } from './sweep-kinds.js';
import type { Outcome, Tally } from './sweep-report.js';
import type { TrackedOrder } from './tracking.js';

/** Checks one tracked record, whether tracked by its ids or by its number alone. @internal */
export async function checkAny(sweep: SweepCheckContext, tracked: TrackedOrder): Promise<void> {
  const owner = keyOwner(tracked.payOrderId);
  if (owner === undefined) return; // no tracked kind: never written by track
  if (!owner.byKey) return checkTracked(sweep, tracked, owner);
  const { kind, rest: number } = owner;
  sweep.tallies.checking(kind);
  // Not found yet, it has no gateway id to be named by: '' (the report's field says so).
  const pending = sweep.tallies.record(kind, readIds(kind.tracking, '', number));
  const sent = sentOf(kind, number, tracked.mchOrderNo);
  if (sent === 'unreadable') return pending.count('failed', 'the values sent that the store holds for it are not what processor.track wrote: check that nothing else writes to the store; never acted on');
  try {
    await find(sweep, tracked, sent, pending);
  } catch (error) {
    pending.count('failed', `the store failed: ${(error as Error)?.message ?? String(error)}`, error);
  }
}

async function find(sweep: SweepCheckContext, tracked: TrackedOrder, sent: Sent, pending: Tally<Outcome>): Promise<void> {
  const { kind } = sent;
  const { read, by, notFound, noun } = kind.tracking;
  const cannot = cannotSettle(sweep, kind);
  if (cannot !== undefined) return pending.count('failed', cannot);
  let record: SignedRecord;
  try {
    record = await call(sweep.client, read, { [by[1]]: sent.number }, { signal: sweep.signal });
  } catch (error) {
    if (!isRefusal(error, notFound)) return pending.count('failed', `the ${read} by ${by[1]} failed, so the ${noun}'s outcome is still unknown: ${(error as Error)?.message ?? String(error)}`, error);
    return neverMade(sweep, tracked, pending, sent, error);
  }
  const compared: Record<string, unknown> = { [kind.amountField]: sent.amount, currency: sent.currency };
  if (sent.of !== undefined) {
    const of = trackedKind(kind.tracking.byKey.of!);
    const ofId = sent.of.by === of.tracking.by[0] ? sent.of.id : await idOf(sweep, kind, of, sent.of.id, pending);
    if (ofId === undefined) return;
    compared[of.tracking.by[0]] = ofId;
  }
  const mismatch = bindingProblem(noun, { [by[1]]: sent.number }, record, sweep.settings) ?? sentMismatch(sent, record, compared) ?? (await matchedMismatch(sent, record, sweep.settings.digest));
  if (mismatch !== undefined) return pending.count('mismatched', mismatch);
  const id = record[by[0]] as string;
  const byId = trackedById(kind, id, sent.number, adoptedAt(sweep), tracked.expiresAt);
  // An id whose key is not this kind's by its id: taken on a hostile gateway's word, it would be read as another kind's, or as what was sent.
  const owner = keyOwner(byId.payOrderId);
  if (owner === undefined || owner.kind !== kind || owner.byKey || owner.rest !== id) {
    return pending.count('mismatched', `the ${noun} found has ${by[0]} ${JSON.stringify(id)}, shaped as a tracking key: not acted on`);
  }
  if (!(await adopt(sweep, tracked, byId, pending))) return;
  await settle(sweep, kind, byId, readIds(kind.tracking, id, sent.number), record, false);
}

/**
 * The id of the record `kind`'s was sent for by that record's number (a refund's order by `mchOrderNo`), from a signed
 * read of it (the record found names it by id only); `undefined` once counted: a failed read leaves the outcome
 * unknown, a record proved absent means the one under the key is not of it.
 */
async function idOf(sweep: SweepCheckContext, kind: TrackedKind, of: TrackedKind, number: string, pending: Tally<Outcome>): Promise<string | undefined> {
  const { read, by, notFound, noun } = of.tracking;
  let record: SignedRecord;
  try {
    record = await call(sweep.client, read, { [by[1]]: number }, { signal: sweep.signal });
  } catch (error) {
    if (isRefusal(error, notFound)) {
      pending.count('mismatched', `${aRecord(kind)} exists under this ${kind.tracking.by[1]}, but the gateway has no ${noun} under ${by[1]} ${JSON.stringify(number)} it was sent for (${notFound}): it is another ${kind.tracking.noun}, not acted on`, error);
    } else {
      pending.count('failed', `the ${read} of the ${kind.tracking.noun}'s ${noun} by ${by[1]} failed, so the ${kind.tracking.noun} found cannot be matched yet: ${(error as Error)?.message ?? String(error)}`, error);
    }
    return undefined;
  }
  const mismatch = bindingProblem(noun, { [by[1]]: number }, record, sweep.settings);
  if (mismatch === undefined) return record[by[0]] as string;
  pending.count('mismatched', `the ${kind.tracking.noun}'s ${noun}: ${mismatch}`);
  return undefined;
}

/** How the record found under the key differs from what was sent, as a mismatch says it. */
function sentMismatch(sent: Sent, record: object, compared: Readonly<Record<string, unknown>>): string | undefined {
  const differences = sentDifferences(compared, record as Readonly<Record<string, unknown>>);
  if (differences === undefined) return undefined;
  return `the signed record under this ${sent.kind.tracking.by[1]} is not the ${sent.kind.tracking.noun} sent (${describeSent(sent)}): ${differences}. The key was used before: never acted on`;
}

/** How the record found differs from what was sent in the kind's matched fields (a payee's), named but never shown. */
async function matchedMismatch(sent: Sent, record: Readonly<Record<string, unknown>>, digest: (text: string) => Promise<string>): Promise<string | undefined> {
  const differing = await matchedDifferences(sent, record, digest);
  if (differing.length === 0) return undefined;
  const { by, noun } = sent.kind.tracking;
  return `the signed record under this ${by[1]} is not the ${noun} sent: its ${differing.join(', ')} ${differing.length === 1 ? 'is' : 'are'} not what was sent (not shown). The key was used before: never acted on`;
}

/** When a record found is tracked by its ids: after this sweep's due time, so that this sweep does not take it again. */
const adoptedAt = (sweep: SweepCheckContext): number => Math.max(sweep.settings.now(), sweep.dueBy + 1);

/**
 * Tracks the record found by its ids, then forgets its key: from here it is tracked and settled as any record (a
 * later lookup that does not find it is `notFound`, never "never made"). `false` once counted, when its ids are
 * tracked with another number.
 */
async function adopt(sweep: SweepCheckContext, tracked: TrackedOrder, byId: TrackedOrder, pending: Tally<Outcome>): Promise<boolean> {
  const kept = await sweep.tracking.track(byId);
  if (kept !== byId.mchOrderNo) {
    pending.count('mismatched', `the record found, ${JSON.stringify(byId.payOrderId)}, is tracked already with number ${JSON.stringify(kept)}: not acted on. Find which is right, and untrack the wrong one`);
    return false;
  }
  await forget(sweep, tracked, pending);
  return true;
}

/**
 * Counts a record its lookup proved absent: `open` within `notFoundGraceMs` of the first such lookup (a record made
 * a moment ago may not show yet), then `neverMade`, and no longer tracked, so that it may be sent again under its key.
 */
async function neverMade(sweep: SweepCheckContext, tracked: TrackedOrder, pending: Tally<Outcome>, sent: Sent, error: unknown): Promise<void> {
  const now = sweep.settings.now();
  if (tracked.notFoundSince === undefined) await sweep.tracking.notFound(tracked.payOrderId, now);
  const since = tracked.notFoundSince ?? now;
  if (now - since < sweep.notFoundGraceMs) return pending.count('open');
  const { notFound: reason } = sent.kind.tracking;
  try {
    await sweep.tracking.forget(tracked.payOrderId);
  } catch (forgetting) {
    return pending.count('failed', `never made (${reason} since ${new Date(since).toISOString()}), but the store could not stop tracking it: the next sweep checks it again`, forgetting);
  }
  const name = sent.kind.tracking.by[1];
  pending.count('neverMade', `the gateway has had nothing under this ${name} since ${new Date(since).toISOString()} (${reason}): it was never made. No longer tracked: send it again under the same ${name} if it is still wanted`, error);
}
