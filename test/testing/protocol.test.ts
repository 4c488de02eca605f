// The mock gateway on its own, against the signature vectors and the protocol rules. Requests are built
// and signed by hand; the SDK's client is not involved.
import { describe, expect, it } from 'vitest';
import { operations } from '../../src/operations/table.js';
import { wireFields } from '../../src/operations/wire.js';
import { sign } from '../../src/protocol/signing/sign.js';
import { OPERATION_ROUTES } from '../../src/testing/http/operation-routes.js';
import { createMockGateway, MOCK_MESSAGES } from '../../src/testing/index.js';
import { vector } from '../support/vectors.js';
import { call, common, expectedSign, MERCHANT, ORIGIN, orderFields, OTHER_MERCHANT, PATHS, post, signed, START } from '../support/raw-gateway.js';

const newGateway = () => createMockGateway({ merchants: [MERCHANT, OTHER_MERCHANT], startTime: START });

function vectorGateway(v: { secret: string; params: Record<string, unknown> }) {
  return createMockGateway({ merchants: [{ mchNo: String(v.params.mchNo), appId: String(v.params.appId), secret: v.secret }], startTime: START });
}

describe('request signatures (vectors)', () => {
  it('accepts the unifiedOrder request vector exactly as signed, empty fields and all', async () => {
    const v = vector('unifiedOrder request');
    const gateway = vectorGateway(v);
    const answer = await post(gateway, PATHS.unifiedOrder, { ...v.params, sign: v.sign });
    expect(answer.json).toMatchObject({ code: 200, msg: 'SUCCESS', data: { mchOrderNo: 'mho1624005107281', orderState: 0, payDataType: 'codeImgUrl' } });
  });

  it('accepts the query request vector (the order is unknown, so the signature passed)', async () => {
    const v = vector('query request');
    const answer = await post(vectorGateway(v), PATHS.query, { ...v.params, sign: v.sign });
    expect(answer.json).toEqual({ code: 9999, msg: MOCK_MESSAGES.orderNotFound });
  });

  it('accepts a lower-case sign (the server compares case-insensitively)', async () => {
    const v = vector('query request');
    const answer = await post(vectorGateway(v), PATHS.query, { ...v.params, sign: v.sign.toLowerCase() });
    expect(answer.json.msg).toBe(MOCK_MESSAGES.orderNotFound);
  });

  it('refuses a vector request whose value was changed after signing', async () => {
    const v = vector('unifiedOrder request');
    const answer = await post(vectorGateway(v), PATHS.unifiedOrder, { ...v.params, amount: 101, sign: v.sign });
    expect(answer).toMatchObject({ status: 200, json: { code: 9999, msg: '验签失败' } });
    expect(answer.json).not.toHaveProperty('sign');
  });

  it('refuses an extra signed field: the server drops it before re-signing', async () => {
    const gateway = newGateway();
    const answer = await post(gateway, PATHS.unifiedOrder, signed({ ...common(), ...orderFields(), notifyURL: 'https://shop.test/n' }));
    expect(answer.json).toEqual({ code: 9999, msg: '验签失败' });
    expect(gateway.orders()).toHaveLength(0);
  });

  it('ignores an extra field that was not signed, and fields that are "" or null', async () => {
    const body = { ...signed({ ...common(), ...orderFields() }), riskToken: 'x' };
    const answer = await post(newGateway(), PATHS.unifiedOrder, { ...body, returnUrl: '', extParam: null });
    expect(answer.json.code).toBe(200);
  });

  it('binds integers sent as text, as the typed server does ("1999" signs as 1999)', async () => {
    const body = signed({ ...common(), ...orderFields({ amount: 1999 }) });
    const answer = await post(newGateway(), PATHS.unifiedOrder, { ...body, amount: '1999' });
    expect(answer.json.code).toBe(200);
  });

  it('reads form bodies too', async () => {
    const form = new URLSearchParams(signed({ ...common(), ...orderFields() }) as Record<string, string>).toString();
    const answer = await post(newGateway(), PATHS.unifiedOrder, form, 'application/x-www-form-urlencoded');
    expect(answer.json.code).toBe(200);
  });
});

describe('response envelope and signature', () => {
  it('signs close data {} as just key=SECRET (close vector, byte for byte)', async () => {
    const v = vector('close response');
    const merchant = { mchNo: 'M1621873433953', appId: '60cc09bce4b0f1c0b83761c9', secret: v.secret };
    const gateway = createMockGateway({ merchants: [merchant], startTime: START });
    await call(gateway, 'unifiedOrder', orderFields(), merchant);
    const answer = await call(gateway, 'close', { mchOrderNo: 'order-1' }, merchant);
    expect(answer.text).toBe(`{"code":200,"msg":"SUCCESS","data":{},"sign":"${v.sign}"}`);
  });

  it('signs success data with the merchant secret over data members only, HTTP 200 JSON', async () => {
    const gateway = newGateway();
    const response = await gateway.fetch(new Request(`https://gateway.test${PATHS.unifiedOrder}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(signed({ ...common(), ...orderFields({ wayCode: 'ALI_WAP' }) })),
    }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const json = (await response.json()) as { code: number; msg: string; data: Record<string, unknown>; sign: string };
    expect(Object.keys(json)).toEqual(['code', 'msg', 'data', 'sign']);
    expect(json.sign).toBe(expectedSign(json.data));
    expect(json.sign).not.toBe(expectedSign(json.data, OTHER_MERCHANT.secret));
  });

  it('answers with the configured success code (open-source Jeepay uses 0)', async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT], startTime: START, successCode: 0 });
    expect((await call(gateway, 'unifiedOrder', orderFields())).json.code).toBe(0);
  });

  it('writes decimal transaction amounts as exact number text and signs the raw text', async () => {
    const gateway = newGateway();
    await call(gateway, 'unifiedOrder', orderFields({ wayCode: 'COIN_TRON_USDT', amount: 1050 }));
    gateway.addTransaction('order-1', { amount: '0.000001', status: 'Confirming' });
    gateway.payOrder('order-1');
    const answer = await call(gateway, 'query', { mchOrderNo: 'order-1' });
    expect(answer.text).toContain('"amount":0.000001,');
    expect(answer.text).toContain('"amount":10.50,');
    const list = /"orderTransactionList":(\[[^\]]*\])/.exec(answer.text)?.[1] ?? '';
    const { orderTransactionList: _list, ...scalars } = answer.json.data ?? {};
    expect(answer.json.sign).toBe(expectedSign({ ...scalars, orderTransactionList: list }));
    // A verifier that re-stringifies the parsed floats (10.50 -> 10.5) must fail: the raw text is what is signed.
    expect(answer.json.sign).not.toBe(expectedSign({ ...scalars, orderTransactionList: JSON.stringify(JSON.parse(list)) }));
  });
});

describe('refusals (docs/reference/protocol.md section 5)', () => {
  it.each([
    ['an unknown merchant', { mchNo: 'M-unknown' }, MOCK_MESSAGES.unknownMerchant],
    ['an unknown app', { appId: 'app-unknown' }, MOCK_MESSAGES.unknownMerchant],
    ["another merchant's app", { appId: OTHER_MERCHANT.appId }, MOCK_MESSAGES.appIdMismatch],
    ['signType other than MD5', { signType: 'RSA' }, MOCK_MESSAGES.signTypeUnsupported],
    ['reqTime in seconds', { reqTime: '1700000000' }, MOCK_MESSAGES.reqTimeFormat],
    ['reqTime in microseconds', { reqTime: '1700000000123000' }, MOCK_MESSAGES.reqTimeFormat],
    ['a missing version', { version: undefined }, MOCK_MESSAGES.required('version')],
    ['a missing mchOrderNo', { mchOrderNo: undefined }, MOCK_MESSAGES.required('mchOrderNo')],
    ['a blank subject', { subject: '  ' }, MOCK_MESSAGES.required('subject')],
    ['a missing amount', { amount: undefined }, '支付金额不能为空'],
    ['amount 0', { amount: 0 }, '支付金额不能为空'],
    ['divisionMode 3', { divisionMode: 3 }, MOCK_MESSAGES.divisionMode],
    ['an ftp notifyUrl', { notifyUrl: 'ftp://shop.test/n' }, MOCK_MESSAGES.notifyUrlProtocol],
    ['an unknown way code', { wayCode: 'BTC_LIGHTNING' }, '不支持的支付方式'],
  ])('refuses %s with code 9999', async (_name, overrides, msg) => {
    const body = signed({ ...common(), ...orderFields(), ...overrides }, MERCHANT.secret);
    const answer = await post(newGateway(), PATHS.unifiedOrder, body);
    expect(answer).toMatchObject({ status: 200, json: { code: 9999, msg } });
    expect(Object.keys(answer.json).sort()).toEqual(['code', 'msg']);
  });

  it('accepts divisionMode 0, 1 and 2', async () => {
    const gateway = newGateway();
    for (const divisionMode of [0, 1, 2]) {
      expect((await call(gateway, 'unifiedOrder', orderFields({ mchOrderNo: `d-${divisionMode}`, divisionMode }))).json.code).toBe(200);
    }
  });

  it('answers code 11 to a body that is not JSON, or a value of the wrong type', async () => {
    const gateway = newGateway();
    expect((await post(gateway, PATHS.query, '{"mchNo":')).json).toMatchObject({ code: 11, msg: expect.stringMatching(/^参数有误\[/) });
    expect((await post(gateway, PATHS.query, '[1,2]')).json.code).toBe(11);
    const nested = { ...signed({ ...common(), ...orderFields() }), channelExtra: { authCode: '123' } };
    expect((await post(gateway, PATHS.unifiedOrder, nested)).json).toMatchObject({ code: 11, msg: expect.stringContaining('channelExtra') });
    const decimal = { ...signed({ ...common(), ...orderFields() }), amount: 19.99 };
    expect((await post(gateway, PATHS.unifiedOrder, decimal)).json).toMatchObject({ code: 11, msg: expect.stringContaining('amount') });
  });

  it('answers unknown paths and other methods with the framework JSON (404, 405)', async () => {
    const gateway = newGateway();
    const notFound = await post(gateway, '/api/pay/refund', {});
    expect(notFound.status).toBe(404);
    expect(notFound.json).toMatchObject({ status: 404, error: 'Not Found', path: '/api/pay/refund' });
    const get = await gateway.fetch(`https://gateway.test${PATHS.query}`);
    expect(get.status).toBe(405);
    expect(gateway.requests).toHaveLength(0);
  });

  it('routes exactly {base}{path}: a prefix the gateway does not have is a 404, as in production', async () => {
    const gateway = newGateway();
    const answer = await post(gateway, `/gw${PATHS.unifiedOrder}`, signed({ ...common(), ...orderFields() }));
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({ status: 404, error: 'Not Found', path: `/gw${PATHS.unifiedOrder}` });
    expect(gateway.orders()).toHaveLength(0);
  });

  it('serves the operations below the path of its baseUrl (a gateway behind a proxy path)', async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT], startTime: START, baseUrl: `${ORIGIN}/gw` });
    expect((await post(gateway, `/gw${PATHS.unifiedOrder}`, signed({ ...common(), ...orderFields() }))).json.code).toBe(200);
    expect((await post(gateway, PATHS.unifiedOrder, signed({ ...common(), ...orderFields({ mchOrderNo: 'order-2' }) }))).status).toBe(404);
  });

  it('verifies with the secret of the app named in the request', async () => {
    const gateway = newGateway();
    const asOther = signed({ ...common(OTHER_MERCHANT), ...orderFields() }, MERCHANT.secret);
    expect((await post(gateway, PATHS.unifiedOrder, asOther)).json.msg).toBe('验签失败');
    expect((await call(gateway, 'unifiedOrder', orderFields(), OTHER_MERCHANT)).json.code).toBe(200);
  });

  it('records each request with its answer code', async () => {
    const gateway = newGateway();
    await call(gateway, 'unifiedOrder', orderFields());
    await call(gateway, 'unifiedOrder', orderFields());
    expect(gateway.requests.map((r) => [r.operation, r.code])).toEqual([['unifiedOrder', 200], ['unifiedOrder', 9999]]);
    expect(gateway.requests[0]?.body).toMatchObject({ mchOrderNo: 'order-1', sign: expect.any(String) });
  });
});

describe('sign() sanity for these tests', () => {
  it('is the vector algorithm (so hand-signed requests here are real requests)', () => {
    const v = vector('vendor/normal');
    expect(sign(v.params, v.secret)).toBe(v.sign);
  });
});

describe('routes and bindings derived from the endpoint table', () => {
  const binding = (path: string) => {
    const spec = OPERATION_ROUTES.get(path);
    const fields = [...(spec?.fields ?? new Map())];
    return {
      required: fields.filter(([, f]) => f.required).map(([n]) => n).sort(),
      integers: fields.filter(([, f]) => f.integer).map(([n]) => n).sort(),
      known: fields.map(([n]) => n).sort(),
    };
  };

  it('has one route per operation, at its path', () => {
    expect([...OPERATION_ROUTES.values()].map((s) => [s.operation, s.path])).toEqual(Object.entries(operations).map(([name, e]) => [name, e.path]));
  });

  it('knows each operation\'s wire fields, which are required and which are integers', () => {
    const commonRequired = ['appId', 'mchNo', 'reqTime', 'sign', 'signType', 'version'];
    expect(binding(PATHS.unifiedOrder)).toEqual({
      required: [...commonRequired, 'amount', 'body', 'currency', 'mchOrderNo', 'subject', 'wayCode'].sort(),
      integers: ['amount', 'divisionMode', 'expiredTime'],
      known: wireFields('unifiedOrder').slice().sort(),
    });
    expect(binding(PATHS.settleRequest)).toMatchObject({
      required: [...commonRequired, 'amount', 'currency', 'payoutChannel', 'requestId', 'tokenId'].sort(),
      integers: ['amount'],
    });
    expect(binding(PATHS.query)).toMatchObject({ required: commonRequired, integers: [] });
  });
});
