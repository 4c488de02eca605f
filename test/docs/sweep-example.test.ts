// examples/sweep.ts: orders created and tracked, notifications never delivered, the schedule fulfils each paid
// order once and stops cleanly.
import { describe, expect, it, vi } from 'vitest';
import { createTrackedOrder, sweepEvery } from '../../examples/sweep.js';
import { createNotificationProcessor, GatewayClient, memoryStore, type PaidOrder, type SweepReport } from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';

const merchant = { mchNo: 'M1700000027', appId: 'app-sweep-example', secret: 'sweep-example-secret-0123' };

describe('examples/sweep.ts', () => {
  it('fulfils every paid order once without a single notification, then stops', async () => {
    const store = memoryStore(); // before the mock, whose clock stands at its creation: the store vouches for later events
    const gateway = createMockGateway({ merchants: [merchant] }); // nothing calls deliverNotifications: all lost
    const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...merchant, fetch: gateway.fetch });
    const fulfilled: PaidOrder[] = [];
    const processor = createNotificationProcessor({ ...merchant, store, client, logLevel: 'off', onPaid: async (paid) => void fulfilled.push(paid) });
    const orders = await Promise.all(
      [1, 2, 3].map((i) => createTrackedOrder(client, processor, { mchOrderNo: `ex-${i}`, wayCode: 'QR_CASHIER', amount: 100 * i, currency: 'USD', subject: 's', body: 'b', expiredTime: 900 })),
    );
    orders.slice(0, 2).forEach((o) => gateway.payOrder(o.payOrderId));
    const reports: SweepReport[] = [];
    const schedule = sweepEvery(processor, { everyMs: 5, olderThanMs: 0, onReport: (r) => void reports.push(r) });
    await vi.waitFor(() => expect(reports.length).toBeGreaterThanOrEqual(3));
    await schedule.stop();
    const count = reports.length;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(reports.length).toBe(count);
    expect(fulfilled.map((p) => p.mchOrderNo).sort()).toEqual(['ex-1', 'ex-2']);
    expect(reports.reduce((n, r) => n + r.paid, 0)).toBe(2);
    expect(reports.at(-1)).toMatchObject({ paid: 0, open: 1 });
  });
});
