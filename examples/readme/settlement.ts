// The README's "Settlement" block: the lines between the readme markers are the README's, written by npm run docs:readme.
import type { GatewayClient } from 'payment-gateway-sdk';

declare const client: GatewayClient;

// #region readme
const declared = await client.settleAddressApply({
  requestId: 'addr-001', tokenId: 'TRON_USDT', address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', remark: 'treasury',
});
// after the platform approved the address:
await client.settleRequest({
  requestId: 'settle-2024-07', amount: 150000, tokenId: 'TRON_USDT',
  payoutChannel: 'Crypto', currency: 'USD',          // the only values this API supports
  addrServerRequestId: declared.serverRequestId,      // or `address`, exactly one of the two
});
const record = await client.settleRequestGet({ requestId: 'settle-2024-07' });
// #endregion readme

export {};
