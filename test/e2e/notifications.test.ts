// The mock's notifications, received by a real route on 127.0.0.1 and verified by the SDK's verifier.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { GatewayClient, isGatewayError, NOTIFICATION_ACK, type PayOrderNotification } from '../../src/index.js';
import { createMockGateway, type MockGatewayServer } from '../../src/testing/index.js';

const merchant = { mchNo: 'M1700000010', appId: 'app-notify', secret: 'notify-secret-0123456789' };
const gateway = createMockGateway({ merchants: [merchant] });
const verified: PayOrderNotification[] = [];
const rejected: string[] = [];
let failFirst = 0;
let gatewayServer: MockGatewayServer;
let route: Server;
let routeUrl: string;
let client: GatewayClient;

beforeAll(async () => {
  gatewayServer = await gateway.listen();
  client = new GatewayClient({ baseUrl: gatewayServer.url, ...merchant });
  route = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (failFirst > 0) {
        failFirst--;
        res.end('busy');
        return;
      }
      client.verifyNotification(Buffer.concat(chunks), { ignoreKeys: ['shop'] }).then(
        (n) => {
          verified.push(n);
          res.end(NOTIFICATION_ACK);
        },
        (error: unknown) => {
          rejected.push(isGatewayError(error) ? error.name : String(error));
          res.end('FAIL');
        },
      );
    });
  });
  await new Promise<void>((resolve) => route.listen(0, '127.0.0.1', resolve));
  const address = route.address();
  routeUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/pay/notify?shop=7`;
});
afterAll(async () => {
  await gatewayServer.close();
  await new Promise<void>((resolve) => {
    route.close(() => resolve());
    route.closeAllConnections();
  });
});

it('verifies, with the fields a merchant sent as "" and the notifyUrl query key, and keeps verifying on retries', async () => {
  const order = await client.unifiedOrder({ mchOrderNo: 'n-1', wayCode: 'WX_NATIVE', amount: 1999, currency: 'USD', subject: '商品', body: 'b', extParam: '', notifyUrl: routeUrl });
  gateway.payOrder(order.payOrderId);
  failFirst = 1;
  await gateway.deliverNotifications();
  gateway.advanceTime(30_000);
  await gateway.deliverNotifications();
  expect(gateway.deliveries.map((d) => d.delivered)).toEqual([false, true]);
  expect(rejected).toEqual([]);
  expect(verified).toHaveLength(1);
  expect(verified[0]).toMatchObject({ payOrderId: order.payOrderId, mchOrderNo: 'n-1', amount: 1999, state: 2, subject: '商品', idempotencyKey: `${order.payOrderId}:2` });
  expect(String(verified[0]?.reqTime)).toBe(gateway.deliveries[0]?.fields.reqTime); // the retry carried the original reqTime
});

it('rejects a notification signed for another merchant application', async () => {
  const other = createMockGateway({ merchants: [{ ...merchant, secret: 'another-secret' }] });
  const otherClient = new GatewayClient({ baseUrl: 'https://gateway.test', ...merchant, secret: 'another-secret', fetch: other.fetch });
  await otherClient.unifiedOrder({ mchOrderNo: 'n-2', wayCode: 'QR_CASHIER', amount: 1, currency: 'USD', subject: 's', body: 'b', notifyUrl: routeUrl });
  other.payOrder('n-2');
  expect((await other.deliverNotifications())[0]).toMatchObject({ delivered: false, response: 'FAIL' });
  expect(rejected).toEqual(['GatewaySignatureError']);
});
