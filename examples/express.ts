/**
 * Express: start a payment for a cart (a recovered create replaced by a new order number), verify the
 * gateway's payment notification, fulfil the order once, answer SUCCESS.
 *
 * ```ts
 * const client = new GatewayClient({ baseUrl, mchNo, appId, secret });
 * createApp({ client, fulfil: markOrderPaid, notifyUrl: 'https://shop.example.com/pay/notify' }).listen(3000);
 * ```
 */
import express from 'express';
import { type GatewayClient, GatewayOrderPaidError, isGatewayError, NOTIFICATION_ACK, type PayOrderNotification, type UnifiedOrderParams } from 'payment-gateway-sdk';
import { oncePerEvent } from './once-per-event.js';

export interface NotifyAppOptions {
  client: GatewayClient;
  /** Your business step, e.g. mark the order paid and ship it. */
  fulfil: (notification: PayOrderNotification) => Promise<void>;
  /** Where the gateway POSTs the payment notification (this app's /pay/notify, as the world reaches it). */
  notifyUrl?: string;
}

export function createApp({ client, fulfil, notifyUrl }: NotifyAppOptions): express.Express {
  const app = express();
  const fulfilOnce = oncePerEvent(fulfil);

  // Starts paying a cart and answers the payment data to show (a QR code, a URL to redirect to).
  app.post('/checkout', express.json(), async (req, res) => {
    const { cartId, amount } = req.body as { cartId: string; amount: number };
    const params: UnifiedOrderParams = { mchOrderNo: cartId, wayCode: 'QR_CASHIER', amount, currency: 'USD', subject: `Cart ${cartId}`, body: 'Shop order', notifyUrl };
    try {
      let order = await client.unifiedOrder(params);
      // The answer was lost and the order found by its number: it has no payData, so pay under a new number
      // (keep it with your cart: the notification will name it).
      for (let attempt = 2; order.recovered; attempt++) order = await client.reissueOrder(order, { ...params, mchOrderNo: `${cartId}-${attempt}` });
      res.json({ mchOrderNo: order.mchOrderNo, payDataType: order.payDataType, payData: order.payData });
    } catch (error) {
      if (error instanceof GatewayOrderPaidError) return void res.status(409).json({ paid: error.order.mchOrderNo });
      if (!isGatewayError(error)) throw error;
      console.warn('checkout failed:', error.message);
      res.status(502).json({ error: error.name });
    }
  });

  // A flat form parser (extended: false) keeps every value the text the gateway signed.
  app.post('/pay/notify', express.urlencoded({ extended: false }), async (req, res) => {
    let notification: PayOrderNotification;
    try {
      notification = await client.verifyNotification(req.body); // a paid order's, or refused
    } catch (error) {
      if (!isGatewayError(error)) throw error;
      console.warn('payment notification rejected:', error.message); // never contains the secret
      res.status(400).type('text/plain').send('FAIL');
      return;
    }
    await fulfilOnce(notification); // a failure answers 500: the gateway retries
    res.type('text/plain').send(NOTIFICATION_ACK);
  });
  return app;
}
