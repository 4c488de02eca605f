// client.channelUserUrl and client.readChannelUserRedirect: the signed jump URL exactly as the reference verifies
// it, and the unsigned way back read and checked (spec channel-user.md).
import { describe, expect, it } from 'vitest';
import { GatewayClient, GatewayValidationError } from '../../src/index.js';
import { md5 } from '../support/md5.js';
import { MERCHANT } from '../support/raw-gateway.js';

const REQ_TIME = 1_700_000_000_123;
const client = new GatewayClient({ baseUrl: 'https://gateway.test/', ...MERCHANT, now: () => REQ_TIME });
const REDIRECT = 'https://shop.example/pay/openid?cart=7';

/** The error a call throws, for its issues. */
function thrown(run: () => unknown): GatewayValidationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayValidationError);
    return error as GatewayValidationError;
  }
  throw new Error('expected a GatewayValidationError');
}

describe('client.channelUserUrl', () => {
  it('is GET {baseUrl}/api/channelUserId/jump with exactly the nine names, each key and value percent-encoded', () => {
    const url = new URL(client.channelUserUrl({ ifCode: 'wxpay', redirectUrl: REDIRECT, extParam: 'st4te_-x' }));
    expect(`${url.origin}${url.pathname}`).toBe('https://gateway.test/api/channelUserId/jump');
    expect([...url.searchParams.keys()].sort()).toEqual(['appId', 'extParam', 'ifCode', 'mchNo', 'redirectUrl', 'reqTime', 'sign', 'signType', 'version']);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      mchNo: MERCHANT.mchNo, appId: MERCHANT.appId, ifCode: 'wxpay', redirectUrl: REDIRECT, extParam: 'st4te_-x', reqTime: String(REQ_TIME), version: '1.0.1', signType: 'MD5',
    });
    // The redirect URL's own ?, = and & are escaped, so the jump's query has one reading.
    expect(url.search).toContain(`redirectUrl=${encodeURIComponent(REDIRECT)}`);
    expect(url.search).not.toContain('cart=7');
  });

  it('signs the raw values by the gateway rule: an independent computation, and a fixed vector', () => {
    const url = new URL(client.channelUserUrl({ ifCode: 'wxpay', redirectUrl: REDIRECT, extParam: 'st4te_-x' }));
    // Fragments sorted case-insensitively (Java's order), the secret last, MD5 upper-case: written out by hand.
    const signedText =
      `appId=${MERCHANT.appId}&extParam=st4te_-x&ifCode=wxpay&mchNo=${MERCHANT.mchNo}&redirectUrl=${REDIRECT}&` +
      `reqTime=${REQ_TIME}&signType=MD5&version=1.0.1&key=${MERCHANT.secret}`;
    expect(url.searchParams.get('sign')).toBe(md5(signedText));
    expect(url.searchParams.get('sign')).toBe('A08641E088B546B6D07FAE1C3606799E');
  });

  it('leaves extParam out when not given, and takes a fresh reqTime per call', () => {
    let now = REQ_TIME;
    const ticking = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, now: () => now++ });
    const first = new URL(ticking.channelUserUrl({ ifCode: 'AUTO', redirectUrl: REDIRECT }));
    const second = new URL(ticking.channelUserUrl({ ifCode: 'AUTO', redirectUrl: REDIRECT }));
    expect(first.searchParams.has('extParam')).toBe(false);
    expect([...first.searchParams.keys()]).toHaveLength(8);
    expect(second.searchParams.get('reqTime')).toBe(String(REQ_TIME + 1));
    expect(second.searchParams.get('sign')).not.toBe(first.searchParams.get('sign'));
  });

  it("refuses an extParam holding '&', '=' or '+' before building, suggesting base64url", () => {
    for (const extParam of ['a&b', 'state=1', 'a+b']) {
      const error = thrown(() => client.channelUserUrl({ ifCode: 'wxpay', redirectUrl: REDIRECT, extParam }));
      expect(error.issues).toEqual([{ path: ['extParam'], message: expect.stringMatching(/come back split.*base64url/) }]);
      expect(error.message).not.toContain(extParam); // a value is never echoed
    }
  });

  it('refuses a redirectUrl that is not an absolute http(s) URL, an empty value, a wrong ifCode, an unknown field', () => {
    const refused = (params: Record<string, unknown>) => thrown(() => client.channelUserUrl(params as never)).issues.map((issue) => issue.path.join('.'));
    for (const redirectUrl of ['javascript:alert(1)', 'ftp://shop.example/x', '/pay/openid', 'HTTPS://shop.example/x', 'https://shop.example/a b', '', `https://shop.example/${'x'.repeat(2100)}`]) {
      expect(refused({ ifCode: 'wxpay', redirectUrl }), redirectUrl).toEqual(['redirectUrl']);
    }
    expect(refused({ ifCode: 'wxpay', redirectUrl: REDIRECT, extParam: '' })).toEqual(['extParam']);
    expect(refused({ ifCode: 'auto', redirectUrl: REDIRECT })).toEqual(['ifCode']);
    expect(refused({ ifCode: 'WXPAY', redirectUrl: REDIRECT })).toEqual(['ifCode']);
    expect(refused({ ifCode: 'wxpay', redirectUrl: REDIRECT, state: 'x' })).toEqual(['state']);
    // A redirectUrl already holding a name the gateway appends would come back with two.
    expect(refused({ ifCode: 'wxpay', redirectUrl: 'https://shop.example/pay?channelUserId=x' })).toEqual(['redirectUrl']);
    expect(refused({ ifCode: 'wxpay', redirectUrl: 'https://shop.example/#/pay?appId=x' })).toEqual(['redirectUrl']);
    // A query without '=' is joined to the first appended name without '&' (?flagappId=...): unreadable.
    expect(refused({ ifCode: 'wxpay', redirectUrl: 'https://shop.example/pay?flag' })).toEqual(['redirectUrl']);
    expect(refused({ ifCode: 'wxpay', redirectUrl: 'https://shop.example/pay?flag#/r' })).toEqual(['redirectUrl']);
    for (const readable of ['https://shop.example/pay?', 'https://shop.example/pay?flag=1', 'https://shop.example/a=b', 'https://shop.example/#/r?x=1', 'https://shop.example/?x=1#r']) {
      expect(() => client.channelUserUrl({ ifCode: 'wxpay', redirectUrl: readable }), readable).not.toThrow();
    }
  });

  it('never shows the secret: not in the URL, not in an error', () => {
    const url = client.channelUserUrl({ ifCode: 'alipay', redirectUrl: REDIRECT });
    expect(url).not.toContain(MERCHANT.secret);
    expect(thrown(() => client.channelUserUrl({ ifCode: 'alipay', redirectUrl: 'nope' })).message).not.toContain(MERCHANT.secret);
  });
});

describe('client.readChannelUserRedirect', () => {
  const ID = 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o';

  it('reads channelUserId, appId and extParam from the query, or after a #fragment, absolute or path-only', () => {
    const expected = { channelUserId: ID, appId: MERCHANT.appId, extParam: 'st4te' };
    const tail = `appId=${MERCHANT.appId}&channelUserId=${ID}&extParam=st4te`;
    for (const back of [
      `https://shop.example/pay/openid?${tail}`,
      `https://shop.example/pay/openid?cart=7&${tail}`,
      `https://shop.example/app#/pay?${tail}`,
      `https://shop.example/app?cart=7#/pay&${tail}`,
      `https://shop.example/app#/pay?step=2&${tail}`,
      `/pay/openid?${tail}`,
    ]) {
      expect(client.readChannelUserRedirect(back, { expectExtParam: 'st4te' }), back).toEqual(expected);
    }
    expect(client.readChannelUserRedirect(new URL(`https://shop.example/?appId=${MERCHANT.appId}&channelUserId=${ID}`), { acceptAnySession: true })).toEqual({ channelUserId: ID, appId: MERCHANT.appId });
  });

  it('a return without channelUserId is the failed exchange: restart the redirect', () => {
    const error = thrown(() => client.readChannelUserRedirect(`https://shop.example/pay/openid?appId=${MERCHANT.appId}&extParam=st4te`, { expectExtParam: 'st4te' }));
    expect(error.issues).toEqual([{ path: ['channelUserId'], message: expect.stringMatching(/exchange failed.*fresh channelUserUrl.*do not create the order/) }]);
  });

  it('the state check fails closed: a different, missing or split extParam is refused', () => {
    const base = `https://shop.example/pay/openid?appId=${MERCHANT.appId}&channelUserId=${ID}`;
    for (const back of [`${base}&extParam=st4tf`, base, `${base}&extParam=st&4te`, `${base}&extParam=st4te+`]) {
      expect(thrown(() => client.readChannelUserRedirect(back, { expectExtParam: 'st4te' })).issues.map((issue) => issue.path[0]), back).toEqual(['extParam']);
    }
    expect(thrown(() => client.readChannelUserRedirect(base, { expectExtParam: '' })).issues.map((issue) => issue.path[0])).toEqual(['expectExtParam']);
  });

  it('a return compared with nothing is refused: the session check is given, or declined in so many words', () => {
    const base = `https://shop.example/pay/openid?appId=${MERCHANT.appId}&channelUserId=${ID}&extParam=st4te`;
    // @ts-expect-error the options are required
    expect(thrown(() => client.readChannelUserRedirect(base)).issues).toEqual([{ path: ['options'], message: expect.stringMatching(/expectExtParam.*acceptAnySession: true/) }]);
    for (const options of [{}, { expectExtParam: undefined }, { acceptAnySession: false }, { acceptAnySession: 'yes' }, { expectExtParam: 'st4te', acceptAnySession: true }]) {
      // @ts-expect-error none of these says which check
      expect(() => client.readChannelUserRedirect(base, options), JSON.stringify(options)).toThrow(GatewayValidationError);
    }
    expect(client.readChannelUserRedirect(base, { acceptAnySession: true }).channelUserId).toBe(ID);
  });

  it("refuses another application's return, a repeated name, an id that is no id, a URL too long", () => {
    const paths = (back: string) => thrown(() => client.readChannelUserRedirect(back, { acceptAnySession: true })).issues.map((issue) => issue.path.join('.'));
    expect(paths(`https://shop.example/?appId=app-other&channelUserId=${ID}`)).toEqual(['appId']);
    expect(paths(`https://shop.example/?channelUserId=${ID}`)).toEqual(['appId']);
    expect(paths(`https://shop.example/?appId=${MERCHANT.appId}&channelUserId=${ID}&channelUserId=oOther`)).toEqual(['channelUserId']);
    expect(paths(`https://shop.example/?appId=${MERCHANT.appId}&channelUserId=${ID}#x?channelUserId=oOther`)).toEqual(['channelUserId']);
    expect(paths(`https://shop.example/?appId=${MERCHANT.appId}&channelUserId=${'x'.repeat(129)}`)).toEqual(['channelUserId']);
    expect(paths(`https://shop.example/?appId=${MERCHANT.appId}&channelUserId=a%20b`)).toEqual(['channelUserId']);
    expect(paths(`https://shop.example/?appId=${MERCHANT.appId}&channelUserId=${ID}&pad=${'x'.repeat(8200)}`)).toEqual(['']);
    expect(paths('not a url')).toEqual(['']);
  });
});
