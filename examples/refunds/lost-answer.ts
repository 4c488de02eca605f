// docs/guides/refunds.md, "A lost answer, an unsigned status, a refusal": the lines between the readme markers are the guide's, written by npm run docs:readme.
import { GatewayOutcomeUnknownError, type GatewayClient, type PaymentNotificationProcessor } from 'payment-gateway-sdk';

declare const client: GatewayClient;
/** A processor with onRefunded, onRefundFailed and the client: it tracks and sweeps refunds. */
declare const processor: PaymentNotificationProcessor;
declare const payOrderId: string;

// #region readme
const refund = { payOrderId, mchRefundNo: 'refund-1001', refundAmount: 400, currency: 'USD' };
try {
  await processor.track(await client.refundOrder({ ...refund, refundReason: 'Returned: wrong size' }));
} catch (error) {
  if (!(error instanceof GatewayOutcomeUnknownError)) throw error;
  // The refund may exist. Never refund again under a new mchRefundNo: the sweep looks this one up by it, and
  // settles it once found, or reports it never made (report.refunds.neverMadeKeys): then send it again, same number.
  await processor.track(refund);
}
// #endregion readme

export {};
