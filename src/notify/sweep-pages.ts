/**
 * Taking a sweep's due records out of the store a page at a time, as its workers need them.
 *
 * @module
 */
import type { OrderTracking, TrackedOrder } from './tracking.js';

/** Which tracked records a sweep takes, and how. @internal */
export interface SweepPaging {
  /** Records tracked, or last checked, at or before this time are due. */
  readonly dueBy: number;
  /** The most records the sweep takes. */
  readonly limit: number;
  /** How many workers take records at once: a page holds enough for each twice over. */
  readonly concurrency: number;
  readonly now: () => number;
  /** Once aborted, no record is handed out. */
  readonly signal: AbortSignal | undefined;
}

/**
 * The next due record for a worker, or `undefined` when none is left. Records are taken from the store a page at a
 * time, as the workers need them, so each is marked checked shortly before it is: another process's sweep skips it
 * meanwhile. When the store fails, the workers waiting for that page get its error and every worker stops taking records. @internal
 */
export function trackedPages(tracking: OrderTracking, { dueBy, limit, concurrency, now, signal }: SweepPaging): () => Promise<TrackedOrder | undefined> {
  let left = limit;
  const buffer: TrackedOrder[] = [];
  let refill: Promise<void> | undefined;
  let exhausted = false;
  return async () => {
    while (buffer.length === 0 && !exhausted && !signal?.aborted) {
      refill ??= (async () => {
        const size = Math.min(left, Math.max(concurrency * 2, 16));
        // Marked checked after dueBy, so that this sweep never takes an order twice, even within one millisecond.
        const page = await tracking.checkOut(dueBy, Math.max(now(), dueBy + 1), size).catch((error: unknown) => {
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
}
