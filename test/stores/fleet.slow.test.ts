// The fleet test: several worker processes (each an HTTP server on 127.0.0.1 running a notification processor on
// a shared store), a few hundred paid orders and refunds (one in five, to the same URL, run by onRefunded), each notification delivered 3-5 times at once to random workers,
// onPaid failing now and then, workers killing themselves mid-onPaid (and restarted, but not every time), and a
// coordinator that re-delivers whatever was not answered SUCCESS. Real PostgreSQL and Redis, and a SQLite file
// the worker processes share (one machine), no mocks.
//
// Postgres: every order's effect row exists exactly once. Redis and SQLite: no two runs of one key ever overlap in
// time, and a key runs again only after a failed or crashed run (whose partial effect stays: not transactional).
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStore } from '../../src/stores/postgres.js';
import { deliver, eachLimited, Fleet, overlaps, readRuns, seededRandom, type DeliveryResult, type Run } from '../support/fleet/fleet.js';
import { formBody, freshFields, MERCHANT, REFUND_FIELDS } from '../support/notification.js';
import { removeDir } from '../support/servers/process.js';
import { startPostgres, type TestPostgres } from '../support/servers/postgres.js';
import { startRedis, type TestRedis } from '../support/servers/redis.js';

const ORDERS = 300;
const WORKERS = 4;
/** Orders whose first run kills its worker process mid-onPaid, after the effect was written. */
const CRASHES = 3;
/** Killed workers come back this many times in all (the last one killed stays down). */
const RESTARTS = CRASHES - 1;
const FAIL_RATE = 0.08;
const ORDERS_IN_FLIGHT = 24;
const MAX_ROUNDS = 12;
const ROUND_PAUSE_MS = 300;
const LEASE_MS = 1_000;
const SEED = Number(process.env.FLEET_SEED ?? Math.floor(Math.random() * 2 ** 31));

let postgres: TestPostgres;
let redis: TestRedis;
let pool: pg.Pool;
let scratch: string;

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
  await postgresStore({ pool }).migrate();
  // No unique constraint: a second fulfilment must show up as a second row, not be stopped by the database.
  await pool.query('CREATE TABLE fulfilments (order_no text NOT NULL, idempotency_key text NOT NULL, run text NOT NULL)');
  scratch = mkdtempSync(join(tmpdir(), 'pgsdk-fleet-'));
  console.log(`fleet seed ${SEED} (FLEET_SEED=${SEED} repeats the orders, the crash keys and the first round's routing)`);
});

afterAll(async () => {
  await pool?.end();
  await Promise.all([postgres?.stop(), redis?.stop()]);
  if (scratch) removeDir(scratch);
});

interface FleetFigures {
  readonly runs: Map<string, Run[]>;
  readonly keys: readonly string[];
  readonly acknowledged: number;
  readonly deliveries: number;
  readonly redeliveries: number;
  readonly rounds: number;
  readonly answers: Record<string, number>;
  readonly kills: number;
  readonly restarts: number;
  readonly workersAliveAtEnd: number;
  readonly startupMs: number;
  readonly deliveryMs: number;
}

async function runFleet(store: 'postgres' | 'redis' | 'sqlite'): Promise<FleetFigures> {
  const random = seededRandom(SEED + ['postgres', 'redis', 'sqlite'].indexOf(store));
  const dir = join(scratch, store);
  mkdirSync(join(dir, 'crash'), { recursive: true });
  // Every fifth event is a refund, to the same notify URL: onRefunded runs once per refund as onPaid per order.
  const orders = Array.from({ length: ORDERS }, (_, i) => {
    const payOrderId = `P-${store}-${SEED}-${i}`;
    const amount = String(100 + Math.floor(random() * 100_000));
    if (i % 5 === 4) {
      const refundOrderId = `R-${store}-${SEED}-${i}`;
      const fields = freshFields({ refundOrderId, payOrderId, mchRefundNo: `${store}-order-${i}`, refundAmount: amount, payAmount: amount }, REFUND_FIELDS);
      return { key: `refund:${refundOrderId}:2`, body: formBody(fields) };
    }
    const fields = freshFields({ payOrderId, mchOrderNo: `${store}-order-${i}`, amount });
    return { key: `${payOrderId}:2`, body: formBody(fields) };
  });
  const crashKeys = new Set<string>();
  // One crash at least kills a worker mid-onRefunded: its claim must free as a payment's does.
  crashKeys.add(orders[4 + 5 * Math.floor(random() * (ORDERS / 5))]!.key);
  while (crashKeys.size < CRASHES) crashKeys.add(orders[Math.floor(random() * ORDERS)]!.key);
  const fleet = new Fleet(
    (worker) => ({
      worker,
      store,
      postgresUrl: postgres.url,
      redisUrl: redis.url,
      sqlitePath: join(dir, 'notifications.sqlite'),
      leaseMs: LEASE_MS,
      merchant: MERCHANT,
      log: join(dir, `worker-${worker}.log`),
      crashKeys: [...crashKeys],
      crashDir: join(dir, 'crash'),
      failRate: FAIL_RATE,
      workMs: 20,
    }),
    RESTARTS,
  );
  const startedAt = performance.now();
  const answers: Record<string, number> = {};
  const count = (result: DeliveryResult) => {
    const answer = result.status === 'no answer' ? 'no answer' : `${result.status} ${result.body}`;
    answers[answer] = (answers[answer] ?? 0) + 1;
  };
  let deliveries = 0;
  let redeliveries = 0;
  let rounds = 0;
  const acknowledged = new Set<string>();
  try {
    await fleet.start(WORKERS);
    const startupMs = performance.now() - startedAt;
    const deliveringAt = performance.now();
    let pending = orders;
    while (pending.length > 0 && rounds < MAX_ROUNDS) {
      rounds++;
      const first = rounds === 1;
      await eachLimited(pending, ORDERS_IN_FLIGHT, async (order) => {
        // The first round: 3-5 copies at once (retries, re-sends, a duplicated request); later: 1-2.
        const copies = first ? 3 + Math.floor(random() * 3) : 1 + Math.floor(random() * 2);
        const targets = Array.from({ length: copies }, () => fleet.url(Math.floor(random() * WORKERS)));
        if (first) deliveries += copies;
        else redeliveries += copies;
        const results = await Promise.all(targets.map((url) => deliver(url, order.body)));
        results.forEach(count);
        if (results.some((r) => r.status === 200 && r.body === 'SUCCESS')) acknowledged.add(order.key);
      });
      pending = orders.filter((o) => !acknowledged.has(o.key));
      if (pending.length > 0) await new Promise((resolve) => setTimeout(resolve, ROUND_PAUSE_MS));
    }
    const deliveryMs = performance.now() - deliveringAt;
    const workersAliveAtEnd = fleet.alive();
    await fleet.stop();
    expect(fleet.restartFailures).toEqual([]);
    const logs = Array.from({ length: WORKERS }, (_, worker) => join(dir, `worker-${worker}.log`));
    return {
      runs: readRuns(logs, fleet.deaths),
      keys: orders.map((o) => o.key),
      acknowledged: acknowledged.size,
      deliveries,
      redeliveries,
      rounds,
      answers,
      kills: fleet.kills,
      restarts: fleet.restarts(),
      workersAliveAtEnd,
      startupMs,
      deliveryMs,
    };
  } finally {
    await fleet.stop();
  }
}

/** Runs by outcome over every key. */
function tally(runs: Map<string, Run[]>): Record<Run['outcome'] | 'started', number> {
  const all = [...runs.values()].flat();
  const count = (outcome: Run['outcome']) => all.filter((r) => r.outcome === outcome).length;
  return { started: all.length, completed: count('completed'), returned: count('returned'), failed: count('failed'), crashed: count('crashed') };
}

/** Runs that started after an earlier run of their key had ended, by how that earlier run ended. */
function reRuns(runs: Map<string, Run[]>): Record<Run['outcome'], number> {
  const after = { completed: 0, returned: 0, failed: 0, crashed: 0 };
  for (const list of runs.values()) for (let i = 1; i < list.length; i++) after[list[i - 1]!.outcome]++;
  return after;
}

function report(store: string, figures: FleetFigures, extra: Record<string, unknown>): void {
  const { runs, keys: _keys, startupMs, deliveryMs, ...shown } = figures;
  const summary = { orders: ORDERS, workers: WORKERS, ...shown, startupMs: Math.round(startupMs), deliveryMs: Math.round(deliveryMs), runs: tally(runs), reRunsAfter: reRuns(runs), ...extra };
  console.log(`fleet on ${store}: ${JSON.stringify(summary)}`);
}

async function effectRows(store: string): Promise<{ key: string; run: string }[]> {
  return (await pool.query('SELECT idempotency_key AS key, run FROM fulfilments WHERE order_no LIKE $1', [`${store}-order-%`])).rows;
}

describe('a fleet of notification processors', () => {
  it(`on Postgres: ${ORDERS} orders, each fulfilled exactly once, through failures and crashes mid-onPaid`, async () => {
    const figures = await runFleet('postgres');
    const effects = await effectRows('postgres');
    const recorded = (await pool.query("SELECT count(*)::int AS n FROM payment_gateway_notifications WHERE processed_at IS NOT NULL AND (idempotency_key LIKE 'P-postgres-%' OR idempotency_key LIKE 'refund:R-postgres-%')")).rows[0].n;
    const runs = tally(figures.runs);
    const byId = new Map([...figures.runs.values()].flat().map((run) => [run.run, run]));
    const committedRun = new Map(effects.map(({ key, run }) => [key, run]));
    report('postgres', figures, { effectRows: effects.length, ordersWithAnEffect: committedRun.size, processedKeys: recorded });

    expect(figures.acknowledged).toBe(ORDERS);
    // Exactly once: one effect row per order, although every failed run and most crashed runs wrote theirs.
    expect(effects).toHaveLength(ORDERS);
    expect(committedRun.size).toBe(ORDERS);
    expect(recorded).toBe(ORDERS);
    // The row that stayed is the one of a run whose onPaid returned; a run answered `processed` is that one.
    expect(effects.filter(({ run }) => !['completed', 'returned'].includes(byId.get(run)?.outcome ?? 'missing'))).toEqual([]);
    expect([...byId.values()].filter((run) => run.outcome === 'completed' && committedRun.get(run.key) !== run.run)).toEqual([]);
    expect(figures.kills).toBe(CRASHES);
    expect(runs.crashed + runs.returned).toBeGreaterThanOrEqual(CRASHES);
    expect(runs.failed).toBeGreaterThan(0);
    expect(overlaps(figures.runs)).toEqual([]);
  });

  it.each(['Redis', 'SQLite'])(`on %s: ${ORDERS} orders, never two runs of one key at once, a re-run only after a failed or crashed run`, async (name) => {
    const store = name === 'Redis' ? 'redis' : 'sqlite';
    const figures = await runFleet(store);
    const effects = await effectRows(store);
    const runs = tally(figures.runs);
    const ordersWithAnEffect = new Set(effects.map(({ key }) => key)).size;
    report(store, figures, { effectRows: effects.length, ordersWithAnEffect });

    expect(figures.acknowledged).toBe(ORDERS);
    expect(overlaps(figures.runs)).toEqual([]);
    // Each key's runs end with its one run whose onPaid returned (answered, or cut short by a kill just after):
    // nothing ran again after a run that was answered `processed`.
    const endings = figures.keys.filter((key) => {
      const list = figures.runs.get(key) ?? [];
      return list.findIndex((r) => r.outcome === 'completed' || r.outcome === 'returned') !== list.length - 1 && list.at(-1)?.outcome !== 'completed';
    });
    expect(endings).toEqual([]);
    expect(reRuns(figures.runs).completed).toBe(0);
    expect(figures.kills).toBe(CRASHES);
    expect(runs.crashed + runs.returned).toBeGreaterThanOrEqual(CRASHES);
    expect(runs.failed).toBeGreaterThan(0);
    // Not transactional: a run that failed or crashed after writing its effect leaves it, and only such runs do.
    expect(ordersWithAnEffect).toBe(ORDERS);
    expect(effects.length - ORDERS).toBeLessThanOrEqual(runs.failed + runs.crashed + runs.returned);
  });
});
