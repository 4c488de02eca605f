/**
 * A merchant's checkout, as small as it gets: start a payment for a cart, and mark the cart paid when the
 * gateway's notification says so. `checkout.test.ts` tests it against the mock gateway.
 */
import { isGatewayError, NOTIFICATION_ACK, PayOrderState, type GatewayClient, type NotificationInput } from 'payment-gateway-sdk';

export interface CheckoutSettings {
  /** The client for your merchant application. */
  client: GatewayClient;
  /** Where the gateway should POST payment notifications (your route). */
  notifyUrl: string;
}

export function createCheckout({ client, notifyUrl }: CheckoutSettings) {
  const paid = new Set<string>();
  // Your orders table: each gateway order number, and the cart it pays.
  const cartOf = new Map<string, string>();
  return {
    /** Starts paying a cart; resolves to the QR-code text to show. The order number is the gateway's idempotency key. */
    async pay(cartId: string, amountCents: number): Promise<string> {
      const params = { mchOrderNo: cartId, wayCode: 'QR_CASHIER', amount: amountCents, currency: 'USD', subject: `Cart ${cartId}`, body: 'Shop order', notifyUrl };
      let order = await client.unifiedOrder(params);
      // Recovered by a lookup after a lost answer: the order exists but has no payData. Replace it under a new number.
      for (let attempt = 2; order.recovered; attempt++) order = await client.reissueOrder(order, { ...params, mchOrderNo: `${cartId}-${attempt}` });
      cartOf.set(order.mchOrderNo, cartId);
      return order.payData ?? '';
    },

    /** Your notify route: verify, act once, answer `SUCCESS` (anything else makes the gateway retry). */
    async onNotification(body: NotificationInput): Promise<string> {
      try {
        const notification = await client.verifyNotification(body);
        if (notification.state === PayOrderState.Succeeded) paid.add(cartOf.get(notification.mchOrderNo) ?? notification.mchOrderNo);
        return NOTIFICATION_ACK;
      } catch (error) {
        if (isGatewayError(error)) return 'FAIL'; // forged, or for another merchant application
        throw error;
      }
    },

    isPaid: (cartId: string): boolean => paid.has(cartId),
  };
}
