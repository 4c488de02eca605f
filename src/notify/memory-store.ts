import * as z from 'zod/mini';
import { safeInteger, timerDelayMs } from '../protocol/schemas/fields.js';
import { lazySchema } from '../protocol/schemas/lazy.js';
import { parseInput } from '../protocol/schemas/parse.js';
import { claimLostWarning, claimTimedOut, DEFAULT_CLAIM_TIMEOUT_MS } from './claim.js';
import type { NotificationStore, ProcessingContext, RunOnceEvent, RunOnceResult } from './store.js';
import { memoryTracking } from './tracking.js';

/**
 * Options of {@link memoryStore}.
 *
 * @example
 * ```ts
 * const store = memoryStore({ maxKeys: 10_000, claimTimeoutMs: 30_000 });
 * ```
 */
export interface MemoryStoreOptions {
  /**
   * The most keys remembered as done; past it the oldest are forgotten, and the store's horizon rises to the
   * newest forgotten event's time (a payment's `successTime`): a re-delivery of a forgotten event is refused (outcome `stale`), never
   * run again. Default `100000`. Only verified notifications ever add a key. It also bounds the orders
   * `processor.track` holds: past it, `track` refuses rather than forget one.
   */
  maxKeys?: number | undefined;
  /**
   * The oldest event time (a payment's `successTime`, milliseconds since the epoch) the store vouches for; older events are
   * refused (outcome `stale`). Default: when the store was created, less `clockSkewMs`, since it knows nothing from
   * before (a payer replaying an old paid message after a restart is refused). `0` only in tests that replay recorded
   * notifications: with it, a restart lets every old event run its effect again.
   */
  since?: number | undefined;
  /**
   * How far behind this machine's clock the gateway's may be, in milliseconds: the default `since` is the store's
   * creation less this, because it is compared with the gateway's `successTime`. It keeps a payment made just after
   * a restart (by a gateway whose clock is behind), or in a test whose mock gateway was created just before the
   * store, from being refused as `stale`; the price is that a replay of an event processed this long before a
   * restart runs again. Default `300000` (5 minutes). Ignored when `since` is given.
   */
  clockSkewMs?: number | undefined;
  /**
   * How long one run of the effect may hold its claim, in milliseconds. Past it the claim is released and
   * the run's `signal` aborted: a later delivery may run the effect (at least once, not at most once, for an
   * effect that hangs and then finishes). Default `60000` (the gateway stops waiting for an answer after 20 s).
   */
  claimTimeoutMs?: number | undefined;
}

// Built on first use (protocol/schemas/lazy.ts), not at import.
const optionsSchema = lazySchema(() =>
  z.strictObject({ maxKeys: z.optional(safeInteger(1)), since: z.optional(safeInteger(0)), clockSkewMs: z.optional(safeInteger(0)), claimTimeoutMs: z.optional(timerDelayMs(1)) }),
);

/** The default {@link MemoryStoreOptions.maxKeys}. */
const DEFAULT_MAX_KEYS = 100_000;

/** The default {@link MemoryStoreOptions.clockSkewMs}: a gateway clock up to 5 minutes behind loses no payment. */
const DEFAULT_CLOCK_SKEW_MS = 300_000;

type Entry = { readonly kind: 'running'; readonly lost: AbortController } | { readonly kind: 'done'; readonly eventTime: number | undefined };

/**
 * A store in this process's memory, and **only this process's**: for tests and development. Within one
 * process it is exact (a key is claimed before the first `await`; a failed effect releases it; an effect past
 * `claimTimeoutMs` loses its claim). **Not for production**: two instances each run `onPaid` for the same
 * notification, and after a restart it refuses (`stale`) events older than its creation, less `clockSkewMs`
 * (5 minutes), so they must be fulfilled by querying the order. Use `sqliteStore` on one machine,
 * `postgresStore` or `redisStore` for a fleet (the guide "Notifications in production").
 *
 * @example
 * ```ts
 * import { createNotificationProcessor, memoryStore } from 'payment-gateway-sdk';
 *
 * // One process, forgets on restart: fine for a test, wrong in production.
 * const processor = createNotificationProcessor({ ...credentials, store: memoryStore(), onPaid });
 * ```
 */
export function memoryStore(options: MemoryStoreOptions = {}): NotificationStore {
  const checked = parseInput(optionsSchema(), options ?? {}, 'Invalid memoryStore options', 'options');
  const { maxKeys = DEFAULT_MAX_KEYS, claimTimeoutMs = DEFAULT_CLAIM_TIMEOUT_MS, clockSkewMs = DEFAULT_CLOCK_SKEW_MS } = checked;
  // Compared with the gateway's clock: a gateway behind this machine's must not make a fresh payment stale.
  let horizon = checked.since ?? Date.now() - clockSkewMs;
  // Insertion order is the order to forget done keys in; a running key is never forgotten.
  const keys = new Map<string, Entry>();
  const forgetOldest = () => {
    for (const [key, entry] of keys) {
      if (keys.size <= maxKeys) return;
      if (entry.kind !== 'done') continue;
      keys.delete(key);
      // Events up to the forgotten one's time can no longer be vouched for (without its time: up to now).
      horizon = Math.max(horizon, entry.eventTime === undefined ? Date.now() : entry.eventTime + 1);
    }
  };
  return {
    // Tracked orders are bounded by maxKeys too: past it, track refuses rather than forget an order.
    tracking: memoryTracking(maxKeys),
    horizon: () => horizon,
    async runOnce(key: string, effect: (context: ProcessingContext) => Promise<void>, event: RunOnceEvent = {}): Promise<RunOnceResult> {
      const found = keys.get(key);
      if (found !== undefined) return { status: found.kind === 'done' ? 'done' : 'busy' };
      const claim: Entry = { kind: 'running', lost: new AbortController() };
      keys.set(key, claim);
      const timer = setTimeout(() => {
        if (keys.get(key) === claim) keys.delete(key);
        claim.lost.abort(claimTimedOut(claimTimeoutMs));
      }, claimTimeoutMs);
      try {
        await effect({ signal: claim.lost.signal });
      } catch (error) {
        if (keys.get(key) === claim) keys.delete(key);
        throw error;
      } finally {
        clearTimeout(timer);
      }
      const current = keys.get(key);
      // The effect happened: record it unless another run holds or finished the key meanwhile.
      if (current === claim || current === undefined) {
        keys.delete(key);
        keys.set(key, { kind: 'done', eventTime: event.eventTime });
        forgetOldest();
      }
      const warning = claim.lost.signal.aborted ? claimLostWarning(current === claim || current === undefined ? 'free' : current.kind) : undefined;
      return { status: 'ran', warning };
    },
  };
}
