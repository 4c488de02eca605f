// The README's "Notifications: verifyNotification" block: the lines between the readme markers are the README's, written by npm run docs:readme.
import type { GatewayClient, PayOrderNotification } from 'payment-gateway-sdk';

declare const client: GatewayClient;
declare const rawBody: string;
declare const order: { number: string; totalMinor: number; currency: string };
/** Your effect, run once per n.idempotencyKey (claimed in your database, in the transaction that marks the order paid). */
declare function fulfilOnce(notification: PayOrderNotification): Promise<void>;

// #region readme
const n = await client.verifyNotification(rawBody, {
  expect: { mchOrderNo: order.number, amount: order.totalMinor, currency: order.currency }, // state: Succeeded by default
});
await fulfilOnce(n);                           // once per n.idempotencyKey: the processor does this for you
// Without a client: verifyNotification(rawBody, { secret, mchNo, appId, expect: { ... } })
// #endregion readme

export {};
