/**
 * payment-gateway-sdk/stores/redis: a notification store in Redis, on `ioredis`: a lease with a random token
 * and an expiry while `onPaid` runs, then a done marker. No two deliveries of a notification run `onPaid` at
 * the same time while the lease holds; a crash mid-`onPaid` lets a later delivery run it again once the lease
 * expires. Your effects are **not** transactional with Redis: prefer `payment-gateway-sdk/stores/postgres`
 * when they are writes to your PostgreSQL database.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { createNotificationProcessor } from 'payment-gateway-sdk';
 * import { redisStore } from 'payment-gateway-sdk/stores/redis';
 *
 * const processor = createNotificationProcessor({
 *   ...credentials,
 *   store: redisStore({ client: new Redis(process.env.REDIS_URL!) }),
 *   onPaid: async (notification, { signal }) => fulfil(notification, signal),
 * });
 * ```
 *
 * @packageDocumentation
 * @module payment-gateway-sdk/stores/redis
 */
import type { Cluster, Redis } from 'ioredis';
import * as z from 'zod/mini';
import { GatewayError } from '../errors/index.js';
import { safeInteger, timerDelayMs } from '../protocol/schemas/fields.js';
import { parseInput } from '../protocol/schemas/parse.js';
import { claimLostWarning, claimTimedOut, DEFAULT_CLAIM_TIMEOUT_MS } from '../notify/claim.js';
import type { NotificationStore, ProcessingContext, RunOnceEvent, RunOnceResult } from '../notify/store.js';
import { redisTracking } from './redis-tracking.js';

/**
 * Options of {@link redisStore}.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import type { RedisStoreOptions } from 'payment-gateway-sdk/stores/redis';
 *
 * const options: RedisStoreOptions = { client: new Redis(process.env.REDIS_URL!), leaseMs: 60_000, prefix: 'shop:notify:' };
 * ```
 */
export interface RedisStoreOptions {
  /** An `ioredis` client: a `Redis` or a `Cluster` (each key is one slot). */
  client: Redis | Cluster;
  /**
   * Prepended to every idempotency key, and to the keys of the orders `processor.track` records
   * (`<prefix>{tracked}:due`, `:orders`, `:not-found`). Default `payment-gateway-sdk:notification:`.
   */
  prefix?: string | undefined;
  /**
   * How long a claim holds without news from its holder, in milliseconds. The holder extends it every third
   * of this while `onPaid` runs, so it expires only when the holder dies, stalls or loses Redis for this long:
   * that is how long a crashed delivery blocks the next. Default `30000`.
   */
  leaseMs?: number | undefined;
  /**
   * How long one run of `onPaid` may hold the claim, in milliseconds, however alive its process is. Past it
   * the holder stops extending the lease, deletes it and aborts `context.signal`: a later delivery may run
   * `onPaid` (at least once, not at most once, for an `onPaid` that hangs and then finishes). Default `60000`.
   */
  claimTimeoutMs?: number | undefined;
  /**
   * How long a processed event is remembered, in milliseconds. The store's horizon is `now - doneTtlMs`: a
   * delivery of an event that happened before (a payment's `successTime`) is refused (outcome `stale`, `onPaid` not run), since its
   * done marker may be gone. Keep it longer than any re-send you expect (an operator can re-send at any time).
   * A sweep never fulfils a payment older than this (it reports it as `tooOld`). Default 30 days. The marker itself is kept a day longer, for clock differences with the gateway, and
   * `doneTtlMs` past the event's time when that is later (a gateway clock running ahead).
   */
  doneTtlMs?: number | undefined;
}

/**
 * A notification store in Redis; see {@link redisStore}.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { redisStore, type RedisStore } from 'payment-gateway-sdk/stores/redis';
 *
 * const store: RedisStore = redisStore({ client: new Redis(process.env.REDIS_URL!) });
 * ```
 */
export type RedisStore = NotificationStore<ProcessingContext> & {
  /** `Date.now() - doneTtlMs`: events signed before it may have been forgotten, and are refused. */
  horizon(): number;
};

const optionsSchema = z.strictObject({
  client: z.custom<Redis | Cluster>((v) => typeof (v as { eval?: unknown } | null)?.eval === 'function', { error: 'must be an ioredis client (Redis or Cluster)' }),
  prefix: z.optional(z.string({ error: 'must be a string' })),
  leaseMs: z.optional(timerDelayMs(10)),
  claimTimeoutMs: z.optional(timerDelayMs(1)),
  doneTtlMs: z.optional(safeInteger(1)),
});

const DEFAULTS = { prefix: 'payment-gateway-sdk:notification:', leaseMs: 30_000, claimTimeoutMs: DEFAULT_CLAIM_TIMEOUT_MS, doneTtlMs: 30 * 24 * 3_600_000 } as const;

/**
 * How much longer than `doneTtlMs` a done marker is kept. The horizon compares the gateway's event time with
 * this machine's clock, the marker's expiry runs on Redis's: the margin covers the gateway's clock running
 * this much ahead, and the moment between the horizon check and the claim.
 */
const DONE_MARGIN_MS = 24 * 3_600_000;

const DONE = 'done';

// Each script reads and writes one key atomically: compare-and-set, compare-and-expire, compare-and-delete.
// A lease's value is `lease:<random token>`, so it can never equal the done marker or another holder's lease.
const CLAIM = `local current = redis.call('GET', KEYS[1])
if not current then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 'claimed' end
if current == '${DONE}' then return 'done' end
return 'busy'`;

const EXTEND = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

const FINISH = `local current = redis.call('GET', KEYS[1])
if current == ARGV[1] or not current then
  redis.call('SET', KEYS[1], '${DONE}', 'PX', ARGV[2])
  if current then return 'held' end
  return 'expired'
end
if current == '${DONE}' then return 'done-elsewhere' end
return 'claimed-elsewhere'`;

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** What FINISH found, for a run that gave its lease up at `claimTimeoutMs`. */
const FOUND_AFTER_TIMEOUT: Readonly<Record<string, 'free' | 'running' | 'done'>> = { expired: 'free', 'done-elsewhere': 'done', 'claimed-elsewhere': 'running' };

/** What a finished run that did not hold its lease to the end reports. */
const LEASE_WARNINGS: Readonly<Record<string, string>> = {
  expired: 'the lease expired while onPaid ran (it ran longer than leaseMs without an extension reaching Redis); no other delivery had claimed it meanwhile',
  'done-elsewhere': 'the lease was lost while onPaid ran and another delivery ran onPaid and finished meanwhile: the effect ran twice',
  'claimed-elsewhere': 'the lease was lost while onPaid ran and another delivery holds it now: the effect may run twice',
};

/**
 * A notification store in Redis (through `ioredis`): a lease while `onPaid` runs, then a done marker.
 *
 * **What it guarantees.** While a delivery's lease holds (extended every `leaseMs / 3`, done and release by
 * compare-and-set on its token), no other delivery runs `onPaid` for that event, on any instance; a finished
 * event answers `SUCCESS` without running it.
 *
 * **What it does not.** Your effects are not in a transaction with Redis: a crash before the done marker, or a
 * holder that stalls past `leaseMs` or `claimTimeoutMs` (`context.signal` aborts), can run `onPaid` twice (make it
 * idempotent, or use the Postgres store). Redis must keep its keys (`noeviction`, no failover that loses writes).
 * A done marker is kept `doneTtlMs`: older events are refused as `stale`. The guide "Notifications in
 * production" (`redisStore`) gives each step.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { redisStore } from 'payment-gateway-sdk/stores/redis';
 *
 * const store = redisStore({ client: new Redis(process.env.REDIS_URL!), leaseMs: 60_000 });
 * ```
 */
export function redisStore(options: RedisStoreOptions): RedisStore {
  const checked = parseInput(optionsSchema, options ?? {}, 'Invalid redisStore options', 'options');
  const { client, prefix = DEFAULTS.prefix, leaseMs = DEFAULTS.leaseMs, claimTimeoutMs = DEFAULTS.claimTimeoutMs, doneTtlMs = DEFAULTS.doneTtlMs } = checked;
  const run = (script: string, key: string, ...args: (string | number)[]) => client.eval(script, 1, key, ...args) as Promise<unknown>;

  return {
    horizon: () => Date.now() - doneTtlMs,
    // A sweep never fulfils a payment older than doneTtlMs: its done marker may be gone.
    tracking: redisTracking(client, prefix),
    async runOnce(idempotencyKey: string, effect: (context: ProcessingContext) => Promise<void>, event: RunOnceEvent = {}): Promise<RunOnceResult> {
      const key = prefix + idempotencyKey;
      const lease = `lease:${globalThis.crypto.randomUUID()}`;
      const claimSentAt = performance.now();
      const claim = await run(CLAIM, key, lease, leaseMs);
      if (claim !== 'claimed') return { status: claim === 'done' ? 'done' : 'busy' };
      const holder = holdLease(() => run(EXTEND, key, lease, leaseMs).then((extended) => extended === 1), leaseMs, claimSentAt);
      // The claim's bound: past it the lease is given up (deleted, so that the next delivery need not wait it out).
      let timedOut = false;
      const timeout = setTimeout(() => {
        timedOut = true;
        holder.stop(claimTimedOut(claimTimeoutMs));
        run(RELEASE, key, lease).catch(() => undefined);
      }, claimTimeoutMs);
      try {
        await effect({ signal: holder.signal });
      } catch (error) {
        holder.stop();
        // If Redis cannot be reached now, the lease expires by itself; the caller needs onPaid's error.
        await run(RELEASE, key, lease).catch(() => undefined);
        throw error;
      } finally {
        clearTimeout(timeout);
      }
      holder.stop();
      // onPaid's effect happened: answer SUCCESS even if the marker cannot be written, rather than invite a retry.
      // Kept while the horizon still accepts the event: doneTtlMs past its time, if the gateway's clock runs ahead.
      const keepMs = Math.max(0, (event.eventTime ?? 0) - Date.now()) + doneTtlMs + DONE_MARGIN_MS;
      const finished = await run(FINISH, key, lease, keepMs).then(String, (error: unknown) => error);
      const warning =
        typeof finished !== 'string'
          ? `onPaid ran but the done marker could not be written (${String(finished)}): a later delivery will run onPaid again`
          : timedOut
            ? claimLostWarning(FOUND_AFTER_TIMEOUT[finished] ?? 'running')
            : LEASE_WARNINGS[finished];
      return { status: 'ran', warning };
    },
  };
}

/**
 * Extends a lease every third of `leaseMs` until stopped. Its signal is aborted when an extension finds the
 * lease gone, or when `leaseMs` has passed since the claim or the last successful extension was sent (the
 * lease may have expired then, whatever happened to the answers).
 */
function holdLease(extend: () => Promise<boolean>, leaseMs: number, claimSentAt: number): { signal: AbortSignal; stop(reason?: GatewayError): void } {
  const lost = new AbortController();
  const abort = (why: string) => lost.abort(new GatewayError(`The Redis lease of this notification ${why}: another delivery may run onPaid now. Stop before any step that cannot be undone.`));
  const expireAt = (sentAt: number) => setTimeout(() => abort(`may have expired (no extension reached Redis for ${leaseMs} ms)`), Math.max(0, sentAt + leaseMs - performance.now()));
  let expiry = expireAt(claimSentAt);
  let inFlight = false;
  let stopped = false;
  const renew = setInterval(() => {
    if (inFlight || lost.signal.aborted) return;
    inFlight = true;
    const sentAt = performance.now();
    extend().then(
      (extended) => {
        inFlight = false;
        if (stopped || lost.signal.aborted) return;
        if (!extended) return abort('was lost');
        clearTimeout(expiry);
        expiry = expireAt(sentAt);
      },
      () => {
        inFlight = false; // Redis unreachable for now: the expiry timer decides
      },
    );
  }, Math.max(1, Math.floor(leaseMs / 3)));
  return {
    signal: lost.signal,
    /** Stops extending; with a reason, also aborts the signal (the holder gave the lease up). */
    stop(reason?: GatewayError) {
      stopped = true;
      clearInterval(renew);
      clearTimeout(expiry);
      if (reason !== undefined && !lost.signal.aborted) lost.abort(reason);
    },
  };
}
