// Issue 32, item 3: memoryStore's horizon allows for the gateway's clock. A payment made just after a restart by a
// gateway whose clock is 2 minutes behind, and every genuine notification of a test file that creates the mock at
// its top and the processor's memoryStore() later, are fulfilled; a replay of an event paid before the margin is
// still refused after a restart.
import { describe, expect, it, vi } from 'vitest';
import { createNotificationProcessor, GatewayClient, memoryStore, type PaidOrder } from '../../src/index.js';
import { createMockGateway, type MockGateway } from '../../src/testing/index.js';
import { formBody, freshFields, MERCHANT } from '../support/notification.js';

const merchant = { mchNo: 'M1700000032', appId: 'app-clocks', secret: 'clocks-secret-0123456789' };

// The natural order of a test file: the mock first, at the top (its manual clock stands at this moment).
const topOfFile = createMockGateway({ merchants: [merchant] });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A client on `gateway`, a processor on a memoryStore() made now, notifications delivered into it. */
function shop(gateway: MockGateway) {
  const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...merchant, fetch: gateway.fetch });
  const onPaid = vi.fn(async (_paid: PaidOrder) => {});
  const processor = createNotificationProcessor({ ...merchant, store: memoryStore(), onPaid, client, logLevel: 'off' });
  const pay = async (mchOrderNo: string) => {
    const order = await client.unifiedOrder({ mchOrderNo, wayCode: 'QR_CASHIER', amount: 1250, currency: 'USD', subject: 's', body: 'b', notifyUrl: 'http://127.0.0.1:9/pay/notify' });
    await processor.track(order);
    gateway.payOrder(order.payOrderId);
    return order;
  };
  return { client, onPaid, processor, pay };
}

describe("memoryStore's horizon and the gateway's clock", () => {
  it('a mock created at the top of the test file, the store 50 ms later: every genuine notification is processed', async () => {
    await sleep(50);
    const { onPaid, processor, pay } = shop(topOfFile);
    const order = await pay('top-1');
    const [delivery] = topOfFile.notifications.filter((n) => n.payOrderId === order.payOrderId);
    expect(delivery).toBeDefined();
    const outcome = await processor.handle(formBody(delivery!.fields));
    expect(outcome.outcome.kind).toBe('processed');
    expect(onPaid).toHaveBeenCalledTimes(1);
  });

  it("a gateway clock 2 minutes behind: a payment 30 s after a restart is processed when notified, and fulfilled by a sweep", async () => {
    const gateway = createMockGateway({ merchants: [merchant], startTime: Date.now() - 120_000 });
    const { onPaid, processor, pay } = shop(gateway); // the restart: a new memoryStore()
    gateway.advanceTime(30_000);
    const notified = await pay('behind-1');
    const [delivery] = gateway.notifications.filter((n) => n.payOrderId === notified.payOrderId);
    expect((await processor.handle(formBody(delivery!.fields))).outcome.kind).toBe('processed');
    const swept = await pay('behind-2'); // its notification is lost: the sweep fulfils it
    const report = await processor.sweep({ olderThanMs: 0 });
    expect(report).toMatchObject({ checked: 1, paid: 1, tooOld: 0 }); // the notified one was forgotten when processed
    expect(onPaid.mock.calls.map(([paid]) => paid.mchOrderNo)).toEqual(['behind-1', swept.mchOrderNo]);
  });

  it('a replay of an event paid before the margin is still refused after a restart; clockSkewMs sets the margin', async () => {
    const onPaid = vi.fn(async () => {});
    const paidAt = (msAgo: number, id: string) => formBody(freshFields({ payOrderId: id, successTime: String(Date.now() - msAgo) }));
    const afterRestart = createNotificationProcessor({ ...MERCHANT, store: memoryStore(), onPaid });
    expect((await afterRestart.handle(paidAt(6 * 60_000, 'P-six-minutes'))).outcome.kind).toBe('stale');
    expect((await afterRestart.handle(paidAt(4 * 60_000, 'P-four-minutes'))).outcome.kind).toBe('processed');
    const strict = createNotificationProcessor({ ...MERCHANT, store: memoryStore({ clockSkewMs: 0 }), onPaid });
    expect((await strict.handle(paidAt(1_000, 'P-one-second'))).outcome.kind).toBe('stale');
    expect(() => memoryStore({ clockSkewMs: -1 })).toThrow(/clockSkewMs: must be at least 0/);
  });
});
