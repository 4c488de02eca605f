// docs/guides/refunds.md, "Refund an order": the lines between the readme markers are the guide's, written by npm run docs:readme.
import { type GatewayClient, Refunds } from 'payment-gateway-sdk';

declare const client: GatewayClient;
/** Your refund table. */
declare const refunds: {
  insert(refund: { mchRefundNo: string; payOrderId: string; amount: number; currency: string; status: 'sent' }): Promise<void>;
  markRefunded(mchRefundNo: string): Promise<void>;
  markFailed(mchRefundNo: string, reason: string | undefined): Promise<void>;
};

// #region readme
const mchRefundNo = `refund-${crypto.randomUUID()}`;
// Store the key first: after a crash or a lost answer it is how you find this refund again.
await refunds.insert({ mchRefundNo, payOrderId: 'P202406180001', amount: 400, currency: 'USD', status: 'sent' });

const refund = await client.refundOrder({
  payOrderId: 'P202406180001',                 // or mchOrderNo (but see "A lost answer")
  mchRefundNo, refundAmount: 400, currency: 'USD', // 4.00 of the order's 10.00: a partial refund
  refundReason: 'Returned: wrong size',
  notifyUrl: 'https://shop.example.com/pay/notify', // the same URL as your payments
});
if (refund.state === Refunds.State.Succeeded) await refunds.markRefunded(mchRefundNo);
else if (refund.state === Refunds.State.Failed) await refunds.markFailed(mchRefundNo, refund.errMsg);
// else 0 or 1: the notification (onRefunded / onRefundFailed) or a refundQuery tells the end
// #endregion readme

export {};
