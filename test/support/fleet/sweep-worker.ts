// One sweeping instance of a merchant's fleet, for test/stores/sweep.slow.test.ts: a child process with a
// payment processor on the shared store (Postgres, Redis or a SQLite file) and a client of the mock gateway. Each IPC message
// `sweep` runs one sweep and answers with its report. onPaid writes the merchant's effect row, logs when it
// starts and ends, and SIGKILLs its own process in the middle of the first run (fleet-wide) of a "crash" key.
import { appendFileSync, closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createNotificationProcessor, GatewayClient, type NotificationStore, type PaidOrder, type ProcessingContext } from '../../../src/index.js';
import { postgresStore } from '../../../src/stores/postgres.js';
import { redisStore } from '../../../src/stores/redis.js';
import { sqliteStore } from '../../../src/stores/sqlite.js';

export interface SweepWorkerSettings {
  readonly worker: number;
  readonly store: 'postgres' | 'redis' | 'sqlite';
  readonly postgresUrl: string;
  readonly postgresTable: string;
  readonly redisUrl: string;
  readonly redisPrefix: string;
  readonly sqlitePath: string;
  /** Redis's `leaseMs`, SQLite's `claimTimeoutMs`. */
  readonly leaseMs: number;
  readonly gatewayUrl: string;
  readonly merchant: { readonly secret: string; readonly mchNo: string; readonly appId: string };
  /** Where this process appends onPaid's `start`/`end`/`crash` events, one JSON object a line. */
  readonly log: string;
  readonly crashKeys: readonly string[];
  readonly crashDir: string;
}

const settings = JSON.parse(process.env.SWEEP_WORKER ?? 'null') as SweepWorkerSettings | null;
if (settings === null) throw new Error('SWEEP_WORKER is not set: this file is started by test/stores/sweep.slow.test.ts');
process.on('disconnect', () => process.exit(0));

const logFd = openSync(settings.log, 'a');
const log = (event: Record<string, unknown>) => appendFileSync(logFd, `${JSON.stringify({ ...event, pid: process.pid, worker: settings.worker, t: process.hrtime.bigint().toString() })}\n`);
const crashKeys = new Set(settings.crashKeys);
const firstToCrash = (key: string) => {
  try {
    closeSync(openSync(join(settings.crashDir, encodeURIComponent(key)), 'wx'));
    return true;
  } catch {
    return false;
  }
};

const pool = new pg.Pool({ connectionString: settings.postgresUrl, max: 12 });
type Context = ProcessingContext & { db?: pg.PoolClient };
const stores = {
  postgres: () => postgresStore({ pool, table: settings.postgresTable }),
  redis: () => redisStore({ client: new Redis(settings.redisUrl), leaseMs: settings.leaseMs, prefix: settings.redisPrefix }),
  sqlite: () => sqliteStore({ path: settings.sqlitePath, claimTimeoutMs: settings.leaseMs }),
};
const store: NotificationStore<Context> = stores[settings.store]();

async function onPaid(paid: PaidOrder, context: Context): Promise<void> {
  const key = paid.idempotencyKey;
  const run = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  log({ e: 'start', key, run });
  await (context.db ?? pool).query('INSERT INTO sweep_fulfilments (order_no, idempotency_key, run, via, amount) VALUES ($1, $2, $3, $4, $5)', [paid.mchOrderNo, key, run, 'sweep', paid.amount]);
  await new Promise((resolve) => setTimeout(resolve, 20));
  if (crashKeys.has(key) && firstToCrash(key)) {
    log({ e: 'crash', key, run });
    process.kill(process.pid, 'SIGKILL');
    await new Promise(() => {});
  }
  log({ e: 'end', key, run });
}

const client = new GatewayClient({ baseUrl: settings.gatewayUrl, ...settings.merchant });
const processor = createNotificationProcessor({ ...settings.merchant, store, onPaid, client, logLevel: 'off' });

process.on('message', (message: { sweep: number }) => {
  processor.sweep({ olderThanMs: 0 }).then(
    (report) => process.send?.({ sweep: message.sweep, report: { ...report, problems: report.problems.map((p) => p.message) } }),
    (error: unknown) => process.send?.({ sweep: message.sweep, error: String(error) }),
  );
});
process.send?.({ ready: true });
