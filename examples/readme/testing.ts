// The README's "Testing your integration" block: the lines between the readme markers are the README's, written by npm run docs:readme.
import { expect } from 'vitest';
import { createCheckout } from '../testing/checkout.js';

// #region readme
import { GatewayClient, memoryStore } from 'payment-gateway-sdk';
import { createMockGateway } from 'payment-gateway-sdk/testing';

const merchant = { mchNo: 'M1700000001', appId: 'app-1', secret: 'test-secret' };
const store = memoryStore();                                 // forgets on a restart; allows the gateway's clock 5 min
const gateway = createMockGateway({
  merchants: [merchant],
  // deliver notifications straight into your handler (or leave this out to POST to notifyUrl)
  notifyFetch: async (_url, init) => new Response(await checkout.onNotification(String(init?.body))),
});
const server = await gateway.listen();                       // a real HTTP server on 127.0.0.1
const client = new GatewayClient({ baseUrl: server.url, ...merchant });
const checkout = createCheckout({ client, merchant, notifyUrl: 'https://shop.example.com/pay/notify', store });

await checkout.pay('cart-42', 1999);
gateway.payOrder('cart-42');                                 // the payer pays
await gateway.deliverNotifications();                        // signed form POST, retried like the gateway
expect(checkout.isPaid('cart-42')).toBe(true);
await server.close();
// #endregion readme

export {};
