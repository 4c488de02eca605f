// docs/guides/channel-user.md, "Send the payer to the gateway": the lines between the readme markers are the guide's, written by npm run docs:readme.
import { randomBytes } from 'node:crypto';
import type { GatewayClient } from 'payment-gateway-sdk';

declare const client: GatewayClient;
/** The payer's server-side session (a cookie names it), and the response of your web framework. */
declare const session: { channelUserState?: string | undefined; save(): Promise<void> };
declare const response: { redirect(status: number, url: string): void };

// #region readme
// A random state per attempt, kept server-side in the payer's session: the only thing that ties the way back to them.
session.channelUserState = randomBytes(16).toString('base64url'); // base64url: no '&', '=' or '+'
await session.save();

const jump = client.channelUserUrl({
  ifCode: 'AUTO',                                      // WeChat's browser gives wxpay, Alipay's alipay
  redirectUrl: 'https://shop.example.com/pay/openid',  // absolute http(s); the id is appended to it
  extParam: session.channelUserState,
});
response.redirect(302, jump); // a fresh URL per attempt: build it here, never cache or share it
// #endregion readme

export {};
