// No paid order left behind, on real PostgreSQL and Redis, a SQLite file, and the mock gateway on loopback HTTP:
// processors sharing one store track orders and sweep them, with notifications off, with notifications racing
// the sweeps, with a worker process SIGKILLed mid-onPaid, and through a fault campaign (5xx, timeouts, dropped
// connections).
// Every paid order's effect must exist exactly once; an unpaid or mismatching order's, never.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createNotificationProcessor,
  GatewayClient,
  GatewayValidationError,
  type CreatedOrder,
  type NotificationStore,
  type PaidOrder,
  type PaymentNotificationProcessor,
  type ProcessingContext,
  type SweepReport,
  Refunds,
} from '../../src/index.js';
import { postgresStore } from '../../src/stores/postgres.js';
import { redisStore } from '../../src/stores/redis.js';
import { sqliteStore, type SqliteStore } from '../../src/stores/sqlite.js';
import { createMockGateway, type MockGatewayServer } from '../../src/testing/index.js';
import { random } from '../support/campaign.js';
import { PROXY_FAULTS, startFaultProxy, type FaultProxy, type ProxyFault } from '../support/fault-proxy.js';
import type { SweepWorkerSettings } from '../support/fleet/sweep-worker.js';
import { removeDir } from '../support/servers/process.js';
import { startPostgres, type TestPostgres } from '../support/servers/postgres.js';
import { startRedis, type TestRedis } from '../support/servers/redis.js';

type StoreKind = 'postgres' | 'redis' | 'sqlite';
type Context = ProcessingContext & { db?: pg.PoolClient };

const merchant = { mchNo: 'M1700000260', appId: 'app-sweep-fleet', secret: 'sweep-fleet-secret-0123456789' };
const PROCESSORS = 3;
const LEASE_MS = 1_000;
const SEED = Number(process.env.SWEEP_SEED ?? 20261126);

let postgres: TestPostgres;
let redis: TestRedis;
let pool: pg.Pool;
let redisClients: Redis[] = [];
const sqliteStores: SqliteStore[] = [];
let gatewayServer: MockGatewayServer;
let scratch: string;
/** Where the gateway's notifications go: a processor's handleRequest, or nowhere (notifications off). */
let route: ((request: Request) => Promise<Response>) | undefined;
const gateway = createMockGateway({
  merchants: [merchant],
  notifyFetch: async (url, init) => (route ? route(new Request(url, init)) : new Response('notifications are off', { status: 503 })),
});

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  pool = new pg.Pool({ connectionString: postgres.url, max: 20 });
  await postgresStore({ pool }).migrate();
  // No unique constraint: a second fulfilment must show up as a second row.
  await pool.query('CREATE TABLE sweep_fulfilments (order_no text NOT NULL, idempotency_key text NOT NULL, run text NOT NULL, via text NOT NULL, amount bigint NOT NULL)');
  gatewayServer = await gateway.listen({ port: 0 });
  scratch = mkdtempSync(join(tmpdir(), 'pgsdk-sweep-'));
});

afterAll(async () => {
  route = undefined;
  await Promise.all(redisClients.map((c) => c.quit().catch(() => {})));
  for (const store of sqliteStores) store.close();
  await pool?.end();
  await gatewayServer?.close();
  await Promise.all([postgres?.stop(), redis?.stop()]);
  if (scratch) removeDir(scratch);
});

/**
 * A store of its own for each scenario (a Postgres table, a Redis prefix, a SQLite file), so that no scenario
 * sweeps another's orders. Each call is another connection, as another process would hold.
 */
async function storeOf(kind: StoreKind, name: string): Promise<NotificationStore<Context>> {
  if (kind === 'sqlite') {
    const store = sqliteStore({ path: sqlitePathOf(name) });
    sqliteStores.push(store);
    return store;
  }
  if (kind === 'postgres') {
    const store = postgresStore({ pool, table: tableOf(name) });
    await store.migrate();
    return store;
  }
  const client = new Redis(redis.url);
  redisClients.push(client);
  return redisStore({ client, leaseMs: LEASE_MS, prefix: `sweep-test:${name}:` });
}

const tableOf = (name: string) => `sweep_${name.replace(/[^a-z0-9]/g, '_')}`;
const sqlitePathOf = (name: string) => join(scratch, `${tableOf(name)}.sqlite`);

/** Lets the gateway give up on every notification still pending from earlier scenarios (6 attempts, ~17 minutes). */
async function drainNotifications(): Promise<void> {
  route = undefined;
  for (let i = 0; i < 8; i++) {
    gateway.advanceTime(600_000);
    await gateway.deliverNotifications();
  }
}

/** The merchant's effect, in the store's transaction with Postgres, in the merchant's database with Redis and SQLite. */
async function onPaid(paid: PaidOrder, context: Context): Promise<void> {
  await (context.db ?? pool).query('INSERT INTO sweep_fulfilments (order_no, idempotency_key, run, via, amount) VALUES ($1, $2, $3, $4, $5)', [
    paid.mchOrderNo,
    paid.idempotencyKey,
    `in-process-${Math.random().toString(36).slice(2)}`,
    paid.reqTime === undefined ? 'sweep' : 'notification',
    paid.amount,
  ]);
}

/** Effect rows per order number, for the orders of one scenario. */
async function effects(prefix: string): Promise<Map<string, { via: string; amount: number }[]>> {
  const { rows } = await pool.query<{ order_no: string; via: string; amount: string }>('SELECT order_no, via, amount::text FROM sweep_fulfilments WHERE order_no LIKE $1', [`${prefix}%`]);
  const byOrder = new Map<string, { via: string; amount: number }[]>();
  for (const row of rows) byOrder.set(row.order_no, [...(byOrder.get(row.order_no) ?? []), { via: row.via, amount: Number(row.amount) }]);
  return byOrder;
}

interface Scenario {
  readonly prefix: string;
  readonly processors: PaymentNotificationProcessor[];
  readonly orders: CreatedOrder[];
  readonly paid: CreatedOrder[];
  readonly unpaid: CreatedOrder[];
  /** A paid order whose amount differs from the merchant's record: never fulfilled. */
  readonly tampered: CreatedOrder;
}

/** Orders created on the gateway and tracked by random processors; some paid, some failed, the rest left open. */
async function scenario(kind: StoreKind, name: string, count: number, client: { query: GatewayClient['query']; close: GatewayClient['close'] } = direct()): Promise<Scenario> {
  const prefix = `${name}-${kind}-`;
  await drainNotifications();
  const draw = random(SEED + prefix.length);
  const records = new Map<string, number>();
  const stores = await Promise.all(Array.from({ length: PROCESSORS }, () => storeOf(kind, prefix)));
  const processors = stores.map((store) =>
    createNotificationProcessor({
      ...merchant,
      store,
      client,
      logLevel: 'off' as const,
      busyWaitMs: 200,
      // The merchant's own record of each order: what the paid order must match.
      expect: async (paid) => ({ amount: records.get(paid.mchOrderNo)!, currency: 'USD' }),
      onPaid,
    }),
  );
  const creating = direct();
  const orders: CreatedOrder[] = [];
  for (let i = 0; i < count; i++) {
    const order = (await creating.unifiedOrder({ mchOrderNo: `${prefix}${i}`, wayCode: 'QR_CASHIER', amount: 100 + i, currency: 'USD', subject: 's', body: 'b', notifyUrl: 'http://127.0.0.1:9/notify' })) as CreatedOrder;
    records.set(order.mchOrderNo, 100 + i);
    await processors[Math.floor(draw() * PROCESSORS)]!.track(order);
    orders.push(order);
  }
  const paid = orders.filter((_, i) => i % 3 !== 2);
  const unpaid = orders.filter((_, i) => i % 3 === 2);
  unpaid.slice(0, 3).forEach((o) => gateway.failOrder(o.payOrderId));
  paid.forEach((o) => gateway.payOrder(o.payOrderId));
  const tampered = paid.pop()!;
  records.set(tampered.mchOrderNo, 1);
  return { prefix, processors, orders, paid, unpaid, tampered };
}

function direct(): GatewayClient {
  return new GatewayClient({ baseUrl: gatewayServer.url, ...merchant });
}

/** Sweeps on every processor at once, round after round, until a round fulfils nothing and nothing is left in flux. */
async function sweepUntilSettled(processors: readonly PaymentNotificationProcessor[], maxRounds = 20, pauseMs = 0): Promise<{ rounds: SweepReport[][]; paid: number }> {
  const rounds: SweepReport[][] = [];
  for (let round = 0; round < maxRounds; round++) {
    const reports = await Promise.all(processors.map((p) => p.sweep({ olderThanMs: 0, concurrency: 6 })));
    rounds.push(reports);
    const sum = (field: 'paid' | 'busy' | 'failed') => reports.reduce((n, r) => n + r[field], 0);
    if (round > 0 && sum('paid') === 0 && sum('busy') === 0 && sum('failed') === 0) break;
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return { rounds, paid: rounds.flat().reduce((n, r) => n + r.paid, 0) };
}

const countBy = (values: readonly string[]) => Object.fromEntries([...new Set(values)].map((v) => [v, values.filter((x) => x === v).length]));

function expectExactlyOnce(s: Scenario, byOrder: Map<string, { via: string; amount: number }[]>): void {
  const duplicates = [...byOrder].filter(([, rows]) => rows.length > 1).map(([order]) => order);
  const lost = s.paid.filter((o) => !byOrder.has(o.mchOrderNo)).map((o) => o.mchOrderNo);
  const wrong = [...s.unpaid, s.tampered].filter((o) => byOrder.has(o.mchOrderNo)).map((o) => o.mchOrderNo);
  const wrongAmount = s.paid.filter((o) => byOrder.get(o.mchOrderNo)?.some((row) => row.amount !== gateway.order(o.payOrderId)!.amount));
  expect({ duplicates, lost, wrong, wrongAmount }).toEqual({ duplicates: [], lost: [], wrong: [], wrongAmount: [] });
}

describe.each(['postgres', 'redis', 'sqlite'] as const)('sweeps on %s', (kind) => {
  it('with notifications off, every paid order is fulfilled exactly once by sweeps; the one failing expect never; a second sweep reports paid: 0', async () => {
    route = undefined;
    const s = await scenario(kind, 'off', 60);
    const { rounds, paid } = await sweepUntilSettled(s.processors);
    const byOrder = await effects(s.prefix);
    console.log(`sweeps on ${kind}, notifications off: ${JSON.stringify({ orders: s.orders.length, paid: s.paid.length, rounds: rounds.length, fulfilledBySweeps: paid })}`);
    expectExactlyOnce(s, byOrder);
    expect(paid).toBe(s.paid.length);
    expect(rounds.at(-1)!.reduce((n, r) => n + r.paid, 0)).toBe(0);
    // One more sweep: nothing paid; still tracked and reported, the mismatching paid order and the open ones.
    const last = await s.processors[0]!.sweep({ olderThanMs: 0 });
    expect(last).toMatchObject({ checked: s.unpaid.length - 3 + 1, paid: 0, alreadyDone: 0, open: s.unpaid.length - 3, closed: 0, mismatched: 1, failed: 0 });
    expect(last.problems.map((p) => p.mchOrderNo)).toEqual([s.tampered.mchOrderNo]);
  });

  it('notifications racing sweeps on several processors sharing the store: still exactly once', async () => {
    const s = await scenario(kind, 'race', 60);
    let next = 0;
    route = (request) => s.processors[next++ % PROCESSORS]!.handleRequest(request);
    // Two copies of each order's signed notification (a retry overlapping the first attempt), to two processors,
    // all at once, while the sweeps run.
    const ours = new Set(s.orders.map((o) => o.payOrderId));
    const copies = gateway.notifications.filter((n) => ours.has(n.payOrderId)).flatMap((n) => [n, n]);
    const draw = random(SEED + 7);
    const post = async (fields: Readonly<Record<string, string>>, i: number) => {
      await new Promise((resolve) => setTimeout(resolve, draw() * 300)); // arriving before, during and after the sweeps' claims
      return s.processors[i % PROCESSORS]!.handle(new Request('http://127.0.0.1/pay/notify', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() }));
    };
    const [answers, sweeps] = await Promise.all([Promise.all(copies.map((n, i) => post(n.fields, i))), sweepUntilSettled(s.processors, 20, 50)]);
    // Only the tampered order's two copies are refused (expect); the rest are processed once, or answered as such.
    const kinds = countBy(answers.map((a) => a.outcome.kind));
    expect(kinds.refused).toBe(2);
    expect(Object.keys(kinds).filter((k) => !['processed', 'duplicate', 'busy', 'refused'].includes(k))).toEqual([]);
    // Whatever a busy answer left undelivered is retried by the gateway; the sweeps took care of it meanwhile.
    gateway.advanceTime(30_000);
    await gateway.deliverNotifications();
    const after = await sweepUntilSettled(s.processors);
    route = undefined;
    const byOrder = await effects(s.prefix);
    const vias = [...byOrder.values()].flat().map((row) => row.via);
    console.log(`sweeps on ${kind}, racing notifications: ${JSON.stringify({ orders: s.orders.length, notificationCopies: copies.length, answers: kinds, viaNotification: vias.filter((v) => v === 'notification').length, viaSweep: vias.filter((v) => v === 'sweep').length, rounds: sweeps.rounds.length })}`);
    expectExactlyOnce(s, byOrder);
    expect(after.paid).toBe(0);
  });
});

/** The merchant's refund effect, one row per run, in the store's transaction with Postgres. */
async function onRefund(handler: 'refunded' | 'failed', refund: Refunds.Notification | Refunds.Swept, context: Context): Promise<void> {
  await (context.db ?? pool).query('INSERT INTO sweep_refund_effects (refund_no, idempotency_key, handler, via) VALUES ($1, $2, $3, $4)', [
    refund.mchRefundNo,
    refund.idempotencyKey,
    handler,
    refund.reqTime === undefined ? 'sweep' : 'notification',
  ]);
}

describe.each(['postgres', 'redis', 'sqlite'] as const)('refund sweeps on %s', (kind) => {
  afterEach(() => gateway.setRefundMode('succeed'));

  it('refunds ended succeeded, failed, closed, racing their notifications on several processors: each handler once per refund, open ones never, a substituted one never', async () => {
    await pool.query('CREATE TABLE IF NOT EXISTS sweep_refund_effects (refund_no text NOT NULL, idempotency_key text NOT NULL, handler text NOT NULL, via text NOT NULL)');
    const prefix = `refunds-${kind}-`;
    await drainNotifications();
    const draw = random(SEED + 31);
    const stores = await Promise.all(Array.from({ length: PROCESSORS }, () => storeOf(kind, prefix)));
    const amounts = new Map<string, number>();
    const processors = stores.map((store) =>
      createNotificationProcessor({
        ...merchant, store, client: direct(), logLevel: 'off' as const, busyWaitMs: 200,
        expect: async () => undefined,
        onPaid: async () => {},
        // The merchant's own record of each refund: what the refund must match.
        expectRefund: async (refund) => ({ mchRefundNo: refund.mchRefundNo, refundAmount: amounts.get(refund.mchRefundNo)!, currency: 'USD' }),
        onRefunded: (refund, context) => onRefund('refunded', refund, context),
        onRefundFailed: (refund, context) => onRefund('failed', refund, context),
      }),
    );
    const client = direct();
    gateway.setRefundMode('hold');
    const refunds: Refunds.CreateResult[] = [];
    for (let i = 0; i < 40; i++) {
      const order = await client.unifiedOrder({ mchOrderNo: `${prefix}order-${i}`, wayCode: 'QR_CASHIER', amount: 1000, currency: 'USD', subject: 's', body: 'b' });
      gateway.payOrder(order.payOrderId);
      const refund = await client.refundOrder({ payOrderId: order.payOrderId, mchRefundNo: `${prefix}${i}`, refundAmount: 100 + i, currency: 'USD', refundReason: 'r', notifyUrl: 'http://127.0.0.1:9/notify' });
      amounts.set(refund.mchRefundNo, refund.refundAmount);
      await processors[Math.floor(draw() * PROCESSORS)]!.track(refund);
      refunds.push(refund);
    }
    // A quarter each: succeeded, failed, closed (never notified), still 1; the last succeeded one's record is not the merchant's.
    const decided = { succeed: refunds.filter((_, i) => i % 4 === 0), fail: refunds.filter((_, i) => i % 4 === 1), close: refunds.filter((_, i) => i % 4 === 2) };
    const open = refunds.filter((_, i) => i % 4 === 3);
    for (const [to, list] of Object.entries(decided)) for (const r of list) gateway.settleRefund(r.refundOrderId, { to: to as 'succeed' | 'fail' | 'close' });
    const tampered = decided.succeed.pop()!;
    amounts.set(tampered.mchRefundNo, 1);

    // Two copies of each refund notification, to two processors, arriving around the sweeps' claims.
    const ours = new Set(refunds.map((r) => r.refundOrderId));
    const copies = gateway.notifications.filter((n) => n.refundOrderId !== undefined && ours.has(n.refundOrderId)).flatMap((n) => [n, n]);
    const post = async (fields: Readonly<Record<string, string>>, i: number) => {
      await new Promise((resolve) => setTimeout(resolve, draw() * 300));
      return processors[i % PROCESSORS]!.handle(new Request('http://127.0.0.1/pay/notify', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() }));
    };
    const sweepRound = () => Promise.all(processors.map((p) => p.sweep({ olderThanMs: 0, concurrency: 6 })));
    const [answers] = await Promise.all([Promise.all(copies.map((n, i) => post(n.fields, i))), sweepRound(), sweepRound()]);
    const rounds: SweepReport[][] = [];
    for (let round = 0; round < 10; round++) {
      const reports = await sweepRound();
      rounds.push(reports);
      if (reports.every((r) => r.refunds.busy + r.refunds.failed + r.refunds.refunded + r.refunds.refundFailed === 0)) break;
    }
    const { rows } = await pool.query<{ refund_no: string; handler: string; via: string }>('SELECT refund_no, handler, via FROM sweep_refund_effects WHERE refund_no LIKE $1', [`${prefix}%`]);
    const byRefund = new Map<string, string[]>();
    for (const row of rows) byRefund.set(row.refund_no, [...(byRefund.get(row.refund_no) ?? []), row.handler]);
    console.log(`refund sweeps on ${kind}: ${JSON.stringify({ refunds: refunds.length, notificationCopies: copies.length, answers: countBy(answers.map((a) => a.outcome.kind)), viaSweep: rows.filter((r) => r.via === 'sweep').length, viaNotification: rows.filter((r) => r.via === 'notification').length })}`);
    const want = new Map<string, string[]>([...decided.succeed.map((r) => [r.mchRefundNo, ['refunded']] as [string, string[]]), ...[...decided.fail, ...decided.close].map((r) => [r.mchRefundNo, ['failed']] as [string, string[]])]);
    expect(Object.fromEntries(byRefund)).toEqual(Object.fromEntries(want));
    // The last round: the open ones left alone, the tampered one reported, nothing else.
    const last = await processors[0]!.sweep({ olderThanMs: 0 });
    expect(last.refunds).toMatchObject({ checked: open.length + 1, open: open.length, mismatched: 1, refunded: 0, refundFailed: 0, failed: 0 });
    expect(last.refunds.problems.map((p) => p.mchRefundNo)).toEqual([tampered.mchRefundNo]);
    expect(last.checked).toBe(0);
  });

  it('tracking keeps a refund apart from an order: the same id as both, a conflicting refund refused, an identical one a no-op', async () => {
    const prefix = `refund-tracking-${kind}-`;
    const store = await storeOf(kind, prefix);
    const processor = createNotificationProcessor({ ...merchant, store, client: direct(), logLevel: 'off' as const, onPaid: async () => {}, onRefunded: async () => {}, onRefundFailed: async () => {} });
    await processor.track({ payOrderId: 'X1', mchOrderNo: 'order-X1' });
    await processor.track({ refundOrderId: 'X1', mchRefundNo: 'refund-X1' });
    await processor.track({ refundOrderId: 'X1', mchRefundNo: 'refund-X1' });
    await expect(processor.track({ refundOrderId: 'X1', mchRefundNo: 'refund-other' })).rejects.toThrow(/refundOrderId "X1" is tracked with mchRefundNo "refund-X1"/);
    const report = await processor.sweep({ olderThanMs: 0, notFoundGraceMs: 60_000 });
    // Both unknown to the gateway, each read by its own query: one order, one refund.
    expect([report.checked, report.open, report.refunds.checked, report.refunds.open]).toEqual([1, 1, 1, 1]);
    await processor.untrack({ refundOrderId: 'X1', mchRefundNo: 'refund-X1' });
    const after = await processor.sweep({ olderThanMs: 0, notFoundGraceMs: 60_000 });
    expect([after.checked, after.refunds.checked]).toEqual([1, 0]);
  });

  it('records tracked by their key alone beside ones tracked by id: found ones settled once on several processors, absent ones never made and forgotten, a mismatch never acted on, a conflicting track refused atomically', async () => {
    const prefix = `by-key-${kind}-`;
    let time = Date.now();
    const now = () => time;
    const stores = await Promise.all(Array.from({ length: PROCESSORS }, () => storeOf(kind, prefix)));
    const ran: string[] = [];
    const processors = stores.map((store) =>
      createNotificationProcessor({
        ...merchant, store, client: direct(), logLevel: 'off' as const, busyWaitMs: 200, now,
        onPaid: async (paid) => void ran.push(`paid ${paid.mchOrderNo}`),
        onRefunded: async (refund) => void ran.push(`refunded ${refund.mchRefundNo}`),
        onRefundFailed: async (refund) => void ran.push(`refund failed ${refund.mchRefundNo}`),
      }),
    );
    const client = direct();
    const order = await client.unifiedOrder({ mchOrderNo: `${prefix}order`, wayCode: 'QR_CASHIER', amount: 1000, currency: 'USD', subject: 's', body: 'b' });
    gateway.payOrder(order.payOrderId);
    await client.refundOrder({ mchOrderNo: order.mchOrderNo, mchRefundNo: `${prefix}made`, refundAmount: 100, currency: 'USD', refundReason: 'r' });
    await client.refundOrder({ payOrderId: order.payOrderId, mchRefundNo: `${prefix}other-amount`, refundAmount: 100, currency: 'USD', refundReason: 'r' });
    const byId = await client.refundOrder({ payOrderId: order.payOrderId, mchRefundNo: `${prefix}by-id`, refundAmount: 100, currency: 'USD', refundReason: 'r' });
    const [first, second, third] = processors as [PaymentNotificationProcessor, PaymentNotificationProcessor, PaymentNotificationProcessor];
    await first.track({ mchOrderNo: order.mchOrderNo, mchRefundNo: `${prefix}made`, refundAmount: 100, currency: 'USD' });
    await second.track({ payOrderId: order.payOrderId, mchRefundNo: `${prefix}other-amount`, refundAmount: 999, currency: 'USD' });
    await third.track({ payOrderId: order.payOrderId, mchRefundNo: `${prefix}never`, refundAmount: 100, currency: 'USD' });
    await first.track({ mchOrderNo: order.mchOrderNo, amount: 1000, currency: 'USD' });
    await second.track({ mchOrderNo: `${prefix}never-order`, amount: 1000, currency: 'USD' });
    await third.track(byId); // tracked by its id, as before: read beside the keys
    // The same key with other values, from three processors at once: one kept, the others refused.
    const racing = await Promise.allSettled(processors.map((p, i) => p.track({ payOrderId: order.payOrderId, mchRefundNo: `${prefix}raced`, refundAmount: 10 + i, currency: 'USD' })));
    expect(racing.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(racing.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([expect.stringMatching(/is tracked with other values sent/), expect.stringMatching(/is tracked with other values sent/)]);
    await first.untrack({ payOrderId: order.payOrderId, mchRefundNo: `${prefix}raced`, refundAmount: 10, currency: 'USD' });

    const round = () => Promise.all(processors.map((p) => p.sweep({ olderThanMs: 0, concurrency: 4 })));
    const sum = (reports: SweepReport[], pick: (r: SweepReport) => number) => reports.reduce((total, r) => total + pick(r), 0);
    const firstRound = await round();
    expect(sum(firstRound, (r) => r.paid)).toBe(1);
    expect(sum(firstRound, (r) => r.refunds.refunded)).toBe(2);
    expect(sum(firstRound, (r) => r.refunds.mismatched)).toBe(1);
    expect(sum(firstRound, (r) => r.refunds.open + r.open)).toBe(2); // the two never made, within the grace
    time += 600_000;
    const later = await round();
    expect(later.flatMap((r) => [...r.neverMadeKeys, ...r.refunds.neverMadeKeys]).sort()).toEqual([`${prefix}never`, `${prefix}never-order`]);
    expect(sum(later, (r) => r.refunds.mismatched)).toBe(1);
    time += 1; // checked at time + 1 by the last round: due again
    const last = await round();
    expect(sum(last, (r) => r.checked + r.refunds.checked)).toBe(1); // the mismatch alone is still tracked
    expect(ran.sort()).toEqual([`paid ${order.mchOrderNo}`, `refunded ${prefix}by-id`, `refunded ${prefix}made`]);
  });
});

describe('the stores\' tracking', () => {
  it.each(['postgres', 'redis', 'sqlite'] as const)('on %s: concurrent check-outs hand each due order to one sweep, and forgetting is for good', async (kind) => {
    const tracking = (await storeOf(kind, `checkout-${kind}`)).tracking!;
    const now = Date.now();
    for (let i = 0; i < 200; i++) await tracking.track({ payOrderId: `P-CO-${i}`, mchOrderNo: `co-${i}`, trackedAt: now - 1_000, expiresAt: now + 7_200_000 });
    // A repeat keeps the first record and says which it kept (processor.track refuses it when it differs).
    expect(await tracking.track({ payOrderId: 'P-CO-0', mchOrderNo: 'co-other', trackedAt: now, expiresAt: now })).toBe('co-0');
    const taken: string[] = [];
    await Promise.all(Array.from({ length: 6 }, async () => {
      for (let page = await tracking.checkOut(now, now + 1, 17); page.length > 0; page = await tracking.checkOut(now, now + 1, 17)) taken.push(...page.map((o) => o.payOrderId));
    }));
    expect(taken).toHaveLength(200);
    expect(new Set(taken).size).toBe(200);
    // Checked at now + 1: due again for a sweep whose cutoff is later, with the first record kept.
    await tracking.notFound('P-CO-1', now + 5);
    await tracking.notFound('P-CO-1', now + 9);
    await tracking.forget('P-CO-2');
    const again = await tracking.checkOut(now + 1, now + 2, 1_000);
    expect(again).toHaveLength(199);
    expect(again.find((o) => o.payOrderId === 'P-CO-0')).toEqual({ payOrderId: 'P-CO-0', mchOrderNo: 'co-0', trackedAt: now - 1_000, expiresAt: now + 7_200_000, notFoundSince: undefined });
    expect(again.find((o) => o.payOrderId === 'P-CO-1')?.notFoundSince).toBe(now + 5);
    expect(again.map((o) => o.payOrderId)).not.toContain('P-CO-2');
  });

  it.each(['postgres', 'redis', 'sqlite'] as const)('on %s: a late notFound for an order forgotten meanwhile leaves nothing behind: tracked again, it starts afresh', async (kind) => {
    const tracking = (await storeOf(kind, `late-${kind}`)).tracking!;
    const now = Date.now();
    const order = { payOrderId: 'P-LATE-1', mchOrderNo: 'late-1', trackedAt: now - 1_000, expiresAt: now + 7_200_000 };
    // A sweep's query answered order_not_found while a notification (or untrack) forgot the order; the sweep records it after.
    await tracking.track(order);
    await tracking.forget(order.payOrderId);
    for (let i = 0; i < 50; i++) await tracking.notFound(`P-NEVER-${i}`, now - 86_400_000); // and for orders never tracked at all
    await tracking.notFound(order.payOrderId, now - 86_400_000);
    await tracking.track(order);
    expect(await tracking.checkOut(now, now + 1, 1_000)).toEqual([{ ...order, notFoundSince: undefined }]);
  });

  it.each(['postgres', 'redis', 'sqlite'] as const)('on %s: ids holding SQL and Lua metacharacters, braces and 2,000 characters are kept and forgotten as given, nothing else touched', async (kind) => {
    const store = await storeOf(kind, `hostile-${kind}`);
    const tracking = store.tracking!;
    const now = Date.now();
    const ids = [`x'); DROP TABLE "sweep_hostile_${kind}_tracked"; --`, '"; redis.call(\'FLUSHALL\') --]]', '{tracked}:orders', '%_\\*?[a]', 'é😀\u2028', 'P'.repeat(2_000)];
    for (const [i, id] of ids.entries()) await tracking.track({ payOrderId: id, mchOrderNo: `${id}#${i}`, trackedAt: now - 1_000, expiresAt: now + 1_000 });
    await tracking.track({ payOrderId: 'P-PLAIN', mchOrderNo: 'plain', trackedAt: now - 1_000, expiresAt: now + 1_000 });
    const taken = await tracking.checkOut(now, now + 1, 100);
    expect(taken.map((o) => [o.payOrderId, o.mchOrderNo]).sort()).toEqual([...ids.map((id, i) => [id, `${id}#${i}`]), ['P-PLAIN', 'plain']].sort());
    for (const id of ids) await tracking.forget(id);
    expect((await tracking.checkOut(now + 1, now + 2, 100)).map((o) => o.payOrderId)).toEqual(['P-PLAIN']);
    // The store's claims are untouched by what tracking wrote.
    expect(await store.runOnce('P-PLAIN:2', async () => {})).toMatchObject({ status: 'ran' });
  });

  it.each(['postgres', 'redis', 'sqlite'] as const)('on %s: processor.track refuses a conflicting record, repeats an identical one, and keeps an unknown expiry unknown', async (kind) => {
    const store = await storeOf(kind, `conflict-${kind}`);
    const processor = createNotificationProcessor({ ...merchant, store, onPaid: () => {}, logLevel: 'off' });
    const before = Date.now();
    await processor.track({ payOrderId: 'P-CF-1', mchOrderNo: 'cf-1' });
    await processor.track({ payOrderId: 'P-CF-1', mchOrderNo: 'cf-1' });
    await processor.track({ payOrderId: 'P-CF-2', mchOrderNo: 'cf-2' }, { expiredTime: 600 });
    const refusal = await processor.track({ payOrderId: 'P-CF-1', mchOrderNo: 'cf-other' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(GatewayValidationError);
    expect((refusal as GatewayValidationError).issues[0]).toMatchObject({ path: ['order', 'mchOrderNo'], message: expect.stringContaining('tracked with mchOrderNo "cf-1"') });
    const taken = await store.tracking!.checkOut(Date.now(), Date.now() + 1, 10);
    expect(taken.map(({ payOrderId, mchOrderNo, expiresAt }) => ({ payOrderId, mchOrderNo, expiresAt: expiresAt === undefined ? 'unknown' : expiresAt - 600_000 >= before })).sort((a, b) => a.payOrderId.localeCompare(b.payOrderId))).toEqual([
      { payOrderId: 'P-CF-1', mchOrderNo: 'cf-1', expiresAt: 'unknown' },
      { payOrderId: 'P-CF-2', mchOrderNo: 'cf-2', expiresAt: true },
    ]);
  });

  it('postgresStore.migrate() adds the tracking table to a database an earlier version made, from several instances at once', async () => {
    await pool.query('CREATE TABLE legacy_notifications (idempotency_key text PRIMARY KEY, received_at timestamptz NOT NULL DEFAULT now(), processed_at timestamptz)');
    const store = postgresStore({ pool, table: 'legacy_notifications' });
    await Promise.all([store.migrate(), store.migrate(), store.migrate()]);
    const { rows } = await pool.query("SELECT to_regclass('legacy_notifications_tracked') IS NOT NULL AS made");
    expect(rows[0].made).toBe(true);
    await store.tracking!.track({ payOrderId: 'P-LEGACY', mchOrderNo: 'legacy-1', trackedAt: 1, expiresAt: 2 });
    expect(await store.tracking!.checkOut(1, 3, 10)).toEqual([{ payOrderId: 'P-LEGACY', mchOrderNo: 'legacy-1', trackedAt: 1, expiresAt: 2, notFoundSince: undefined }]);
    expect(() => postgresStore({ pool, table: `t${'x'.repeat(51)}` })).toThrow(/at most 51 characters/);
  });
});

describe('a sweeping worker SIGKILLed mid-onPaid', () => {
  const WORKER = fileURLToPath(new URL('../support/fleet/sweep-worker.ts', import.meta.url));
  const ROOT = fileURLToPath(new URL('../..', import.meta.url));

  function launch(settings: SweepWorkerSettings): Promise<{ child: ChildProcess; sweep(): Promise<SweepReport | 'died'> }> {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER], { cwd: ROOT, env: { ...process.env, SWEEP_WORKER: JSON.stringify(settings) }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    let n = 0;
    const sweep = () =>
      new Promise<SweepReport | 'died'>((resolve, reject) => {
        const id = ++n;
        const onMessage = (message: { sweep?: number; report?: SweepReport; error?: string }) => {
          if (message.sweep !== id) return;
          child.off('exit', onExit);
          child.off('message', onMessage);
          if (message.error) reject(new Error(message.error));
          else resolve(message.report!);
        };
        const onExit = () => {
          child.off('message', onMessage);
          resolve('died');
        };
        child.on('message', onMessage);
        child.once('exit', onExit);
        child.send({ sweep: id });
      });
    return new Promise((resolve, reject) => {
      child.once('message', () => resolve({ child, sweep }));
      child.once('exit', () => reject(new Error('sweep worker exited before it was ready')));
    });
  }

  it.each(['postgres', 'redis', 'sqlite'] as const)('on %s: the order is fulfilled by another worker after the claim bound, once', async (kind) => {
    route = undefined;
    const prefix = `kill-${kind}-`;
    const dir = join(scratch, prefix);
    mkdirSync(join(dir, 'crash'), { recursive: true });
    const creating = direct();
    const orders: CreatedOrder[] = [];
    await drainNotifications();
    const tracker = createNotificationProcessor({ ...merchant, store: await storeOf(kind, prefix), onPaid, logLevel: 'off' });
    for (let i = 0; i < 12; i++) {
      const order = (await creating.unifiedOrder({ mchOrderNo: `${prefix}${i}`, wayCode: 'QR_CASHIER', amount: 200 + i, currency: 'USD', subject: 's', body: 'b' })) as CreatedOrder;
      await tracker.track(order);
      gateway.payOrder(order.payOrderId);
      orders.push(order);
    }
    const crashKey = `${orders[5]!.payOrderId}:2`;
    const settings = (worker: number): SweepWorkerSettings => ({
      worker, store: kind, postgresUrl: postgres.url, postgresTable: tableOf(prefix), redisUrl: redis.url, redisPrefix: `sweep-test:${prefix}:`, sqlitePath: sqlitePathOf(prefix), leaseMs: LEASE_MS,
      gatewayUrl: gatewayServer.url, merchant, log: join(dir, `worker-${worker}.log`), crashKeys: [crashKey], crashDir: join(dir, 'crash'),
    });
    const [a, b] = await Promise.all([launch(settings(0)), launch(settings(1))]);
    try {
      expect(await a.sweep()).toBe('died');
      const crashedAt = performance.now();
      // The other worker sweeps until everything is settled: after the Postgres rollback at once, after the Redis
      // lease or the SQLite claim's bound.
      const reports: SweepReport[] = [];
      for (let round = 0; round < 40; round++) {
        const report = await b.sweep();
        if (report === 'died') throw new Error('the second worker died');
        reports.push(report);
        if (report.checked === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const settledAfterMs = Math.round(performance.now() - crashedAt);
      const byOrder = await effects(prefix);
      const events = [0, 1].flatMap((w) => readFileSync(join(dir, `worker-${w}.log`), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { e: string; key: string; worker: number; t: string }));
      const crashRuns = events.filter((e) => e.key === crashKey);
      const starts = crashRuns.filter((e) => e.e === 'start').map((e) => BigInt(e.t));
      const rerunAfterMs = Number((starts[1]! - starts[0]!) / 1_000_000n);
      console.log(`sweep worker killed on ${kind}: ${JSON.stringify({ settledAfterMs, rerunAfterMs, rounds: reports.length, paidByTheOther: reports.reduce((n, r) => n + r.paid, 0), crashKeyEvents: crashRuns.map((e) => `${e.e}@${e.worker}`) })}`);
      expect(reports.at(-1)!.checked).toBe(0);
      // Every order fulfilled; the crashed one finished by the other worker, once.
      expect(crashRuns.filter((e) => e.e === 'crash').map((e) => e.worker)).toEqual([0]);
      expect(crashRuns.filter((e) => e.e === 'end').map((e) => e.worker)).toEqual([1]);
      // Every order's onPaid returned somewhere (a run the kill cut off before its commit or done mark ran again: at least once in the log).
      expect(new Set(events.filter((e) => e.e === 'end').map((e) => e.key))).toEqual(new Set(orders.map((o) => `${o.payOrderId}:2`)));
      // The surviving worker ran each order at most once.
      const survivorRuns = events.filter((e) => e.e === 'end' && e.worker === 1).map((e) => e.key);
      expect(new Set(survivorRuns).size).toBe(survivorRuns.length);
      if (kind === 'postgres') {
        // Transactional: the killed run's row was rolled back; each order's effect exists once.
        expect([...byOrder.values()].map((rows) => rows.length)).toEqual(orders.map(() => 1));
        expect(byOrder.size).toBe(orders.length);
      } else {
        // Not transactional: the killed runs' rows stay (as the Redis and SQLite stores document); the re-run waited
        // for the Redis lease or SQLite's claim bound. Both run from the claim, taken a few ms before onPaid logs its
        // start (CI once measured 997 ms on Redis), so the bound is checked against the logged starts with that slack;
        // a re-run that had not waited would come one sweep round (~100 ms) after the kill.
        expect(byOrder.size).toBe(orders.length);
        expect(rerunAfterMs).toBeGreaterThanOrEqual(LEASE_MS * 0.8);
      }
    } finally {
      a.child.kill('SIGKILL');
      b.child.kill('SIGKILL');
    }
  });
});

describe('a fault campaign during sweeps', () => {
  let proxy: FaultProxy | undefined;
  afterEach(async () => proxy?.close());

  it.each(['postgres', 'sqlite'] as const)('on %s: gateway 5xx, stalls past the timeout and dropped connections: 0 duplicates, 0 lost, 0 wrong', { timeout: 180_000 }, async (kind) => {
    route = undefined;
    const draw = random(SEED);
    proxy = await startFaultProxy(gatewayServer.url, (): ProxyFault => {
      const u = draw();
      return u < 0.3 ? PROXY_FAULTS[Math.floor((u / 0.3) * PROXY_FAULTS.length)]! : 'none';
    });
    const faulty = new GatewayClient({ baseUrl: proxy.url, ...merchant, timeout: 200, totalTimeout: 3_000, retry: { maxRetries: 3, initialDelayMs: 2, maxDelayMs: 20 } });
    const s = await scenario(kind, 'campaign', 120, faulty);
    const { rounds, paid } = await sweepUntilSettled(s.processors, 30);
    const byOrder = await effects(s.prefix);
    const all = rounds.flat();
    const failed = all.reduce((n, r) => n + r.failed, 0);
    const faults = Object.fromEntries(proxy.struck);
    console.log(`sweep fault campaign on ${kind}: ${JSON.stringify({ seed: SEED, orders: s.orders.length, paid: s.paid.length, rounds: rounds.length, fulfilledBySweeps: paid, lookupsFailedAndRetriedLater: failed, faults })}`);
    expectExactlyOnce(s, byOrder);
    expect(paid).toBe(s.paid.length);
    // The faults really struck, and the sweeps really met failures they had to come back for.
    expect(Object.entries(faults).filter(([k]) => k !== 'none').reduce((n, [, v]) => n + v, 0)).toBeGreaterThan(50);
    expect(failed).toBeGreaterThan(0);
  });
});
