// docs/guides/refunds.md, "A lost answer": the lines between the readme markers are the guide's, written by npm run docs:readme.
import { GatewayOutcomeUnknownError, type GatewayClient, type RefundOrderParams } from 'payment-gateway-sdk';

declare const client: GatewayClient;
declare const params: RefundOrderParams;
/** Your job queue. */
declare const later: { lookUpRefund(mchRefundNo: string): Promise<void> };

// #region readme
try {
  await client.refundOrder(params);
} catch (error) {
  if (error instanceof GatewayOutcomeUnknownError) {
    // The refund may exist. Never refund again under a new mchRefundNo: look this one up later.
    await later.lookUpRefund(error.key.value); // then: client.refundQuery({ mchRefundNo })
  } else throw error;
}
// #endregion readme

export {};
