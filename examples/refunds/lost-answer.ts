// docs/guides/refunds.md, "A lost answer, an unsigned status, a refusal": the lines between the readme markers are the guide's, written by npm run docs:readme.
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
    // The refund may exist. Never refund under a new mchRefundNo: retry later with this one (it resolves to the refund made).
    await later.lookUpRefund(error.key.value); // then: client.refundOrder(params) again, or client.refundQuery({ mchRefundNo })
  } else throw error;
}
// #endregion readme

export {};
