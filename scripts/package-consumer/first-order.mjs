// A merchant's first order against the mock, as a project that installed the package writes it: create an
// order, pay it in the mock, verify the signed notification, read the order back. Prints one JSON line.
import { GatewayClient, PayOrderState, verifyNotification } from 'payment-gateway-sdk';
import { createMockGateway } from 'payment-gateway-sdk/testing';

const merchant = { mchNo: 'M1700000001', appId: 'app-first-week', secret: 'first-week-secret' };
const received = [];
const gateway = createMockGateway({
  merchants: [merchant],
  // The shop's notify endpoint, in this process: the body is the form the gateway POSTs.
  notifyFetch: async (_url, init) => {
    received.push(await verifyNotification(String(init?.body), { ...merchant, expect: { mchOrderNo: 'first-1', amount: 1999, currency: 'USD' } }));
    return new Response('SUCCESS');
  },
});
const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...merchant, fetch: gateway.fetch });

const order = await client.unifiedOrder({
  mchOrderNo: 'first-1', wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: 'T-shirt', body: 'Blue, M', notifyUrl: 'http://127.0.0.1:9/pay/notify',
});
gateway.payOrder(order.payOrderId);
await gateway.deliverNotifications();
const paid = await client.query({ mchOrderNo: 'first-1' });
console.log(JSON.stringify({ created: order.recovered === false, payDataType: order.payDataType, notified: received.map((n) => n.state), paid: paid.state === PayOrderState.Succeeded }));
