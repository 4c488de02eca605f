/**
 * A merchant's checkout, as small as it gets: start a payment for a cart, and mark the cart paid when the
 * gateway's notification says so. `checkout.test.ts` tests it against the mock gateway.
 */
import { PayOrderState, verifySign, type GatewayClient } from 'payment-gateway-sdk';

export interface CheckoutSettings {
  /** The client for your merchant application. */
  client: GatewayClient;
  /** Your application's secret, to verify notifications with. */
  secret: string;
  /** Where the gateway should POST payment notifications (your route). */
  notifyUrl: string;
}

export function createCheckout({ client, secret, notifyUrl }: CheckoutSettings) {
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

    /** Your notify route's body: verify, act once, answer `SUCCESS` (anything else makes the gateway retry). */
    onNotification(formBody: string): 'SUCCESS' | 'FAIL' {
      const { sign, ...fields } = Object.fromEntries(new URLSearchParams(formBody));
      // TODO(lead): use verifyNotification / client.verifyNotification once src/notify is merged.
      if (!verifySign(fields, secret, sign) || fields.mchNo !== client.mchNo || fields.appId !== client.appId) return 'FAIL';
      if (Number(fields.state) === PayOrderState.Succeeded && fields.mchOrderNo) paid.add(fields.mchOrderNo);
      return 'SUCCESS';
    },

    isPaid: (cartId: string): boolean => paid.has(cartId),
  };
}
