// Issue 35, item 2: a create whose outcome is unknown (GatewayOutcomeUnknownError) is tracked by its key and what
// was sent; the sweep looks it up by the key, binds what it finds to what was sent, then tracks and settles it as
// any record (one handler run, through the notification's claim), and reports one proved absent as never made, no
// longer tracked. Against the mock gateway, on the memory store and a SQLite file. Hostile answers under the key:
// test/security/track-by-key.test.ts; Postgres and Redis: test/stores/sweep.slow.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createNotificationProcessor,
  GatewayApiError,
  GatewayClient,
  GatewayOutcomeUnknownError,
  GatewayValidationError,
  type NotificationProcessorOptions,
  type NotificationStore,
  type PaidOrder,
  type SweepReport,
  Refunds,
} from '../../src/index.js';
import type { SweepClient } from '../../src/notify/sweep-settings.js';
import { closeScratchStores, scratchStore } from '../support/scratch-stores.js';
import { createMockGateway } from '../../src/testing/index.js';

const merchant = { mchNo: 'M1700000035', appId: 'app-track-key', secret: 'track-key-secret-0123456789' };
const GRACE = 600_000;

type Settled = Refunds.Notification | Refunds.Swept;

afterEach(closeScratchStores);

/** A mock gateway whose answers (and lookups) can be lost, a client on it, a processor, and what its handlers got. */
function setup(kind: 'memory' | 'sqlite', options: { client?: (client: GatewayClient) => SweepClient } = {}) {
  const store: NotificationStore = scratchStore(kind);
  const gateway = createMockGateway({ merchants: [merchant], notifyFetch: async () => new Response('down', { status: 503 }) });
  // While `losing`, a create reaches the gateway but its answer is lost, and every lookup fails: its outcome is unknown.
  let losing = false;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new Request(input, init).url;
    if (losing && /query$/.test(url)) throw new TypeError('fetch failed');
    const response = await gateway.fetch(input, init);
    if (losing) throw new TypeError('fetch failed');
    return response;
  };
  const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...merchant, fetch, retry: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 2 } });
  let time = Date.UTC(2026, 10, 28, 12);
  const clock = { now: () => time++, advance: (ms: number) => void (time += ms) };
  const refunded: Settled[] = [];
  const paid: PaidOrder[] = [];
  const onPaid = vi.fn(async (order: PaidOrder) => void paid.push(order));
  const onRefunded = vi.fn(async (refund: Settled) => void refunded.push(refund));
  const onRefundFailed = vi.fn(async (_refund: Settled) => {});
  const processor = createNotificationProcessor({
    ...merchant, store, onPaid, onRefunded, onRefundFailed, client: options.client?.(client) ?? client, now: clock.now, logLevel: 'off', busyWaitMs: 0,
  } as NotificationProcessorOptions & { onRefunded: typeof onRefunded });
  let n = 0;
  /** A paid order of 1000 USD. */
  const paidOrder = async () => {
    const order = await client.unifiedOrder({ mchOrderNo: `tk-${++n}`, wayCode: 'QR_CASHIER', amount: 1000, currency: 'USD', subject: 'track by key', body: 'b' });
    gateway.payOrder(order.payOrderId);
    return order;
  };
  /** Runs a create whose answer and lookups are lost: it must reject with GatewayOutcomeUnknownError. */
  const lost = async (create: () => Promise<unknown>) => {
    losing = true;
    const error = await create().then(() => undefined, (e: unknown) => e);
    losing = false;
    expect(error).toBeInstanceOf(GatewayOutcomeUnknownError);
  };
  return { gateway, client, clock, store, processor, paidOrder, lost, refunded, paid, onPaid, onRefunded, onRefundFailed };
}

const refundCounts = ({ problems: _p, neverMadeKeys: _k, ...rest }: Refunds.SweepReport) => rest;
const orderCounts = ({ problems: _p, durationMs: _d, refunds: _r, transfers: _t, neverMadeKeys: _k, ...rest }: SweepReport) => rest;
const refundZero = { checked: 0, refunded: 0, refundFailed: 0, alreadyDone: 0, open: 0, failed: 0, busy: 0, notFound: 0, neverMade: 0, mismatched: 0, tooOld: 0 };
const orderZero = { checked: 0, paid: 0, alreadyDone: 0, open: 0, closed: 0, failed: 0, busy: 0, notFound: 0, neverMade: 0, mismatched: 0, tooOld: 0 };

describe.each(['memory', 'sqlite'] as const)('processor.track by key on the %s store', (kind) => {
  it('a refund whose refundOrder outcome is unknown, tracked by its key, is found, settled, and onRefunded runs once', async () => {
    const { gateway, client, processor, paidOrder, lost, refunded, onRefunded } = setup(kind);
    const order = await paidOrder();
    const sent = { payOrderId: order.payOrderId, mchRefundNo: 'refund-lost-1', refundAmount: 400, currency: 'USD' };
    await lost(() => client.refundOrder({ ...sent, refundReason: 'returned' }));
    expect(gateway.refunds().map((r) => r.mchRefundNo)).toEqual(['refund-lost-1']); // it was made
    await processor.track(sent);

    const first = await processor.sweep({ olderThanMs: 0 });
    expect(refundCounts(first.refunds)).toEqual({ ...refundZero, checked: 1, refunded: 1 });
    expect(refunded).toHaveLength(1);
    expect(refunded[0]).toMatchObject({ mchRefundNo: 'refund-lost-1', refundAmount: 400, state: 2, idempotencyKey: `refund:${gateway.refunds()[0]!.refundOrderId}:2` });
    // Settled: no longer tracked, by its key or by its id.
    expect(refundCounts((await processor.sweep({ olderThanMs: 0 })).refunds)).toEqual(refundZero);
    expect(onRefunded).toHaveBeenCalledTimes(1);
  });

  it('a refund found open is tracked by its id from then on: left alone, then settled once when it ends', async () => {
    const { gateway, client, processor, paidOrder, onRefunded } = setup(kind);
    gateway.setRefundMode('hold');
    const order = await paidOrder();
    const made = await client.refundOrder({ mchOrderNo: order.mchOrderNo, mchRefundNo: 'refund-open', refundAmount: 300, currency: 'usd', refundReason: 'r' });
    await processor.track({ mchOrderNo: order.mchOrderNo, mchRefundNo: 'refund-open', refundAmount: 300, currency: 'USD' });
    expect(refundCounts((await processor.sweep({ olderThanMs: 0 })).refunds)).toEqual({ ...refundZero, checked: 1, open: 1 });
    // Now tracked by its id: tracking it so with another number is refused, and its key is no longer tracked.
    await expect(processor.track({ refundOrderId: made.refundOrderId, mchRefundNo: 'someone-else' })).rejects.toThrow(/tracked with mchRefundNo "refund-open"/);
    gateway.settleRefund(made.refundOrderId, { to: 'succeed' });
    expect(refundCounts((await processor.sweep({ olderThanMs: 0 })).refunds)).toEqual({ ...refundZero, checked: 1, refunded: 1 });
    expect(refundCounts((await processor.sweep({ olderThanMs: 0 })).refunds)).toEqual(refundZero);
    expect(onRefunded).toHaveBeenCalledTimes(1);
  });

  it('a refund that was never made: open within notFoundGraceMs, then reported neverMade and forgotten; sent again under the same key it is made once', async () => {
    const { client, clock, processor, paidOrder, onRefunded } = setup(kind);
    const order = await paidOrder();
    const sent = { payOrderId: order.payOrderId, mchRefundNo: 'refund-never', refundAmount: 400, currency: 'USD' };
    await processor.track(sent);
    expect(refundCounts((await processor.sweep({ olderThanMs: 0 })).refunds)).toEqual({ ...refundZero, checked: 1, open: 1 });
    clock.advance(GRACE - 10);
    expect(refundCounts((await processor.sweep({ olderThanMs: 0 })).refunds)).toEqual({ ...refundZero, checked: 1, open: 1 });
    clock.advance(10);
    const report = await processor.sweep({ olderThanMs: 0 });
    expect(refundCounts(report.refunds)).toEqual({ ...refundZero, checked: 1, neverMade: 1 });
    expect(report.refunds.neverMadeKeys).toEqual(['refund-never']);
    expect(report.refunds.problems).toEqual([expect.objectContaining({ kind: 'neverMade', mchRefundNo: 'refund-never', refundOrderId: '', message: expect.stringMatching(/never made\. No longer tracked: send it again under the same mchRefundNo/) })]);
    expect(report.checked).toBe(0);
    expect(refundCounts((await processor.sweep({ olderThanMs: 0 })).refunds)).toEqual(refundZero);

    // Sent again under the same key: made, tracked by its id, settled once.
    await processor.track(await client.refundOrder({ ...sent, refundReason: 'again' }));
    expect(refundCounts((await processor.sweep({ olderThanMs: 0 })).refunds)).toEqual({ ...refundZero, checked: 1, refunded: 1 });
    expect(onRefunded).toHaveBeenCalledTimes(1);
  });

  it('the log line warns of records never made and says they may be sent again under the same key', async () => {
    const warn = vi.fn();
    const logged = createNotificationProcessor({
      ...merchant, store: scratchStore(kind), client: new GatewayClient({ baseUrl: 'https://gateway.test', ...merchant, fetch: createMockGateway({ merchants: [merchant] }).fetch }),
      onPaid: async () => {}, logger: { info: vi.fn(), warn, error: vi.fn(), debug: vi.fn() },
    });
    await logged.track({ mchOrderNo: 'never-logged', amount: 1, currency: 'USD' });
    await logged.sweep({ olderThanMs: 0, notFoundGraceMs: 0 });
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/neverMade 1, .*; 1 tracked by key alone were never made \(the gateway proved them absent\): no longer tracked, send them again under the same key if still wanted/), expect.objectContaining({ neverMade: 1 }));
    expect(JSON.stringify(warn.mock.calls)).not.toContain('neverMadeKeys":');
  });

  it('a refund under the key of another amount, currency or order is mismatched every sweep and never acted on; by mchOrderNo it is compared through a signed query of the order', async () => {
    const { client, clock, processor, paidOrder, onRefunded, onRefundFailed } = setup(kind);
    const [a, b] = [await paidOrder(), await paidOrder()];
    for (const no of ['k-amount', 'k-currency', 'k-order', 'k-by-number', 'k-no-order']) {
      await client.refundOrder({ payOrderId: a.payOrderId, mchRefundNo: no, refundAmount: 100, currency: 'USD', refundReason: 'r' });
    }
    await processor.track({ payOrderId: a.payOrderId, mchRefundNo: 'k-amount', refundAmount: 101, currency: 'USD' });
    await processor.track({ payOrderId: a.payOrderId, mchRefundNo: 'k-currency', refundAmount: 100, currency: 'EUR' });
    await processor.track({ payOrderId: b.payOrderId, mchRefundNo: 'k-order', refundAmount: 100, currency: 'USD' });
    await processor.track({ mchOrderNo: b.mchOrderNo, mchRefundNo: 'k-by-number', refundAmount: 100, currency: 'USD' });
    await processor.track({ mchOrderNo: 'no-such-order', mchRefundNo: 'k-no-order', refundAmount: 100, currency: 'USD' });
    for (let sweep = 0; sweep < 2; sweep++) {
      const report = await processor.sweep({ olderThanMs: 0 });
      expect(refundCounts(report.refunds)).toEqual({ ...refundZero, checked: 5, mismatched: 5 });
      const byKey = Object.fromEntries(report.refunds.problems.map((p) => [p.mchRefundNo, p.message]));
      expect(byKey['k-amount']).toMatch(/refundAmount 100, not 101 as sent/);
      expect(byKey['k-currency']).toMatch(/currency "USD", not "EUR" as sent/);
      expect(byKey['k-order']).toMatch(new RegExp(`payOrderId "${a.payOrderId}", not "${b.payOrderId}" as sent`));
      expect(byKey['k-by-number']).toMatch(new RegExp(`payOrderId "${a.payOrderId}", not "${b.payOrderId}" as sent`));
      expect(byKey['k-no-order']).toMatch(/no order under mchOrderNo "no-such-order"/);
      clock.advance(GRACE);
    }
    expect(onRefunded).not.toHaveBeenCalled();
    expect(onRefundFailed).not.toHaveBeenCalled();
  });

  it('a refund sent by mchOrderNo is matched through the order query and settled once', async () => {
    const { client, processor, paidOrder, onRefunded } = setup(kind);
    const order = await paidOrder();
    await client.refundOrder({ mchOrderNo: order.mchOrderNo, mchRefundNo: 'k-number', refundAmount: 250, currency: 'USD', refundReason: 'r' });
    await processor.track({ mchOrderNo: order.mchOrderNo, mchRefundNo: 'k-number', refundAmount: 250, currency: 'USD' });
    expect(refundCounts((await processor.sweep({ olderThanMs: 0 })).refunds)).toEqual({ ...refundZero, checked: 1, refunded: 1 });
    expect(onRefunded).toHaveBeenCalledTimes(1);
    expect(onRefunded.mock.calls[0]![0]).toMatchObject({ mchRefundNo: 'k-number', payOrderId: order.payOrderId });
  });

  it('an order whose unifiedOrder outcome is unknown, tracked by mchOrderNo, is found and onPaid runs once when paid; another amount is mismatched; one never made is reported and forgotten', async () => {
    const { gateway, client, clock, processor, lost, paid, onPaid } = setup(kind);
    const params = { mchOrderNo: 'tk-lost', wayCode: 'QR_CASHIER', amount: 1500, currency: 'USD', subject: 's', body: 'b' } as const;
    await lost(() => client.unifiedOrder(params));
    await processor.track(params, { expiredTime: 900 }); // UnifiedOrderParams as they were sent
    await client.unifiedOrder({ ...params, mchOrderNo: 'tk-other', amount: 999 });
    await processor.track({ mchOrderNo: 'tk-other', amount: 1000, currency: 'USD' });
    await processor.track({ mchOrderNo: 'tk-never', amount: 1000, currency: 'USD' });

    const first = await processor.sweep({ olderThanMs: 0 });
    expect(orderCounts(first)).toEqual({ ...orderZero, checked: 3, open: 2, mismatched: 1 });
    expect(first.problems).toEqual([expect.objectContaining({ kind: 'mismatched', payOrderId: '', mchOrderNo: 'tk-other', message: expect.stringMatching(/amount 999, not 1000 as sent/) })]);
    const [made] = gateway.orders().filter((o) => o.mchOrderNo === 'tk-lost');
    gateway.payOrder(made!.payOrderId);
    clock.advance(GRACE);
    const second = await processor.sweep({ olderThanMs: 0 });
    expect(orderCounts(second)).toEqual({ ...orderZero, checked: 3, paid: 1, neverMade: 1, mismatched: 1 });
    expect(second.neverMadeKeys).toEqual(['tk-never']);
    expect(paid).toEqual([expect.objectContaining({ mchOrderNo: 'tk-lost', payOrderId: made!.payOrderId, amount: 1500, idempotencyKey: `${made!.payOrderId}:2` })]);
    expect(orderCounts(await processor.sweep({ olderThanMs: 0 }))).toEqual({ ...orderZero, checked: 1, mismatched: 1 });
    expect(onPaid).toHaveBeenCalledTimes(1);
  });

  it('a lookup that fails without proving absence keeps the record tracked as failed, past the grace, never neverMade', async () => {
    const refusing = (reason: 'system_error' | 'connection') => (client: GatewayClient): SweepClient => ({
      query: (ids, o) => client.query(ids, o),
      close: (ids, o) => client.close(ids, o),
      refundQuery: async () => {
        throw reason === 'connection' ? new TypeError('fetch failed') : new GatewayApiError(10, 'system busy', { operation: 'refundQuery' });
      },
    });
    for (const reason of ['system_error', 'connection'] as const) {
      const { clock, processor, paidOrder } = setup(kind, { client: refusing(reason) });
      const order = await paidOrder();
      await processor.track({ payOrderId: order.payOrderId, mchRefundNo: 'k-unknown', refundAmount: 1, currency: 'USD' });
      for (let sweep = 0; sweep < 3; sweep++) {
        const report = await processor.sweep({ olderThanMs: 0 });
        expect(refundCounts(report.refunds)).toEqual({ ...refundZero, checked: 1, failed: 1 });
        expect(report.refunds.problems[0]?.message).toMatch(/outcome is still unknown/);
        clock.advance(GRACE);
      }
    }
  });

  it('track refuses a refund by key without exactly one order id, and the same key with other values sent (keeping the first); the same values again are a no-op; untrack forgets it', async () => {
    const { processor, store } = setup(kind);
    const base = { mchRefundNo: 'k-1', refundAmount: 400, currency: 'USD' };
    // @ts-expect-error -- exactly one order id: both is refused by the compiler
    const both = processor.track({ ...base, payOrderId: 'P1', mchOrderNo: 'order-1' });
    await expect(both).rejects.toThrow(GatewayValidationError);
    await expect(both).rejects.toThrow(/exactly one of payOrderId and mchOrderNo/);
    // @ts-expect-error -- and neither
    await expect(processor.track(base)).rejects.toThrow(/exactly one of payOrderId and mchOrderNo/);
    // @ts-expect-error -- a refund by key needs what was sent
    await expect(processor.track({ mchRefundNo: 'k-1', payOrderId: 'P1' })).rejects.toThrow(/refundAmount/);
    // @ts-expect-error -- so does an order by key
    await expect(processor.track({ mchOrderNo: 'o-1' })).rejects.toThrow(/amount/);

    await processor.track({ ...base, payOrderId: 'P1' });
    await processor.track({ ...base, payOrderId: 'P1', currency: 'usd' }); // the same values: a no-op
    const conflicting = await processor.track({ ...base, payOrderId: 'P2' }).catch((e: unknown) => e);
    expect(conflicting).toBeInstanceOf(GatewayValidationError);
    expect((conflicting as Error).message).toMatch(/"k-1" is tracked with other values sent \(refundAmount 400, currency "USD", payOrderId "P1"\), not \(refundAmount 400, currency "USD", payOrderId "P2"\)/);
    await processor.track({ mchOrderNo: 'o-1', amount: 5, currency: 'USD' });
    await expect(processor.track({ mchOrderNo: 'o-1', amount: 6, currency: 'USD' })).rejects.toThrow(/"o-1" is tracked with other values sent \(amount 5/);
    // No record tracked by its ids may take a key's form.
    await expect(processor.track({ payOrderId: 'order-key:o-1', mchOrderNo: 'x' })).rejects.toThrow(/must not begin with "order-key:"/);
    await expect(processor.track({ payOrderId: 'refund-key:k-1', mchOrderNo: 'x' })).rejects.toThrow(/must not begin with/);

    const due = await store.tracking!.checkOut(Number.MAX_SAFE_INTEGER - 1, Number.MAX_SAFE_INTEGER, 10);
    expect(due.map((t) => t.payOrderId).sort()).toEqual(['order-key:o-1', 'refund-key:k-1']);
    await processor.untrack({ ...base, payOrderId: 'P1' });
    await processor.untrack({ mchOrderNo: 'o-1', amount: 5, currency: 'USD' });
    expect(await store.tracking!.checkOut(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
  });
});
