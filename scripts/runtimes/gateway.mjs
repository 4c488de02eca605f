// The gateway every runtime's scenario talks to, on 127.0.0.1, plus a small control server on loopback
// that the scenario calls to have an order paid and receive the payment notification the gateway sent.
// Runs in the Node orchestrator from the scratch project, so 'payment-gateway-sdk' is the packed tarball.
import { createServer } from 'node:http';
import { createMockGateway } from 'payment-gateway-sdk/testing';

/** The gateway's merchant application; the secret is a throwaway test value. */
export const MERCHANT = Object.freeze({ mchNo: 'M1700000000', appId: 'app-runtime-matrix', secret: 'runtime-matrix-test-secret' });

async function listen(server) {
  await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${server.address().port}`;
}

async function readBody(req) {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

/**
 * The package's own mock gateway (`payment-gateway-sdk/testing`) on a real loopback server. Paying an order
 * makes the mock deliver its notification to `notifyUrl`, the control server, which keeps the body.
 */
async function startMockGateway(notifyUrl, received) {
  const mock = createMockGateway({ merchants: [MERCHANT] });
  const server = await mock.listen({ port: 0 });
  return {
    name: 'mock gateway (payment-gateway-sdk/testing)',
    url: server.url,
    async pay(mchOrderNo) {
      mock.payOrder(mchOrderNo);
      await mock.deliverNotifications();
      const body = received.get(mchOrderNo);
      if (body === undefined) throw new Error(`the mock delivered no notification for ${mchOrderNo} to ${notifyUrl}`);
      return body;
    },
    close: () => server.close(),
  };
}

/**
 * Starts the gateway and the control server; resolves with `{ name, input, close }`, where `input` holds the
 * addresses the scenario needs. Control API: `POST /pay {mchOrderNo}` -> the notification body (text) the
 * gateway delivered for that order; `POST /notify` is the orders' `notifyUrl` (answers `SUCCESS`).
 */
export async function startGateway() {
  const received = new Map();
  let gateway;
  const control = createServer(async (req, res) => {
    try {
      const text = await readBody(req);
      if (req.method === 'POST' && req.url === '/notify') {
        received.set(new URLSearchParams(text).get('mchOrderNo'), text);
        return res.writeHead(200, { 'content-type': 'text/plain' }).end('SUCCESS');
      }
      if (req.method === 'POST' && req.url === '/pay') {
        return res.writeHead(200, { 'content-type': 'text/plain' }).end(await gateway.pay(JSON.parse(text).mchOrderNo));
      }
      res.writeHead(404).end();
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error?.message ?? error));
    }
  });
  const controlUrl = await listen(control);
  const notifyUrl = `${controlUrl}/notify`;
  gateway = await startMockGateway(notifyUrl, received);
  return {
    name: gateway.name,
    input: { baseUrl: gateway.url, controlUrl, notifyUrl, merchant: MERCHANT },
    close: async () => {
      control.closeAllConnections();
      await Promise.all([new Promise((resolve) => control.close(resolve)), gateway.close()]);
    },
  };
}
