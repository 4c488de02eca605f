// redisStore against a real Redis server on loopback: the lease (claim, extension, expiry, compare-and-delete)
// and the done marker (compare-and-set), and what a run reports when it did not hold its lease to the end.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNotificationProcessor, GatewayValidationError } from '../../src/index.js';
import { redisStore } from '../../src/stores/redis.js';
import { noteArrivals } from '../support/arrivals.js';
import { formBody, freshFields, MERCHANT } from '../support/notification.js';
import { startRedis, type TestRedis } from '../support/servers/redis.js';

const PREFIX = 'payment-gateway-sdk:notification:';
let server: TestRedis;
let redis: Redis;

beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.url);
});

afterAll(async () => {
  redis?.disconnect();
  await server?.stop();
});

beforeEach(async () => {
  await redis.flushall();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const aborted = (signal: AbortSignal) => new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));

describe('runOnce', () => {
  it('runs the effect, then leaves a done marker with its TTL; a second call finds it done', async () => {
    const store = redisStore({ client: redis, doneTtlMs: 60_000 });
    let runs = 0;
    expect(await store.runOnce('k1', async () => void runs++)).toEqual({ status: 'ran', warning: undefined });
    expect(await redis.get(`${PREFIX}k1`)).toBe('done');
    expect(await redis.pttl(`${PREFIX}k1`)).toBeGreaterThan(55_000);
    expect(await store.runOnce('k1', async () => void runs++)).toEqual({ status: 'done' });
    expect(runs).toBe(1);
  });

  it('holds a lease with a random token and an expiry while the effect runs: busy for everyone else', async () => {
    const store = redisStore({ client: redis, leaseMs: 5_000 });
    const gate = Promise.withResolvers<void>();
    const running = store.runOnce('k2', () => gate.promise);
    await expect.poll(() => redis.get(`${PREFIX}k2`)).toMatch(/^lease:[0-9a-f-]{36}$/);
    expect(await redis.pttl(`${PREFIX}k2`)).toBeGreaterThan(4_000);
    let ranOther = false;
    expect(await redisStore({ client: redis }).runOnce('k2', async () => void (ranOther = true))).toEqual({ status: 'busy' });
    gate.resolve();
    await running;
    expect(ranOther).toBe(false);
  });

  it('releases the lease when the effect throws (compare-and-delete), so the next delivery runs it', async () => {
    const store = redisStore({ client: redis });
    await expect(store.runOnce('k3', async () => Promise.reject(new Error('warehouse API down')))).rejects.toThrow('warehouse API down');
    expect(await redis.exists(`${PREFIX}k3`)).toBe(0);
    expect((await store.runOnce('k3', async () => {})).status).toBe('ran');
  });

  it('extends the lease while a run outlasts it: no other run starts meanwhile', async () => {
    const store = redisStore({ client: redis, leaseMs: 150 });
    const gate = Promise.withResolvers<void>();
    const running = store.runOnce('k4', () => gate.promise);
    const other = redisStore({ client: redis, leaseMs: 150 });
    const answers = new Set<string>();
    for (const start = Date.now(); Date.now() - start < 900; await sleep(25)) answers.add((await other.runOnce('k4', async () => {})).status);
    expect([...answers]).toEqual(['busy']);
    gate.resolve();
    expect(await running).toEqual({ status: 'ran', warning: undefined });
  });

  it('after a crash (its holder gone silent), the lease expires and a later delivery runs the effect; the silent run learns it through its signal', async () => {
    const doomed = new Redis(server.url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    doomed.on('error', () => {});
    const crashing = redisStore({ client: doomed, leaseMs: 300 });
    let signal: AbortSignal | undefined;
    const gate = Promise.withResolvers<void>();
    const crashed = crashing.runOnce('k5', async (context) => {
      signal = context.signal;
      doomed.disconnect(); // the holder can no longer reach Redis: as good as dead to everyone else
      await gate.promise;
    });
    await expect.poll(() => signal !== undefined).toBe(true);
    const healthy = redisStore({ client: redis, leaseMs: 300 });
    const start = performance.now();
    let result;
    let effectStartedAt = 0;
    while ((result = await healthy.runOnce('k5', async () => void (effectStartedAt = performance.now()))).status === 'busy') await sleep(20);
    expect(result.status).toBe('ran');
    expect(effectStartedAt - start).toBeGreaterThan(150); // not before the lease could have run out
    expect(signal?.aborted).toBe(true);
    expect(String(signal?.reason)).toMatch(/may have expired/);
    gate.resolve();
    const late = await crashed;
    expect(late.status).toBe('ran');
    expect(late.warning).toMatch(/done marker could not be written/);
  });

  it('a lost lease aborts the signal, and the run that goes on anyway says it may have overlapped', async () => {
    const store = redisStore({ client: redis, leaseMs: 120 });
    let signal: AbortSignal | undefined;
    const result = await store.runOnce('k6', async (context) => {
      signal = context.signal;
      await redis.del(`${PREFIX}k6`); // the lease vanishes (a failover, an eviction)...
      await redisStore({ client: redis }).runOnce('k6', async () => {}); // ...and another delivery runs meanwhile
      await aborted(context.signal);
    });
    expect(signal?.aborted).toBe(true);
    expect(String(signal?.reason)).toMatch(/was lost/);
    expect(result).toEqual({ status: 'ran', warning: expect.stringMatching(/another delivery ran onPaid and finished meanwhile: the effect ran twice/) });
  });

  it('a failing run never deletes a lease it no longer holds', async () => {
    const store = redisStore({ client: redis, leaseMs: 5_000 });
    const gate = Promise.withResolvers<void>();
    let second: Promise<unknown> | undefined;
    await expect(
      store.runOnce('k7', async () => {
        await redis.del(`${PREFIX}k7`);
        second = store.runOnce('k7', () => gate.promise); // a new holder, with its own token
        await expect.poll(() => redis.get(`${PREFIX}k7`)).toMatch(/^lease:/);
        throw new Error('first run fails');
      }),
    ).rejects.toThrow('first run fails');
    expect(await redis.get(`${PREFIX}k7`)).toMatch(/^lease:/);
    expect((await store.runOnce('k7', async () => {})).status).toBe('busy');
    gate.resolve();
    await second;
    expect(await redis.get(`${PREFIX}k7`)).toBe('done');
  });

  it.each([
    [{ client: {} }, /client: must be an ioredis client/],
    [{ client: null }, /client/],
    [{ client: 'redis', leaseMs: 5 }, /leaseMs: must be at least 10/],
    [{ client: 'redis', doneTtlMs: 0.5 }, /doneTtlMs/],
    [{ client: 'redis', claimTimeoutMs: 0 }, /claimTimeoutMs: must be at least 1/],
    [{ client: 'redis', lease: 1000 }, /lease/],
  ])('refuses %j', (options, message) => {
    const withClient = options.client === 'redis' ? { ...options, client: redis } : options;
    expect(() => redisStore(withClient as never)).toThrow(GatewayValidationError);
    expect(() => redisStore(withClient as never)).toThrow(message);
  });
});

describe('a bounded claim and a horizon (issue 23)', () => {
  it('a hung onPaid gives its lease up after claimTimeoutMs: its signal aborts, the lease is deleted, a later delivery runs, the late finish says it ran twice', async () => {
    const store = redisStore({ client: redis, leaseMs: 90, claimTimeoutMs: 300 });
    const hung = Promise.withResolvers<void>();
    let signal: AbortSignal | undefined;
    const first = store.runOnce('k8', async (context) => {
      signal = context.signal;
      await hung.promise; // alive (the lease is extended) but never done
    });
    await expect.poll(() => signal !== undefined).toBe(true);
    await sleep(200); // past leaseMs: the holder kept extending, so the lease still holds
    expect((await store.runOnce('k8', async () => {})).status).toBe('busy');
    await expect.poll(() => signal?.aborted, { timeout: 2_000 }).toBe(true);
    expect(String(signal?.reason)).toMatch(/claimTimeoutMs \(300 ms\)/);
    await expect.poll(() => redis.exists(`${PREFIX}k8`)).toBe(0);
    let ran = false;
    expect(await store.runOnce('k8', async () => void (ran = true))).toEqual({ status: 'ran', warning: undefined });
    expect(ran).toBe(true);
    hung.resolve();
    expect(await first).toEqual({ status: 'ran', warning: expect.stringMatching(/claim was released.*the effect ran twice/) });
    expect(await redis.get(`${PREFIX}k8`)).toBe('done');
  });

  it("refuses a payer's replay of their own paid message once it is older than doneTtlMs: stale, onPaid not run", async () => {
    const store = redisStore({ client: redis, doneTtlMs: 400 });
    let runs = 0;
    const processor = createNotificationProcessor({ ...MERCHANT, store, onPaid: async () => void runs++ });
    const paid = formBody(freshFields());
    expect((await processor.handle(paid)).outcome.kind).toBe('processed');
    expect((await processor.handle(paid)).outcome.kind).toBe('duplicate');
    await sleep(500);
    // A new processor and store on the same Redis (a restart, a deploy): the same answer.
    const afterDeploy = createNotificationProcessor({ ...MERCHANT, store: redisStore({ client: redis, doneTtlMs: 400 }), onPaid: async () => void runs++ });
    for (const p of [processor, afterDeploy]) {
      const replay = await p.handle(paid);
      expect(replay).toMatchObject({ status: 400, body: 'FAIL: stale', outcome: { kind: 'stale' } });
      expect(replay.outcome.kind === 'stale' && replay.outcome.error.message).toMatch(/doneTtlMs.*Query the order/);
    }
    expect(runs).toBe(1);
    // The marker outlives doneTtlMs by a margin for clock differences with the gateway.
    expect(await redis.get(`${PREFIX}P202106181104177050002:2`)).toBe('done');
    expect(await redis.pttl(`${PREFIX}P202106181104177050002:2`)).toBeGreaterThan(23 * 3_600_000);
  });

  it("keeps a done marker as long as the horizon accepts its event, even when the gateway's clock runs days ahead (a reqTime in the future)", async () => {
    const doneTtlMs = 1_000;
    const ahead = String(Date.now() + 3 * 24 * 3_600_000); // every time the gateway signs is ahead
    let runs = 0;
    const processor = createNotificationProcessor({ ...MERCHANT, store: redisStore({ client: redis, doneTtlMs }), onPaid: async () => void runs++ });
    const paid = formBody(freshFields({ reqTime: ahead, successTime: ahead, createdAt: ahead }));
    expect((await processor.handle(paid)).outcome.kind).toBe('processed');
    // The horizon (now - doneTtlMs) lets a replay of this event through until its time + doneTtlMs: the marker must last that long.
    expect(await redis.pttl(`${PREFIX}P202106181104177050002:2`)).toBeGreaterThanOrEqual(Number(ahead) + doneTtlMs - Date.now());
    expect((await processor.handle(paid)).outcome.kind).toBe('duplicate');
    expect(runs).toBe(1);
  });

  it("refuses a payer's freshly re-signed paid message (a new reqTime, from the cashier's return redirect) once the payment is older than doneTtlMs", async () => {
    const store = redisStore({ client: redis, doneTtlMs: 400 });
    let runs = 0;
    const processor = createNotificationProcessor({ ...MERCHANT, store, onPaid: async () => void runs++ });
    const paidAt = String(Date.now());
    expect((await processor.handle(formBody(freshFields({ successTime: paidAt }))))).toMatchObject({ outcome: { kind: 'processed' } });
    await sleep(500);
    // Signed again now: its reqTime is within doneTtlMs, the payment is not; the marker could be gone by now.
    const resigned = await processor.handle(formBody(freshFields({ successTime: paidAt })));
    expect(resigned).toMatchObject({ status: 400, outcome: { kind: 'stale' } });
    expect(runs).toBe(1);
  });

  it('a new processor and store on the same Redis answer a replay within doneTtlMs as a duplicate', async () => {
    let runs = 0;
    const paid = formBody(freshFields());
    for (let instance = 0; instance < 3; instance++) {
      const processor = createNotificationProcessor({ ...MERCHANT, store: redisStore({ client: redis }), onPaid: async () => void runs++ });
      expect((await processor.handle(paid)).outcome.kind).toBe(instance === 0 ? 'processed' : 'duplicate');
    }
    expect(runs).toBe(1);
  });
});

describe('the processor on the Redis store', () => {
  it('runs onPaid once for 12 concurrent deliveries, and a refused notification writes no key', async () => {
    let runs = 0;
    const { store, arrived } = noteArrivals(redisStore({ client: redis }), 12);
    const processor = createNotificationProcessor({
      ...MERCHANT,
      store,
      onPaid: async () => {
        runs++;
        await arrived; // every delivery has reached the store while this one runs
      },
    });
    expect((await processor.handle(formBody({ ...freshFields(), amount: '1' }))).status).toBe(400);
    expect(await redis.dbsize()).toBe(0);
    const replies = await Promise.all(Array.from({ length: 12 }, () => processor.handle(formBody(freshFields()))));
    expect(replies.map((r) => r.body)).toEqual(Array(12).fill('SUCCESS'));
    expect(runs).toBe(1);
    expect(await redis.keys('*')).toEqual([`${PREFIX}P202106181104177050002:2`]);
  });
});
