// The gateway every runtime's scenario talks to, on 127.0.0.1, plus a small control server on loopback
// that the scenario calls to have an order paid and receive the payment notification the gateway sent.
// Runs in the Node orchestrator from the scratch project, so 'payment-gateway-sdk' is the packed tarball.
import { createServer } from 'node:http';
import { startStandInGateway } from './stand-in-gateway.mjs';

/** The gateway's merchant application; the secret is a throwaway test value. */
export const MERCHANT = Object.freeze({ mchNo: 'M1700000000', appId: 'app-runtime-matrix', secret: 'runtime-matrix-test-secret' });

async function listen(server) {
  await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${server.address().port}`;
}

/**
 * Starts the gateway and the control server. Control API (POST, JSON body):
 * `/pay {mchOrderNo}` -> the notification body (text) the gateway delivered for that order.
 */
export async function startGateway() {
  const gateway = await startStandInGateway(MERCHANT);
  const control = createServer(async (req, res) => {
    try {
      let text = '';
      for await (const chunk of req) text += chunk;
      if (req.method !== 'POST' || req.url !== '/pay') return res.writeHead(404).end();
      const body = await gateway.pay(JSON.parse(text).mchOrderNo);
      res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error?.message ?? error));
    }
  });
  const controlUrl = await listen(control);
  return {
    name: gateway.name,
    input: { baseUrl: gateway.url, controlUrl, notifyUrl: `${controlUrl}/notify`, merchant: MERCHANT },
    close: async () => {
      control.closeAllConnections();
      await Promise.all([new Promise((resolve) => control.close(resolve)), gateway.close()]);
    },
  };
}
