// docs/guides/refunds.md, "When the gateway refuses": the lines between the readme markers are the guide's, written by npm run docs:readme.
import { GatewayApiError, type GatewayClient, Refunds } from 'payment-gateway-sdk';

declare const client: GatewayClient;
declare function tryAgainLater(params: Refunds.CreateParams): Promise<void>;

export async function refund(params: Refunds.CreateParams) {
  // #region readme
  try {
    await client.refundOrder(params);
  } catch (error) {
    if (!(error instanceof GatewayApiError)) throw error;
    switch (error.reason) {
      case 'refund_in_progress':   // another refund of the order is still 1: same mchRefundNo, later
        return tryAgainLater(params);
      default:                     // order_not_refundable, refund_exceeds_refundable, ...: error.message says what to do
        throw error;
    }
  }
  // #endregion readme
}

