// One instance of a merchant's fleet, for test/stores/fleet.slow.test.ts: an HTTP server on 127.0.0.1 that
// hands every POST to a notification processor on the shared store. Its onPaid and onRefunded write the merchant's effect row
// (Postgres: through context.db), logs when it starts and ends (CLOCK_MONOTONIC, comparable across processes),
// fails when told to, and SIGKILLs its own process in the middle of the first run of a "crash" key.
import { appendFileSync, closeSync, openSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createNotificationProcessor, type NotificationStore, type PaidOrder, type ProcessingContext, type SweepReport, Refunds } from '../../../src/index.js';
import { postgresStore } from '../../../src/stores/postgres.js';
import { redisStore } from '../../../src/stores/redis.js';
import { sqliteStore } from '../../../src/stores/sqlite.js';

export interface WorkerSettings {
  readonly worker: number;
  readonly store: 'postgres' | 'redis' | 'sqlite';
  readonly postgresUrl: string;
  readonly redisUrl: string;
  /** The SQLite file every worker of the machine shares. */
  readonly sqlitePath: string;
  /** Redis's leaseMs, and the SQLite store's claimTimeoutMs. */
  readonly leaseMs: number;
  readonly merchant: { readonly secret: string; readonly mchNo: string; readonly appId: string };
  /** Where this process appends its run events, one JSON object a line. */
  readonly log: string;
  /** Keys whose first run (fleet-wide, by an exclusive marker file in `crashDir`) kills its process. */
  readonly crashKeys: readonly string[];
  readonly crashDir: string;
  /** The probability that a run throws after writing its effect. */
  readonly failRate: number;
  /** Each run works for a random 0..workMs, to widen the window in which deliveries overlap. */
  readonly workMs: number;
}

/**
 * One line of a worker's log: onPaid's `start` and `end` (ok or not) of a run, the `crash` about to happen, and
 * `done` when the processor answered `processed` (the store recorded the key: for Postgres, committed).
 */
export interface RunEvent {
  readonly e: 'start' | 'end' | 'crash' | 'done';
  readonly key: string;
  readonly run?: string;
  readonly ok?: boolean;
  readonly pid: number;
  readonly worker: number;
  /** process.hrtime.bigint(): CLOCK_MONOTONIC on Linux, the same clock in every process of the machine. */
  readonly t: string;
}

const settings = JSON.parse(process.env.FLEET_WORKER ?? 'null') as WorkerSettings | null;
if (settings === null) throw new Error('FLEET_WORKER is not set: this file is started by test/stores/fleet.slow.test.ts');

// The coordinator's IPC channel closes when it exits: so does this worker.
process.on('disconnect', () => process.exit(0));

const logFd = openSync(settings.log, 'a');
// Synchronous appends: a line written before a SIGKILL is in the file.
const log = (event: Omit<RunEvent, 't' | 'pid' | 'worker'>) => appendFileSync(logFd, `${JSON.stringify({ ...event, pid: process.pid, worker: settings.worker, t: process.hrtime.bigint().toString() })}\n`);
const crashKeys = new Set(settings.crashKeys);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** True once per key across the fleet: the first process to create the marker file crashes. */
function firstToCrash(key: string): boolean {
  try {
    closeSync(openSync(join(settings!.crashDir, encodeURIComponent(key)), 'wx'));
    return true;
  } catch {
    return false;
  }
}

const pool = new pg.Pool({ connectionString: settings.postgresUrl, max: 10 });
const store: NotificationStore<ProcessingContext & { db?: pg.PoolClient }> =
  settings.store === 'postgres'
    ? postgresStore({ pool })
    : settings.store === 'redis'
      ? redisStore({ client: new Redis(settings.redisUrl), leaseMs: settings.leaseMs })
      : sqliteStore({ path: settings.sqlitePath, claimTimeoutMs: settings.leaseMs });

// One effect for both kinds: a payment fulfils its order, a refund records itself under its refund number.
async function fulfil(notification: PaidOrder | Refunds.Notification | Refunds.Swept, context: ProcessingContext & { db?: pg.PoolClient }): Promise<void> {
  const key = notification.idempotencyKey;
  const run = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  log({ e: 'start', key, run });
  try {
    // The merchant's effect: with Postgres, in the store's transaction; with Redis or SQLite, in the merchant's own database.
    const db = context.db ?? pool;
    await db.query('INSERT INTO fulfilments (order_no, idempotency_key, run) VALUES ($1, $2, $3)', ['mchRefundNo' in notification ? notification.mchRefundNo : notification.mchOrderNo, key, run]);
    await sleep(Math.random() * settings!.workMs);
    if (crashKeys.has(key) && firstToCrash(key)) {
      log({ e: 'crash', key, run });
      process.kill(process.pid, 'SIGKILL');
      await new Promise(() => {});
    }
    if (Math.random() < settings!.failRate) throw new Error('injected onPaid failure');
    log({ e: 'end', key, run, ok: true });
  } catch (error) {
    log({ e: 'end', key, run, ok: false });
    throw error;
  }
}

const processor = createNotificationProcessor({ ...settings.merchant, store, onPaid: fulfil, onRefunded: fulfil, leaveUnhandled: ['onRefundFailed'], busyWaitMs: 1_000 });

const server = createServer(async (req, res) => {
  const { status, headers, body, outcome } = await processor.handle(req);
  if (outcome.kind === 'processed') log({ e: 'done', key: outcome.notification.idempotencyKey });
  res.writeHead(status, headers).end(body);
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ ready: typeof address === 'object' && address ? address.port : 0 });
});
