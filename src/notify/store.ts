/**
 * What a notification processor needs from a store: run an effect at most once per key, and say so when it
 * has already run or is running elsewhere. Stores know keys, not notifications: the processor verifies first
 * and hands a store only the `idempotencyKey` of a verified notification.
 *
 * @module
 */
import type { OrderTracking } from './tracking.js';

/**
 * What every store gives the effect it runs. Stores add their own members (the Postgres store's `db`).
 *
 * @example
 * ```ts
 * const onPaid = async (notification: PayOrderNotification, { signal }: ProcessingContext) => {
 *   await reserveStock(notification.mchOrderNo);
 *   signal.throwIfAborted(); // the store lost the claim: stop before the step that cannot be undone
 *   await ship(notification.mchOrderNo);
 * };
 * ```
 */
export interface ProcessingContext {
  /**
   * Aborted when the store can no longer promise that this run is the only one: the run held its claim past
   * the store's bound (`claimTimeoutMs` of the memory, Redis and SQLite stores, `idleTimeoutMs` of Postgres),
   * the Redis store's lease was lost, the Postgres store's connection failed. A later delivery may run the
   * effect from then on: stop before any step that cannot be undone.
   */
  readonly signal: AbortSignal;
}

/**
 * What {@link NotificationStore.runOnce} did: `ran` the effect now (and recorded the key done), found the key
 * `done` before, or found it `busy` (claimed by a run that has not finished, here or on another instance).
 *
 * @example
 * ```ts
 * const { status } = await store.runOnce('P202106181104177050002:2', async () => fulfil());
 * if (status === 'busy') console.log('another delivery is processing it; the gateway will retry');
 * ```
 */
export interface RunOnceResult {
  readonly status: 'ran' | 'done' | 'busy';
  /** Set when the effect ran but the store cannot promise it ran alone (e.g. the Redis lease was lost meanwhile). */
  readonly warning?: string | undefined;
}

/**
 * What a store may know of the event it claims a key for. Stores that forget keys use it (the memory store
 * remembers the time of the newest key it forgot).
 *
 * @example
 * ```ts
 * await store.runOnce(notification.idempotencyKey, effect, { eventTime: notification.successTime ?? notification.createdAt });
 * ```
 */
export interface RunOnceEvent {
  /**
   * When the event happened, milliseconds since the epoch, as the gateway signs it in every message of the event
   * alike: a payment's `successTime` (else its order's `createdAt`), a settlement's `reqTime`. Never a payment's
   * `reqTime`: a payer can have the cashier's return redirect signed again, with a new one, at will.
   */
  readonly eventTime?: number | undefined;
}

/**
 * Where a notification processor records which notifications it has processed: `sqliteStore` (one machine),
 * `postgresStore` (exactly once, with your effects in the same transaction), `redisStore` (a lease and a done
 * marker), or {@link memoryStore} (one process: tests and development). A store claims a key without waiting (a
 * key claimed by an unfinished run is `busy` at once); every claim is bounded in time (a run that hangs loses
 * it: its `signal` aborts). **Your own store** implements `runOnce`, and `horizon` if it forgets done keys, so
 * that the processor refuses events older than what it remembers instead of running them twice.
 *
 * @example
 * ```ts
 * import { postgresStore } from 'payment-gateway-sdk/stores/postgres';
 * import { sqliteStore } from 'payment-gateway-sdk/stores/sqlite';
 *
 * // A durable store either way: a missing DATABASE_URL must not quietly become a store that forgets on restart.
 * const store = process.env.DATABASE_URL ? postgresStore({ pool }) : sqliteStore({ path: '/var/lib/shop/notifications.sqlite' });
 * ```
 */
export interface NotificationStore<Context extends ProcessingContext = ProcessingContext> {
  /**
   * Claims `key`; if it was neither done nor claimed, runs `effect`, then records the key done (or, when
   * `effect` throws, releases the claim and rethrows, so that a later delivery runs it again).
   */
  runOnce(key: string, effect: (context: Context) => Promise<void>, event?: RunOnceEvent): Promise<RunOnceResult>;
  /**
   * The oldest event time (milliseconds since the epoch, compared with {@link RunOnceEvent.eventTime}) the
   * store can still vouch for: a done key of an older event may have been forgotten. The processor refuses
   * such an event (outcome `stale`) instead of running its effect. Absent, or `undefined`, for a store that
   * never forgets (Postgres, SQLite).
   */
  horizon?(): number | undefined;
  /**
   * Where `processor.track` records orders for `processor.sweep` (an `OrderTracking`: `NotificationStore['tracking']`). Every SDK store
   * has it; a store without it processes notifications, but `track` and `sweep` refuse it.
   */
  readonly tracking?: OrderTracking | undefined;
}

/** The types of a store's `runOnce`: `NotificationStore.RunOnceEvent`, `NotificationStore.RunOnceResult`. */
export declare namespace NotificationStore {
  export { type RunOnceEvent as RunOnceEvent, type RunOnceResult as RunOnceResult };
}
