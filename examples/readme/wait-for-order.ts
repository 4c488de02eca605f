// The README's "waitForOrder" block: the lines between the readme markers are the README's, written by npm run docs:readme.
import type { GatewayClient } from 'payment-gateway-sdk';

declare const client: GatewayClient;
declare function showResult(result: 'paid' | 'not paid' | 'pending'): void;

// #region readme
import { GatewayWaitTimeoutError, PayOrderState } from 'payment-gateway-sdk';

try {
  const order = await client.waitForOrder({ mchOrderNo: 'order-1001' }, { intervalMs: 500, timeout: 8_000 });
  showResult(order.state === PayOrderState.Succeeded ? 'paid' : 'not paid');   // 3 failed, 6 closed or expired
} catch (error) {
  if (!(error instanceof GatewayWaitTimeoutError)) throw error;
  showResult('pending');                                  // error.lastOrder: the order as last read
}
// #endregion readme

export {};
