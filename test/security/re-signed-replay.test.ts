// A payer can have the gateway sign their paid order again, with a new reqTime, at will: the cashier's return
// redirect (the mock's payerReturnUrl, the reference's return endpoint reloaded) signs the order's fields with
// the time of the redirect. A horizon that compared a message's reqTime let such a message of an event it had
// forgotten (a restart, maxKeys, Redis's doneTtlMs) through, and onPaid ran again. The horizon compares the
// event's own time, the same in every message of it: when the order was paid (successTime), else created.
import { describe, expect, it, vi } from 'vitest';
import { createNotificationProcessor, GatewayClient, memoryStore, type PayOrderNotification } from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';

const MERCHANT = { mchNo: 'M1700000001', appId: 'app-1', secret: 'test-secret-0123456789' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A paid order of the mock with a returnUrl, and the payer's way to a freshly signed paid message of it. */
async function paidOrder() {
  const gateway = createMockGateway({ merchants: [MERCHANT], clock: 'real' });
  const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: (input, init) => gateway.fetch(new Request(input, init)) });
  await client.unifiedOrder({ mchOrderNo: 'cart-1', wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: 'Licence', body: 'One seat', returnUrl: 'https://shop.test/done' });
  gateway.payOrder('cart-1');
  return () => new URL(gateway.payerReturnUrl('cart-1')!).searchParams;
}

describe("a payer's freshly re-signed paid message (a new reqTime) of an event the store forgot", () => {
  it('after a restart (a new memoryStore): refused as stale, onPaid runs once', async () => {
    const onPaid = vi.fn<(n: PayOrderNotification) => void>();
    // No margin for the gateway's clock (clockSkewMs), so that the event is older than the restart by 5 ms: the
    // default margin's own bound is attacked in test/notify/memory-store-clocks.test.ts.
    const before = createNotificationProcessor({ ...MERCHANT, store: memoryStore({ clockSkewMs: 0 }), onPaid });
    const redirect = await paidOrder();
    expect((await before.handle(redirect())).outcome.kind).toBe('processed');
    await sleep(5);
    const afterRestart = createNotificationProcessor({ ...MERCHANT, store: memoryStore({ clockSkewMs: 0 }), onPaid });
    await sleep(5);
    const fresh = redirect(); // signed now, after the restart
    expect(Number(fresh.get('reqTime'))).toBeGreaterThan(Date.now() - 5);
    expect(await afterRestart.handle(fresh)).toMatchObject({ status: 400, outcome: { kind: 'stale' } });
    expect(onPaid).toHaveBeenCalledTimes(1);
  });

  it('after maxKeys forgot it: refused as stale, onPaid runs once', async () => {
    const onPaid = vi.fn<(n: PayOrderNotification) => void>();
    const processor = createNotificationProcessor({ ...MERCHANT, store: memoryStore({ maxKeys: 1 }), onPaid });
    const first = await paidOrder();
    expect((await processor.handle(first())).outcome.kind).toBe('processed');
    await sleep(5); // the mock's payOrderId is P<ms><sequence>: a second mock in the same ms would repeat it
    const second = await paidOrder(); // another gateway's order: another payOrderId, paid later
    expect(second().get('payOrderId')).not.toBe(first().get('payOrderId'));
    await sleep(5);
    expect((await processor.handle(second())).outcome.kind).toBe('processed'); // forgets the first
    await sleep(5);
    expect((await processor.handle(first())).outcome.kind).toBe('stale');
    expect(onPaid).toHaveBeenCalledTimes(2);
  });
});
