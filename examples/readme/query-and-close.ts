// The README's "query and close" block: the lines between the readme markers are the README's, written by npm run docs:readme.
import type { GatewayClient } from 'payment-gateway-sdk';

declare const client: GatewayClient;

// #region readme
const order = await client.query({ payOrderId: 'P202106181104177050002' });
await client.close({ mchOrderNo: 'order-1001' });
const after = await client.query({ mchOrderNo: 'order-1001' }); // a paying order can still become paid
// #endregion readme

export {};
