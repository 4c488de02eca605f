/**
 * payment-gateway-sdk/stores/sqlite: a notification store in a SQLite file on this machine, on Node's built-in
 * `node:sqlite` (Node 22.13 or later; nothing to install). Durable: a processed event is never forgotten, across
 * restarts and deploys, and any number of processes on the machine can share the file. For several machines,
 * use `payment-gateway-sdk/stores/postgres` or `payment-gateway-sdk/stores/redis`.
 *
 * @example
 * ```ts
 * import { createNotificationProcessor } from 'payment-gateway-sdk';
 * import { sqliteStore } from 'payment-gateway-sdk/stores/sqlite';
 *
 * const processor = createNotificationProcessor({
 *   ...credentials,
 *   store: sqliteStore({ path: '/var/lib/shop/payment-notifications.sqlite' }),
 *   onPaid: async (notification, { signal }) => fulfil(notification, signal),
 * });
 * ```
 *
 * @packageDocumentation
 * @module payment-gateway-sdk/stores/sqlite
 */
import { DatabaseSync } from 'node:sqlite';
import * as z from 'zod/mini';
import { GatewayError } from '../errors/index.js';
import { claimLostWarning, claimTimedOut, DEFAULT_CLAIM_TIMEOUT_MS } from '../notify/claim.js';
import type { NotificationStore, ProcessingContext, RunOnceResult } from '../notify/store.js';
import { timerDelayMs } from '../protocol/schemas/fields.js';
import { parseInput } from '../protocol/schemas/parse.js';
import { sqliteTracking, trackingMigration } from './sqlite-tracking.js';

/**
 * Options of {@link sqliteStore}.
 *
 * @example
 * ```ts
 * const options: SqliteStoreOptions = { path: './data/notifications.sqlite', claimTimeoutMs: 30_000 };
 * ```
 */
export interface SqliteStoreOptions {
  /**
   * The database file, created when absent (its folder must exist). Every process that shares it must reach
   * the same file on a local disk: SQLite's locks do not hold on network file systems. `:memory:` is refused,
   * since it forgets on a restart.
   */
  path: string;
  /**
   * The table of processed notifications: lowercase letters, digits and `_`. Default `payment_gateway_notifications`.
   * Orders `processor.track` records go in `<table>_tracked`.
   */
  table?: string | undefined;
  /**
   * How long one run of `onPaid` may hold its claim, in milliseconds. Past it `context.signal` aborts and a
   * later delivery may run `onPaid` (at least once, not at most once, for an `onPaid` that hangs and then
   * finishes); it also frees the claim of a process that died mid-`onPaid`. Default `60000`.
   */
  claimTimeoutMs?: number | undefined;
  /** How long a statement waits for another process's write lock, in milliseconds. Default `5000`. */
  busyTimeoutMs?: number | undefined;
}

/**
 * A notification store in a SQLite file; see {@link sqliteStore}.
 *
 * @example
 * ```ts
 * const store: SqliteStore = sqliteStore({ path: './notifications.sqlite' });
 * console.log(store.table); // 'payment_gateway_notifications'
 * process.on('SIGTERM', () => store.close());
 * ```
 */
export interface SqliteStore extends NotificationStore<ProcessingContext> {
  /** The table's name, as configured. */
  readonly table: string;
  /**
   * Creates the tables when they do not exist: the processed notifications, and `<table>_tracked`, one row per
   * order `processor.track` recorded and no sweep found final yet. The store already did when it opened the
   * file; this is here so that start-up code written for `postgresStore` runs unchanged. Safe from several
   * processes at once.
   */
  migrate(): Promise<void>;
  /** Closes the database file. A store used after `close()` throws. */
  close(): void;
}

const TABLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

const optionsSchema = z.strictObject({
  path: z.string({ error: 'must be a file path' }).check(
    z.refine((path) => path !== '' && path !== ':memory:' && !path.startsWith('file:'), {
      error: 'must be a file path: an in-memory database (:memory:, "") forgets every processed event on a restart, and file: URIs are not supported',
    }),
  ),
  table: z.optional(z.string({ error: 'must be a string' }).check(z.regex(TABLE_NAME, { error: 'must be lowercase letters, digits and _ (at most 63)' }))),
  claimTimeoutMs: z.optional(timerDelayMs(1)),
  busyTimeoutMs: z.optional(timerDelayMs(0)),
});

/** The default {@link SqliteStoreOptions.table}. */
const DEFAULT_TABLE = 'payment_gateway_notifications';
/** The default {@link SqliteStoreOptions.busyTimeoutMs}. */
const DEFAULT_BUSY_TIMEOUT_MS = 5_000;

/**
 * A notification store in a SQLite file on this machine (Node's built-in `node:sqlite`): durable, for one
 * machine and any number of processes on it.
 *
 * **What it guarantees.** A processed event is recorded (WAL, `synchronous = FULL`) and never forgotten, so no
 * re-delivery, replay, restart or deploy runs `onPaid` twice for it; a claim is one upsert under SQLite's write
 * lock, held at most `claimTimeoutMs` (then `context.signal` aborts). Sweeps on several processes share tracked
 * orders without handing one to two sweeps.
 *
 * **What it does not.** Your effects are not in a transaction with the store (make `onPaid` idempotent), and
 * several machines cannot share the file (use `postgresStore` or `redisStore`). It holds one connection:
 * {@link SqliteStore.close} it when your process stops. Requires Node 22.13 or later (`node:sqlite`).
 *
 * @throws `GatewayValidationError` for invalid options; `GatewayError` when the file cannot be opened
 *
 * @example
 * ```ts
 * import { sqliteStore } from 'payment-gateway-sdk/stores/sqlite';
 *
 * const store = sqliteStore({ path: '/var/lib/shop/payment-notifications.sqlite' });
 * ```
 */
export function sqliteStore(options: SqliteStoreOptions): SqliteStore {
  const checked = parseInput(optionsSchema, options ?? {}, 'Invalid sqliteStore options', 'options');
  const { path, table = DEFAULT_TABLE, claimTimeoutMs = DEFAULT_CLAIM_TIMEOUT_MS, busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS } = checked;
  const name = `"${table}"`;
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path);
    // Each pragma before the first write: wait for other processes' locks, survive a power cut, let reads run beside writes.
    db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}; PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;`);
  } catch (error) {
    throw new GatewayError(`sqliteStore could not open ${JSON.stringify(path)} (${(error as Error).message}): check that its folder exists and is writable.`, { cause: error });
  }
  const migrate = () =>
    db.exec(`CREATE TABLE IF NOT EXISTS ${name} (
      idempotency_key TEXT PRIMARY KEY,
      received_at INTEGER NOT NULL,
      processed_at INTEGER,
      claim_token TEXT,
      claimed_until INTEGER
    ) STRICT;
    ${trackingMigration(table)}`);
  migrate();
  const sql = {
    // One statement: a new key, or a key neither done nor validly claimed, gets this claim; RETURNING says which.
    claim: db.prepare(`INSERT INTO ${name} (idempotency_key, received_at, claim_token, claimed_until) VALUES ($key, $now, $token, $until)
      ON CONFLICT (idempotency_key) DO UPDATE SET claim_token = excluded.claim_token, claimed_until = excluded.claimed_until
        WHERE processed_at IS NULL AND (claim_token IS NULL OR claimed_until <= $now)
      RETURNING claim_token AS token`),
    state: db.prepare(`SELECT processed_at IS NOT NULL AS done FROM ${name} WHERE idempotency_key = $key`),
    // The effect happened: recorded unless another delivery holds a live claim now or finished meanwhile.
    markDone: db.prepare(`UPDATE ${name} SET processed_at = $now, claim_token = NULL, claimed_until = NULL
      WHERE idempotency_key = $key AND processed_at IS NULL AND (claim_token = $token OR claim_token IS NULL OR claimed_until <= $now)`),
    release: db.prepare(`UPDATE ${name} SET claim_token = NULL, claimed_until = NULL WHERE idempotency_key = $key AND claim_token = $token`),
  };

  async function runOnce(key: string, effect: (context: ProcessingContext) => Promise<void>): Promise<RunOnceResult> {
    const token = globalThis.crypto.randomUUID();
    const now = Date.now();
    const until = now + claimTimeoutMs;
    const claimed = sql.claim.get({ key, now, token, until }) as { token: string } | undefined;
    if (claimed?.token !== token) {
      const row = sql.state.get({ key }) as { done: number } | undefined;
      return { status: row?.done === 1 ? 'done' : 'busy' };
    }
    const lost = new AbortController();
    // The row's claim lapses at claimed_until whatever this process does; the signal says so when it does,
    // counted from `now`, not from the claim's return: the claim may have waited busyTimeoutMs for a lock.
    const lapse = () => lost.abort(claimTimedOut(claimTimeoutMs));
    const timeout = setTimeout(lapse, Math.max(0, until - Date.now()));
    if (Date.now() >= until) lapse(); // lapsed already: the effect starts with its signal aborted
    try {
      await effect({ signal: lost.signal });
    } catch (error) {
      // If the file is locked past busyTimeoutMs now, the claim lapses by itself; the caller needs onPaid's error.
      try {
        sql.release.run({ key, token });
      } catch {}
      throw error;
    } finally {
      clearTimeout(timeout);
    }
    const marked = sql.markDone.run({ key, token, now: Date.now() }).changes === 1;
    if (marked && !lost.signal.aborted) return { status: 'ran' };
    const done = marked || (sql.state.get({ key }) as { done: number } | undefined)?.done === 1;
    return { status: 'ran', warning: claimLostWarning(marked ? 'free' : done ? 'done' : 'running') };
  }

  return {
    table,
    runOnce,
    tracking: sqliteTracking(db, table),
    async migrate() {
      migrate();
    },
    close() {
      db.close();
    },
  };
}
