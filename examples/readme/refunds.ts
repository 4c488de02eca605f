// The README's "Refunds" block: the lines between the readme markers are the README's, written by npm run docs:readme.
import { type GatewayClient, Refunds } from 'payment-gateway-sdk';

declare const client: GatewayClient;
/** Your refund table. */
declare const refunds: { insert(refund: { mchRefundNo: string; payOrderId: string; amount: number }): Promise<void> };

// #region readme
await refunds.insert({ mchRefundNo: 'refund-1001', payOrderId: 'P202406180001', amount: 400 }); // the key first
const refund = await client.refundOrder({
  payOrderId: 'P202406180001', mchRefundNo: 'refund-1001', refundAmount: 400, currency: 'USD', // part of 10.00
  refundReason: 'Returned: wrong size', notifyUrl: 'https://shop.example.com/pay/notify',       // your payments' URL
});
if (refund.state === Refunds.State.Refunding) {
  // usual for a real channel: onRefunded / onRefundFailed, or a query, tells the end
  const later = await client.refundQuery({ mchRefundNo: 'refund-1001' });
}
// #endregion readme

export {};
