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
  return {
    /** Starts paying a cart; resolves to the QR-code text to show. The cart id is the gateway's idempotency key. */
    async pay(cartId: string, amountCents: number): Promise<string> {
      const order = await client.unifiedOrder({
        mchOrderNo: cartId, wayCode: 'QR_CASHIER', amount: amountCents, currency: 'USD',
        subject: `Cart ${cartId}`, body: 'Shop order', notifyUrl,
      });
      return order.payData ?? '';
    },

    /** Your notify route: verify, act once, answer `SUCCESS` (anything else makes the gateway retry). */
    async onNotification(body: NotificationInput): Promise<string> {
      try {
        const notification = await client.verifyNotification(body);
        if (notification.state === PayOrderState.Succeeded) paid.add(notification.mchOrderNo);
        return NOTIFICATION_ACK;
      } catch (error) {
        if (isGatewayError(error)) return 'FAIL'; // forged, or for another merchant application
        throw error;
      }
    },

    isPaid: (cartId: string): boolean => paid.has(cartId),
  };
}
