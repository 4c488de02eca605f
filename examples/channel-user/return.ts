// docs/guides/channel-user.md, "Read the way back": the lines between the readme markers are the guide's, written by npm run docs:readme.
import { type GatewayClient, GatewayValidationError } from 'payment-gateway-sdk';

declare const client: GatewayClient;
declare const session: { channelUserState?: string | undefined; cartId: string; save(): Promise<void> };
declare const request: { url: string };
declare const response: { redirect(status: number, url: string): void };
declare function checkoutWith(payer: { readonly openid: string }): Promise<void>;

// #region readme
const expected = session.channelUserState;
delete session.channelUserState; // one way back per state: a second use of the link is refused
await session.save();
if (expected === undefined) {
  response.redirect(302, '/checkout'); // no jump started in this session: start again
} else {
  try {
    const payer = client.readChannelUserRedirect(request.url, { expectExtParam: expected });
    await checkoutWith({ openid: payer.channelUserId }); // only to name who pays, in this session's order
  } catch (error) {
    if (!(error instanceof GatewayValidationError)) throw error;
    // No channelUserId (the channel's exchange failed), another state, another app: start the jump again.
    response.redirect(302, '/checkout');
  }
}
// #endregion readme

export {};
