import { describe, expect, it } from 'vitest';
import { BODY_EXCERPT_LIMIT } from '../../src/errors/index.js';
import {
  GatewayAbortError,
  GatewayApiError,
  GatewayClient,
  GatewayConnectionError,
  GatewayEmptyResponseError,
  GatewayError,
  GatewayHttpStatusError,
  GatewayNonJsonResponseError,
  GatewayResponseError,
  GatewayResponseValidationError,
  GatewaySignatureError,
  GatewayTimeoutError,
  GatewayTruncatedResponseError,
  sign,
} from '../../src/index.js';
import { CREDENTIALS, hangingFetch, NO_RETRY, Raw, SECRET, signedEnvelope, toJsonText, useWire } from '../support/wire.js';

const wire = useWire();
const client = new GatewayClient({ ...CREDENTIALS, ...NO_RETRY });
const payOrder = {
  payOrderId: 'P1', mchNo: CREDENTIALS.mchNo, appId: CREDENTIALS.appId, mchOrderNo: 'o-1', ifCode: 'coinpay', wayCode: 'QR_CASHIER',
  amount: 100, currency: 'USD', state: 2, subject: 's', body: 'b', createdAt: 1700000000000,
};
const query = () => client.query({ mchOrderNo: 'o-1' });

async function failure(call: () => Promise<unknown>): Promise<GatewayError> {
  const error = await call().then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

describe('response signatures', () => {
  it('accepts a decimal 10.50 inside the transaction list: it is verified over the text received', async () => {
    wire.replyWith(signedEnvelope({ ...payOrder, orderTransactionList: [{ txId: 'T1', amount: new Raw('10.50'), status: 'Completed' }] }));
    const order = await query();
    expect(order.orderTransactionList?.[0]?.amount).toBe('10.50');
  });

  it('rejects a body whose 10.50 was signed as 10.5 (re-stringified floats would hide this)', async () => {
    const signedAs = { ...payOrder, orderTransactionList: [{ txId: 'T1', amount: new Raw('10.5'), status: 'Completed' }] };
    const sentAs = { ...payOrder, orderTransactionList: [{ txId: 'T1', amount: new Raw('10.50'), status: 'Completed' }] };
    const envelope = JSON.parse(signedEnvelope(signedAs)) as { sign: string };
    wire.replyWith(toJsonText({ code: 200, msg: 'SUCCESS', data: sentAs, sign: envelope.sign }));
    expect(await failure(query)).toBeInstanceOf(GatewaySignatureError);
  });

  it('accepts data {} signed as key=SECRET and a lower-case sign', async () => {
    wire.replyWith(JSON.stringify({ code: 200, msg: 'SUCCESS', data: {}, sign: sign({}, SECRET).toLowerCase() }));
    await expect(client.close({ mchOrderNo: 'o-1' })).resolves.toBeUndefined();
  });

  it('verifies a top-level decimal member by its raw text', async () => {
    const data = { serverRequestId: 'S1', status: 1, fee: new Raw('0.10') };
    wire.replyWith(signedEnvelope(data));
    await expect(client.settleAddressApply({ requestId: 'r', tokenId: 'TRON_USDT', address: 'T1' })).resolves.toMatchObject({ serverRequestId: 'S1', status: 1 });
  });

  it.each([
    ['a wrong sign', (body: Record<string, unknown>) => ({ ...body, sign: '0'.repeat(32) })],
    ['a missing sign', ({ sign: _s, ...body }: Record<string, unknown>) => body],
    ['an empty sign', (body: Record<string, unknown>) => ({ ...body, sign: '' })],
    ['a changed amount', (body: Record<string, unknown>) => ({ ...body, data: { ...(body.data as object), amount: 1 } })],
    ['an added field', (body: Record<string, unknown>) => ({ ...body, data: { ...(body.data as object), extra: 'x' } })],
    ['a removed field', (body: Record<string, unknown>) => { const { subject: _s, ...data } = body.data as Record<string, unknown>; return { ...body, data }; }],
  ])('rejects %s with GatewaySignatureError', async (_name, tamper) => {
    wire.replyWith(JSON.stringify(tamper(JSON.parse(signedEnvelope(payOrder)) as Record<string, unknown>)));
    const error = await failure(query);
    expect(error).toBeInstanceOf(GatewaySignatureError);
    expect(error.operation).toBe('query');
  });

  it('rejects a response signed with another secret', async () => {
    wire.replyWith(signedEnvelope(payOrder, 'another-secret'));
    expect((await failure(query)).message).toMatch(/signature does not match/);
  });

  it('skips the check only with the explicit verifyResponses: false', async () => {
    wire.replyWith(JSON.stringify({ code: 200, msg: 'SUCCESS', data: payOrder }));
    const unsafe = new GatewayClient({ ...CREDENTIALS, ...NO_RETRY, verifyResponses: false });
    await expect(unsafe.query({ mchOrderNo: 'o-1' })).resolves.toMatchObject({ payOrderId: 'P1' });
  });
});

describe('each bad response is a distinct GatewayError subclass with status and a bounded excerpt', () => {
  it('business error -> GatewayApiError with code, msg and operation', async () => {
    wire.replyWith(JSON.stringify({ code: 9999, msg: '不支持的支付方式' }));
    const error = await failure(() => client.unifiedOrder({ mchOrderNo: 'o-1', wayCode: 'QR_CASHIER', amount: 1, currency: 'USD', subject: 's', body: 'b' }));
    expect(error).toBeInstanceOf(GatewayApiError);
    expect(error).toMatchObject({ code: 9999, msg: '不支持的支付方式', operation: 'unifiedOrder', name: 'GatewayApiError', reason: 'way_code_unsupported' });
    expect(error.message).toContain('不支持的支付方式');
  });

  it('honours a custom successCode (open-source Jeepay uses 0)', async () => {
    wire.replyWith(signedEnvelope(payOrder, SECRET, 0));
    await expect(new GatewayClient({ ...CREDENTIALS, ...NO_RETRY, successCode: 0 }).query({ payOrderId: 'P1' })).resolves.toMatchObject({ payOrderId: 'P1' });
    wire.replyWith(signedEnvelope(payOrder, SECRET, 0));
    expect(await failure(query)).toBeInstanceOf(GatewayApiError);
  });

  it('HTML 502 -> GatewayHttpStatusError', async () => {
    wire.replyWith('<html><body><h1>502 Bad Gateway</h1></body></html>', 502, { 'content-type': 'text/html' });
    const error = await failure(query);
    expect(error).toBeInstanceOf(GatewayHttpStatusError);
    expect(error).toMatchObject({ status: 502, bodyExcerpt: '<html><body><h1>502 Bad Gateway</h1></body></html>' });
  });

  it('framework 404 JSON -> GatewayHttpStatusError that points at baseUrl', async () => {
    wire.replyWith(JSON.stringify({ timestamp: '2024-01-01', status: 404, error: 'Not Found', path: '/api/pay/query' }), 404);
    const error = await failure(query);
    expect(error).toBeInstanceOf(GatewayHttpStatusError);
    expect(error.message).toMatch(/check baseUrl/);
  });

  it('empty 200 body -> GatewayEmptyResponseError (close says to query)', async () => {
    wire.replyWith('');
    const error = await failure(() => client.close({ mchOrderNo: 'o-1' }));
    expect(error).toBeInstanceOf(GatewayEmptyResponseError);
    expect(error).toMatchObject({ status: 200, bodyExcerpt: '' });
    expect(error.message).toMatch(/query the order/);
  });

  it('HTML with 200 -> GatewayNonJsonResponseError', async () => {
    wire.replyWith('<html>maintenance</html>', 200, { 'content-type': 'text/html' });
    const error = await failure(query);
    expect(error).toBeInstanceOf(GatewayNonJsonResponseError);
    expect(error).not.toBeInstanceOf(GatewayTruncatedResponseError);
  });

  it('truncated JSON -> GatewayTruncatedResponseError', async () => {
    const full = signedEnvelope(payOrder);
    wire.replyWith(full.slice(0, full.length - 20));
    const error = await failure(query);
    expect(error).toBeInstanceOf(GatewayTruncatedResponseError);
    expect(error).toBeInstanceOf(GatewayResponseError);
  });

  it('JSON that is not an envelope -> GatewayResponseValidationError', async () => {
    wire.replyWith('[1,2,3]');
    expect(await failure(query)).toBeInstanceOf(GatewayResponseValidationError);
    wire.replyWith('{"msg":"no code"}');
    expect(await failure(query)).toBeInstanceOf(GatewayResponseValidationError);
  });

  it('data failing its schema -> GatewayResponseValidationError with paths', async () => {
    const { payOrderId: _p, ...missing } = payOrder;
    wire.replyWith(signedEnvelope({ ...missing, state: 9 }));
    const error = (await failure(query)) as GatewayResponseValidationError;
    expect(error).toBeInstanceOf(GatewayResponseValidationError);
    expect(error.issues.map((i) => i.path.join('.')).sort()).toEqual(['payOrderId', 'state']);
    expect(error.status).toBe(200);
  });

  it('an unsafe integer amount is an error, never a rounded number', async () => {
    wire.replyWith(signedEnvelope({ ...payOrder, amount: new Raw('9007199254740993') }));
    const error = (await failure(query)) as GatewayResponseValidationError;
    expect(error).toBeInstanceOf(GatewayResponseValidationError);
    expect(error.issues[0]).toEqual({ path: ['amount'], message: expect.stringMatching(/9007199254740993/) });
  });

  it('an integer written as 100.0 or 1e2 is an error', async () => {
    wire.replyWith(signedEnvelope({ ...payOrder, amount: new Raw('1e2') }));
    expect(await failure(query)).toBeInstanceOf(GatewayResponseValidationError);
  });

  it('keeps only a bounded excerpt of a huge body', async () => {
    wire.replyWith(`<html>${'x'.repeat(100_000)}</html>`, 503, { 'content-type': 'text/html' });
    const error = (await failure(query)) as GatewayResponseError;
    expect(error.bodyExcerpt.length).toBeLessThan(BODY_EXCERPT_LIMIT + 50);
    expect(error.bodyExcerpt).toMatch(/100013 characters in all/);
  });

  it('null optional fields are treated as absent', async () => {
    wire.replyWith(signedEnvelope({ ...payOrder, channelOrderNo: null, errCode: null }));
    const order = await query();
    expect(order).not.toHaveProperty('channelOrderNo');
  });
});

describe('transport failures', () => {
  it('a network error -> GatewayConnectionError with the cause', async () => {
    const refused = new GatewayClient({ ...CREDENTIALS, ...NO_RETRY, fetch: async () => { throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }); } });
    const error = await failure(() => refused.query({ payOrderId: 'P1' }));
    expect(error).toBeInstanceOf(GatewayConnectionError);
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect(error.cause).toBeDefined();
  });

  it('no answer within timeout -> GatewayTimeoutError', async () => {
    const stalled = new GatewayClient({ ...CREDENTIALS, ...NO_RETRY, timeout: 50, fetch: hangingFetch });
    const error = await failure(() => stalled.query({ payOrderId: 'P1' }));
    expect(error).toBeInstanceOf(GatewayTimeoutError);
    expect(error.message).toMatch(/50 ms/);
  });

  it('a body that stalls after the headers also times out', async () => {
    const stalledBody = new GatewayClient({
      ...CREDENTIALS,
      timeout: 50,
      retry: { initialDelayMs: 1, maxDelayMs: 2 }, // each attempt stalls the same way: no need to wait between them
      fetch: async (_url, init) => new Response(new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode('{"code":')); init.signal?.addEventListener('abort', () => c.error(init.signal?.reason)); } })),
    });
    expect(await failure(() => stalledBody.query({ payOrderId: 'P1' }))).toBeInstanceOf(GatewayTimeoutError);
  });

  it("the caller's signal -> GatewayAbortError", async () => {
    const controller = new AbortController();
    const pending = new GatewayClient({ ...CREDENTIALS, ...NO_RETRY, fetch: hangingFetch })
      .query({ payOrderId: 'P1' }, { signal: controller.signal });
    controller.abort();
    const error = await failure(() => pending);
    expect(error).toBeInstanceOf(GatewayAbortError);
    expect(error).not.toBeInstanceOf(GatewayTimeoutError);
  });
});
