// postgresStore against a real PostgreSQL server on loopback: the claim, the effect and the done mark in one
// transaction; busy at once while another transaction holds the key; everything rolled back on failure.
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNotificationProcessor, GatewayError, GatewayValidationError, type PayOrderNotification } from '../../src/index.js';
import { postgresStore, type PostgresContext, type PostgresStore } from '../../src/stores/postgres.js';
import { noteArrivals } from '../support/arrivals.js';
import { formBody, MERCHANT, signedFields } from '../support/notification.js';
import { startPostgres, type TestPostgres } from '../support/servers/postgres.js';

let server: TestPostgres;
let pool: pg.Pool;
let store: PostgresStore;

beforeAll(async () => {
  server = await startPostgres();
  pool = new pg.Pool({ connectionString: server.url, max: 8 });
  store = postgresStore({ pool });
  await store.migrate();
  await pool.query('CREATE TABLE shipments (key text NOT NULL, shipped_by text)');
});

afterAll(async () => {
  await pool?.end();
  await server?.stop();
});

beforeEach(async () => {
  await pool.query('TRUNCATE payment_gateway_notifications, shipments');
});

const ship = (key: string, by = 'test') => async ({ db }: PostgresContext) => {
  await db.query('INSERT INTO shipments (key, shipped_by) VALUES ($1, $2)', [key, by]);
};

async function shipments(key: string): Promise<number> {
  return (await pool.query('SELECT count(*)::int AS n FROM shipments WHERE key = $1', [key])).rows[0].n;
}

async function rowOf(key: string): Promise<{ processed: boolean } | undefined> {
  return (await pool.query('SELECT processed_at IS NOT NULL AS processed FROM payment_gateway_notifications WHERE idempotency_key = $1', [key])).rows[0];
}

describe('migrate', () => {
  it('creates the table once, safely when several instances start at the same time', async () => {
    const other = postgresStore({ pool, table: 'billing.gateway_notifications' });
    await pool.query('CREATE SCHEMA IF NOT EXISTS billing');
    await Promise.all(Array.from({ length: 6 }, () => other.migrate()));
    await other.migrate();
    const columns = await pool.query("SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = 'billing' AND table_name = 'gateway_notifications' ORDER BY ordinal_position");
    expect(columns.rows).toEqual([
      { column_name: 'idempotency_key', data_type: 'text', is_nullable: 'NO' },
      { column_name: 'received_at', data_type: 'timestamp with time zone', is_nullable: 'NO' },
      { column_name: 'processed_at', data_type: 'timestamp with time zone', is_nullable: 'YES' },
    ]);
    expect((await other.runOnce('k', ship('k'))).status).toBe('ran');
    expect((await pool.query('SELECT count(*)::int AS n FROM billing.gateway_notifications')).rows[0].n).toBe(1);
  });

  it.each(['notifications; DROP TABLE shipments', 'Notifications', 'a.b.c', '"quoted"', '1st', 'x'.repeat(64), ''])('refuses the table name %j', (table) => {
    expect(() => postgresStore({ pool, table })).toThrow(GatewayValidationError);
  });

  it('refuses a pool that is not one, and an idle timeout that is not a delay', () => {
    expect(() => postgresStore({ pool: {} as never })).toThrow(/pool: must be a pg Pool/);
    expect(() => postgresStore({ pool, idleTimeoutMs: 0 })).toThrow(/idleTimeoutMs: must be at least 1/);
  });
});

describe('before migrate', () => {
  it('a notification answers 500 with a GatewayError that says to call store.migrate(), not pg\'s raw error', async () => {
    const unmigrated = postgresStore({ pool, table: 'never_migrated' });
    let runs = 0;
    const processor = createNotificationProcessor({ ...MERCHANT, store: unmigrated, onPaid: async () => void runs++ });
    const reply = await processor.handle(formBody(signedFields()));
    expect(reply).toMatchObject({ status: 500, body: 'FAIL: processing failed', outcome: { kind: 'failed' } });
    const error = reply.outcome.kind === 'failed' ? reply.outcome.error : undefined;
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).message).toMatch(/table "never_migrated" does not exist\. Call `await store\.migrate\(\)` once at start-up/);
    expect(((error as GatewayError).cause as { code?: string }).code).toBe('42P01');
    expect(runs).toBe(0);
    await unmigrated.migrate();
    expect((await processor.handle(formBody(signedFields()))).outcome.kind).toBe('processed');
    expect(runs).toBe(1);
    await pool.query('DROP TABLE never_migrated');
  });
});

describe('runOnce', () => {
  it('runs the effect and marks the key processed in the same commit; a second call finds it done', async () => {
    expect(await store.runOnce('k1', ship('k1'))).toEqual({ status: 'ran' });
    expect(await rowOf('k1')).toEqual({ processed: true });
    expect(await store.runOnce('k1', ship('k1'))).toEqual({ status: 'done' });
    expect(await shipments('k1')).toBe(1);
  });

  it('keeps the effect invisible to others until the done mark commits with it', async () => {
    const gate = Promise.withResolvers<void>();
    let shipped = false;
    const running = store.runOnce('k2', async (context) => {
      await ship('k2')(context);
      shipped = true;
      await gate.promise;
    });
    await expect.poll(() => shipped).toBe(true);
    expect(await shipments('k2')).toBe(0);
    expect(await rowOf('k2')).toEqual({ processed: false });
    gate.resolve();
    await running;
    expect(await shipments('k2')).toBe(1);
    expect(await rowOf('k2')).toEqual({ processed: true });
  });

  it('answers busy at once while another transaction holds the key, and runs nothing', async () => {
    const gate = Promise.withResolvers<void>();
    let started = false;
    const first = store.runOnce('k3', async (context) => {
      started = true;
      await ship('k3')(context);
      await gate.promise;
    });
    await expect.poll(() => started).toBe(true);
    let ranSecond = false;
    const before = performance.now();
    expect(await store.runOnce('k3', async () => void (ranSecond = true))).toEqual({ status: 'busy' });
    expect(performance.now() - before).toBeLessThan(2_000); // no waiting on the lock
    expect(ranSecond).toBe(false);
    gate.resolve();
    expect(await first).toEqual({ status: 'ran' });
    expect(await store.runOnce('k3', async () => void (ranSecond = true))).toEqual({ status: 'done' });
    expect(await shipments('k3')).toBe(1);
  });

  it('rolls back the effect when it throws, leaves the key unprocessed, and runs it again next time', async () => {
    const failing = async (context: PostgresContext) => {
      await ship('k4', 'first')(context);
      throw new Error('warehouse API down');
    };
    await expect(store.runOnce('k4', failing)).rejects.toThrow('warehouse API down');
    expect(await shipments('k4')).toBe(0);
    expect(await rowOf('k4')).toEqual({ processed: false });
    expect(await store.runOnce('k4', ship('k4', 'second'))).toEqual({ status: 'ran' });
    expect((await pool.query('SELECT shipped_by FROM shipments WHERE key = $1', ['k4'])).rows).toEqual([{ shipped_by: 'second' }]);
  });

  it('rolls back everything when the connection dies mid-effect (as when the process dies), and aborts the signal', async () => {
    let signal: AbortSignal | undefined;
    const gate = Promise.withResolvers<void>();
    const dying = store.runOnce('k5', async (context) => {
      signal = context.signal;
      await ship('k5', 'dying')(context);
      const { rows } = await context.db.query('SELECT pg_backend_pid() AS pid');
      await pool.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
      await gate.promise.then(() => context.db.query('SELECT 1'));
    });
    await expect.poll(() => signal?.aborted).toBe(true);
    gate.resolve();
    await expect(dying).rejects.toThrow();
    expect(await shipments('k5')).toBe(0);
    expect(await rowOf('k5')).toEqual({ processed: false });
    expect(await store.runOnce('k5', ship('k5', 'redelivery'))).toEqual({ status: 'ran' });
    expect(await shipments('k5')).toBe(1);
  });

  it('frees the claim of a run that hangs past idleTimeoutMs: PostgreSQL ends its session and rolls it back', async () => {
    const impatient = postgresStore({ pool, idleTimeoutMs: 200 });
    let signal: AbortSignal | undefined;
    const hanging = impatient.runOnce('k9', async (context) => {
      signal = context.signal;
      await ship('k9', 'hung')(context);
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // awaiting something else than the database
      await context.db.query('SELECT 1');
    });
    await expect.poll(() => signal?.aborted, { timeout: 5_000 }).toBe(true);
    expect(await store.runOnce('k9', ship('k9', 'redelivery'))).toEqual({ status: 'ran' });
    await expect(hanging).rejects.toThrow();
    expect((await pool.query('SELECT shipped_by FROM shipments WHERE key = $1', ['k9'])).rows).toEqual([{ shipped_by: 'redelivery' }]);
  });

  it('frees the claim of a run stuck in one statement past idleTimeoutMs (waiting on a lock another session holds): the statement is cancelled and rolled back', async () => {
    const impatient = postgresStore({ pool, idleTimeoutMs: 200 });
    // Another session (an operator's forgotten transaction) holds a lock that onPaid's write waits for.
    const blocker = await pool.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE shipments IN EXCLUSIVE MODE');
    try {
      const stuck = impatient.runOnce('k10', ship('k10', 'stuck'));
      const outcome = await Promise.race([stuck.then(() => 'ran', (error: unknown) => error), new Promise((resolve) => setTimeout(resolve, 3_000, 'still holding the claim'))]);
      expect(outcome).toBeInstanceOf(Error);
      expect(String(outcome)).toMatch(/statement timeout/);
      expect(await rowOf('k10')).toEqual({ processed: false });
      // The claim is free: a later delivery runs (this one writes nothing the lock blocks).
      expect(await store.runOnce('k10', async () => {})).toEqual({ status: 'ran' });
    } finally {
      await blocker.query('ROLLBACK');
      blocker.release();
    }
  });

  it('refuses to record a run whose effect ended the transaction itself, or swallowed a failed statement', async () => {
    await expect(store.runOnce('k6', async ({ db }) => void (await db.query('COMMIT')))).rejects.toThrow(/onPaid ended the store's transaction/);
    expect(await rowOf('k6')).toEqual({ processed: false });
    const swallowing = async ({ db }: PostgresContext) => {
      await db.query('SELECT * FROM no_such_table').catch(() => {});
    };
    const error = await store.runOnce('k7', swallowing).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(await rowOf('k7')).toEqual({ processed: false });
    // The pool still works: no client was handed back inside a transaction.
    expect(await store.runOnce('k7', ship('k7'))).toEqual({ status: 'ran' });
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('a misused run is reported as a GatewayError with what to do', async () => {
    const error = await store.runOnce('k8', async ({ db }) => void (await db.query('ROLLBACK'))).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as Error).message).toMatch(/Write through context.db without ending the transaction/);
  });
});

describe("a payer's replay of their own paid message", () => {
  it('after a restart (a new pool, store and processor on the same database) is a duplicate, however old: onPaid runs once', async () => {
    let runs = 0;
    const paid = formBody(signedFields()); // signed in 2021: Postgres never forgets, so it has no horizon
    for (let instance = 0; instance < 3; instance++) {
      const restarted = new pg.Pool({ connectionString: server.url, max: 2 });
      try {
        const processor = createNotificationProcessor({ ...MERCHANT, store: postgresStore({ pool: restarted }), onPaid: async () => void runs++ });
        expect((await processor.handle(paid)).outcome.kind).toBe(instance === 0 ? 'processed' : 'duplicate');
      } finally {
        await restarted.end();
      }
    }
    expect(runs).toBe(1);
  });
});

describe('the processor on the Postgres store', () => {
  it('runs onPaid once for 12 concurrent deliveries, and a refused notification writes no row', async () => {
    let runs = 0;
    const noting = noteArrivals(store, 12);
    const processor = createNotificationProcessor({
      ...MERCHANT,
      store: noting.store,
      onPaid: async (notification: PayOrderNotification, { db }) => {
        runs++;
        await db.query('INSERT INTO shipments (key) VALUES ($1)', [notification.mchOrderNo]);
        await noting.arrived; // every delivery has reached the store while this one runs
      },
    });
    const forged = await processor.handle(formBody({ ...signedFields(), amount: '1' }));
    expect(forged.status).toBe(400);
    expect((await pool.query('SELECT count(*)::int AS n FROM payment_gateway_notifications')).rows[0].n).toBe(0);
    const replies = await Promise.all(Array.from({ length: 12 }, () => processor.handle(formBody(signedFields()))));
    expect(replies.map((r) => r.body)).toEqual(Array(12).fill('SUCCESS'));
    expect(replies.filter((r) => r.outcome.kind === 'processed')).toHaveLength(1);
    expect(runs).toBe(1);
    expect(await shipments('mho1623985457320')).toBe(1);
  });
});
