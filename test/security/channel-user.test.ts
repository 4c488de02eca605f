// The payer's channel user id comes back unsigned (spec channel-user.md section 6): an attacker can open the
// merchant's redirectUrl with any channelUserId, replay another session's return, or split an extParam. These
// attack the public API: client.channelUserUrl, client.readChannelUserRedirect, and the mock as the gateway.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GatewayClient, GatewayValidationError } from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';
import { MERCHANT, ORIGIN, START } from '../support/raw-gateway.js';

const REDIRECT = 'https://shop.example/pay/openid';
const WECHAT = 'Mozilla/5.0 MicroMessenger/8.0.47';

/** The genuine way back for a state: the jump through the mock's stand-in login. */
async function genuineReturn(state: string): Promise<{ client: GatewayClient; back: string }> {
  const gateway = createMockGateway({ merchants: [MERCHANT], startTime: START });
  const client = new GatewayClient({ baseUrl: ORIGIN, ...MERCHANT, fetch: gateway.fetch });
  let url = client.channelUserUrl({ ifCode: 'wxpay', redirectUrl: REDIRECT, extParam: state });
  for (let hop = 0; hop < 2; hop++) url = (await gateway.fetch(url, { redirect: 'manual', headers: { 'user-agent': WECHAT } })).headers.get('location')!;
  return { client, back: url };
}

const refusedAt = (run: () => unknown): string[] => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayValidationError);
    return (error as GatewayValidationError).issues.map((issue) => issue.path.join('.'));
  }
  return [];
};

describe('the unsigned way back of the channel user jump', () => {
  it("a forged return (any channelUserId, without this session's state) is refused; the genuine one is read", async () => {
    const state = randomBytes(16).toString('base64url');
    const { client, back } = await genuineReturn(state);
    const forged = `${REDIRECT}?appId=${MERCHANT.appId}&channelUserId=oAttackerChosenOpenid000000`;
    expect(refusedAt(() => client.readChannelUserRedirect(forged, { expectExtParam: state }))).toEqual(['extParam']);
    expect(refusedAt(() => client.readChannelUserRedirect(`${forged}&extParam=guess`, { expectExtParam: state }))).toEqual(['extParam']);
    // Each name once: a second channelUserId after the genuine one (in the query or the fragment) is not picked.
    expect(refusedAt(() => client.readChannelUserRedirect(`${back}&channelUserId=oAttacker`, { expectExtParam: state }))).toEqual(['channelUserId']);
    expect(refusedAt(() => client.readChannelUserRedirect(`${back}#x?channelUserId=oAttacker`, { expectExtParam: state }))).toEqual(['channelUserId']);
    expect(client.readChannelUserRedirect(back, { expectExtParam: state }).channelUserId).toMatch(/^oMock/);
  });

  it("another session's genuine return, replayed into this session, is refused", async () => {
    const theirs = await genuineReturn(randomBytes(16).toString('base64url'));
    const mine = randomBytes(16).toString('base64url');
    expect(refusedAt(() => theirs.client.readChannelUserRedirect(theirs.back, { expectExtParam: mine }))).toEqual(['extParam']);
  });

  it("an extParam with '&', '=' or '+' never leaves the SDK; one split on the way back fails the state check", async () => {
    const client = new GatewayClient({ baseUrl: ORIGIN, ...MERCHANT });
    for (const extParam of ['s&channelUserId=oAttacker', 'state=', 'a+b']) {
      expect(refusedAt(() => client.channelUserUrl({ ifCode: 'wxpay', redirectUrl: REDIRECT, extParam }))).toEqual(['extParam']);
    }
    const split = `${REDIRECT}?appId=${MERCHANT.appId}&channelUserId=oGenuine&extParam=s&channelUserId=oAttacker`;
    expect(refusedAt(() => client.readChannelUserRedirect(split, { expectExtParam: 's&channelUserId=oAttacker' }))).toEqual(['channelUserId', 'extParam']);
  });
});
