/**
 * Checking a record tracked by its key alone (sweep-keys.ts): a signed lookup by the key, the binding of what is
 * found to what was sent, then the record is tracked by its ids and settled as any (sweep-check.ts). Proved absent
 * (the lookup's not-found refusal, at lookups `notFoundGraceMs` apart), it was never made: reported, and forgotten.
 *
 * @module
 */
import type { PayOrder } from '../protocol/schemas/order.js';
import type { Refund } from '../protocol/schemas/refund.js';
import { bindingProblem, checkTracked, forget, isRefusal, settle, settleRefund, type SweepCheckContext } from './sweep-check.js';
import { describeSent, sentDifferences, sentOf, type SentOrder, type SentRefund } from './sweep-keys.js';
import { notificationKinds } from './kinds.js';
import { isRefundKey, trackedRefund } from './sweep-refunds.js';
import type { Tally } from './sweep-report.js';
import type { TrackedOrder } from './tracking.js';

/** Checks one tracked record, whether tracked by its ids or by its key alone. @internal */
export async function checkAny(sweep: SweepCheckContext, tracked: TrackedOrder): Promise<void> {
  const sent = sentOf(tracked);
  if (sent === undefined) return checkTracked(sweep, tracked);
  const refund = sent !== 'unreadable' ? sent.kind === 'refund' : tracked.payOrderId.startsWith('refund-key:');
  sweep.tallies.checking(refund);
  const key = tracked.payOrderId.slice(tracked.payOrderId.indexOf(':') + 1);
  // Not found yet, it has no gateway id to be named by: '' (the report's field says so).
  const pending = refund ? sweep.tallies.refund({ refundOrderId: '', mchRefundNo: key }) : sweep.tallies.order({ payOrderId: '', mchOrderNo: key });
  if (sent === 'unreadable') return pending.count('failed', 'the values sent that the store holds for it are not what processor.track wrote: check that nothing else writes to the store; never acted on');
  try {
    await (sent.kind === 'refund' ? findRefund(sweep, tracked, sent, pending) : findOrder(sweep, tracked, sent, pending));
  } catch (error) {
    pending.count('failed', `the store failed: ${(error as Error)?.message ?? String(error)}`, error);
  }
}

type Pending = Tally<'open' | 'failed' | 'mismatched' | 'neverMade'>;

async function findOrder(sweep: SweepCheckContext, tracked: TrackedOrder, sent: SentOrder, pending: Pending): Promise<void> {
  const { settings, client } = sweep;
  if (settings.onPaid === undefined) return pending.count('failed', 'this processor cannot settle orders (it has no onPaid): sweep with one that has');
  let record: PayOrder;
  try {
    record = await client[notificationKinds.payment.tracking.read]({ mchOrderNo: sent.mchOrderNo }, { signal: sweep.signal });
  } catch (error) {
    if (!isRefusal(error, 'order_not_found')) return pending.count('failed', `the query by mchOrderNo failed, so the order's outcome is still unknown: ${(error as Error)?.message ?? String(error)}`, error);
    return neverMade(sweep, tracked, pending, 'order_not_found', error);
  }
  const mismatch = bindingProblem('order', { mchOrderNo: sent.mchOrderNo }, record, settings) ?? sentMismatch(sent, record, { amount: sent.amount, currency: sent.currency });
  if (mismatch !== undefined) return pending.count('mismatched', mismatch);
  // An id no record tracked by its ids may have: taken on a hostile gateway's word, it would be read as another kind.
  if (isRefundKey(record.payOrderId) || sentOf({ ...tracked, payOrderId: record.payOrderId }) !== undefined) {
    return pending.count('mismatched', `the order found has payOrderId ${JSON.stringify(record.payOrderId)}, shaped as a tracking key: not acted on`);
  }
  const byId: TrackedOrder = { payOrderId: record.payOrderId, mchOrderNo: sent.mchOrderNo, trackedAt: adoptedAt(sweep), expiresAt: tracked.expiresAt };
  if (!(await adopt(sweep, tracked, byId, pending))) return;
  await settle(sweep, byId, record, false);
}

async function findRefund(sweep: SweepCheckContext, tracked: TrackedOrder, sent: SentRefund, pending: Pending): Promise<void> {
  const { settings, client } = sweep;
  const { refunds } = settings;
  const { read } = notificationKinds.refund.tracking;
  if (refunds === undefined || client[read] === undefined) {
    return pending.count('failed', `this processor cannot settle refunds (it needs onRefunded and onRefundFailed, and a client with ${read}): sweep with one that can`);
  }
  let record: Refund;
  try {
    record = await client[read]({ mchRefundNo: sent.mchRefundNo }, { signal: sweep.signal });
  } catch (error) {
    if (!isRefusal(error, 'refund_not_found')) return pending.count('failed', `the refund query by mchRefundNo failed, so the refund's outcome is still unknown: ${(error as Error)?.message ?? String(error)}`, error);
    return neverMade(sweep, tracked, pending, 'refund_not_found', error);
  }
  const payOrderId = sent.orderBy === 'payOrderId' ? sent.orderId : await orderIdOf(sweep, sent.orderId, pending);
  if (payOrderId === undefined) return;
  const mismatch = bindingProblem('refund', { mchRefundNo: sent.mchRefundNo }, record, settings) ?? sentMismatch(sent, record, { refundAmount: sent.refundAmount, currency: sent.currency, payOrderId });
  if (mismatch !== undefined) return pending.count('mismatched', mismatch);
  const ids = { refundOrderId: record.refundOrderId, mchRefundNo: sent.mchRefundNo };
  const byId = trackedRefund(ids, adoptedAt(sweep));
  if (!(await adopt(sweep, tracked, byId, pending))) return;
  await settleRefund(sweep, refunds, byId, ids, record);
}

/**
 * The `payOrderId` of the order a refund was sent by `mchOrderNo` for, from a signed query of that order (the refund's
 * record names its order by `payOrderId` only); `undefined` once counted: a failed query leaves the outcome unknown,
 * an order proved absent means the refund under the key is not of it.
 */
async function orderIdOf(sweep: SweepCheckContext, mchOrderNo: string, pending: Pending): Promise<string | undefined> {
  let order: PayOrder;
  try {
    order = await sweep.client.query({ mchOrderNo }, { signal: sweep.signal });
  } catch (error) {
    if (isRefusal(error, 'order_not_found')) {
      pending.count('mismatched', `a refund exists under this mchRefundNo, but the gateway has no order under mchOrderNo ${JSON.stringify(mchOrderNo)} it was sent for (order_not_found): it is another refund, not acted on`, error);
    } else {
      pending.count('failed', `the query of the refund's order by mchOrderNo failed, so the refund found cannot be matched yet: ${(error as Error)?.message ?? String(error)}`, error);
    }
    return undefined;
  }
  const mismatch = bindingProblem('order', { mchOrderNo }, order, sweep.settings);
  if (mismatch === undefined) return order.payOrderId;
  pending.count('mismatched', `the refund's order: ${mismatch}`);
  return undefined;
}

/** How the record found under the key differs from what was sent, as a mismatch says it. */
function sentMismatch(sent: SentOrder | SentRefund, record: object, compared: Readonly<Record<string, unknown>>): string | undefined {
  const differences = sentDifferences(compared, record as Readonly<Record<string, unknown>>);
  if (differences === undefined) return undefined;
  return `the signed record under this ${sent.kind === 'order' ? 'mchOrderNo' : 'mchRefundNo'} is not the ${sent.kind} sent (${describeSent(sent)}): ${differences}. The key was used before: never acted on`;
}

/** When a record found is tracked by its ids: after this sweep's due time, so that this sweep does not take it again. */
const adoptedAt = (sweep: SweepCheckContext): number => Math.max(sweep.settings.now(), sweep.dueBy + 1);

/**
 * Tracks the record found by its ids, then forgets its key: from here it is tracked and settled as any record (a
 * later lookup that does not find it is `notFound`, never "never made"). `false` once counted, when its ids are
 * tracked with another number.
 */
async function adopt(sweep: SweepCheckContext, tracked: TrackedOrder, byId: TrackedOrder, pending: Pending): Promise<boolean> {
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
async function neverMade(sweep: SweepCheckContext, tracked: TrackedOrder, pending: Pending, reason: string, error: unknown): Promise<void> {
  const now = sweep.settings.now();
  if (tracked.notFoundSince === undefined) await sweep.tracking.notFound(tracked.payOrderId, now);
  const since = tracked.notFoundSince ?? now;
  if (now - since < sweep.notFoundGraceMs) return pending.count('open');
  try {
    await sweep.tracking.forget(tracked.payOrderId);
  } catch (forgetting) {
    return pending.count('failed', `never made (${reason} since ${new Date(since).toISOString()}), but the store could not stop tracking it: the next sweep checks it again`, forgetting);
  }
  const key = sentOf(tracked);
  const name = typeof key === 'object' && key.kind === 'refund' ? 'mchRefundNo' : 'mchOrderNo';
  pending.count('neverMade', `the gateway has had nothing under this ${name} since ${new Date(since).toISOString()} (${reason}): it was never made. No longer tracked: send it again under the same ${name} if it is still wanted`, error);
}
