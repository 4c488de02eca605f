/**
 * Express: verify the gateway's payment notification, fulfil the order once, answer SUCCESS.
 *
 * ```ts
 * const client = new GatewayClient({ baseUrl, mchNo, appId, secret });
 * createApp({ client, fulfil: markOrderPaid }).listen(3000);
 * ```
 */
import express from 'express';
import { type GatewayClient, isGatewayError, NOTIFICATION_ACK, type PayOrderNotification, PayOrderState } from 'payment-gateway-sdk';
import { oncePerEvent } from './once-per-event.js';

export interface NotifyAppOptions {
  client: GatewayClient;
  /** Your business step, e.g. mark the order paid and ship it. */
  fulfil: (notification: PayOrderNotification) => Promise<void>;
}

export function createApp({ client, fulfil }: NotifyAppOptions): express.Express {
  const app = express();
  const fulfilOnce = oncePerEvent(fulfil);

  // A flat form parser (extended: false) keeps every value the text the gateway signed.
  app.post('/pay/notify', express.urlencoded({ extended: false }), async (req, res) => {
    let notification: PayOrderNotification;
    try {
      notification = await client.verifyNotification(req.body);
    } catch (error) {
      if (!isGatewayError(error)) throw error;
      console.warn('payment notification rejected:', error.message); // never contains the secret
      res.status(400).type('text/plain').send('FAIL');
      return;
    }
    if (notification.state === PayOrderState.Succeeded) await fulfilOnce(notification); // a failure answers 500: the gateway retries
    res.type('text/plain').send(NOTIFICATION_ACK);
  });
  return app;
}
