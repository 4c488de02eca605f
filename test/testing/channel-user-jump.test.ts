// The mock's GET /api/channelUserId/jump as the reference's (spec channel-user.md sections 1-4): the SDK's URL
// accepted, tampered ones refused with 验签失败, the refusals' order and texts, the stand-in channel login and the
// way back appended as the reference appends it, read back by client.readChannelUserRedirect.
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayClient, GatewayValidationError, sign } from '../../src/index.js';
import { createMockGateway, type MockGateway, type MockGatewayServer } from '../../src/testing/index.js';
import { MERCHANT, ORIGIN, OTHER_MERCHANT, START } from '../support/raw-gateway.js';

const REDIRECT = 'https://shop.example/pay/openid';
const WECHAT = 'Mozilla/5.0 (iPhone) AppleWebKit/605.1.15 MicroMessenger/8.0.47';
const ALIPAY = 'Mozilla/5.0 (Linux; Android 14) AlipayClient/10.5.86 Alipay';

const mock = () => createMockGateway({ merchants: [MERCHANT, OTHER_MERCHANT], startTime: START });
const clientOf = (gateway: MockGateway, baseUrl = ORIGIN) => new GatewayClient({ baseUrl, ...MERCHANT, fetch: gateway.fetch });

/** One leg: the gateway's answer to a browser's GET, redirects not followed. */
async function leg(fetcher: typeof fetch, url: string, userAgent = WECHAT): Promise<{ status: number; location: string | null; body: string }> {
  const response = await fetcher(url, { redirect: 'manual', headers: { 'user-agent': userAgent } });
  return { status: response.status, location: response.headers.get('location'), body: await response.text() };
}

/** The browser's way from the jump through the stand-in login back to the merchant: the URL it lands on. */
async function follow(fetcher: typeof fetch, jump: string, userAgent = WECHAT): Promise<string> {
  const toLogin = await leg(fetcher, jump, userAgent);
  expect(toLogin, toLogin.body).toMatchObject({ status: 302 });
  const back = await leg(fetcher, toLogin.location!, userAgent);
  expect(back.status).toBe(302);
  return back.location!;
}

/** The gateway's refusal text of a jump, or `undefined` when it redirects. */
async function refusal(gateway: MockGateway, jump: string, userAgent = WECHAT): Promise<string | undefined> {
  const answer = await leg(gateway.fetch, jump, userAgent);
  if (answer.status === 302) return undefined;
  expect(answer.status).toBe(200); // refusals are JSON with HTTP 200, as the reference's BizExceptionResolver writes them
  const json = JSON.parse(answer.body) as { code: number; msg: string };
  expect(json.code).toBe(9999);
  expect(Object.keys(json)).toEqual(['code', 'msg']);
  return json.msg;
}

/** A jump URL with the nine names signed by hand (not by the SDK), `edit` applied to the query after signing. */
function handSigned(fields: Record<string, string>, edit: (query: URLSearchParams) => void = () => {}): string {
  const query = new URLSearchParams({ ...fields, sign: sign(fields, MERCHANT.secret) });
  edit(query);
  return `${ORIGIN}/api/channelUserId/jump?${query}`;
}

const NINE = { mchNo: MERCHANT.mchNo, appId: MERCHANT.appId, ifCode: 'wxpay', redirectUrl: REDIRECT, extParam: 'st4te', reqTime: '1700000000123', version: '1.0', signType: 'MD5' };

describe('the mock gateway, GET /api/channelUserId/jump', () => {
  let server: MockGatewayServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("accepts the SDK's URL in process, runs the stand-in login and comes back as the reference appends, read back by the SDK", async () => {
    const gateway = mock();
    const client = clientOf(gateway);
    const jump = client.channelUserUrl({ ifCode: 'wxpay', redirectUrl: REDIRECT, extParam: 'st4te' });
    const toLogin = await leg(gateway.fetch, jump);
    expect(toLogin.status).toBe(302);
    expect(toLogin.location).toMatch(new RegExp(`^${ORIGIN}/channel-login/wxpay\\?`));
    const back = await follow(gateway.fetch, jump);
    expect(back).toMatch(/^https:\/\/shop\.example\/pay\/openid\?appId=app-0001&channelUserId=oMock[0-9a-f]{23}&extParam=st4te$/);
    const payer = client.readChannelUserRedirect(back, { expectExtParam: 'st4te' });
    expect(payer).toEqual({ channelUserId: expect.stringMatching(/^oMock/), appId: MERCHANT.appId, extParam: 'st4te' });
    // The same payer's id every time for an application and channel; another channel's is another.
    expect(client.readChannelUserRedirect(await follow(gateway.fetch, client.channelUserUrl({ ifCode: 'wxpay', redirectUrl: REDIRECT })), { acceptAnySession: true }).channelUserId).toBe(payer.channelUserId);
    const alipay = client.readChannelUserRedirect(await follow(gateway.fetch, client.channelUserUrl({ ifCode: 'AUTO', redirectUrl: REDIRECT }), ALIPAY), { acceptAnySession: true });
    expect(alipay.channelUserId).toMatch(/^2088\d{12}$/);
    expect(gateway.requests.map((r) => [r.operation, r.keys, r.outcome])).toEqual([
      ['channelUserJump', { ifCode: 'wxpay' }, expect.stringMatching(/^302 to the wxpay login/)],
      ['channelUserJump', { ifCode: 'wxpay' }, expect.stringMatching(/^302 to the wxpay login/)],
      ['channelUserJump', { ifCode: 'wxpay' }, expect.stringMatching(/^302 to the wxpay login/)],
      ['channelUserJump', { ifCode: 'AUTO' }, expect.stringMatching(/^302 to the alipay login/)],
    ]);
  });

  it('accepts it over loopback HTTP too', async () => {
    const gateway = mock();
    server = await gateway.listen({ port: 0 });
    const client = clientOf(gateway, server.url);
    const back = await follow(fetch, client.channelUserUrl({ ifCode: 'AUTO', redirectUrl: `${REDIRECT}#/checkout`, extParam: 'st4te' }));
    expect(back).toMatch(/^https:\/\/shop\.example\/pay\/openid#\/checkout\?appId=app-0001&channelUserId=oMock\w+&extParam=st4te$/);
    expect(client.readChannelUserRedirect(back, { expectExtParam: 'st4te' }).extParam).toBe('st4te');
  });

  it('refuses a tampered URL with 验签失败: a changed value, an added parameter signed by the client', async () => {
    const gateway = mock();
    const jump = new URL(clientOf(gateway).channelUserUrl({ ifCode: 'wxpay', redirectUrl: REDIRECT, extParam: 'st4te' }));
    const changed = new URL(jump);
    changed.searchParams.set('redirectUrl', 'https://attacker.example/steal');
    expect(await refusal(gateway, changed.href)).toBe('验签失败');
    // A name the gateway does not bind is dropped before it re-signs: signed by the client, it breaks the signature.
    expect(await refusal(gateway, handSigned({ ...NINE, state: 'x' }))).toBe('验签失败');
    // Unsigned, an added name is dropped and the rest verifies (the reference binds its nine names only).
    expect(await refusal(gateway, handSigned(NINE, (q) => q.set('state', 'x')))).toBeUndefined();
    // A repeated name yields its last value, as the servlet gives it.
    expect(await refusal(gateway, handSigned(NINE, (q) => q.append('extParam', 'other')))).toBe('验签失败');
    expect(gateway.requests[0]).toMatchObject({ operation: 'channelUserJump', code: 9999, msg: '验签失败', reason: 'signature_invalid' });
    expect(await refusal(gateway, jump.href)).toBeUndefined();
  });

  it("refuses in the reference's order with its texts", async () => {
    const gateway = mock();
    expect(await refusal(gateway, handSigned({ ...NINE, ifCode: '' }))).toBe('接口代码不能为空');
    expect(await refusal(gateway, handSigned({ ...NINE, redirectUrl: ' ' }))).toBe('回调地址不能为空');
    expect(await refusal(gateway, handSigned({ ...NINE, version: '' }))).toBe('版本号不能为空');
    expect(await refusal(gateway, handSigned(NINE, (q) => q.delete('sign')))).toBe('签名值不能为空');
    expect(await refusal(gateway, handSigned({ ...NINE, appId: 'app-nope' }))).toBe('商户或商户应用不存在');
    expect(await refusal(gateway, handSigned({ ...NINE, appId: OTHER_MERCHANT.appId }))).toBe('参数appId与商户号不匹配');
    // The signature before the client and the address: a bad ifCode signed wrongly is 验签失败.
    expect(await refusal(gateway, handSigned({ ...NINE, ifCode: 'unionpay' }, (q) => q.set('sign', 'X')))).toBe('验签失败');
    expect(await refusal(gateway, handSigned({ ...NINE, ifCode: 'unionpay' }))).toBe('不支持的客户端');
    expect(await refusal(gateway, handSigned({ ...NINE, ifCode: 'WXPAY' }))).toBe('不支持的客户端');
    expect(await refusal(gateway, handSigned({ ...NINE, ifCode: 'auto' }), 'Mozilla/5.0 Chrome/131')).toBe('不支持的客户端');
    expect(await refusal(gateway, handSigned({ ...NINE, ifCode: 'auto' }))).toBeUndefined(); // AUTO in any case, by the browser
    expect(await refusal(gateway, handSigned({ ...NINE, ifCode: 'unionpay', redirectUrl: 'ftp://x' }))).toBe('不支持的客户端');
    expect(await refusal(gateway, handSigned({ ...NINE, redirectUrl: 'HTTPS://shop.example/x' }))).toBe('跳转地址有误！');
  });

  it("appends as the reference: '?' or '&', after a #fragment, extParam's '&', '=' and '+' unescaped (so a split one changes)", async () => {
    const gateway = mock();
    const back = async (redirectUrl: string, extParam: string) => follow(gateway.fetch, handSigned({ ...NINE, redirectUrl, extParam }));
    expect(await back('https://shop.example/a?cart=7', 'x y/é')).toMatch(/^https:\/\/shop\.example\/a\?cart=7&appId=app-0001&channelUserId=oMock\w+&extParam=x%20y\/%C3%A9$/);
    expect(await back('https://shop.example/a?', 's')).toMatch(/^https:\/\/shop\.example\/a\?appId=/);
    expect(await back('https://shop.example/a?x=1#/r', 's')).toMatch(/^https:\/\/shop\.example\/a\?x=1#\/r&appId=/);
    const split = await back(REDIRECT, 'a&b=c+d');
    expect(split).toMatch(/&extParam=a&b=c\+d$/);
    // A hand-made extParam with '&' comes back split: the SDK refuses to build such a URL, and the reader its state.
    expect(() => clientOf(gateway).readChannelUserRedirect(split, { expectExtParam: 'a&b=c+d' })).toThrow(/extParam: does not match/);
  });

  it('setChannelUserMode("fail"): the way back has no channelUserId, which the reader reports as a failed exchange', async () => {
    const gateway = mock();
    const client = clientOf(gateway);
    expect(() => gateway.setChannelUserMode('never' as never)).toThrow(GatewayValidationError);
    gateway.setChannelUserMode('fail');
    const back = await follow(gateway.fetch, client.channelUserUrl({ ifCode: 'wxpay', redirectUrl: REDIRECT, extParam: 'st4te' }));
    expect(back).toBe(`${REDIRECT}?appId=${MERCHANT.appId}&extParam=st4te`);
    expect(() => client.readChannelUserRedirect(back, { expectExtParam: 'st4te' })).toThrow(/channelUserId: is missing: the channel did not give the payer's id/);
    expect(gateway.requests.at(-1)?.outcome).toMatch(/without channelUserId \(mode fail\)/);
    // The same control over HTTP.
    const control = await gateway.fetch(`${ORIGIN}/_mock/channel-users/mode`, { method: 'POST', body: '{"mode":"succeed"}' });
    expect(await control.json()).toEqual({ mode: 'succeed' });
    expect(client.readChannelUserRedirect(await follow(gateway.fetch, client.channelUserUrl({ ifCode: 'wxpay', redirectUrl: REDIRECT })), { acceptAnySession: true }).channelUserId).toMatch(/^oMock/);
  });

  it('refuses a changed login context (the reference\'s tampered {aes}) and answers only GET', async () => {
    const gateway = mock();
    const toLogin = await leg(gateway.fetch, clientOf(gateway).channelUserUrl({ ifCode: 'wxpay', redirectUrl: REDIRECT }));
    const login = new URL(toLogin.location!);
    const context = JSON.parse(Buffer.from(login.searchParams.get('ctx')!, 'base64url').toString()) as Record<string, string>;
    login.searchParams.set('ctx', Buffer.from(JSON.stringify({ ...context, redirectUrl: 'https://attacker.example/' })).toString('base64url'));
    const answer = await leg(gateway.fetch, login.href);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 10 });
    expect((await gateway.fetch(`${ORIGIN}/api/channelUserId/jump`, { method: 'POST' })).status).toBe(405);
  });
});
