// Issue 31, the sweep half of refunds: processor.track takes a refund and processor.sweep settles it with a signed
// refundQuery through its notification's own claim, against the mock gateway: onRefunded / onRefundFailed run once
// each for refunds that ended without a notification, once when a notification also arrives (before, after, or
// while refundOrder's answer is lost), never for an open, unknown, substituted or unexpected one. Postgres, Redis and
// SQLite under several processes: test/stores/sweep.slow.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createNotificationProcessor,
  GatewayClient,
  GatewayValidationError,
  memoryStore,
  type NotificationProcessorOptions,
  type NotificationStore,
  type PaidOrder,
  type SweepReport,
  Refunds,
} from '../../src/index.js';
import type { SweepClient } from '../../src/notify/sweep-settings.js';
import { closeScratchStores, scratchStore } from '../support/scratch-stores.js';
import { createMockGateway, REFUND_EXPIRY_MS } from '../../src/testing/index.js';

const merchant = { mchNo: 'M1700000031', appId: 'app-refund-sweep', secret: 'refund-sweep-secret-0123456789' };
const other = { mchNo: 'M1700000032', appId: 'app-other', secret: 'other-secret-0123456789abcdef' };
const NOTIFY_URL = 'http://127.0.0.1:9/notify';

type Settled = Refunds.Notification | Refunds.Swept;

afterEach(closeScratchStores);

const storeOf = (kind: 'memory' | 'sqlite'): NotificationStore => scratchStore(kind);

/** A mock gateway with paid orders to refund, a client on it, processors sharing one store, and what each handler got. */
function setup(options: { kind?: 'memory' | 'sqlite'; notify?: boolean; clientFetch?: (fetch: typeof globalThis.fetch) => typeof globalThis.fetch } = {}) {
  const store = storeOf(options.kind ?? 'memory');
  const gateway = createMockGateway({
    merchants: [merchant, other],
    notifyFetch: async (url, init) => (options.notify && first ? first.handleRequest(new Request(url, init)) : new Response('down', { status: 503 })),
  });
  const fetch = options.clientFetch ? options.clientFetch(gateway.fetch) : gateway.fetch;
  const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...merchant, fetch, retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 } });
  let time = Date.UTC(2026, 10, 27, 12);
  const clock = { now: () => time++, advance: (ms: number) => void (time += ms) };
  const refunded: Settled[] = [];
  const failed: Settled[] = [];
  const onPaid = vi.fn(async (_paid: PaidOrder) => {});
  const onRefunded = vi.fn(async (refund: Settled) => void refunded.push(refund));
  const onRefundFailed = vi.fn(async (refund: Settled) => void failed.push(refund));
  let first: ReturnType<typeof make> | undefined;
  const make = (extra: Partial<NotificationProcessorOptions> = {}) =>
    createNotificationProcessor({ ...merchant, store, onPaid, onRefunded, onRefundFailed, client, now: clock.now, logLevel: 'off', busyWaitMs: 0, ...extra } as NotificationProcessorOptions & { onRefunded: typeof onRefunded });
  first = make();
  const processor = first;
  let n = 0;
  /** A paid order of 1000 USD, refunded by 400 (tracked unless told otherwise). */
  const refund = async (changes: { notifyUrl?: string | undefined; track?: boolean } = {}) => {
    const order = await client.unifiedOrder({ mchOrderNo: `rs-${++n}`, wayCode: 'QR_CASHIER', amount: 1000, currency: 'USD', subject: 'refund sweep', body: 'b' });
    gateway.payOrder(order.payOrderId);
    const notifyUrl = 'notifyUrl' in changes ? changes.notifyUrl : NOTIFY_URL;
    const made = await client.refundOrder({ payOrderId: order.payOrderId, mchRefundNo: `refund-${n}`, refundAmount: 400, currency: 'USD', refundReason: 'returned', ...(notifyUrl === undefined ? {} : { notifyUrl }) });
    if (changes.track !== false) await processor.track(made);
    return made;
  };
  return { gateway, client, clock, store, processor, make, refund, refunded, failed, onPaid, onRefunded, onRefundFailed };
}

const refundCounts = ({ problems: _p, neverMadeKeys: _k, ...rest }: Refunds.SweepReport) => rest;
const zero = { checked: 0, refunded: 0, refundFailed: 0, alreadyDone: 0, open: 0, failed: 0, busy: 0, notFound: 0, neverMade: 0, mismatched: 0, tooOld: 0 };

describe.each(['memory', 'sqlite'] as const)('processor.sweep of refunds on the %s store', (kind) => {
  it('runs onRefunded for a succeeded refund, onRefundFailed for a failed and a closed one, once each, without notifications; leaves refunds still 1 alone', async () => {
    const { gateway, processor, refund, refunded, failed, onPaid } = setup({ kind });
    gateway.setRefundMode('hold');
    const [succeeds, fails, closes, stays] = [await refund(), await refund(), await refund({ notifyUrl: undefined }), await refund()];
    gateway.settleRefund(succeeds.refundOrderId, { to: 'succeed' });
    gateway.settleRefund(fails.refundOrderId, { to: 'fail', errCode: 'NOT_ENOUGH_BALANCE' });
    gateway.settleRefund(closes.refundOrderId, { to: 'close' });

    const report = await processor.sweep({ olderThanMs: 0 });
    expect(refundCounts(report.refunds)).toEqual({ ...zero, checked: 4, refunded: 1, refundFailed: 2, open: 1 });
    // Orders are counted apart: no order was tracked.
    expect(report.checked).toBe(0);
    expect(refunded.map((r) => r.refundOrderId)).toEqual([succeeds.refundOrderId]);
    expect(failed.map((r) => [r.refundOrderId, r.state]).sort()).toEqual([[fails.refundOrderId, Refunds.State.Failed], [closes.refundOrderId, Refunds.State.Closed]].sort());
    // A swept refund: the signed query's record, the notification's key, no reqTime.
    expect(refunded[0]).toMatchObject({ state: 2, mchNo: merchant.mchNo, appId: merchant.appId, mchRefundNo: succeeds.mchRefundNo, idempotencyKey: `refund:${succeeds.refundOrderId}:2` });
    expect(refunded[0]).not.toHaveProperty('reqTime');
    expect(onPaid).not.toHaveBeenCalled();

    // Final refunds are forgotten; the open one is read again, and settled once it ends (closed by the gateway's clock).
    expect(refundCounts((await processor.sweep({ olderThanMs: 0 })).refunds)).toEqual({ ...zero, checked: 1, open: 1 });
    gateway.advanceTime(REFUND_EXPIRY_MS);
    expect(refundCounts((await processor.sweep({ olderThanMs: 0 })).refunds)).toEqual({ ...zero, checked: 1, refundFailed: 1 });
    expect(failed.map((r) => r.refundOrderId)).toContain(stays.refundOrderId);
    expect(refundCounts((await processor.sweep({ olderThanMs: 0 })).refunds)).toEqual(zero);
    expect(refunded).toHaveLength(1);
    expect(failed).toHaveLength(3);
  });

  it('a refund swept, then notified, runs onRefunded once; one notified, then swept, too (alreadyDone)', async () => {
    const { gateway, processor, refund, refunded, onRefunded } = setup({ kind, notify: true });
    const swept = await refund();
    // The first delivery fails (the processor's notify URL is down), so the sweep gets there first.
    const first = await processor.sweep({ olderThanMs: 0 });
    expect(refundCounts(first.refunds)).toEqual({ ...zero, checked: 1, refunded: 1 });
    const [attempt] = await gateway.deliverNotifications();
    expect(attempt?.delivered).toBe(true);
    expect(onRefunded).toHaveBeenCalledTimes(1);

    const notified = await refund({ track: false });
    await gateway.deliverNotifications();
    expect(onRefunded).toHaveBeenCalledTimes(2);
    await processor.track(notified);
    expect(refundCounts((await processor.sweep({ olderThanMs: 0 })).refunds)).toEqual({ ...zero, checked: 1, alreadyDone: 1 });
    expect(refunded.map((r) => r.refundOrderId)).toEqual([swept.refundOrderId, notified.refundOrderId]);
    expect(onRefunded).toHaveBeenCalledTimes(2);

    // Tracked, then notified: the notification forgets the tracked refund, and no sweep reads it.
    const third = await refund();
    await gateway.deliverNotifications();
    expect(onRefunded).toHaveBeenCalledTimes(3);
    expect(refundCounts((await processor.sweep({ olderThanMs: 0 })).refunds)).toEqual(zero);
    expect(refunded.map((r) => r.refundOrderId)).toContain(third.refundOrderId);
  });

  it('the sweep\'s log line counts refunds apart, as refunds.<count>; a processor without onPaid reports a tracked order failed, never runs it', async () => {
    const { gateway, make, refund, client, store, clock, onPaid } = setup({ kind });
    const info = vi.fn();
    const logged = make({ logLevel: 'info', logger: { info, warn: info } });
    gateway.setRefundMode('hold');
    await refund();
    await logged.sweep({ olderThanMs: 0 });
    expect(info.mock.calls.at(-1)![0]).toMatch(/sweep: checked 0, paid 0, .*, refunds\.checked 1, refunds\.refunded 0, refunds\.refundFailed 0, .*refunds\.open 1/);
    const order = await client.unifiedOrder({ mchOrderNo: 'rs-order', wayCode: 'QR_CASHIER', amount: 1000, currency: 'USD', subject: 's', body: 'b' });
    await logged.track(order);
    gateway.payOrder(order.payOrderId);
    const refundsOnly = createNotificationProcessor({ ...merchant, store, onRefunded: async () => {}, onRefundFailed: async () => {}, client, now: clock.now, logLevel: 'off' });
    const report = await refundsOnly.sweep({ olderThanMs: 0 });
    expect([report.checked, report.failed, report.refunds.checked, report.refunds.open]).toEqual([1, 1, 1, 1]);
    expect(report.problems[0]!.message).toMatch(/cannot settle orders \(it has no onPaid\)/);
    expect(onPaid).not.toHaveBeenCalled();
  });

  it('a refund notified while refundOrder\'s answer is lost runs onRefunded once: the refund found by the lookup is tracked, and the sweep finds it done', async () => {
    let processor: ReturnType<typeof setup>['processor'] | undefined;
    let gateway: ReturnType<typeof setup>['gateway'] | undefined;
    let lost = 0;
    const ctx = setup({
      kind,
      notify: true,
      clientFetch: (fetch) => async (input, init) => {
        const response = await fetch(input, init);
        if (String(input instanceof Request ? input.url : input).endsWith('/api/refund/refundOrder') && lost++ === 0) {
          // The gateway made the refund and notifies it before its answer reaches the merchant, which never does.
          await gateway!.deliverNotifications();
          throw new TypeError('fetch failed: socket hang up');
        }
        return response;
      },
    });
    ({ processor, gateway } = ctx);
    const made = await ctx.refund();
    expect(lost).toBe(1);
    expect(made.state).toBe(Refunds.State.Succeeded);
    expect(ctx.onRefunded).toHaveBeenCalledTimes(1);
    expect(refundCounts((await processor.sweep({ olderThanMs: 0 })).refunds)).toEqual({ ...zero, checked: 1, alreadyDone: 1 });
    expect(ctx.onRefunded).toHaveBeenCalledTimes(1);
  });
});

describe('processor.track of a refund', () => {
  it('is refused by a processor without onRefunded and onRefundFailed, which could never act on it; an order by one without onPaid', async () => {
    const { make, refund, client, store } = setup();
    const made = await refund({ track: false });
    const paymentsOnly = createNotificationProcessor({ ...merchant, store, onPaid: async () => {}, client, logLevel: 'off' });
    const error = (await paymentsOnly.track(made).catch((e: unknown) => e)) as GatewayValidationError;
    expect(error).toBeInstanceOf(GatewayValidationError);
    expect(error.issues[0]!.message).toMatch(/give the processor onRefunded and onRefundFailed/);
    const halfRefunds = make({ onRefundFailed: undefined, leaveUnhandled: ['onRefundFailed'] } as never);
    await expect(halfRefunds.track(made)).rejects.toThrow(/could never act on it/);
    const refundsOnly = createNotificationProcessor({ ...merchant, store, onRefunded: async () => {}, onRefundFailed: async () => {}, client, logLevel: 'off' });
    await expect(refundsOnly.track({ payOrderId: 'P1', mchOrderNo: 'o-1' })).rejects.toThrow(/give the processor onPaid/);
    await refundsOnly.track(made);
    // Nothing was tracked by the refused calls: one record, the last.
    expect(await store.tracking!.checkOut(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 10)).toHaveLength(1);
  });

  it('refuses the same refundOrderId with another mchRefundNo (the tracked record is kept); an identical track is a no-op; untrack forgets it', async () => {
    const { processor, refund, gateway, store } = setup();
    gateway.setRefundMode('hold');
    const made = await refund();
    await processor.track({ refundOrderId: made.refundOrderId, mchRefundNo: made.mchRefundNo });
    const error = (await processor.track({ refundOrderId: made.refundOrderId, mchRefundNo: 'someone-else' }).catch((e: unknown) => e)) as GatewayValidationError;
    expect(error).toBeInstanceOf(GatewayValidationError);
    expect(error.issues[0]).toMatchObject({ path: ['order', 'mchRefundNo'] });
    expect(error.issues[0]!.message).toMatch(new RegExp(`refundOrderId "${made.refundOrderId}" is tracked with mchRefundNo "${made.mchRefundNo}"`));
    expect(refundCounts((await processor.sweep({ olderThanMs: 0 })).refunds)).toEqual({ ...zero, checked: 1, open: 1 });
    await processor.untrack(made);
    expect(refundCounts((await processor.sweep({ olderThanMs: 0 })).refunds)).toEqual(zero);
    expect(await store.tracking!.checkOut(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
  });

  it('refuses an order id shaped as a tracked refund\'s key, so that no order can be read as a refund', async () => {
    const { processor } = setup();
    await expect(processor.track({ payOrderId: 'refund:R1', mchOrderNo: 'refund-1' })).rejects.toThrow(/must not begin with "refund:"/);
    await expect(processor.track({ refundOrderId: 'R1', mchRefundNo: 'refund-1' }, { expiredTime: 60 } as never)).rejects.toThrow(/a refund takes none/);
  });
});

describe('what a sweep never acts on', () => {
  it('a refund the gateway does not know: open within notFoundGraceMs, then notFound; no handler runs', async () => {
    const { processor, clock, onRefunded, onRefundFailed } = setup();
    await processor.track({ refundOrderId: 'R-unknown', mchRefundNo: 'refund-unknown' });
    expect(refundCounts((await processor.sweep({ olderThanMs: 0, notFoundGraceMs: 60_000 })).refunds)).toEqual({ ...zero, checked: 1, open: 1 });
    clock.advance(60_000);
    const report = await processor.sweep({ olderThanMs: 0, notFoundGraceMs: 60_000 });
    expect(refundCounts(report.refunds)).toEqual({ ...zero, checked: 1, notFound: 1 });
    expect(report.refunds.problems[0]).toMatchObject({ kind: 'notFound', refundOrderId: 'R-unknown', mchRefundNo: 'refund-unknown' });
    expect(report.refunds.problems[0]!.message).toMatch(/refund_not_found/);
    expect(onRefunded).not.toHaveBeenCalled();
    expect(onRefundFailed).not.toHaveBeenCalled();
  });

  it('a substituted record (another refund\'s, or another merchant\'s) is mismatched, never run, and stays tracked', async () => {
    const { gateway, client, store, clock, refund, onRefunded } = setup();
    const [mine, another] = [await refund({ track: false }), await refund({ track: false })];
    const otherClient = new GatewayClient({ baseUrl: 'https://gateway.test', ...other, fetch: gateway.fetch });
    const otherOrder = await otherClient.unifiedOrder({ mchOrderNo: 'other-1', wayCode: 'QR_CASHIER', amount: 1000, currency: 'USD', subject: 's', body: 'b' });
    gateway.payOrder(otherOrder.payOrderId);
    // The other merchant's refund, with our number and id claimed by a store record.
    const theirs = await otherClient.refundOrder({ payOrderId: otherOrder.payOrderId, mchRefundNo: mine.mchRefundNo, refundAmount: 400, currency: 'USD', refundReason: 'r' });
    const substituting = (pick: () => Promise<unknown>): SweepClient => ({
      query: (ids, o) => client.query(ids, o),
      close: (ids, o) => client.close(ids, o),
      refundQuery: () => pick() as never,
    });
    const anotherRecord = createNotificationProcessor({
      ...merchant, store, onRefunded, onRefundFailed: async () => {}, now: clock.now, logLevel: 'off',
      client: substituting(() => client.refundQuery({ refundOrderId: another.refundOrderId })),
    });
    await anotherRecord.track(mine);
    const first = await anotherRecord.sweep({ olderThanMs: 0 });
    expect(refundCounts(first.refunds)).toEqual({ ...zero, checked: 1, mismatched: 1 });
    expect(first.refunds.problems[0]!.message).toMatch(/not the tracked refund of this merchant application \(refundOrderId/);
    const otherMerchant = createNotificationProcessor({
      ...merchant, store, onRefunded, onRefundFailed: async () => {}, now: clock.now, logLevel: 'off',
      client: substituting(() => otherClient.refundQuery({ refundOrderId: theirs.refundOrderId })),
    });
    const second = await otherMerchant.sweep({ olderThanMs: 0 });
    expect(refundCounts(second.refunds)).toEqual({ ...zero, checked: 1, mismatched: 1 });
    expect(second.refunds.problems[0]!.message).toMatch(/mchNo "M1700000032", not "M1700000031"; appId "app-other", not "app-refund-sweep"/);
    expect(onRefunded).not.toHaveBeenCalled();
  });

  it('a refund that does not match expectRefund (fixed or function) is mismatched; a function that throws fails; neither runs a handler', async () => {
    const { make, refund, onRefunded } = setup();
    const made = await refund({ track: false });
    const fixed = make({ expectRefund: { mchRefundNo: made.mchRefundNo, refundAmount: 500, currency: 'USD' } });
    await fixed.track(made);
    const report = await fixed.sweep({ olderThanMs: 0 });
    expect(refundCounts(report.refunds)).toEqual({ ...zero, checked: 1, mismatched: 1 });
    expect(report.refunds.problems[0]!.message).toMatch(/refund found by a sweep.*refundAmount: is 400, but 500 was expected/s);
    const none = make({ expectRefund: async () => undefined });
    expect(refundCounts((await none.sweep({ olderThanMs: 0 })).refunds)).toEqual({ ...zero, checked: 1, mismatched: 1 });
    const throwing = make({ expectRefund: async () => { throw new Error('database down'); } });
    const failing = await throwing.sweep({ olderThanMs: 0 });
    expect(refundCounts(failing.refunds)).toEqual({ ...zero, checked: 1, failed: 1 });
    expect(failing.refunds.problems[0]!.message).toMatch(/your expect function failed: database down/);
    expect(onRefunded).not.toHaveBeenCalled();
    // The matching expectation settles it.
    const matching = make({ expectRefund: async (r) => ({ mchRefundNo: r.mchRefundNo, refundAmount: 400, currency: 'USD' }) });
    expect(refundCounts((await matching.sweep({ olderThanMs: 0 })).refunds)).toEqual({ ...zero, checked: 1, refunded: 1 });
    expect(onRefunded).toHaveBeenCalledTimes(1);
  });

  it('a final refund older than a forgetting store\'s horizon is tooOld, never run (the claim judges it as a notification\'s)', async () => {
    const store: NotificationStore = { ...memoryStore(), horizon: () => Number.MAX_SAFE_INTEGER };
    const base = setup();
    const processor = createNotificationProcessor({ ...merchant, store, onRefunded: base.onRefunded, onRefundFailed: base.onRefundFailed, client: base.client, logLevel: 'off' });
    await processor.track(await base.refund({ track: false }));
    const report = await processor.sweep({ olderThanMs: 0 });
    expect(refundCounts(report.refunds)).toEqual({ ...zero, checked: 1, tooOld: 1 });
    expect(report.refunds.problems[0]!.message).toMatch(/the sweep never records it/);
    expect(base.onRefunded).not.toHaveBeenCalled();
  });
});
