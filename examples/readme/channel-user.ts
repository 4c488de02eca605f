// The README's "The payer's channel user id" block: the lines between the readme markers are the README's, written by npm run docs:readme.
import { randomBytes } from 'node:crypto';
import type { GatewayClient } from 'payment-gateway-sdk';

declare const client: GatewayClient;
/** The payer's session, the request and the response of your web framework. */
declare const session: { channelUserState?: string | undefined };
declare const request: { url: string };
declare const response: { redirect(status: number, url: string): void };

// #region readme
// 1. Send the payer's browser to the gateway, with a random state bound to their session.
session.channelUserState = randomBytes(16).toString('base64url');
response.redirect(302, client.channelUserUrl({ ifCode: 'AUTO', redirectUrl: 'https://shop.example.com/pay/openid', extParam: session.channelUserState }));

// 2. At redirectUrl: read the id (unsigned), only for this session's state; name the payer with it, nothing more.
const payer = client.readChannelUserRedirect(request.url, { expectExtParam: session.channelUserState });
const order = await client.unifiedOrder({
  mchOrderNo: 'order-1001', wayCode: 'WX_JSAPI', amount: 1999, currency: 'CNY', subject: 'T-shirt', body: 'Blue, M',
  channelExtra: { openid: payer.channelUserId },
});
// #endregion readme

export {};
