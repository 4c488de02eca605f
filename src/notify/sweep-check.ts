/**
 * Checking one tracked order or refund: a signed read, the binding to what was tracked, then the notification's
 * own claim for a final one, each outcome counted in the sweep's tallies.
 *
 * @module
 */
import { isoTime } from '../util/iso-time.js';
import { GatewayError } from '../errors/index.js';
import { PayOrderState } from '../protocol/schemas/enums.js';
import type { PayOrder } from '../protocol/schemas/order.js';
import { RefundOrderState, type Refund } from '../protocol/schemas/refund.js';
import { isOpen, readIds } from './kind-tracking.js';
import { notificationKinds } from './kinds.js';
import type { ProcessingContext } from './store.js';
import { refundIdsOf, sweptRefund, type TrackableRefund } from './sweep-refunds.js';
import type { SweepTallies, Tally } from './sweep-report.js';
import type { SweepClient, SweeperSettings, SweptPayOrder, SweptRefusal, TrackableOrder } from './sweep-settings.js';
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

/** How a tracked order is read (the payment row's `tracking`): the read, its ids, the states still open. */
const payments = notificationKinds.payment.tracking;

/** Checks one tracked record, an order or a refund (by its key), and counts it as such; a store failure is counted as `failed`. @internal */
export async function checkTracked(sweep: SweepCheckContext, order: TrackedOrder): Promise<void> {
  const refund = refundIdsOf(order);
  sweep.tallies.checking(refund !== undefined);
  try {
    await (refund === undefined ? checkOrder(sweep, order) : checkRefund(sweep, order, refund));
  } catch (error) {
    const tally = refund === undefined ? sweep.tallies.order(idsOf(order)) : sweep.tallies.refund(refund);
    tally.count('failed', `the store failed: ${(error as Error)?.message ?? String(error)}`, error);
  }
}

async function checkOrder(sweep: SweepCheckContext, order: TrackedOrder): Promise<void> {
  // Tracked by a processor with onPaid (track refuses others), swept by one without: never acted on here.
  if (sweep.settings.onPaid === undefined) {
    return sweep.tallies.order(idsOf(order)).count('failed', 'this processor cannot settle orders (it has no onPaid): sweep with one that has');
  }
  let record: PayOrder;
  try {
    record = await sweep.client[payments.read](idsOf(order), { signal: sweep.signal });
  } catch (error) {
    const tally = sweep.tallies.order(idsOf(order));
    if (!isRefusal(error, 'order_not_found')) return tally.count('failed', `the query failed: ${(error as Error)?.message ?? String(error)}`, error);
    return unknown(sweep, order, tally, 'order_not_found', 'order', error);
  }
  await settle(sweep, order, record, false);
}

/** Acts on a signed read of a tracked order: fulfils a paid one, forgets a final one, closes an expired one when asked. @internal */
export async function settle(sweep: SweepCheckContext, order: TrackedOrder, record: PayOrder, closing: boolean): Promise<void> {
  const { settings } = sweep;
  const tally = sweep.tallies.order(idsOf(order));
  const mismatch = bindingProblem('order', idsOf(order), record, settings);
  if (mismatch !== undefined) return tally.count('mismatched', mismatch);
  if (record.state === PayOrderState.Succeeded) {
    const paid: SweptPayOrder = { ...record, idempotencyKey: `${record.payOrderId}:${PayOrderState.Succeeded}` };
    const { onPaid } = settings;
    return claim(sweep, order, tally, {
      swept: paid, eventTime: record.successTime ?? record.createdAt, ran: 'paid', happened: 'paid', handler: 'onPaid',
      check: () => settings.checkExpectation(paid),
      run: (context) => onPaid?.(paid, context),
    });
  }
  if (isOpen(payments, record.state)) {
    // An order whose validity is unknown is never closed: the payer may still be paying.
    if (!closing && sweep.closeExpired && order.expiresAt !== undefined && settings.now() >= order.expiresAt) return closeOrder(sweep, order);
    return tally.count('open');
  }
  tally.count('closed');
  await forget(sweep, order, tally);
}

async function closeOrder(sweep: SweepCheckContext, order: TrackedOrder): Promise<void> {
  let record: PayOrder;
  try {
    record = await sweep.client.close(idsOf(order), { confirm: true, signal: sweep.signal });
  } catch (error) {
    return sweep.tallies.order(idsOf(order)).count('failed', `expired, but the confirmed close failed: ${(error as Error)?.message ?? String(error)}`, error);
  }
  return settle(sweep, order, record, true);
}

async function checkRefund(sweep: SweepCheckContext, order: TrackedOrder, ids: TrackableRefund): Promise<void> {
  const { settings, client } = sweep;
  const tally = sweep.tallies.refund(ids);
  const { refunds } = settings;
  const { read } = notificationKinds.refund.tracking;
  // Tracked by a processor with refund handlers (track refuses others), swept by one without: never acted on here.
  if (refunds === undefined || client[read] === undefined) {
    return tally.count('failed', `this processor cannot settle refunds (it needs onRefunded and onRefundFailed, and a client with ${read}): sweep with one that can`);
  }
  let record: Refund;
  try {
    record = await client[read](ids, { signal: sweep.signal });
  } catch (error) {
    if (!isRefusal(error, 'refund_not_found')) return tally.count('failed', `the refund query failed: ${(error as Error)?.message ?? String(error)}`, error);
    return unknown(sweep, order, tally, 'refund_not_found', 'refund', error);
  }
  return settleRefund(sweep, refunds, order, ids, record);
}

/** Acts on a signed read of a tracked refund: runs the handler of a final one through its notification's claim, leaves an open one alone. @internal */
export async function settleRefund(sweep: SweepCheckContext, refunds: NonNullable<SweeperSettings['refunds']>, order: TrackedOrder, ids: TrackableRefund, record: Refund): Promise<void> {
  const tally = sweep.tallies.refund(ids);
  const mismatch = bindingProblem('refund', ids, record, sweep.settings);
  if (mismatch !== undefined) return tally.count('mismatched', mismatch);
  if (isOpen(notificationKinds.refund.tracking, record.state)) return tally.count('open');
  const { swept, eventTime } = sweptRefund(record);
  return claim(sweep, order, tally, {
    swept, eventTime, ran: record.state === RefundOrderState.Succeeded ? 'refunded' : 'refundFailed', happened: 'ended', handler: 'the refund handler',
    check: () => refunds.checkExpectation(swept),
    run: (context) => refunds.run(swept, context),
  });
}

/** Runs a final record's handler through its notification's claim, after the processor's expect. */
async function claim<Field extends string>(
  sweep: SweepCheckContext,
  order: TrackedOrder,
  tally: Tally<Field | 'mismatched' | 'failed' | 'tooOld' | 'busy' | 'alreadyDone'>,
  effect: SweptEffect<Field>,
): Promise<void> {
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
    return tally.count('tooOld', `${effect.happened} at ${isoTime(effect.eventTime)}, before ${isoTime(result.horizon)}, the oldest event the store remembers processing: it may have been processed already. Check it by hand; the sweep never ${effect.ran === 'paid' ? 'fulfils' : 'records'} it`);
  }
  if (result.status === 'busy') return tally.count('busy');
  tally.count(result.status === 'ran' ? effect.ran : 'alreadyDone');
  if (result.warning !== undefined) tally.note('warning', result.warning);
  await forget(sweep, order, tally);
}

/** Counts a record the gateway does not know: open within the grace, `notFound` after it. */
async function unknown(sweep: SweepCheckContext, order: TrackedOrder, tally: Tally<'open' | 'notFound'>, reason: string, what: string, error: unknown): Promise<void> {
  const now = sweep.settings.now();
  if (order.notFoundSince === undefined) await sweep.tracking.notFound(order.payOrderId, now);
  const since = order.notFoundSince ?? now;
  if (now - since < sweep.notFoundGraceMs) return tally.count('open');
  const never = what === 'order' ? 'fulfilled' : 'acted on';
  return tally.count('notFound', `the gateway has not known this ${what} since ${new Date(since).toISOString()} (${reason}): it was never ${never}. Check the client's baseUrl and credentials, or the ${what}'s origin`, error);
}

/** Forgets a settled record; a store that cannot is noted, and the next sweep reads the record again. @internal */
export const forget = (sweep: SweepCheckContext, order: TrackedOrder, tally: Tally<string>) =>
  sweep.tracking.forget(order.payOrderId).catch((error: unknown) => tally.note('forget', 'settled, but the store could not forget it: the next sweep checks it again', error));

const idsOf = (order: TrackedOrder): TrackableOrder => readIds(payments, order.payOrderId, order.mchOrderNo);

/** What a sweep acts on must be the tracked order or refund of this merchant application, whatever the client checked. @internal */
export function bindingProblem(what: 'order' | 'refund', ids: object, record: object, settings: SweeperSettings): string | undefined {
  const want: Readonly<Record<string, string>> = { ...ids, mchNo: settings.mchNo, appId: settings.appId };
  const read = record as Readonly<Record<string, unknown>>;
  const differing = Object.keys(want).filter((key) => read[key] !== want[key]);
  if (differing.length === 0) return undefined;
  return `the signed record read is not the tracked ${what} of this merchant application (${differing.map((key) => `${key} ${JSON.stringify(read[key])}, not ${JSON.stringify(want[key])}`).join('; ')}): not acted on`;
}

/** Whether `error` is the gateway's refusal for `reason` (a `GatewayApiError`, a class of the layer above this one). @internal */
export function isRefusal(error: unknown, reason: string): boolean {
  return error instanceof GatewayError && error.name === 'GatewayApiError' && (error as { readonly reason?: unknown }).reason === reason;
}
