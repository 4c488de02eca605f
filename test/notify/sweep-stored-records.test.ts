// Issue 36: the sweep reads every tracked kind from its row, and durable stores keep what earlier releases wrote (no
// migration). Each form `track` takes is written exactly as before, and a record written that way (by hand here, as
// a store holding an earlier release's records has it) is read by a sweep as its kind, with its kind's read and ids.
import { describe, expect, it, vi } from 'vitest';
import { createNotificationProcessor, memoryStore, type NotificationStore } from '../../src/index.js';
import type { SweepClient } from '../../src/notify/sweep-settings.js';

const merchant = { mchNo: 'M1700000036', appId: 'app-stored-records', secret: 'stored-records-secret-0123456789' };
const NOW = Date.UTC(2026, 10, 28, 12);

type Tracking = NonNullable<NotificationStore['tracking']>;
type Stored = Parameters<Tracking['track']>[0];

/** A processor of every tracked kind on a memory store, and a client whose reads fail, recording what they were asked. */
function setup() {
  const store = memoryStore();
  const tracking = store.tracking!;
  const asked: [string, unknown][] = [];
  const failing = (name: string) => async (params: unknown) => {
    asked.push([name, params]);
    throw new Error('the gateway is down');
  };
  const client = { query: failing('query'), refundQuery: failing('refundQuery'), close: failing('close') } as unknown as SweepClient;
  const processor = createNotificationProcessor({
    ...merchant, store, client, now: () => NOW, logLevel: 'off',
    onPaid: vi.fn(), onRefunded: vi.fn(), onRefundFailed: vi.fn(),
  });
  const stored = async () => (await tracking.checkOut(NOW, NOW + 1, 100)).map(({ payOrderId, mchOrderNo, trackedAt, expiresAt }) => ({ payOrderId, mchOrderNo, trackedAt, expiresAt }));
  return { tracking, processor, asked, stored };
}

describe('what track writes, per tracked kind and form (unchanged: stores hold it)', () => {
  it('an order by its ids under its bare payOrderId, a refund under refund:<refundOrderId>, each by its number under order-key: and refund-key: with what was sent', async () => {
    const { processor, stored } = setup();
    await processor.track({ payOrderId: 'P1', mchOrderNo: 'o-1', sentExpiredTime: 900 });
    await processor.track({ refundOrderId: 'R1', mchRefundNo: 'r-1' });
    await processor.track({ mchOrderNo: 'o-2', amount: 500, currency: 'usd' }, { expiredTime: 60 });
    await processor.track({ mchRefundNo: 'r-2', refundAmount: 400, currency: 'usd', mchOrderNo: 'o-1' });
    await processor.track({ mchRefundNo: 'r-3', refundAmount: 300, currency: 'EUR', payOrderId: 'P1' });
    expect(await stored()).toEqual([
      { payOrderId: 'P1', mchOrderNo: 'o-1', trackedAt: NOW, expiresAt: NOW + 900_000 },
      { payOrderId: 'refund:R1', mchOrderNo: 'r-1', trackedAt: NOW, expiresAt: undefined },
      { payOrderId: 'order-key:o-2', mchOrderNo: '["o-2",500,"USD"]', trackedAt: NOW, expiresAt: NOW + 60_000 },
      { payOrderId: 'refund-key:r-2', mchOrderNo: '["r-2",400,"USD","mchOrderNo","o-1"]', trackedAt: NOW, expiresAt: undefined },
      { payOrderId: 'refund-key:r-3', mchOrderNo: '["r-3",300,"EUR","payOrderId","P1"]', trackedAt: NOW, expiresAt: undefined },
    ]);
    // Untracked by the same forms: every key is the one written.
    await processor.untrack({ payOrderId: 'P1', mchOrderNo: 'o-1' });
    await processor.untrack({ refundOrderId: 'R1', mchRefundNo: 'r-1' });
    await processor.untrack({ mchOrderNo: 'o-2', amount: 500, currency: 'USD' });
    await processor.untrack({ mchRefundNo: 'r-2', refundAmount: 400, currency: 'USD', mchOrderNo: 'o-1' });
    await processor.untrack({ mchRefundNo: 'r-3', refundAmount: 300, currency: 'EUR', payOrderId: 'P1' });
    expect(await stored()).toEqual([]);
  });

  it("records as an earlier release wrote them are swept as their kind: its read, by its ids or its number, counted in its kind's report", async () => {
    const { tracking, processor, asked } = setup();
    const written: Stored[] = [
      { payOrderId: 'P9', mchOrderNo: 'o-9', trackedAt: NOW - 1, expiresAt: undefined },
      { payOrderId: 'refund:R9', mchOrderNo: 'r-9', trackedAt: NOW - 1, expiresAt: undefined },
      { payOrderId: 'order-key:o-8', mchOrderNo: '["o-8",500,"USD"]', trackedAt: NOW - 1, expiresAt: undefined },
      { payOrderId: 'refund-key:r-8', mchOrderNo: '["r-8",400,"USD","payOrderId","P9"]', trackedAt: NOW - 1, expiresAt: undefined },
    ];
    for (const record of written) await tracking.track(record);
    const report = await processor.sweep({ olderThanMs: 0, concurrency: 1 });
    expect(asked).toEqual([
      ['query', { payOrderId: 'P9', mchOrderNo: 'o-9' }],
      ['refundQuery', { refundOrderId: 'R9', mchRefundNo: 'r-9' }],
      ['query', { mchOrderNo: 'o-8' }],
      ['refundQuery', { mchRefundNo: 'r-8' }],
    ]);
    expect(report).toMatchObject({ checked: 2, failed: 2, refunds: { checked: 2, failed: 2 } });
    expect(report.problems.map(({ payOrderId, mchOrderNo }) => [payOrderId, mchOrderNo])).toEqual([['P9', 'o-9'], ['', 'o-8']]);
    expect(report.refunds.problems.map(({ refundOrderId, mchRefundNo }) => [refundOrderId, mchRefundNo])).toEqual([['R9', 'r-9'], ['', 'r-8']]);
  });
});

describe('the sweep names no kind', () => {
  // A third tracked kind adds its row to kinds.ts, not code here: the generic modules' code (comments aside) names
  // none, but for the store record's field names (OrderTracking's `payOrderId`, the key, and `mchOrderNo`, the number).
  it.each(['sweep-check.ts', 'sweep-check-keys.ts', 'sweep-kinds.ts', 'sweep-pages.ts', 'sweep-options.ts'])('%s', async (file) => {
    const { readFile } = await import('node:fs/promises');
    const source = await readFile(new URL(`../../src/notify/${file}`, import.meta.url), 'utf8');
    const code = source
      .split('\n')
      .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
      .map((line) => line.replace(/\/\/.*$/, '').replace(/\b(TrackedOrder|OrderTracking|payOrderId|mchOrderNo)\b/g, ''));
    expect(code.filter((line) => /refund|payment|paid|\border|PayOrder/i.test(line))).toEqual([]);
  });
});
