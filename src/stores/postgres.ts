/**
 * payment-gateway-sdk/stores/postgres: a notification store in your own PostgreSQL database, on `pg`
 * (node-postgres). The claim, everything `onPaid` writes through `context.db` and the done mark commit in
 * **one transaction**, so your effect happens exactly once, across any number of instances and crashes.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * import { createNotificationProcessor } from 'payment-gateway-sdk';
 * import { postgresStore } from 'payment-gateway-sdk/stores/postgres';
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const store = postgresStore({ pool });
 * await store.migrate(); // once, at start-up or in your migrations
 * const processor = createNotificationProcessor({
 *   ...credentials,
 *   store,
 *   onPaid: async (notification, { db }) => {
 *     await db.query("UPDATE orders SET status = 'paid' WHERE number = $1", [notification.mchOrderNo]);
 *   },
 * });
 * ```
 *
 * @packageDocumentation
 * @module payment-gateway-sdk/stores/postgres
 */
import type { Pool, PoolClient } from 'pg';
import * as z from 'zod/mini';
import { GatewayError, GatewayValidationError } from '../errors/index.js';
import type { NotificationStore, ProcessingContext, RunOnceResult } from '../notify/store.js';
import { timerDelayMs } from '../protocol/schemas/fields.js';
import { parseInput } from '../protocol/schemas/parse.js';
import { MAX_TRACKED_BASE_NAME, postgresTracking, trackingMigration } from './postgres-tracking.js';

/**
 * Options of {@link postgresStore}.
 *
 * @example
 * ```ts
 * const options: PostgresStoreOptions = { pool, table: 'billing.gateway_notifications' };
 * ```
 */
export interface PostgresStoreOptions {
  /** A `pg` `Pool`. */
  pool: Pool;
  /**
   * The table of processed notifications: lowercase letters, digits and `_`, optionally after a schema name
   * and a dot (`billing.gateway_notifications`). Default `payment_gateway_notifications`. The orders
   * `processor.track` records go to `<table>_tracked` beside it (so the name is at most 51 characters).
   */
  table?: string | undefined;
  /**
   * How long the store's transaction may sit idle while `onPaid` awaits something other than `db`, in
   * milliseconds, before PostgreSQL ends the session and rolls it back (`idle_in_transaction_session_timeout`,
   * set for that transaction only), and how long one statement through `db` may run (`statement_timeout`,
   * likewise: a write waiting on a lock another session holds is cancelled, `onPaid` gets its error). It frees
   * the claim of a process that hangs, of a machine that vanished without closing its connection, or of a run
   * stuck in a statement. Default `60000` (the gateway stops waiting after 20 s anyway).
   */
  idleTimeoutMs?: number | undefined;
}

/**
 * What `onPaid` receives with the Postgres store: `db`, the client of the transaction that holds the claim.
 * Write your effects through it (not through the pool), and do not commit, roll back or release it: the store
 * commits your writes with the done mark, or rolls all of it back when `onPaid` throws or the process dies.
 *
 * @example
 * ```ts
 * const onPaid = async (notification: PayOrderNotification, { db }: PostgresContext) => {
 *   await db.query('INSERT INTO shipments (order_number) VALUES ($1)', [notification.mchOrderNo]);
 * };
 * ```
 */
export interface PostgresContext extends ProcessingContext {
  /** The client of the store's transaction. */
  readonly db: PoolClient;
}

/**
 * A notification store in PostgreSQL; see {@link postgresStore}.
 *
 * @example
 * ```ts
 * const store: PostgresStore = postgresStore({ pool });
 * await store.migrate();
 * console.log(store.table); // 'payment_gateway_notifications'
 * ```
 */
export interface PostgresStore extends NotificationStore<PostgresContext> {
  /** The table's name, as configured. */
  readonly table: string;
  /**
   * Creates the tables when they do not exist (safe to run on every start, from several instances at once). The
   * table has one row per verified notification event: `idempotency_key`, `received_at`, and `processed_at`, which
   * stays null until an effect committed (a row with a null `processed_at` is an event whose `onPaid` failed).
   * `<table>_tracked` has one row per order `processor.track` recorded and no sweep found final yet. Run it again
   * after upgrading: it adds the tracking table to a database made by an earlier version.
   */
  migrate(): Promise<void>;
}

const TABLE_NAME = /^(?:[a-z_][a-z0-9_]{0,62}\.)?[a-z_][a-z0-9_]{0,62}$/;

const optionsSchema = z.strictObject({
  pool: z.custom<PostgresStoreOptions['pool']>((v) => typeof (v as { connect?: unknown } | null)?.connect === 'function', { error: 'must be a pg Pool' }),
  table: z.optional(z.string({ error: 'must be a string' }).check(z.regex(TABLE_NAME, { error: 'must be lowercase letters, digits and _ (at most 63), optionally schema.table' }))),
  idleTimeoutMs: z.optional(timerDelayMs(1)),
});

/** The default {@link PostgresStoreOptions.table}. */
const DEFAULT_TABLE = 'payment_gateway_notifications';
/** The default {@link PostgresStoreOptions.idleTimeoutMs}. */
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/**
 * A notification store in your PostgreSQL database: exactly once, across instances and crashes.
 *
 * For each verified notification the store inserts its key (once), then, in a transaction, locks the key's
 * row with `SELECT ... FOR UPDATE SKIP LOCKED`: a row locked by another delivery's transaction is `busy` at
 * once (no connection is held waiting), a row already marked processed is `done`. Otherwise it runs your
 * effect with `context.db`, the transaction's client, marks the row processed and commits: your writes and the
 * done mark land together or not at all. If `onPaid` throws, or the process dies, or the connection drops, or
 * the transaction sits idle past `idleTimeoutMs` (a hung process), Postgres rolls everything back and releases
 * the lock, and the next delivery runs `onPaid` again from scratch.
 *
 * Call {@link PostgresStore.migrate} once before use. Side effects outside the database (an e-mail, a call to
 * a warehouse API) are not in the transaction: make them idempotent, or enqueue them through `db` (an outbox).
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * import { postgresStore } from 'payment-gateway-sdk/stores/postgres';
 *
 * const store = postgresStore({ pool: new pg.Pool({ connectionString: process.env.DATABASE_URL }) });
 * await store.migrate();
 * ```
 */
export function postgresStore(options: PostgresStoreOptions): PostgresStore {
  const { pool, table = DEFAULT_TABLE, idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS } = parseInput(optionsSchema, options ?? {}, 'Invalid postgresStore options', 'options');
  if (table.split('.').pop()!.length > MAX_TRACKED_BASE_NAME) {
    throw new GatewayValidationError('Invalid postgresStore options', [
      { path: ['table'], message: `must be at most ${MAX_TRACKED_BASE_NAME} characters after the schema: its tracked orders go to <table>_tracked, and PostgreSQL names are at most 63` },
    ]);
  }
  const name = table.split('.').map((part) => `"${part}"`).join('.');
  const sql = {
    insert: `INSERT INTO ${name} (idempotency_key) VALUES ($1) ON CONFLICT (idempotency_key) DO NOTHING`,
    // set_config(..., true) is SET LOCAL: the timeouts hold for this transaction only, and only once claimed. Both:
    // a claim held idle (onPaid awaiting something else) or by one statement (a lock wait, a long query) is freed.
    lock: `SELECT processed_at IS NOT NULL AS done, txid_current()::text AS xid, set_config('idle_in_transaction_session_timeout', $2, true),
        set_config('statement_timeout', $2, true)
      FROM ${name} WHERE idempotency_key = $1 FOR UPDATE SKIP LOCKED`,
    // Matches only inside the claim's own transaction: an onPaid that ended it (COMMIT, ROLLBACK) is caught here.
    markDone: `UPDATE ${name} SET processed_at = now() WHERE idempotency_key = $1 AND txid_current() = $2::bigint`,
  };

  async function runOnce(key: string, effect: (context: PostgresContext) => Promise<void>): Promise<RunOnceResult> {
    const db = await pool.connect();
    const lost = new AbortController();
    const onConnectionError = (error: Error) => lost.abort(error);
    db.on('error', onConnectionError);
    let broken: Error | undefined;
    try {
      // Committed on its own, so that the row exists to be locked; a refused notification never gets here.
      await db.query(sql.insert, [key]).catch((error: unknown) => {
        throw (error as { code?: unknown } | null)?.code === UNDEFINED_TABLE ? notMigrated(table, error) : error;
      });
      await db.query('BEGIN');
      try {
        const { rows } = await db.query<{ done: boolean; xid: string }>(sql.lock, [key, `${idleTimeoutMs}ms`]);
        const row = rows[0];
        if (row === undefined || row.done) {
          await db.query('ROLLBACK');
          return { status: row === undefined ? 'busy' : 'done' };
        }
        await effect({ db, signal: lost.signal });
        const marked = await db.query(sql.markDone, [key, row.xid]);
        if (marked.rowCount !== 1) throw misuse();
        const committed = await db.query('COMMIT');
        // COMMIT of a transaction a failed statement aborted answers ROLLBACK, without an error.
        if (committed.command !== 'COMMIT') throw new GatewayError('The notification was not recorded: a statement in onPaid failed, so Postgres rolled its transaction back. Nothing was committed; the gateway will retry.');
        return { status: 'ran' };
      } catch (error) {
        await db.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        throw error;
      }
    } catch (error) {
      broken ??= lost.signal.aborted ? (lost.signal.reason as Error) : undefined;
      throw error;
    } finally {
      db.off('error', onConnectionError);
      // A client whose connection failed is discarded, not handed to the next caller.
      db.release(broken ?? false);
    }
  }

  return {
    table,
    runOnce,
    tracking: postgresTracking(pool, table),
    async migrate() {
      const db = await pool.connect();
      let broken: Error | undefined;
      try {
        await db.query('BEGIN');
        // CREATE TABLE IF NOT EXISTS is not safe when run concurrently (two creators collide in the catalog).
        await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`payment-gateway-sdk:migrate:${table}`]);
        await db.query(`CREATE TABLE IF NOT EXISTS ${name} (
          idempotency_key text PRIMARY KEY,
          received_at timestamptz NOT NULL DEFAULT now(),
          processed_at timestamptz
        )`);
        for (const statement of trackingMigration(table)) await db.query(statement);
        await db.query('COMMIT');
      } catch (error) {
        await db.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
        throw error;
      } finally {
        db.release(broken ?? false);
      }
    },
  };
}

/** PostgreSQL's SQLSTATE for a table that does not exist. */
const UNDEFINED_TABLE = '42P01';

function notMigrated(table: string, cause: unknown): GatewayError {
  return new GatewayError(
    `The notification was not recorded: the store's table "${table}" does not exist. Call \`await store.migrate()\` once at start-up (or put its CREATE TABLE in your migrations) before processing notifications; the gateway will retry this one.`,
    { cause },
  );
}

function misuse(): GatewayError {
  return new GatewayError(
    "The notification was not recorded: onPaid ended the store's transaction (a COMMIT or ROLLBACK through context.db) or changed its row. " +
      'Write through context.db without ending the transaction; the store commits your writes with the done mark.',
  );
}
