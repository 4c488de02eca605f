// What the mock shows of each request: the events of its `log` option (the command prints their lines), the
// latest requests in state() and on the dashboard, and why a signature was refused, never with the secret.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { compareCaseInsensitive } from '../../src/protocol/signing/case-fold.js';
import { md5Hex } from '../../src/protocol/signing/md5.js';
import { signingString } from '../../src/protocol/signing/sign.js';
import { createMockGateway, type MockGatewayEvent, type MockGatewayState } from '../../src/testing/index.js';
import { call, common, MERCHANT, orderFields, ORIGIN, PATHS, post, refundFields, START } from '../support/raw-gateway.js';

type Fields = Record<string, string | number>;

function loggedGateway(options: Partial<Parameters<typeof createMockGateway>[0]> = {}) {
  const events: MockGatewayEvent[] = [];
  const gateway = createMockGateway({ merchants: [MERCHANT], startTime: START, log: (event) => events.push(event), ...options });
  const lines = () => events.map((e) => e.line);
  return { gateway, events, lines };
}

/** A body signed by a hand-written signer with a bug: `preHash` makes the string it hashed from the fields it signs. */
function misSigned(fields: Fields, preHash: (fragments: string, secret: string) => string): Fields {
  const fragments = Object.entries(fields).map(([k, v]) => `${k}=${v}&`).sort(compareCaseInsensitive).join('');
  return { ...fields, sign: md5Hex(preHash(fragments, MERCHANT.secret)).toUpperCase() };
}

const dashboard = async (gateway: ReturnType<typeof createMockGateway>) => (await gateway.fetch(`${ORIGIN}/`)).text();
const time = String.raw`\d\d:\d\d:\d\d\.\d{3}Z`;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the log option', () => {
  it('is off by default: the library prints nothing', async () => {
    const write = vi.spyOn(process.stdout, 'write');
    const consoleCalls = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) => vi.spyOn(console, m));
    const gateway = createMockGateway({ merchants: [MERCHANT], startTime: START });
    await call(gateway, 'unifiedOrder', orderFields());
    await call(gateway, 'query', { mchOrderNo: 'nope' });
    expect(gateway.requests).toHaveLength(2);
    expect(write).not.toHaveBeenCalled();
    for (const spy of consoleCalls) expect(spy).not.toHaveBeenCalled();
  });

  it('gets one event per request answered: operation, the merchant keys, outcome or the refusal reason, ms', async () => {
    const { gateway, events, lines } = loggedGateway();
    await call(gateway, 'unifiedOrder', orderFields({ mchOrderNo: 'log-1' }));
    await call(gateway, 'unifiedOrder', orderFields({ mchOrderNo: 'log-1' }));
    await call(gateway, 'query', { mchOrderNo: 'nope' });
    await call(gateway, 'settleAddressApply', { requestId: 'addr-1', tokenId: 'TRON_USDT', address: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb' });
    expect(events.map((e) => e.type)).toEqual(['request', 'request', 'request', 'request']);
    const [created, duplicate, missing, declared] = lines();
    expect(created).toMatch(new RegExp(`^${time}  unifiedOrder +mchOrderNo=log-1  SUCCESS payOrderId=P\\d+ orderState=0 \\(Generated\\)  \\d+ ms$`));
    expect(duplicate).toMatch(/mchOrderNo=log-1  9999 商户订单\[log-1\]已存在 \(duplicate_order\)  \d+ ms$/);
    expect(missing).toMatch(/ query +mchOrderNo=nope  9999 订单不存在 \(order_not_found\)  \d+ ms$/);
    expect(declared).toMatch(/ settleAddressApply +requestId=addr-1  SUCCESS serverRequestId=SA\d+ status=0 \(under review\)  \d+ ms$/);
    expect(gateway.requests[2]).toMatchObject({ operation: 'query', keys: { mchOrderNo: 'nope' }, code: 9999, msg: '订单不存在', reason: 'order_not_found' });
    expect(gateway.requests[0]?.ms).toBeGreaterThanOrEqual(0);
  });

  it('prints settlement statuses by name beside their number', async () => {
    const { gateway, lines } = loggedGateway();
    const address = 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb';
    await call(gateway, 'settleRequest', { requestId: 'settle-1', amount: 1500, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address });
    gateway.progressSettlement('settle-1', 'completed');
    await call(gateway, 'settleRequestGet', { requestId: 'settle-1' });
    expect(lines()[0]).toMatch(/ settleRequest +requestId=settle-1  SUCCESS serverRequestId=\S+ status=0 \(pending\)  \d+ ms$/);
    expect(lines()[1]).toMatch(/ settleRequestGet +requestId=settle-1  SUCCESS serverRequestId=\S+ status=2 \(completed\)  \d+ ms$/);
    expect(() => gateway.progressSettlement('settle-1')).toThrow('settlement settle-1 is already final (status 2, completed)');
  });

  it('says what a fault did', async () => {
    const { gateway, lines } = loggedGateway();
    gateway.injectFault({ kind: 'html502', operation: 'unifiedOrder', when: 'before' });
    gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'after' });
    await call(gateway, 'unifiedOrder', orderFields());
    await call(gateway, 'unifiedOrder', orderFields()).catch(() => undefined);
    expect(lines()[0]).toMatch(new RegExp(`^${time}  unifiedOrder +html502 before processing: the gateway did nothing  \\d+ ms$`));
    expect(gateway.requests[0]).toMatchObject({ fault: 'html502', outcome: 'html502 before processing: the gateway did nothing', keys: {} });
    expect(gateway.requests[1]?.outcome).toMatch(/^SUCCESS payOrderId=P\d+ orderState=0 \(Generated\), then the fault connectionReset$/);
  });

  it('gets one event per notification attempt: URL, HTTP status, accepted or why not', async () => {
    const answers = ['FAIL', 'SUCCESS'];
    const { gateway, events } = loggedGateway({ notifyFetch: async () => new Response(answers.shift() ?? '') });
    await call(gateway, 'unifiedOrder', orderFields({ notifyUrl: 'http://127.0.0.1:9/pay/notify' }));
    const { payOrderId } = gateway.payOrder('order-1');
    await gateway.deliverNotifications();
    gateway.advanceTime(30_000);
    await gateway.deliverNotifications();
    const attempts = events.filter((e) => e.type === 'notification').map((e) => e.line);
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toMatch(new RegExp(`^${time}  notify N1 #1 +payOrderId=${payOrderId}  POST http://127\\.0\\.0\\.1:9/pay/notify -> not accepted: the body was "FAIL" \\(HTTP 200\\); answer with the plain-text body SUCCESS and nothing else  \\d+ ms$`));
    expect(attempts[1]).toMatch(/ notify N1 #2 .* -> accepted: the body was "SUCCESS" \(HTTP 200\)  \d+ ms$/);
  });

  it("names a refund's notification by its mchRefundNo, in the log and on the dashboard", async () => {
    const { gateway, events } = loggedGateway({ notifyFetch: async () => new Response('SUCCESS') });
    await call(gateway, 'unifiedOrder', orderFields());
    const { payOrderId } = gateway.payOrder('order-1');
    await call(gateway, 'refundOrder', refundFields({ mchRefundNo: 'log-<r1>', notifyUrl: 'http://127.0.0.1:9/refund/notify' }));
    await gateway.deliverNotifications();
    const [attempt] = events.filter((e) => e.type === 'notification').map((e) => e.line);
    expect(attempt).toMatch(new RegExp(`^${time}  notify N1 #1 +mchRefundNo=log-<r1> payOrderId=${payOrderId}  POST http://127\\.0\\.0\\.1:9/refund/notify -> accepted`));
    expect(await dashboard(gateway)).toContain(`refund <code>log-&#60;r1&#62;</code> of <code>${payOrderId}</code>`);
  });

  it('escapes control characters of received values: a request cannot drive the terminal', async () => {
    const { gateway, lines } = loggedGateway();
    await call(gateway, 'query', { mchOrderNo: 'evil\u001b[2J\u202e\u0007' });
    expect(lines()[0]).toContain('mchOrderNo=evil\\u001b[2J\\u202e\\u0007');
    expect(lines()[0]).not.toMatch(/[\u0000-\u001f\u202e]/);
  });
});

describe('state().requests', () => {
  it('keeps the latest 200, newest first, without bodies; GET /_mock/state answers the same', async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT], startTime: START });
    for (let i = 0; i < 205; i++) await call(gateway, 'query', { mchOrderNo: `q-${i}` });
    const { requests } = gateway.state();
    expect(requests).toHaveLength(200);
    expect(requests[0]?.keys).toEqual({ mchOrderNo: 'q-204' });
    expect(requests.at(-1)?.keys).toEqual({ mchOrderNo: 'q-5' });
    expect(requests.some((r) => 'body' in r)).toBe(false);
    expect(gateway.requests).toHaveLength(205);
    const served = (await (await gateway.fetch(`${ORIGIN}/_mock/state`)).json()) as MockGatewayState;
    expect(served.requests.map((r) => r.keys.mchOrderNo)).toEqual(requests.map((r) => r.keys.mchOrderNo));
  });

  it('is bounded by requestLogLimit too', async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT], startTime: START, requestLogLimit: 3 });
    for (let i = 0; i < 5; i++) await call(gateway, 'query', { mchOrderNo: `q-${i}` });
    expect(gateway.requests.map((r) => r.keys.mchOrderNo)).toEqual(['q-2', 'q-3', 'q-4']);
    expect(gateway.state().requests.map((r) => r.keys.mchOrderNo)).toEqual(['q-4', 'q-3', 'q-2']);
  });

  it('names refunds by mchRefundNo and prints refund states by name; a refused refund says why', async () => {
    const { gateway, lines } = loggedGateway();
    await call(gateway, 'unifiedOrder', orderFields());
    gateway.payOrder('order-1');
    await call(gateway, 'refundOrder', refundFields({ mchRefundNo: 'log-r1' }));
    gateway.setRefundMode('hold');
    await call(gateway, 'refundOrder', refundFields({ mchRefundNo: 'log-r2' }));
    await call(gateway, 'refundOrder', refundFields({ mchRefundNo: 'log-r1' }));
    await call(gateway, 'refundQuery', { mchRefundNo: 'log-r1' });
    await call(gateway, 'refundQuery', { mchRefundNo: 'log-none' });
    const [, created, held, duplicate, queried, unknown] = lines();
    expect(created).toMatch(/ refundOrder +mchRefundNo=log-r1  SUCCESS refundOrderId=R\d+ state=2 \(Succeeded\)  \d+ ms$/);
    expect(held).toMatch(/ refundOrder +mchRefundNo=log-r2  SUCCESS refundOrderId=R\d+ state=1 \(Refunding\)  \d+ ms$/);
    expect(duplicate).toMatch(/ refundOrder +mchRefundNo=log-r1  9999 支付订单具有在途退款申请，请稍后再试 \(refund_in_progress\)  \d+ ms$/);
    expect(queried).toMatch(/ refundQuery +mchRefundNo=log-r1  SUCCESS refundOrderId=R\d+ state=2 \(Succeeded\)  \d+ ms$/);
    expect(unknown).toMatch(/ refundQuery +mchRefundNo=log-none  9999 订单不存在 \(refund_not_found\)  \d+ ms$/);
    expect(gateway.requests[1]).toMatchObject({ operation: 'refundOrder', keys: { mchRefundNo: 'log-r1' }, msg: 'SUCCESS' });
    expect(gateway.requests[3]).toMatchObject({ operation: 'refundOrder', keys: { mchRefundNo: 'log-r1' }, reason: 'refund_in_progress' });
    const page = await dashboard(gateway);
    expect(page).toContain('<code>log-r1</code>');
    expect(page).toMatch(/SUCCESS refundOrderId=R\d+ state=1 \(Refunding\)/);
  });

  it('the dashboard lists them', async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT], startTime: START });
    await call(gateway, 'unifiedOrder', orderFields({ mchOrderNo: 'dash-1' }));
    await call(gateway, 'query', { mchOrderNo: 'dash-<b>' });
    const page = await dashboard(gateway);
    expect(page).toMatch(/<h2>Latest requests <span class="muted">\(2\)<\/span><\/h2>/);
    expect(page).toContain('<code>dash-1</code>');
    expect(page).toContain('9999 订单不存在 (order_not_found)');
    expect(page).toContain('<code>dash-&#60;b&#62;</code>'); // escaped, as every received value
  });
});

describe('a refused signature', () => {
  const order = () => ({ ...common(), ...orderFields({ mchOrderNo: 'sig-1', clientIp: '' }) }) as Fields;
  const canonical = (fields: Fields, secret: string) => signingString(Object.fromEntries(Object.entries(fields).filter(([k, v]) => k !== 'sign' && v !== '')), secret);

  it('is answered 验签失败 exactly; the record says why: the expected string (secret as ***), the fields, the mistake', async () => {
    const { gateway, lines } = loggedGateway();
    const body: Fields = { ...misSigned(order(), (fragments, secret) => `${fragments}key=${secret}`), shop: 'eu' };
    const answer = await post(gateway, PATHS.unifiedOrder, body);
    expect(answer.text).toBe('{"code":9999,"msg":"验签失败"}');
    const refusal = gateway.requests[0]?.signature;
    expect(refusal?.expected).toBe(canonical(order(), '***'));
    expect(refusal?.expected).toMatch(/^amount=1999&appId=app-0001&body=Blue, M&.*&wayCode=QR_CASHIER&key=\*\*\*$/);
    expect(refusal?.received).toBe(body.sign);
    expect(refusal?.mistake).toMatchObject({ id: 'empty-value-signed', summary: 'an empty value was signed (clientIp=&)' });
    expect(refusal?.mistake?.signedString).toContain('clientIp=&');
    expect(refusal?.fields).toEqual(expect.arrayContaining([
      { name: 'amount', signed: true },
      { name: 'clientIp', signed: false, why: 'empty value' },
      { name: 'sign', signed: false, why: 'the signature itself' },
      { name: 'shop', signed: false, why: 'not signed by the gateway' },
    ]));
    const [line] = lines();
    expect(line).toMatch(/ unifiedOrder +mchOrderNo=sig-1  9999 验签失败 \(signature_invalid\)  \d+ ms\n/);
    expect(line).toContain('likely mistake: an empty value was signed (clientIp=&); fix: leave out every field whose value is empty ("") or null');
    expect(line).toContain(`expected:   ${canonical(order(), '***')}`);
    expect(line).toContain('not signed: clientIp (empty value)');
    expect(gateway.orders()).toHaveLength(0);
  });

  it.each([
    ['leading-ampersand', 'the string starts with "&"', (fragments: string, secret: string) => `&${fragments}key=${secret}`],
    ['key-missing', 'the string ends without key=SECRET', (fragments: string) => fragments],
    ['secret-without-key', 'the secret was appended without "key="', (fragments: string, secret: string) => `${fragments}${secret}`],
  ])('names the mistake %s', async (id, summary, preHash) => {
    const { gateway, lines } = loggedGateway();
    const fields = { ...common(), mchOrderNo: 'sig-2' };
    await post(gateway, PATHS.query, misSigned(fields, preHash));
    expect(gateway.requests[0]?.signature?.mistake).toMatchObject({ id, summary });
    expect(lines()[0]).toContain(`likely mistake: ${summary}`);
  });

  it('with no mistake that reproduces it, says the secret most likely differs', async () => {
    const { gateway, lines } = loggedGateway();
    await post(gateway, PATHS.query, misSigned({ ...common(), mchOrderNo: 'sig-3' }, (fragments) => `${fragments}key=another-secret`));
    expect(gateway.requests[0]?.signature?.mistake).toBeUndefined();
    expect(lines()[0]).toMatch(/why: No common mistake reproduces the received sign: most likely the secret differs/);
  });

  it('shows on the dashboard; the secret and the string hashed with it appear nowhere (log, state, page, records)', async () => {
    const { gateway, lines } = loggedGateway();
    const fields = order();
    await post(gateway, PATHS.unifiedOrder, misSigned(fields, (fragments, secret) => `&${fragments}key=${secret}`));
    await post(gateway, PATHS.unifiedOrder, misSigned(fields, (fragments, secret) => `${fragments}key=${secret}`));
    const page = await dashboard(gateway);
    expect(page).toContain('验签失败');
    expect(page).toContain('Why the signature was refused:</b> an empty value was signed (clientIp=&#38;)');
    expect(page).toContain(`<code class="canonical">${canonical(fields, '***').replaceAll('&', '&#38;')}</code>`);
    const everything = [lines().join('\n'), JSON.stringify(gateway.state()), (await (await gateway.fetch(`${ORIGIN}/_mock/state`)).text()), page, JSON.stringify(gateway.requests)];
    const secretStrings = [MERCHANT.secret, canonical(fields, MERCHANT.secret), `&${Object.entries(fields).map(([k, v]) => `${k}=${v}&`).sort(compareCaseInsensitive).join('')}key=${MERCHANT.secret}`];
    for (const text of everything) for (const secret of secretStrings) expect(text).not.toContain(secret);
    expect(everything.every((text) => text.includes('key=***'))).toBe(true);
  });
});
