// The README's "unifiedOrder" block: the lines between the readme markers are the README's, written by npm run docs:readme.
import { type GatewayClient, PayOrderState } from 'payment-gateway-sdk';

declare const client: GatewayClient;

// #region readme
const result = await client.unifiedOrder({
  mchOrderNo: 'order-1002', wayCode: 'WX_BAR', amount: 500, currency: 'USD', subject: 'Coffee', body: 'Latte',
  channelExtra: { authCode: '134567890123456789' },   // barcode ways (*_BAR) need the payer's code
});
if (result.orderState === PayOrderState.Failed) {
  // A channel failure is a result, not an exception.
  console.warn(result.errCode, result.errMsg);
}
// #endregion readme

export {};
