import * as z from 'zod/mini';
import { safeInteger } from '../protocol/schemas/fields.js';
import { parseInput } from '../protocol/schemas/parse.js';
import type { NotificationStore, ProcessingContext, RunOnceResult } from './store.js';
import { memoryTracking } from './tracking.js';

/**
 * Options of {@link memoryStore}.
 *
 * @example
 * ```ts
 * const store = memoryStore({ maxKeys: 10_000 });
 * ```
 */
export interface MemoryStoreOptions {
  /**
   * The most keys remembered as done; past it the oldest are forgotten (a re-delivery of a forgotten key runs
   * its effect again). Default `100000`. Only verified notifications ever add a key. It also bounds the orders
   * `processor.track` holds: past it, `track` refuses rather than forget one.
   */
  maxKeys?: number | undefined;
}

const optionsSchema = z.strictObject({ maxKeys: z.optional(safeInteger(1)) });

/** The default {@link MemoryStoreOptions.maxKeys}. */
const DEFAULT_MAX_KEYS = 100_000;

/** The signal of a memory-store run: nothing can take the claim away, so it is never aborted. */
const NEVER_ABORTED = new AbortController().signal;

/**
 * A store in this process's memory, and **only this process's**: the default of `createNotificationProcessor`,
 * for development, tests and a merchant who runs exactly one instance.
 *
 * **Not for a fleet.** Two instances behind a load balancer each have their own memory, so the same
 * notification delivered to both runs `onPaid` twice, and a restart forgets everything. With more than one
 * process (or any restart you cannot afford to repeat an effect after), use `postgresStore` from
 * `payment-gateway-sdk/stores/postgres`, whose claim commits in the transaction of your own writes.
 *
 * Within one process it is exact: a key is claimed before the first `await`, so concurrent deliveries never run
 * the effect twice; a failed effect releases the key.
 *
 * @example
 * ```ts
 * import { createNotificationProcessor, memoryStore } from 'payment-gateway-sdk';
 *
 * // One process only: fine for a single instance or a test, wrong behind a load balancer.
 * const processor = createNotificationProcessor({ ...credentials, store: memoryStore(), onPaid });
 * ```
 */
export function memoryStore(options: MemoryStoreOptions = {}): NotificationStore {
  const maxKeys = parseInput(optionsSchema, options ?? {}, 'Invalid memoryStore options', 'options').maxKeys ?? DEFAULT_MAX_KEYS;
  // Insertion order is the order to forget done keys in; a running key is never forgotten.
  const keys = new Map<string, 'running' | 'done'>();
  const forgetOldest = () => {
    for (const [key, state] of keys) {
      if (keys.size <= maxKeys) return;
      if (state === 'done') keys.delete(key);
    }
  };
  return {
    // Tracked orders are bounded by maxKeys too: past it, track refuses rather than forget an order.
    tracking: memoryTracking(maxKeys),
    async runOnce(key: string, effect: (context: ProcessingContext) => Promise<void>): Promise<RunOnceResult> {
      const state = keys.get(key);
      if (state !== undefined) return { status: state === 'done' ? 'done' : 'busy' };
      keys.set(key, 'running');
      try {
        await effect({ signal: NEVER_ABORTED });
      } catch (error) {
        keys.delete(key);
        throw error;
      }
      keys.delete(key);
      keys.set(key, 'done');
      forgetOldest();
      return { status: 'ran' };
    },
  };
}
