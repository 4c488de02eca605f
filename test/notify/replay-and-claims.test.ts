// Issue 23, findings 4 and 5, on the memory store and the processor: a payer replaying their own genuine paid
// message (after a restart, after maxKeys forgot it) never runs onPaid twice; a processor outside tests needs
// a store; a hung onPaid loses its claim (its signal aborts) and a later delivery runs.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createNotificationProcessor, GatewayError, GatewayValidationError, memoryStore, type PayOrderNotification, type ProcessingContext } from '../../src/index.js';
import { formBody, freshFields, MERCHANT, signedFields } from '../support/notification.js';

type OnPaid = (notification: PayOrderNotification, context: ProcessingContext) => Promise<void>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("a payer's replay of their own paid message", () => {
  it('after a restart (a new memoryStore): refused as stale, 400, onPaid not run, and the outcome says to query the order', async () => {
    const onPaid = vi.fn<OnPaid>(async () => {});
    // A store that ran for long; the payment 6 minutes before the restart, past memoryStore's margin for the gateway's clock.
    const before = createNotificationProcessor({ ...MERCHANT, store: memoryStore({ since: 0 }), onPaid });
    const paid = formBody(freshFields({ successTime: String(Date.now() - 6 * 60_000) })); // the cashier's returnUrl redirect hands it to the payer
    expect((await before.handle(paid)).outcome.kind).toBe('processed');
    await sleep(5);
    const afterRestart = createNotificationProcessor({ ...MERCHANT, store: memoryStore(), onPaid });
    const replay = await afterRestart.handle(paid);
    expect(replay).toMatchObject({ status: 400, body: 'FAIL: stale', outcome: { kind: 'stale', notification: { idempotencyKey: 'P202106181104177050002:2' } } });
    const error = replay.outcome.kind === 'stale' ? replay.outcome.error : undefined;
    expect(error).toBeInstanceOf(GatewayError);
    expect(error?.message).toMatch(/genuine but was paid at .* \(successTime \d+\), before .*the handler did not run.*Query the order.*fulfil it only if you have not already/);
    expect(onPaid).toHaveBeenCalledTimes(1);
    // An event paid after the restart is processed as usual.
    expect((await afterRestart.handle(formBody(freshFields({ payOrderId: 'P-after-restart' })))).outcome.kind).toBe('processed');
  });

  it('after maxKeys forgot it: refused as stale (the horizon rose to the forgotten event), newer events still run', async () => {
    const onPaid = vi.fn<OnPaid>(async () => {});
    const store = memoryStore({ maxKeys: 2, since: 0 });
    const processor = createNotificationProcessor({ ...MERCHANT, store, onPaid });
    const base = Date.now();
    const paid = (i: number) => formBody(freshFields({ payOrderId: `P-${i}`, successTime: String(base + i) }));
    for (const i of [1, 2, 3]) expect((await processor.handle(paid(i))).outcome.kind).toBe('processed');
    expect(store.horizon?.()).toBe(base + 2); // P-1 forgotten: nothing paid at or before it is vouched for
    expect((await processor.handle(paid(1))).outcome.kind).toBe('stale');
    expect((await processor.handle(paid(3))).outcome.kind).toBe('duplicate');
    expect((await processor.handle(paid(4))).outcome.kind).toBe('processed');
    expect(onPaid.mock.calls.map(([n]) => n.payOrderId)).toEqual(['P-1', 'P-2', 'P-3', 'P-4']);
  });

  it('a key forgotten while its delivery waited on a busy claim is refused, not run again', async () => {
    const gate = Promise.withResolvers<void>();
    const onPaid = vi.fn<OnPaid>(async (n) => {
      if (n.payOrderId === 'P-slow') await gate.promise;
    });
    const store = memoryStore({ maxKeys: 1, since: 0 });
    const processor = createNotificationProcessor({ ...MERCHANT, store, onPaid, busyWaitMs: 2_000 });
    const slow = formBody(freshFields({ payOrderId: 'P-slow' }));
    const first = processor.handle(slow);
    await vi.waitFor(() => expect(onPaid).toHaveBeenCalledTimes(1));
    const waiting = processor.handle(slow); // busy: asks again until the first ends
    gate.resolve();
    await first;
    // Before the waiting delivery asks again, a newer event pushes P-slow out of the store.
    expect((await processor.handle(formBody(freshFields({ payOrderId: 'P-newer', successTime: String(Date.now() + 1) })))).outcome.kind).toBe('processed');
    expect((await waiting).outcome.kind).toBe('stale');
    expect(onPaid.mock.calls.map(([n]) => n.payOrderId)).toEqual(['P-slow', 'P-newer']);
  });

  it('memoryStore({ since: 0 }) vouches for every time: recorded notifications replay in tests', async () => {
    const onPaid = vi.fn<OnPaid>(async () => {});
    const processor = createNotificationProcessor({ ...MERCHANT, store: memoryStore({ since: 0 }), onPaid });
    expect((await processor.handle(formBody(freshFields({ reqTime: '1623985460123' })))).outcome.kind).toBe('processed');
  });

  it('a custom store without a horizon is never asked about one, and gets the event time (when it was paid, else when the order was created)', async () => {
    const runOnce = vi.fn(async (_key: string, effect: (context: ProcessingContext) => Promise<void>) => {
      await effect({ signal: new AbortController().signal });
      return { status: 'ran' as const };
    });
    const processor = createNotificationProcessor({ ...MERCHANT, store: { runOnce }, onPaid: async () => {} });
    expect((await processor.handle(formBody(signedFields({ reqTime: '1623985460123' })))).outcome.kind).toBe('processed');
    expect(runOnce).toHaveBeenLastCalledWith('P202106181104177050002:2', expect.any(Function), { eventTime: 1623985459000 });
    expect((await processor.handle(formBody(signedFields({ payOrderId: 'P-2', successTime: undefined })))).outcome.kind).toBe('processed');
    expect(runOnce).toHaveBeenLastCalledWith('P-2:2', expect.any(Function), { eventTime: 1623985457705 });
  });
});

describe("a custom store's horizon that is not a time", () => {
  it.each([[Number.NaN], [Number.POSITIVE_INFINITY], ['1623985460123']])('%s (e.g. Date.now() - an unset TTL): the delivery fails (500), the store is not asked, onPaid never runs', async (horizon) => {
    const runOnce = vi.fn(async (_key: string, effect: (context: ProcessingContext) => Promise<void>) => {
      await effect({ signal: new AbortController().signal });
      return { status: 'ran' as const };
    });
    const onPaid = vi.fn<OnPaid>(async () => {});
    const processor = createNotificationProcessor({ ...MERCHANT, store: { runOnce, horizon: () => horizon as number }, onPaid });
    const reply = await processor.handle(formBody(freshFields({ reqTime: '1623985460123' })));
    expect(reply).toMatchObject({ status: 500, outcome: { kind: 'failed' } });
    expect(reply.outcome.kind === 'failed' && String(reply.outcome.error)).toMatch(/horizon\(\) returned .*, not a time in milliseconds: fix the store/);
    expect(runOnce).not.toHaveBeenCalled();
    expect(onPaid).not.toHaveBeenCalled();
  });
});

describe('a processor without a store', () => {
  it.each(['production', 'development', ''])('throws outside tests (NODE_ENV=%j), naming the store option and the choices', (env) => {
    vi.stubEnv('NODE_ENV', env);
    const create = () => createNotificationProcessor({ ...MERCHANT, onPaid: async () => {} });
    expect(create).toThrow(GatewayValidationError);
    expect(create).toThrow(/store: is required outside tests.*sqliteStore\(\{ path \}\).*postgresStore\(\{ pool \}\) or redisStore\(\{ client \}\).*memoryStore\(\) to accept forgetting/);
  });

  it('throws when NODE_ENV is not set at all', () => {
    vi.stubEnv('NODE_ENV', undefined);
    expect(() => createNotificationProcessor({ ...MERCHANT, onSettlement: async () => {} })).toThrow(/store: is required outside tests/);
  });

  it('uses a memoryStore in tests (NODE_ENV=test), which refuses events from before it was created', async () => {
    vi.stubEnv('NODE_ENV', 'test');
    const onPaid = vi.fn<OnPaid>(async () => {});
    const processor = createNotificationProcessor({ ...MERCHANT, onPaid });
    expect((await processor.handle(formBody(freshFields()))).outcome.kind).toBe('processed');
    expect((await processor.handle(formBody(freshFields({ payOrderId: 'P-old', successTime: '1623985459000' })))).outcome.kind).toBe('stale');
    expect(onPaid).toHaveBeenCalledTimes(1);
  });
});

describe('a hung onPaid (memory store)', () => {
  it('loses its claim after claimTimeoutMs: its signal aborts, a later delivery runs onPaid, and the late finish says it ran twice', async () => {
    const hung = Promise.withResolvers<void>();
    const signals: AbortSignal[] = [];
    const onPaid = vi.fn<OnPaid>(async (_n, { signal }) => {
      signals.push(signal);
      if (signals.length === 1) await hung.promise; // the first run never settles on its own
    });
    const processor = createNotificationProcessor({ ...MERCHANT, store: memoryStore({ claimTimeoutMs: 100 }), onPaid, busyWaitMs: 0 });
    const paid = formBody(freshFields());
    const first = processor.handle(paid);
    await vi.waitFor(() => expect(onPaid).toHaveBeenCalledTimes(1));
    expect((await processor.handle(paid)).outcome.kind).toBe('busy');
    await vi.waitFor(() => expect(signals[0]?.aborted).toBe(true), { timeout: 2_000 });
    expect(signals[0]?.reason).toBeInstanceOf(GatewayError);
    expect(String(signals[0]?.reason)).toMatch(/claim was released: onPaid has run longer than claimTimeoutMs \(100 ms\)/);
    expect(await processor.handle(paid)).toMatchObject({ status: 200, outcome: { kind: 'processed' } });
    expect(signals[1]?.aborted).toBe(false);
    expect((await processor.handle(paid)).outcome.kind).toBe('duplicate');
    hung.resolve();
    expect((await first).outcome).toMatchObject({ kind: 'processed', warning: expect.stringMatching(/another delivery ran onPaid and finished meanwhile: the effect ran twice/) });
    expect(onPaid).toHaveBeenCalledTimes(2);
  });

  it('a run that finishes after its bound, with no other delivery meanwhile, is recorded done', async () => {
    const store = memoryStore({ claimTimeoutMs: 20 });
    const result = await store.runOnce('k', async ({ signal }) => {
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    });
    expect(result).toEqual({ status: 'ran', warning: expect.stringMatching(/no other delivery had claimed it: recorded done/) });
    expect((await store.runOnce('k', async () => {})).status).toBe('done');
  });

  it('refuses a claimTimeoutMs or since that is not a time', () => {
    expect(() => memoryStore({ claimTimeoutMs: 0 })).toThrow(/claimTimeoutMs: must be at least 1/);
    expect(() => memoryStore({ since: -1 })).toThrow(/since: must be at least 0/);
  });
});
