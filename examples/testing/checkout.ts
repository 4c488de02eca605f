/**
 * A merchant's checkout, as small as it gets: start a payment for a cart at the price the server set, and
 * mark the cart paid, once, when the gateway's notification for that price says so. `checkout.test.ts` tests
 * it against the mock gateway.
 */
import { createNotificationProcessor, type GatewayClient, type NotificationInput, type NotificationOptions, type NotificationStore } from 'payment-gateway-sdk';

export interface CheckoutSettings {
  /** The client for your merchant application. */
  client: GatewayClient;
  /** The same application's credentials, to verify its notifications. */
  merchant: NotificationOptions;
  /** Where the gateway should POST payment notifications (your route). */
  notifyUrl: string;
  /** Where processed notifications are kept: memoryStore() in a test; postgresStore({ pool }), migrated, in production. */
  store: NotificationStore;
}

export function createCheckout({ client, merchant, notifyUrl, store }: CheckoutSettings) {
  const paid = new Set<string>();
  // Your orders table: each gateway order number, the cart it pays and the price the shop set.
  const orders = new Map<string, { cartId: string; amount: number; currency: string }>();
  const processor = createNotificationProcessor({
    ...merchant,
    store,
    client, // so it can sweep the orders it tracks
    // A genuine notification must still be for one of our orders, at its price: otherwise refused.
    expect: (notification) => {
      const order = orders.get(notification.mchOrderNo);
      return order && { mchOrderNo: notification.mchOrderNo, amount: order.amount, currency: order.currency };
    },
    onPaid: (notification) => {
      paid.add(orders.get(notification.mchOrderNo)?.cartId ?? notification.mchOrderNo);
    },
  });
  return {
    /**
     * Starts paying a cart at `priceCents`, the price your server computed from the cart (never a number the
     * browser sent); resolves to the QR-code text to show. The order number is the gateway's idempotency key.
     */
    async pay(cartId: string, priceCents: number): Promise<string> {
      const params = { mchOrderNo: cartId, wayCode: 'QR_CASHIER', amount: priceCents, currency: 'USD', subject: `Cart ${cartId}`, body: 'Shop order', notifyUrl };
      orders.set(cartId, { cartId, amount: priceCents, currency: params.currency });
      let order = await client.unifiedOrder(params);
      // Recovered by a lookup after a lost answer: the order exists but has no payData. Replace it under a new number.
      for (let attempt = 2; order.recovered; attempt++) {
        const mchOrderNo = `${cartId}-${attempt}`;
        orders.set(mchOrderNo, { cartId, amount: priceCents, currency: params.currency });
        order = await client.reissueOrder(order, { ...params, mchOrderNo });
      }
      await processor.track(order); // a sweep fulfils it if its notifications are lost
      return order.payData ?? '';
    },

    /** Your notify route: verify, match the order, act once; the answer is `SUCCESS` (anything else makes the gateway retry). */
    async onNotification(body: NotificationInput): Promise<string> {
      return (await processor.handle(body)).body;
    },

    /** Run on a schedule (every minute): fulfils a paid order whose notifications were all lost, once. */
    sweep: ({ olderThanMs = 60_000 } = {}) => processor.sweep({ olderThanMs }),

    isPaid: (cartId: string): boolean => paid.has(cartId),
  };
}
