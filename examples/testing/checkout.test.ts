// Testing a checkout against the mock gateway: a real HTTP server on 127.0.0.1, no account, no network.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GatewayClient, memoryStore, PayOrderState, sign } from 'payment-gateway-sdk';
import { createMockGateway, type MockGatewayServer } from 'payment-gateway-sdk/testing';
import { createCheckout } from './checkout.js';

const merchant = { mchNo: 'M1700000001', appId: 'app-1', secret: 'test-secret' };
let checkout: ReturnType<typeof createCheckout>;
const signFor = (fields: Record<string, string>) => sign(fields, merchant.secret);

// A memory store refuses events older than itself less 5 minutes for the gateway's clock: the mock's (manual) clock
// stays at its start, before or after the store's creation.
const store = memoryStore();
const gateway = createMockGateway({
  merchants: [merchant],
  // Deliver notifications straight into the code under test (or leave this out to POST to notifyUrl).
  notifyFetch: async (_url, init) => new Response(await checkout.onNotification(String(init?.body))),
});
let server: MockGatewayServer;

beforeAll(async () => {
  server = await gateway.listen();
  const client = new GatewayClient({ baseUrl: server.url, ...merchant });
  checkout = createCheckout({ client, merchant, notifyUrl: 'https://shop.example.com/pay/notify', store });
});
afterAll(() => server.close());

it('marks the cart paid when the gateway notifies', async () => {
  expect(await checkout.pay('cart-42', 1999)).toMatch(/^http/);
  expect(checkout.isPaid('cart-42')).toBe(false);

  gateway.payOrder('cart-42');               // the payer pays
  await gateway.deliverNotifications();      // the gateway notifies your route

  expect(checkout.isPaid('cart-42')).toBe(true);
  expect(gateway.deliveries.at(-1)?.delivered).toBe(true);
});

it('marks the cart paid by a sweep when every notification is lost, once', async () => {
  expect(await checkout.pay('cart-lost-1', 1500)).toMatch(/^http/);
  gateway.payOrder('cart-lost-1');           // paid, and no deliverNotifications: the notifications are lost
  expect(await checkout.sweep({ olderThanMs: 0 })).toMatchObject({ paid: 1 });
  expect(checkout.isPaid('cart-lost-1')).toBe(true);
  await gateway.deliverNotifications();      // a late notification finds it done: SUCCESS, nothing run twice
  expect(gateway.deliveries.at(-1)?.delivered).toBe(true);
});

it('refuses a forged notification', async () => {
  await checkout.pay('cart-45', 900);
  gateway.payOrder('cart-45');
  const [genuine] = gateway.notifications.slice(-1);
  const forged = new URLSearchParams({ ...genuine?.fields, mchOrderNo: 'cart-46' });
  expect(await checkout.onNotification(forged)).toMatch(/^FAIL/);
  expect(checkout.isPaid('cart-46')).toBe(false);
});

it('refuses a genuine notification for a price other than the cart\'s', async () => {
  await checkout.pay('cart-47', 1200);
  gateway.payOrder('cart-47');
  const [genuine] = gateway.notifications.slice(-1);
  // Signed by the gateway, but for 1 cent: a payment the shop did not ask for.
  const { sign: _sign, ...fields } = genuine!.fields;
  const cheap = new URLSearchParams({ ...fields, amount: '1', sign: signFor({ ...fields, amount: '1' }) });
  expect(await checkout.onNotification(cheap)).toMatch(/^FAIL/);
  expect(checkout.isPaid('cart-47')).toBe(false);
});

it('does not mark a failed payment paid', async () => {
  await checkout.pay('cart-43', 500);
  gateway.failOrder('cart-43', { errCode: 'INSUFFICIENT_FUNDS' });
  await gateway.deliverNotifications();
  expect(checkout.isPaid('cart-43')).toBe(false);
});

it('still gets a QR code when the answer is lost after the gateway created the order', async () => {
  gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'after' });
  // The SDK finds the order by its number instead of creating another, but a lookup has no payData: the
  // checkout closes it and pays under a new number.
  const qr = await checkout.pay('cart-44', 700);
  const replacement = gateway.order('cart-44-2');
  expect(qr).toBe(replacement?.payData);
  expect(gateway.order('cart-44')?.state).toBe(PayOrderState.Closed); // never payable twice
  expect(gateway.orders().filter((order) => order.mchOrderNo.startsWith('cart-44'))).toHaveLength(2);
  gateway.payOrder('cart-44-2');
  await gateway.deliverNotifications();
  expect(checkout.isPaid('cart-44')).toBe(true);
});
