// Attack review 2 (issue 38's features, through the public client): a hostile network or gateway making the SDK put
// a division receiver's or a payee's account into an error, its cause or a log line. An error's body excerpt keeps
// the answer's start for diagnosis; every path that keeps it (an unparsable, cut or oversized body, an HTTP error
// status, a broken envelope, an answer escaping the account differently) must mask the personal members.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { Divisions, GatewayClient, GatewayOutcomeUnknownError, GatewayResponseError, GatewayValidationError, type GatewayLogger } from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';
import { CARRIERS } from '../support/carriers.js';
import { useServers } from '../support/http-server.js';
import { MERCHANT, ORIGIN, START } from '../support/raw-gateway.js';
import { rejection } from '../support/rejection.js';
import { CREDENTIALS, FIXED_NOW, Raw, signedEnvelope } from '../support/wire.js';

const ACCOUNT = 'o8xYz0123456789';
const NAME = 'Li Lei Zhang';
// The account in full, also as a gateway may escape it (`\u0059` is `Y`), and the holder's name.
const PERSONAL = /o8x(?:Y|\\u0059)z0123456789|Li Lei Zhang/;

/** A client whose fetch answers `reply()` to every request, counting them, with every log line kept. */
function answering(reply: () => Response, options: { maxResponseBytes?: number } = {}) {
  const lines: string[] = [];
  let requests = 0;
  const record = (line: string, fields: Readonly<Record<string, unknown>>) => void lines.push(line, JSON.stringify(fields));
  const logger: GatewayLogger = { error: record, warn: record, info: record, debug: record };
  const client = new GatewayClient({
    ...CREDENTIALS,
    ...options,
    fetch: async () => (requests++, reply()),
    now: () => FIXED_NOW,
    timeout: 1_000,
    retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 },
    logLevel: 'debug',
    logger,
  });
  return { client, lines, requests: () => requests };
}

/** What a structured logger serializing the error would write: its message and fields, and each cause's. */
function serialized(error: unknown): { text: string; excerpts: string[] } {
  const parts: string[] = [];
  const excerpts: string[] = [];
  for (let cause = error, depth = 0; cause instanceof Error && depth < 6; cause = cause.cause, depth++) {
    parts.push(cause.message, JSON.stringify(cause));
    if (cause instanceof GatewayResponseError) excerpts.push(cause.bodyExcerpt);
  }
  return { text: parts.join('\n'), excerpts };
}

const json = (body: string, status = 200) => new Response(body, { status, headers: { 'content-type': 'application/json' } });

const bindParams: Divisions.BindParams = { ifCode: 'wxpay', receiverGroupId: 100001, accType: 0, accNo: ACCOUNT, accName: NAME, relationType: 'PARTNER', divisionProfit: '0.10' };
const bindAnswer = (extra: Record<string, unknown> = {}) => ({
  receiverId: 800001, receiverAlias: ACCOUNT, receiverGroupId: 100001, mchNo: CREDENTIALS.mchNo, appId: CREDENTIALS.appId, ifCode: 'wxpay', accType: 0,
  accNo: ACCOUNT, accName: NAME, relationType: 'PARTNER', relationTypeName: '合作伙伴', divisionProfit: new Raw('0.10'), bindSuccessTime: FIXED_NOW, bindState: 1, ...extra,
});
const bound = signedEnvelope(bindAnswer());

describe('a receiver account never reaches an error body excerpt, its cause, or a log line', () => {
  it.each([
    ['cut inside the account (the connection dropped)', () => json(bound.slice(0, bound.indexOf(ACCOUNT) + 6)), {}],
    ['cut after the account and the name', () => json(bound.slice(0, bound.indexOf('relationType'))), {}],
    ["quoted in a proxy's HTML page", () => json(`<html><pre>${bound}</pre></html>`), {}],
    ['with a member given twice', () => json(bound.replace('"bindState"', '"bindState":1,"bindState"')), {}],
    ['in a broken envelope', () => json(JSON.stringify({ code: 'x', data: JSON.parse(bound).data })), {}],
    ['in the body of a 502', () => json(bound, 502), {}],
    ['past maxResponseBytes', () => json(bound + ' '.repeat(2_000)), { maxResponseBytes: 1_024 }],
    ['escaped (\\u0059) in an answer for another group', () => json(signedEnvelope(bindAnswer({ receiverGroupId: 100002 })).replaceAll(ACCOUNT, ACCOUNT.replace('Y', '\\u0059'))), {}],
  ] as const)('%s: an unknown outcome, sent once, the excerpt kept with the account masked', async (_, reply, options) => {
    const { client, lines, requests } = answering(reply, options);
    const error = await rejection(client.bindDivisionReceiver(bindParams));
    expect(error).toBeInstanceOf(GatewayOutcomeUnknownError);
    expect(requests()).toBe(1);
    const { text, excerpts } = serialized(error);
    // The excerpt is still there to diagnose from, with the account as every message shows it.
    expect(excerpts.join('\n')).toMatch(/\*\*\*/);
    expect(excerpts.join('\n')).not.toMatch(PERSONAL);
    expect(text).not.toMatch(PERSONAL);
    expect(lines.join('\n')).not.toMatch(PERSONAL);
  });

  it('a hostile body of a megabyte of escaped quotes is masked in linear time', async () => {
    // Every quote inside opens a literal that never closes: a scan retried from each would take minutes.
    const body = `"accNo":"${ACCOUNT}\\"${'\\"'.repeat(500_000)}\\`;
    const { client } = answering(() => json(body));
    const started = performance.now();
    const error = await rejection(client.bindDivisionReceiver(bindParams));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(serialized(error).excerpts.join('\n')).not.toMatch(PERSONAL);
  });

  it('a refusal quoting the account sent shows it masked, its reason still read', async () => {
    const { client, lines, requests } = answering(() => json(JSON.stringify({ code: 9999, msg: `商户分账账号组不存在 (accNo ${ACCOUNT})` })));
    const error = await rejection(client.bindDivisionReceiver(bindParams));
    expect(error).toMatchObject({ reason: 'receiver_group_not_found' });
    expect(requests()).toBe(1);
    expect(error.message).toContain('***6789');
    expect(`${serialized(error).text}\n${lines.join('\n')}`).not.toMatch(PERSONAL);
  });

  it('an answer with no personal member keeps its excerpt as received', async () => {
    const page = '<html>502 Bad Gateway: receiverAlias="x"</html>';
    const { client } = answering(() => json(page, 502));
    const error = await rejection(client.executeDivision({ mchOrderNo: 'order-1', receivers: [{ receiverId: 800001 }] }));
    expect(serialized(error).excerpts).toContain(page);
  });
});

describe("a payee's account never reaches an error body excerpt", () => {
  const transfer = signedEnvelope({
    transferId: 'T1', mchNo: CREDENTIALS.mchNo, appId: CREDENTIALS.appId, mchOrderNo: 'payout-1', ifCode: 'wxpay', entryType: 'WX_CASH',
    amount: 1500, currency: 'CNY', accountNo: ACCOUNT, accountName: NAME, bankName: 'Bank of Li Lei Zhang', state: 2,
  });
  it('a transfer refusal quoting the payee shows the account and name masked', async () => {
    // The create's refusal quotes the payee; the lookup that follows fails without a word on it.
    let calls = 0;
    const { client, lines } = answering(() => json(JSON.stringify({ code: 9999, msg: calls++ === 0 ? `系统异常: ${ACCOUNT} / ${NAME}` : '系统异常' })));
    const params = { mchOrderNo: 'payout-1', ifCode: 'wxpay', entryType: 'WX_CASH', amount: 100, currency: 'CNY', accountNo: ACCOUNT, accountName: NAME, transferDesc: 'd' } as const;
    const error = await rejection(client.transferOrder(params));
    expect(error.message).toContain('***6789');
    expect(`${serialized(error).text}\n${lines.join('\n')}`).not.toMatch(PERSONAL);
  });

  it.each([
    ['cut after the account', () => json(transfer.slice(0, transfer.indexOf('"state"')))],
    ["quoted in a proxy's page", () => json(`<html>${transfer}</html>`, 503)],
  ])('transferQuery answered %s', async (_, reply) => {
    const { client, lines } = answering(reply);
    const error = await rejection(client.transferQuery({ mchOrderNo: 'payout-1' }));
    expect(error).toBeInstanceOf(GatewayResponseError);
    const { text, excerpts } = serialized(error);
    expect(excerpts.join('\n')).toMatch(/\*\*\*6789/);
    expect(excerpts.join('\n')).not.toMatch(PERSONAL);
    expect(text).not.toMatch(PERSONAL);
    expect(lines.join('\n')).not.toMatch(PERSONAL);
  });
});

// A careless merchant gives an Alipay user id (16 digits, a safe integer) as a number: refused, never echoed.
describe('an account given as a number', () => {
  const ALIPAY_USER = 2088102122524333;
  it.each([
    ['bindDivisionReceiver accNo', (client: GatewayClient) => client.bindDivisionReceiver({ ...bindParams, ifCode: 'alipay', accNo: ALIPAY_USER } as unknown as Divisions.BindParams)],
    [
      'transferOrder accountNo',
      (client: GatewayClient) =>
        client.transferOrder({ mchOrderNo: 'payout-1', ifCode: 'alipay', entryType: 'ALIPAY_CASH', amount: 100, currency: 'CNY', accountNo: ALIPAY_USER, transferDesc: 'd' } as never),
    ],
  ] as const)('%s: a validation error naming the type, not the value; nothing sent', async (_, call) => {
    const { client, lines, requests } = answering(() => json('{}'));
    const error = await rejection(call(client));
    expect(error).toBeInstanceOf(GatewayValidationError);
    expect(error.message).toMatch(/must be a string, received a number \(the value is not shown\)/);
    expect(requests()).toBe(0);
    expect(`${serialized(error).text}\n${lines.join('\n')}`).not.toContain(String(ALIPAY_USER));
  });

  it('a bind answer giving the account as a JSON number: the contract error names its type, the excerpt masks it', async () => {
    const { client, lines } = answering(() => json(signedEnvelope(bindAnswer({ accNo: new Raw(String(ALIPAY_USER)), receiverAlias: String(ALIPAY_USER) }))));
    const error = await rejection(client.bindDivisionReceiver({ ...bindParams, accNo: String(ALIPAY_USER) }));
    const { text, excerpts } = serialized(error);
    expect(text).toMatch(/accNo: must be a string, received a number \(the value is not shown\)/);
    expect(`${text}\n${excerpts.join('\n')}\n${lines.join('\n')}`).not.toContain(String(ALIPAY_USER));
  });
});

// The carriers (node:http by default on Node, or a fetch) answered by a raw, hostile server: whatever the head or
// body of the answer to a bind, it is a create without a lookup, sent once; the outcome is unknown, never retried.
describe.each(CARRIERS)('a bind over $carrier, answered by a hostile server', ({ fetch }) => {
  const serve = useServers();
  /** A server answering each request with `raw` bytes on its socket, then closing it. */
  const rawServer = (raw: Buffer | string) =>
    serve((req, res) => {
      req.resume();
      req.on('end', () => res.socket?.end(raw));
    });
  const head = (lines: string[]) => `HTTP/1.1 200 OK\r\n${lines.join('\r\n')}\r\n\r\n`;
  const gz = gzipSync(Buffer.from(bound));
  it.each([
    ['a header flood (4,000 headers, 160 KB)', () => head(['content-type: application/json', ...Array.from({ length: 4_000 }, (_, i) => `x-flood-${i}: ${'a'.repeat(32)}`), `content-length: ${Buffer.byteLength(bound)}`]) + bound],
    ['a Content-Length longer than the body (cut when the socket closes)', () => head(['content-type: application/json', `content-length: ${Buffer.byteLength(bound) + 100}`]) + bound],
    ['a Content-Length shorter than the body (a cut JSON, garbage after)', () => head(['content-type: application/json', 'content-length: 40']) + bound],
    ['two Content-Lengths that disagree', () => head(['content-type: application/json', `content-length: ${Buffer.byteLength(bound)}`, 'content-length: 10']) + bound],
    ['a gzip body cut before its end', () => Buffer.concat([Buffer.from(head(['content-type: application/json', 'content-encoding: gzip', `content-length: ${gz.length - 10}`])), gz.subarray(0, gz.length - 10)])],
    ['a gzip body with garbage after it', () => Buffer.concat([Buffer.from(head(['content-type: application/json', 'content-encoding: gzip', `content-length: ${gz.length + 7}`])), gz, Buffer.from('garbage')])],
    ['two content encodings (gzip twice, once applied)', () => Buffer.concat([Buffer.from(head(['content-type: application/json', 'content-encoding: gzip, gzip', `content-length: ${gz.length}`])), gz])],
  ] as const)('%s: sent once, an unknown outcome, the account masked', async (_, raw) => {
    const server = await rawServer(raw());
    const lines: string[] = [];
    const record = (line: string, fields: Readonly<Record<string, unknown>>) => void lines.push(line, JSON.stringify(fields));
    const client = new GatewayClient({
      ...CREDENTIALS,
      baseUrl: server.url,
      fetch,
      now: () => FIXED_NOW,
      timeout: 2_000,
      retry: { maxRetries: 3, initialDelayMs: 1, maxDelayMs: 2 },
      logLevel: 'debug',
      logger: { error: record, warn: record, info: record, debug: record },
    });
    const error = await rejection(client.bindDivisionReceiver(bindParams));
    expect(error).toBeInstanceOf(GatewayOutcomeUnknownError);
    expect(server.hits).toHaveLength(1);
    const { text, excerpts } = serialized(error);
    expect(`${text}\n${excerpts.join('\n')}\n${lines.join('\n')}`).not.toMatch(PERSONAL);
  });
});

// The channel user state (extParam) travels unsigned through two redirects: the gateway appends it percent-encoded
// (Hutool's query encoding leaves only '&', '=', '+', '/' and '?' as they are; the SDK refuses the first three).
describe('an extParam holding %, #, ?, a space or non-ASCII text', () => {
  const WECHAT = 'Mozilla/5.0 MicroMessenger/8.0.47';
  const REDIRECT = 'https://shop.example/pay/openid';
  it.each(['%41', '%', 'a#b', 'a?b', 'a b', 'ü-状态', 'a;b'])('%j comes back equal through the gateway', async (state) => {
    const gateway = createMockGateway({ merchants: [MERCHANT], startTime: START });
    const client = new GatewayClient({ baseUrl: ORIGIN, ...MERCHANT, fetch: gateway.fetch });
    let url = client.channelUserUrl({ ifCode: 'wxpay', redirectUrl: REDIRECT, extParam: state });
    for (let hop = 0; hop < 2; hop++) url = (await gateway.fetch(url, { redirect: 'manual', headers: { 'user-agent': WECHAT } })).headers.get('location')!;
    expect(client.readChannelUserRedirect(url, { expectExtParam: state }).extParam).toBe(state);
  });

  it('a return bringing the state unencoded reads it decoded or cut, and is refused', () => {
    const client = new GatewayClient({ baseUrl: ORIGIN, ...MERCHANT });
    const back = (extParam: string) => `${REDIRECT}?appId=${MERCHANT.appId}&channelUserId=oGenuine0001&extParam=${extParam}`;
    // '%41' reads as 'A'; 'a#b' as 'a' (the rest is the fragment).
    for (const state of ['%41', 'a#b']) expect(() => client.readChannelUserRedirect(back(state), { expectExtParam: state })).toThrow(GatewayValidationError);
    // A state that is a percent-encoding of another is not that other: 'A' is not expected for '%41'.
    expect(() => client.readChannelUserRedirect(back('%2541'), { expectExtParam: 'A' })).toThrow(GatewayValidationError);
  });
});
