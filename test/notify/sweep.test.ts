// processor.track and processor.sweep against the mock gateway, with the memory store and a SQLite file: every
// paid order is fulfilled once whether its notification arrives or not, an unpaid or mismatching one never, and
// the report says what happened. Two processes sweeping one SQLite file: test/stores/sqlite.test.ts. The fleet,
// Postgres, Redis, SIGKILL and the fault campaign: test/stores/sweep.slow.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createNotificationProcessor,
  GatewayAbortError,
  GatewayClient,
  GatewayValidationError,
  memoryStore,
  PayOrderState,
  type NotificationStore,
  type PaidOrder,
  type PayOrder,
  type PaymentProcessorOptions,
  type SweepReport,
  type UnifiedOrderParams,
} from '../../src/index.js';
import { closeScratchStores, scratchStore } from '../support/scratch-stores.js';
import { createMockGateway } from '../../src/testing/index.js';
import type { SweepClient } from '../../src/notify/sweep-settings.js';

const merchant = { mchNo: 'M1700000026', appId: 'app-sweep', secret: 'sweep-secret-0123456789' };

type StoreKind = 'memory' | 'sqlite';

afterEach(closeScratchStores);

const storeOf = (kind: StoreKind): NotificationStore => scratchStore(kind);

/** A mock gateway, a client on it, a clock the processors read, and a fulfilment log. */
function setup(options: { kind?: StoreKind; notify?: boolean; store?: () => NotificationStore } = {}) {
  // Made before the mock, whose clock stands at its creation: a memory store vouches only for later events.
  const store = options.store?.() ?? storeOf(options.kind ?? 'memory');
  const gateway = createMockGateway({
    merchants: [merchant],
    // Notifications go straight into the processors' handleRequest (the first processor made), or nowhere.
    notifyFetch: async (url, init) => (options.notify && first ? first.handleRequest(new Request(url, init)) : new Response('down', { status: 503 })),
  });
  const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...merchant, fetch: gateway.fetch, retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 } });
  // Each reading moves the clock on by 1 ms, as real time does between two sweeps.
  let time = Date.UTC(2026, 10, 26, 12);
  const clock = { now: () => time++, advance: (ms: number) => void (time += ms) };
  const fulfilled: PaidOrder[] = [];
  const onPaid = vi.fn(async (paid: PaidOrder) => void fulfilled.push(paid));
  let first: ReturnType<typeof make> | undefined;
  const make = (extra: Partial<PaymentProcessorOptions> = {}) => createNotificationProcessor({ ...merchant, store, onPaid, client, now: clock.now, logLevel: 'off', busyWaitMs: 0, ...extra });
  first = make();
  const processor = first;
  let n = 0;
  const order = async (changes: Partial<UnifiedOrderParams> = {}) => {
    const created = await client.unifiedOrder({ mchOrderNo: `sw-${++n}`, wayCode: 'QR_CASHIER', amount: 1000 + n, currency: 'USD', subject: 'sweep', body: 'b', notifyUrl: 'http://127.0.0.1:9/notify', ...changes });
    await processor.track(created);
    return created;
  };
  return { gateway, client, clock, fulfilled, store, onPaid, processor, make, order };
}

const counts = ({ problems: _p, durationMs: _d, refunds: _r, transfers: _t, neverMadeKeys: _k, ...rest }: SweepReport) => rest;
const zero = { checked: 0, paid: 0, alreadyDone: 0, open: 0, closed: 0, failed: 0, busy: 0, notFound: 0, neverMade: 0, mismatched: 0, tooOld: 0 };

describe.each(['memory', 'sqlite'] as const)('processor.sweep on the %s store', (kind) => {
  it('with notifications off, fulfils every paid order once, forgets final ones, and a second sweep reports paid: 0', async () => {
    const { gateway, processor, order, fulfilled } = setup({ kind });
    const orders = await Promise.all(Array.from({ length: 20 }, () => order()));
    orders.slice(0, 12).forEach((o) => gateway.payOrder(o.payOrderId));
    orders.slice(12, 14).forEach((o) => gateway.failOrder(o.payOrderId));

    const first = await processor.sweep({ olderThanMs: 0 });
    expect(counts(first)).toEqual({ ...zero, checked: 20, paid: 12, closed: 2, open: 6 });
    expect(fulfilled.map((p) => p.payOrderId).sort()).toEqual(orders.slice(0, 12).map((o) => o.payOrderId).sort());
    // A swept record: the signed query's fields, the notification's key, no reqTime.
    expect(fulfilled[0]).toMatchObject({ state: PayOrderState.Succeeded, mchNo: merchant.mchNo, appId: merchant.appId });
    expect(fulfilled[0]).not.toHaveProperty('reqTime');
    expect(fulfilled.every((p) => p.idempotencyKey === `${p.payOrderId}:2` && p.reqTime === undefined)).toBe(true);

    const second = await processor.sweep({ olderThanMs: 0 });
    expect(counts(second)).toEqual({ ...zero, checked: 6, open: 6 });
    expect(fulfilled).toHaveLength(12);
    // An open order paid later is fulfilled by the next sweep.
    gateway.payOrder(orders[19]!.payOrderId);
    expect(counts(await processor.sweep({ olderThanMs: 0 }))).toEqual({ ...zero, checked: 6, paid: 1, open: 5 });
    expect(fulfilled).toHaveLength(13);
  });

  it('a notification and sweeps on several processors sharing the store, racing: one onPaid per order', async () => {
    const { gateway, processor, order, fulfilled, make, onPaid } = setup({ kind, notify: true });
    const others = [make(), make()];
    const orders = await Promise.all(Array.from({ length: 30 }, () => order()));
    orders.forEach((o) => gateway.payOrder(o.payOrderId));
    const [delivered, ...reports] = await Promise.all([
      gateway.deliverNotifications(),
      processor.sweep({ olderThanMs: 0 }),
      others[0]!.sweep({ olderThanMs: 0 }),
      others[1]!.sweep({ olderThanMs: 0, concurrency: 1 }),
    ]);
    expect(delivered).toHaveLength(30);
    expect(onPaid).toHaveBeenCalledTimes(30);
    expect(new Set(fulfilled.map((p) => p.payOrderId)).size).toBe(30);
    const swept = reports.reduce((sum, r) => sum + r.paid, 0);
    const viaNotification = fulfilled.filter((p) => p.reqTime !== undefined).length;
    expect(swept + viaNotification).toBe(30);
    // Whatever a busy order or an undelivered notification left is settled by the next round, still once.
    await gateway.deliverNotifications();
    const after = await Promise.all([processor, ...others].map((p) => p.sweep({ olderThanMs: 0 })));
    expect(after.reduce((sum, r) => sum + r.paid, 0)).toBe(0);
    expect(onPaid).toHaveBeenCalledTimes(30);
    expect(counts(await processor.sweep({ olderThanMs: 0 }))).toEqual(zero);
  });

  it('a processed notification forgets its tracked order: no sweep reads it again', async () => {
    const { gateway, processor, order, onPaid } = setup({ kind, notify: true });
    const paid = await order();
    const open = await order();
    gateway.payOrder(paid.payOrderId);
    expect((await gateway.deliverNotifications()).map((d) => d.delivered)).toEqual([true]);
    expect(counts(await processor.sweep({ olderThanMs: 0 }))).toEqual({ ...zero, checked: 1, open: 1 });
    expect(onPaid).toHaveBeenCalledTimes(1);
    expect(open.payOrderId).not.toBe(paid.payOrderId);
  });

  it('checks only orders tracked or last checked olderThanMs ago, so a fleet shares the work; limit caps a sweep', async () => {
    const { gateway, processor, order, clock } = setup({ kind });
    const orders = await Promise.all(Array.from({ length: 5 }, () => order()));
    orders.forEach((o) => gateway.payOrder(o.payOrderId));
    clock.advance(30_000);
    expect((await processor.sweep({ olderThanMs: 60_000 })).checked).toBe(0);
    clock.advance(31_000);
    expect(counts(await processor.sweep({ olderThanMs: 60_000, limit: 2 }))).toEqual({ ...zero, checked: 2, paid: 2 });
    expect(counts(await processor.sweep({ olderThanMs: 60_000 }))).toEqual({ ...zero, checked: 3, paid: 3 });
  });

  it('an expect function that checks nothing (a snake_case row: amount undefined) never fulfils a swept order: failed, still tracked', async () => {
    const { gateway, order, make, onPaid } = setup({ kind });
    const careless = make({ expect: async () => ({ amount: undefined, currency: 'USD' }) });
    gateway.payOrder((await order()).payOrderId);
    for (let sweep = 0; sweep < 2; sweep++) {
      const report = await careless.sweep({ olderThanMs: 0 });
      expect(counts(report)).toEqual({ ...zero, checked: 1, failed: 1 });
      expect(report.problems[0]!.message).toMatch(/amount/);
    }
    expect(onPaid).not.toHaveBeenCalled();
  });

  it('a paid order that does not match expect is never fulfilled, stays tracked and is reported every sweep', async () => {
    const { gateway, order, make, onPaid } = setup({ kind });
    const fixed = make({ expect: { currency: 'EUR' } });
    const byRecord = make({ expect: async (paid: { mchOrderNo: string }) => (paid.mchOrderNo === 'sw-2' ? null : { amount: 1, currency: 'USD' }) });
    const a = await order();
    const b = await order();
    gateway.payOrder(a.payOrderId);
    gateway.payOrder(b.payOrderId);
    const report = await fixed.sweep({ olderThanMs: 0 });
    expect(counts(report)).toEqual({ ...zero, checked: 2, mismatched: 2 });
    expect(report.problems[0]).toMatchObject({ kind: 'mismatched', message: expect.stringContaining('The paid order found by a sweep is genuine but not for what you expected') });
    const again = await byRecord.sweep({ olderThanMs: 0 });
    expect(counts(again)).toEqual({ ...zero, checked: 2, mismatched: 2 });
    const messages = again.problems.map((p) => `${p.mchOrderNo}: ${p.error instanceof Error ? (p.error as GatewayValidationError).issues?.map((i) => i.message).join() : ''} ${p.message}`).sort();
    expect(messages[0]).toMatch(/^sw-1: is 1001, but 1 was expected/);
    expect(messages[1]).toMatch(/^sw-2: .*found no record/);
    expect(onPaid).not.toHaveBeenCalled();
    // Settled by hand: untracked, no longer reported.
    await byRecord.untrack(a);
    await byRecord.untrack(b);
    expect(counts(await byRecord.sweep({ olderThanMs: 0 }))).toEqual(zero);
  });

  it('an expect function or onPaid that throws is a failure: the order stays tracked and the next sweep fulfils it', async () => {
    const { gateway, order, make, fulfilled } = setup({ kind });
    let down = true;
    const processor = make({ expect: async () => { if (down) throw new Error('orders database unreachable'); return { amount: 1001, currency: 'USD' }; } });
    gateway.payOrder((await order()).payOrderId);
    const report = await processor.sweep({ olderThanMs: 0 });
    expect(counts(report)).toEqual({ ...zero, checked: 1, failed: 1 });
    expect(report.problems[0]!.message).toContain('orders database unreachable');
    down = false;
    const throwing = make({ onPaid: async () => { throw new Error('warehouse down'); } });
    expect(counts(await throwing.sweep({ olderThanMs: 0 }))).toMatchObject({ failed: 1 });
    expect(counts(await processor.sweep({ olderThanMs: 0 }))).toEqual({ ...zero, checked: 1, paid: 1 });
    expect(fulfilled).toHaveLength(1);
  });

  it('closeExpired closes an open order past its expiry through a confirmed close, and only then', async () => {
    const { gateway, processor, client, clock } = setup({ kind });
    const params = { wayCode: 'QR_CASHIER', amount: 500, currency: 'USD', subject: 's', body: 'b' } as const;
    const expiring = await client.unifiedOrder({ ...params, mchOrderNo: 'exp-1', expiredTime: 600 });
    const paidLate = await client.unifiedOrder({ ...params, mchOrderNo: 'exp-2', expiredTime: 600 });
    await processor.track(expiring, { expiredTime: 600 });
    await processor.track(paidLate, { expiredTime: 600 });
    expect(counts(await processor.sweep({ olderThanMs: 0, closeExpired: true }))).toEqual({ ...zero, checked: 2, open: 2 });
    clock.advance(601_000);
    expect(counts(await processor.sweep({ olderThanMs: 0 }))).toEqual({ ...zero, checked: 2, open: 2 });
    gateway.payOrder(paidLate.payOrderId);
    expect(counts(await processor.sweep({ olderThanMs: 0, closeExpired: true }))).toEqual({ ...zero, checked: 2, closed: 1, paid: 1 });
    expect(gateway.order(expiring.payOrderId)!.state).toBe(PayOrderState.Closed);
    expect(gateway.order(paidLate.payOrderId)!.state).toBe(PayOrderState.Succeeded);
  });

  it('closes an order only after the validity its unifiedOrder sent; an order tracked without a known validity never', async () => {
    const { gateway, processor, client, clock } = setup({ kind });
    const params = { wayCode: 'QR_CASHIER', amount: 700, currency: 'USD', subject: 's', body: 'b' } as const;
    const forADay = await client.unifiedOrder({ ...params, mchOrderNo: 'day-1', expiredTime: 86_400 });
    const byDefault = await client.unifiedOrder({ ...params, mchOrderNo: 'default-1' });
    const elsewhere = await client.unifiedOrder({ ...params, mchOrderNo: 'ids-1', expiredTime: 600 });
    // What was sent, not what the gateway answered: the gateway's default (2 hours) when none was sent.
    expect([forADay.sentExpiredTime, byDefault.sentExpiredTime]).toEqual([86_400, 7_200]);
    await processor.track(forADay);
    await processor.track(byDefault);
    await processor.track({ payOrderId: elsewhere.payOrderId, mchOrderNo: elsewhere.mchOrderNo }); // bare ids: validity unknown
    clock.advance(2 * 3_600_000 + 1_000);
    expect(counts(await processor.sweep({ olderThanMs: 0, closeExpired: true }))).toEqual({ ...zero, checked: 3, open: 2, closed: 1 });
    expect([forADay, byDefault, elsewhere].map((o) => gateway.order(o.payOrderId)!.state)).toEqual([PayOrderState.Generated, PayOrderState.Closed, PayOrderState.Generated]);
    clock.advance(86_400_000);
    expect(counts(await processor.sweep({ olderThanMs: 0, closeExpired: true }))).toEqual({ ...zero, checked: 2, open: 1, closed: 1 });
    expect(gateway.order(forADay.payOrderId)!.state).toBe(PayOrderState.Closed);
    clock.advance(10 * 365 * 86_400_000);
    expect(counts(await processor.sweep({ olderThanMs: 0, closeExpired: true }))).toEqual({ ...zero, checked: 1, open: 1 });
    expect(gateway.order(elsewhere.payOrderId)!.state).toBe(PayOrderState.Generated);
  });

  it('refuses a track that conflicts with the tracked record, saying which field and what to do; an identical one is a no-op', async () => {
    const { gateway, client, processor, order, fulfilled } = setup({ kind });
    const first = await order();
    await expect(processor.track(first)).resolves.toBeUndefined();
    await expect(processor.track({ payOrderId: first.payOrderId, mchOrderNo: first.mchOrderNo })).resolves.toBeUndefined();
    const refusal = await processor.track({ payOrderId: first.payOrderId, mchOrderNo: 'not-sw-1' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(GatewayValidationError);
    expect((refusal as GatewayValidationError).issues).toEqual([
      { path: ['order', 'mchOrderNo'], message: expect.stringMatching(/is "not-sw-1", but payOrderId "P\d+" is tracked with mchOrderNo "sw-1".*processor.untrack it, then track this one/) },
    ]);
    // A wrong record tracked first is never replaced quietly: the right one is refused until the wrong one is untracked.
    const other = await client.unifiedOrder({ mchOrderNo: 'right-2', wayCode: 'QR_CASHIER', amount: 900, currency: 'USD', subject: 's', body: 'b' });
    await processor.track({ payOrderId: other.payOrderId, mchOrderNo: 'wrong-2' });
    await expect(processor.track(other)).rejects.toThrow(/tracked with mchOrderNo "wrong-2"/);
    await processor.untrack({ payOrderId: other.payOrderId, mchOrderNo: 'wrong-2' });
    await processor.track(other);
    gateway.payOrder(first.payOrderId);
    gateway.payOrder(other.payOrderId);
    expect(counts(await processor.sweep({ olderThanMs: 0 }))).toEqual({ ...zero, checked: 2, paid: 2 });
    expect(fulfilled.map((paid) => paid.mchOrderNo).sort()).toEqual(['right-2', 'sw-1']);
  });

  it('an order the gateway does not know is open for notFoundGraceMs, then reported as notFound, never fulfilled', async () => {
    const { processor, clock, onPaid } = setup({ kind });
    await processor.track({ payOrderId: 'P-NEVER-MADE', mchOrderNo: 'ghost-1' });
    expect(counts(await processor.sweep({ olderThanMs: 0, notFoundGraceMs: 60_000 }))).toEqual({ ...zero, checked: 1, open: 1 });
    clock.advance(60_000);
    const report = await processor.sweep({ olderThanMs: 0, notFoundGraceMs: 60_000 });
    expect(counts(report)).toEqual({ ...zero, checked: 1, notFound: 1 });
    expect(report.problems).toEqual([expect.objectContaining({ kind: 'notFound', payOrderId: 'P-NEVER-MADE', mchOrderNo: 'ghost-1' })]);
    expect(onPaid).not.toHaveBeenCalled();
  });

  it('acts only on the tracked order of this merchant application, whatever the client returns', async () => {
    const { gateway, client, store, onPaid, order, clock } = setup({ kind });
    const paid = await order();
    const other = await order();
    gateway.payOrder(paid.payOrderId);
    gateway.payOrder(other.payOrderId);
    const real = await client.query({ payOrderId: paid.payOrderId });
    // A client (or a stub of one) answering with another order's signed record, or another app's.
    const substitutes: Array<(record: PayOrder) => PayOrder> = [
      () => real,
      (record) => ({ ...record, appId: 'app-other' }),
      (record) => ({ ...record, mchNo: 'M-OTHER' }),
    ];
    for (const substitute of substitutes) {
      const lying: SweepClient = { query: async (ids) => substitute(await client.query(ids)), close: (ids, o) => client.close(ids, o) };
      const processor = createNotificationProcessor({ ...merchant, store, onPaid, client: lying, now: clock.now, logLevel: 'off' });
      const report = await processor.sweep({ olderThanMs: 0 });
      expect(report.mismatched).toBeGreaterThanOrEqual(1);
      expect(report.problems.map((p) => p.message).join()).toContain('not the tracked order');
    }
    expect(onPaid.mock.calls.map(([p]) => p.payOrderId)).not.toContain(other.payOrderId);
    // A client of another merchant application is refused at construction.
    const foreign = new GatewayClient({ baseUrl: 'https://gateway.test', ...merchant, appId: 'app-other', fetch: gateway.fetch });
    expect(() => createNotificationProcessor({ ...merchant, onPaid, client: foreign })).toThrow(GatewayValidationError);
    // So is a client that does not verify the answers' signatures: a forged "paid" answer would be fulfilled.
    const unverified = new GatewayClient({ baseUrl: 'https://gateway.test', ...merchant, fetch: gateway.fetch, verifyResponses: false, logLevel: 'off' });
    expect(() => createNotificationProcessor({ ...merchant, onPaid, client: unverified })).toThrow(/verifies the answers' signatures/);
  });

  it('a lookup failing through the retries (5xx, resets) is counted failed and the order is checked again', async () => {
    const { gateway, processor, order, fulfilled } = setup({ kind });
    gateway.payOrder((await order()).payOrderId);
    gateway.injectFault({ kind: 'html502', operation: 'query', when: 'before', times: 3 });
    const report = await processor.sweep({ olderThanMs: 0 });
    expect(counts(report)).toEqual({ ...zero, checked: 1, failed: 1 });
    expect(report.problems[0]!.message).toMatch(/the query failed/);
    gateway.injectFault({ kind: 'connectionReset', operation: 'query', when: 'after', times: 2 });
    expect(counts(await processor.sweep({ olderThanMs: 0 }))).toEqual({ ...zero, checked: 1, paid: 1 });
    expect(fulfilled).toHaveLength(1);
  });

  it('never fulfils a payment older than the store remembers processed events (its horizon)', async () => {
    const { gateway, clock, client, onPaid } = setup({ kind });
    const inner = storeOf(kind);
    // A store that remembers processed events for an hour (as Redis's doneTtlMs does), on the gateway's clock.
    const store: NotificationStore = { runOnce: inner.runOnce, tracking: inner.tracking, horizon: () => gateway.now() - 3_600_000 };
    const processor = createNotificationProcessor({ ...merchant, store, onPaid, client, now: clock.now, logLevel: 'off' });
    const created = await client.unifiedOrder({ mchOrderNo: 'old-1', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', subject: 's', body: 'b' });
    await processor.track(created);
    gateway.payOrder(created.payOrderId);
    gateway.advanceTime(3_600_001); // the payment is now an hour and a millisecond old
    const report = await processor.sweep({ olderThanMs: 0 });
    expect(counts(report)).toEqual({ ...zero, checked: 1, tooOld: 1 });
    expect(onPaid).not.toHaveBeenCalled();
  });

  it('bounds concurrency, stops on its signal, and logs one line per sweep', async () => {
    const { gateway, client, store, onPaid, order, clock } = setup({ kind });
    for (let i = 0; i < 12; i++) gateway.payOrder((await order()).payOrderId);
    let inFlight = 0;
    let most = 0;
    const counting: SweepClient = {
      query: async (ids) => {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 2));
        return client.query(ids).finally(() => inFlight--);
      },
      close: (ids, o) => client.close(ids, o),
    };
    const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn(), debug: vi.fn() };
    const processor = createNotificationProcessor({ ...merchant, store, onPaid, client: counting, now: clock.now, logger });
    const controller = new AbortController();
    controller.abort(new Error('shutting down'));
    await expect(processor.sweep({ olderThanMs: 0, signal: controller.signal })).rejects.toBeInstanceOf(GatewayAbortError);
    expect((await processor.sweep({ olderThanMs: 0, concurrency: 3 })).paid).toBe(12);
    expect(most).toBe(3);
    expect(logger.info).toHaveBeenCalledTimes(1);
    expect(logger.info.mock.calls[0]![0]).toMatch(/^\[payment-gateway-sdk\] sweep: checked 12, paid 12, alreadyDone 0, open 0/);
    expect(logger.info.mock.calls[0]![1]).toMatchObject({ checked: 12, paid: 12 });
  });

  it("the sweep's line follows the processor's logLevel: info for a clean sweep, warn when something needs you", async () => {
    const { client, clock, onPaid } = setup({ kind });
    const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn(), debug: vi.fn() };
    const quiet = createNotificationProcessor({ ...merchant, onPaid, client, now: clock.now, logger, logLevel: 'warn' });
    await quiet.sweep({ olderThanMs: 0 });
    expect(logger.info).not.toHaveBeenCalled();
    await quiet.track({ payOrderId: 'P-NONE', mchOrderNo: 'none' });
    await quiet.sweep({ olderThanMs: 0, notFoundGraceMs: 0 });
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]![0]).toMatch(/sweep: checked 1, .*notFound 1/);
    const silent = createNotificationProcessor({ ...merchant, onPaid, client, now: clock.now, logger, logLevel: 'off' });
    await silent.track({ payOrderId: 'P-NONE', mchOrderNo: 'none' });
    await silent.sweep({ olderThanMs: 0, notFoundGraceMs: 0 });
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });

});

describe('processor.sweep', () => {
  it('refuses what it cannot do: no client, a store without tracking, bad options, an order without ids', async () => {
    const { client, onPaid } = setup();
    const noClient = createNotificationProcessor({ ...merchant, onPaid, logLevel: 'off' });
    await noClient.track({ payOrderId: 'P1', mchOrderNo: 'o-1' });
    await expect(noClient.sweep({ olderThanMs: 0 })).rejects.toThrow(/needs a client/);
    const bare = createNotificationProcessor({ ...merchant, onPaid, client, store: { runOnce: memoryStore().runOnce } });
    await expect(bare.track({ payOrderId: 'P1', mchOrderNo: 'o-1' })).rejects.toThrow(/store that can track orders/);
    await expect(bare.sweep({ olderThanMs: 0 })).rejects.toThrow(/store that can track orders/);
    const processor = createNotificationProcessor({ ...merchant, onPaid, client });
    await expect(processor.sweep({ olderThanMs: -1 })).rejects.toBeInstanceOf(GatewayValidationError);
    await expect(processor.sweep({ olderThanMs: 0, concurrency: 65 })).rejects.toBeInstanceOf(GatewayValidationError);
    await expect(processor.sweep({} as never)).rejects.toBeInstanceOf(GatewayValidationError);
    await expect(processor.track({ payOrderId: '', mchOrderNo: 'o' })).rejects.toBeInstanceOf(GatewayValidationError);
    expect(() => createNotificationProcessor({ ...merchant, onSettlement: () => {}, client } as never)).toThrow(/client: is for track and sweep, which serve onPaid/);
  });

  it('a store that cannot hand out tracked orders fails the sweep, after the checks under way, with a warning line', async () => {
    const { client, clock, onPaid } = setup();
    const inner = memoryStore();
    let pages = 0;
    const tracking = { ...inner.tracking!, checkOut: async (...args: Parameters<NonNullable<NotificationStore['tracking']>['checkOut']>) => {
      if (++pages > 1) throw new Error('connection to the store lost');
      return inner.tracking!.checkOut(...args);
    } };
    const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn(), debug: vi.fn() };
    const processor = createNotificationProcessor({ ...merchant, store: { runOnce: inner.runOnce, tracking }, onPaid, client, now: clock.now, logger });
    for (let i = 0; i < 40; i++) await processor.track({ payOrderId: `P-STORE-${i}`, mchOrderNo: `store-${i}` });
    await expect(processor.sweep({ olderThanMs: 0, notFoundGraceMs: 60_000, concurrency: 2 })).rejects.toThrow('connection to the store lost');
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]![0]).toMatch(/sweep: checked 16, .*open 16.*; stopped: connection to the store lost/);
  });

  it.each(['memory', 'sqlite'] as const)('on the %s store, a track with an expiredTime no store can hold is refused, and cannot stop every later sweep', async (kind) => {
    const { gateway, processor, order, fulfilled } = setup({ kind });
    // 2^53 - 1 seconds: an expiry past what a JavaScript number (and a SQLite row read back) holds exactly.
    await expect(processor.track({ payOrderId: 'P-HUGE', mchOrderNo: 'huge' }, { expiredTime: Number.MAX_SAFE_INTEGER })).rejects.toBeInstanceOf(GatewayValidationError);
    await expect(processor.track({ payOrderId: 'P-HUGE', mchOrderNo: 'huge' }, { expiredTime: 315_360_001 })).rejects.toThrow(/expiredTime/);
    await processor.track({ payOrderId: 'P-DECADE', mchOrderNo: 'decade' }, { expiredTime: 315_360_000 });
    gateway.payOrder((await order()).payOrderId);
    const report = await processor.sweep({ olderThanMs: 0, notFoundGraceMs: 60_000 });
    expect(counts(report)).toEqual({ ...zero, checked: 2, paid: 1, open: 1 });
    expect(fulfilled).toHaveLength(1);
  });

  it('judges the horizon when it claims, not before expect: a done mark forgotten while expect ran never lets onPaid run again', async () => {
    // maxKeys 1: the second payment processed forgets the first's done mark, and the horizon passes its successTime.
    let entered!: () => void;
    const sweepInExpect = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { gateway, client, make, onPaid } = setup({ notify: true, store: () => memoryStore({ maxKeys: 1 }) });
    const processor = make({
      // The sweep's expect (a swept record has no reqTime) waits: a slow database read.
      expect: async (n: PaidOrder) => {
        if (n.reqTime === undefined) entered(), await gate;
        return { mchOrderNo: n.mchOrderNo, amount: n.amount, currency: n.currency };
      },
    });
    const params = { wayCode: 'QR_CASHIER', amount: 500, currency: 'USD', subject: 's', body: 'b', notifyUrl: 'http://127.0.0.1:9/notify' } as const;
    const a = await client.unifiedOrder({ ...params, mchOrderNo: 'race-a' });
    const b = await client.unifiedOrder({ ...params, mchOrderNo: 'race-b' });
    await processor.track(a);
    gateway.payOrder(a.payOrderId);
    const sweeping = processor.sweep({ olderThanMs: 0 });
    await sweepInExpect;
    await gateway.deliverNotifications(); // a's notification: onPaid runs, its done mark kept
    gateway.payOrder(b.payOrderId);
    await gateway.deliverNotifications(); // b's: a's done mark forgotten, the horizon past a's successTime
    release();
    const report = await sweeping;
    expect(onPaid.mock.calls.map(([p]) => p.mchOrderNo)).toEqual(['race-a', 'race-b']);
    expect(counts(report)).toEqual({ ...zero, checked: 1, tooOld: 1 });
  });

  it('a store whose horizon() is no time (NaN) fails the sweep closed, as it fails a notification: onPaid never runs', async () => {
    const { gateway, client, clock, onPaid } = setup();
    const inner = memoryStore({ since: 0 });
    const store: NotificationStore = { runOnce: inner.runOnce, tracking: inner.tracking, horizon: () => Number.NaN };
    const processor = createNotificationProcessor({ ...merchant, store, onPaid, client, now: clock.now, logLevel: 'off' });
    const created = await client.unifiedOrder({ mchOrderNo: 'nan-1', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', subject: 's', body: 'b' });
    await processor.track(created);
    gateway.payOrder(created.payOrderId);
    const report = await processor.sweep({ olderThanMs: 0 });
    expect(counts(report)).toEqual({ ...zero, checked: 1, failed: 1 });
    expect(report.problems[0]!.message).toMatch(/horizon\(\) returned NaN/);
    expect(onPaid).not.toHaveBeenCalled();
  });

  it("a custom store whose tracking.track does not say which record it kept fails track closed", async () => {
    const inner = memoryStore();
    const tracking = { ...inner.tracking!, track: async () => undefined as unknown as string };
    const processor = createNotificationProcessor({ ...merchant, onPaid: () => {}, store: { runOnce: inner.runOnce, tracking } });
    await expect(processor.track({ payOrderId: 'P1', mchOrderNo: 'o-1' })).rejects.toThrow(/resolved to no mchOrderNo/);
  });

  it('the memory store bounds tracked orders by maxKeys: track refuses rather than forget one', async () => {
    const processor = createNotificationProcessor({ ...merchant, onPaid: () => {}, store: memoryStore({ maxKeys: 2 }) });
    await processor.track({ payOrderId: 'P1', mchOrderNo: 'o-1' });
    await processor.track({ payOrderId: 'P2', mchOrderNo: 'o-2' });
    await processor.track({ payOrderId: 'P1', mchOrderNo: 'o-1' });
    await expect(processor.track({ payOrderId: 'P3', mchOrderNo: 'o-3' })).rejects.toThrow(/is full/);
  });
});
