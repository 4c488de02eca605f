/**
 * Hono: verify the gateway's payment notification from the Web Request, fulfil the order once, answer SUCCESS.
 * Runs wherever Hono runs (Node with @hono/node-server, Bun, Deno, Cloudflare Workers).
 *
 * ```ts
 * const client = new GatewayClient({ baseUrl, mchNo, appId, secret });
 * serve({ fetch: createApp({ client, fulfil: markOrderPaid }).fetch, port: 3000 }); // @hono/node-server
 * ```
 */
import { Hono } from 'hono';
import { type GatewayClient, isGatewayError, notificationAckResponse, type PayOrderNotification, PayOrderState } from 'payment-gateway-sdk';
import { oncePerEvent } from './once-per-event.js';

export interface NotifyAppOptions {
  client: GatewayClient;
  /** Your business step, e.g. mark the order paid and ship it. */
  fulfil: (notification: PayOrderNotification) => Promise<void>;
}

export function createApp({ client, fulfil }: NotifyAppOptions): Hono {
  const app = new Hono();
  const fulfilOnce = oncePerEvent(fulfil);

  app.post('/pay/notify', async (c) => {
    let notification: PayOrderNotification;
    try {
      // The Request is read from a clone: c.req.text() and other middleware still work afterwards.
      notification = await client.verifyNotification(c.req.raw);
    } catch (error) {
      if (!isGatewayError(error)) throw error;
      console.warn('payment notification rejected:', error.message); // never contains the secret
      return c.text('FAIL', 400);
    }
    if (notification.state === PayOrderState.Succeeded) await fulfilOnce(notification); // a failure answers 500: the gateway retries
    return notificationAckResponse();
  });
  return app;
}
