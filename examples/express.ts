/**
 * Express: start a payment for one of the shop's orders, priced on the server from the order record (a
 * recovered create replaced by a new order number), and process the gateway's payment notification once.
 *
 * ```ts
 * const store = postgresStore({ pool });
 * await store.migrate();
 * const client = new GatewayClient({ baseUrl, ...merchant });
 * const app = createApp({ client, merchant, orders, store, onPaid: markOrderPaid, notifyUrl: 'https://shop.example.com/pay/notify' });
 * app.listen(3000);
 * // Every order the checkout creates is tracked: a sweep fulfils one whose notifications were all lost, once.
 * const sweeping = sweepEvery(app.locals.processor, { everyMs: 60_000 }); // examples/sweep.ts
 * ```
 */
import express from 'express';
import { type GatewayClient, GatewayOrderPaidError, isGatewayError, type PaymentNotificationProcessor, type UnifiedOrderParams } from 'payment-gateway-sdk';
import { logOutcome, shopProcessor, type ShopOptions } from './shop.js';

export interface ShopAppOptions extends ShopOptions {
  client: GatewayClient;
  /** Where the gateway POSTs the payment notification (this app's /pay/notify, as the world reaches it). */
  notifyUrl?: string;
}

/** The app, with the processor it answers notifications with (`app.locals.processor`: sweep it on a schedule). */
export type ShopApp = express.Express & { locals: { processor: PaymentNotificationProcessor } };

export function createApp({ client, notifyUrl, ...shop }: ShopAppOptions): ShopApp {
  const app = express() as ShopApp;
  const processor = shopProcessor(shop, client);
  app.locals.processor = processor;

  // Starts paying one of the shop's orders and answers the payment data to show (a QR code, a URL to redirect to).
  app.post('/checkout', express.json(), async (req, res) => {
    const { orderNumber } = req.body as { orderNumber?: unknown };
    // The price comes from the order record, never from the browser's request.
    const order = typeof orderNumber === 'string' ? await shop.orders.find(orderNumber) : undefined;
    if (!order) return void res.status(404).json({ error: 'no such order' });
    const params: UnifiedOrderParams = {
      mchOrderNo: order.number, wayCode: 'QR_CASHIER', amount: order.totalMinor, currency: order.currency, subject: order.subject, body: `Order ${order.number}`, notifyUrl,
    };
    try {
      let created = await client.unifiedOrder(params);
      // The answer was lost and the order found by its number: it has no payData, so pay under a new number,
      // recorded with the order first (the notification will name it).
      for (let attempt = 2; created.recovered; attempt++) {
        const mchOrderNo = `${order.number}-${attempt}`;
        await shop.orders.addPaymentNumber(order.number, mchOrderNo);
        created = await client.reissueOrder(created, { ...params, mchOrderNo });
      }
      // Tracked until final: a sweep fulfils it if every notification is lost (once, whatever races).
      await processor.track(created);
      res.json({ mchOrderNo: created.mchOrderNo, payDataType: created.payDataType, payData: created.payData });
    } catch (error) {
      if (error instanceof GatewayOrderPaidError) return void res.status(409).json({ paid: error.order.mchOrderNo });
      if (!isGatewayError(error)) throw error;
      console.warn('checkout failed:', error.message);
      res.status(502).json({ error: error.name });
    }
  });

  // #region readme
  // Express: a flat form parser (extended: false) keeps every value the text the gateway signed.
  app.post('/pay/notify', express.urlencoded({ extended: false }), async (req, res) => {
    const reply = await processor.handle(req.body); // 200 SUCCESS, 400/413, 409 or 500
    logOutcome(reply);
    res.status(reply.status).set(reply.headers).send(reply.body);
  });
  // #endregion readme
  return app;
}
