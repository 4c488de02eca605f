import { describe, expect, it } from 'vitest';
import {
  GatewayClient,
  GatewaySignatureError,
  GatewayValidationError,
  NOTIFICATION_ACK,
  notificationAckResponse,
  sign,
  verifyNotification,
  verifySettlementNotification,
} from '../../src/index.js';
import { formBody, MERCHANT, PAY_FIELDS, SETTLEMENT_FIELDS, signedFields } from '../support/notification.js';

async function issuesOf(promise: Promise<unknown>): Promise<GatewayValidationError['issues']> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof GatewayValidationError)) throw new Error(`expected a GatewayValidationError, got ${String(error)}`);
  return error.issues;
}

const REQ_TIME = Number(PAY_FIELDS.reqTime);

describe('received text becomes typed fields', () => {
  it.each(['58.0', '1e2', ' 58', '0x3A', '9007199254740993', 'fifty'])('a signed amount of %j is refused, naming the field', async (amount) => {
    const issues = await issuesOf(verifyNotification(formBody(signedFields({ amount })), MERCHANT));
    expect(issues).toEqual([{ path: ['amount'], message: expect.stringContaining('integer') }]);
  });

  it('a signed state the SDK does not know is refused', async () => {
    const issues = await issuesOf(verifyNotification(formBody(signedFields({ state: '9' })), MERCHANT));
    expect(issues).toEqual([{ path: ['state'], message: expect.stringContaining('pay-order state') }]);
  });

  it('a required field missing from a signed notification is reported', async () => {
    const issues = await issuesOf(verifyNotification(formBody(signedFields({ createdAt: undefined, payOrderId: undefined })), MERCHANT));
    expect(issues.map((i) => i.path)).toEqual([['payOrderId'], ['createdAt']]);
  });

  it('an empty optional integer counts as absent (the gateway does not sign "")', async () => {
    const notification = await verifyNotification(formBody(signedFields({ successTime: '' })), MERCHANT);
    expect(notification.successTime).toBeUndefined();
  });

  it('a JSON body may carry numbers; they are signed as their text', async () => {
    const { sign: signature, ...fields } = signedFields();
    const json = `{${Object.entries(fields).map(([k, v]) => `"${k}":${/^\d+$/.test(v) ? v : JSON.stringify(v)}`).join(',')},"sign":"${signature}"}`;
    expect(json).toContain('"amount":58');
    await expect(verifyNotification(json, MERCHANT)).resolves.toMatchObject({ amount: 58, state: 2 });
  });

  it.each([
    ['a number', { ...signedFields(), amount: 58 }, /amount: is a number/],
    ['an array (a field sent twice)', { ...signedFields(), amount: ['58', '58'] }, /amount: was sent more than once/],
    ['a nested object (an extended parser)', { ...signedFields(), extParam: { a: '1' } }, /extParam: is an object/],
    ['no fields (no body parser ran)', {}, /no fields: did a body parser run/],
  ])('an object whose value is %s is refused clearly', async (_name, input, message) => {
    await expect(verifyNotification(input, MERCHANT)).rejects.toThrow(message);
  });

  it.each([
    ['undefined', undefined],
    ['a number', 42],
    ['an array', [['a', '1']]],
    ['null', null],
  ])('an input that is %s is refused clearly', async (_name, input) => {
    await expect(verifyNotification(input as never, MERCHANT)).rejects.toThrow(/expected the raw body/);
  });

  it.each(['', '   ', '{"amount":', '[1,2]'])('a body of %j is refused as unreadable', async (body) => {
    await expect(verifyNotification(body, MERCHANT)).rejects.toThrow(/Cannot read the notification/);
  });
});

describe('ignoreKeys: the query parameters of your own notifyUrl', () => {
  const withQueryKey = { ...signedFields(), shop: 'eu' };

  it('are left out of the signature and of the result', async () => {
    await expect(verifyNotification(formBody(withQueryKey), MERCHANT)).rejects.toThrow(GatewaySignatureError);
    const notification = await verifyNotification(formBody(withQueryKey), { ...MERCHANT, ignoreKeys: ['shop'] });
    expect(notification).not.toHaveProperty('shop');
  });

  it.each(['amount', 'mchNo', 'reqTime', 'sign'])('cannot name a signed field such as %s', async (key) => {
    const issues = await issuesOf(verifyNotification(formBody(withQueryKey), { ...MERCHANT, ignoreKeys: [key] }));
    expect(issues).toEqual([{ path: ['ignoreKeys'], message: expect.stringContaining(`cannot ignore '${key}'`) }]);
  });
});

describe('expect: a genuine notification for the wrong payment is still wrong', () => {
  it('passes when everything matches, currency in any case', async () => {
    const expectation = { mchOrderNo: 'mho1623985457320', amount: 58, currency: 'CNY' };
    await expect(verifyNotification(formBody(signedFields()), { ...MERCHANT, expect: expectation })).resolves.toMatchObject({ amount: 58 });
  });

  it.each([
    ['mchOrderNo', { mchOrderNo: 'mho-other' }],
    ['amount', { amount: 5800, currency: 'CNY' }],
    ['currency', { currency: 'USD' }],
  ])('a different %s is a GatewayValidationError', async (key, expectation) => {
    const issues = await issuesOf(verifyNotification(formBody(signedFields()), { ...MERCHANT, expect: expectation }));
    expect(issues).toEqual([{ path: [key], message: expect.stringContaining('was expected') }]);
  });
});

describe('maxAgeMs (opt-in)', () => {
  const maxAgeMs = 5 * 60_000;

  it('accepts a reqTime within the window', async () => {
    await expect(verifyNotification(formBody(signedFields()), { ...MERCHANT, maxAgeMs, now: () => REQ_TIME + 60_000 })).resolves.toBeDefined();
  });

  it('rejects an older one and says why that can hit genuine retries', async () => {
    const issues = await issuesOf(verifyNotification(formBody(signedFields()), { ...MERCHANT, maxAgeMs, now: () => REQ_TIME + maxAgeMs + 1 }));
    expect(issues).toEqual([{ path: ['reqTime'], message: expect.stringMatching(/300001 ms old.*original reqTime on retries/) }]);
  });

  it('rejects one from too far in the future', async () => {
    const issues = await issuesOf(verifyNotification(formBody(signedFields()), { ...MERCHANT, maxAgeMs, now: () => REQ_TIME - maxAgeMs - 1 }));
    expect(issues).toEqual([{ path: ['reqTime'], message: expect.stringContaining('in the future') }]);
  });

  it('refuses a clock that does not return a number', async () => {
    const issues = await issuesOf(verifyNotification(formBody(signedFields()), { ...MERCHANT, maxAgeMs, now: () => Number.NaN }));
    expect(issues).toEqual([{ path: ['now'], message: expect.any(String) }]);
  });
});

describe('options', () => {
  it('are validated before the input is read, without echoing the secret', async () => {
    const issues = await issuesOf(verifyNotification(formBody(signedFields()), { secret: '', mchNo: MERCHANT.mchNo } as never));
    expect(issues.map((i) => i.path)).toEqual([['secret'], ['appId']]);
  });

  it.each([
    [{ maxAgeMs: 0 }, ['maxAgeMs']],
    [{ maxAgeMs: 1.5 }, ['maxAgeMs']],
    [{ ignoreKey: ['shop'] }, ['ignoreKey']],
    [{ expect: { amount: 58, mchOrderNO: 'x' } }, ['expect', 'mchOrderNO']],
  ])('%j is refused', async (extra, path) => {
    const issues = await issuesOf(verifyNotification(formBody(signedFields()), { ...MERCHANT, ...extra } as never));
    expect(issues.map((i) => i.path)).toEqual([path]);
  });
});

describe('settlement notifications', () => {
  const merchant = MERCHANT;

  it('verify from a form body into the settlement-record shape', async () => {
    const notification = await verifySettlementNotification(formBody(signedFields({}, SETTLEMENT_FIELDS)), merchant);
    expect(notification).toStrictEqual({
      ...SETTLEMENT_FIELDS,
      amount: 150000,
      status: 1,
      reqTime: 1700000000123,
      idempotencyKey: 'SRV-SETTLE-1:1',
    });
  });

  it('verify from a JSON body over each value\'s text as received (10.50 stays 10.50)', async () => {
    const fields = { ...SETTLEMENT_FIELDS, fee: '10.50' };
    const members = Object.entries(fields).map(([k, v]) => `"${k}":${/^\d+(\.\d+)?$/.test(v) ? v : JSON.stringify(v)}`);
    const json = `{${members.join(',')},"note":null,"sign":"${sign(fields, merchant.secret)}"}`;
    expect(json).toContain('"fee":10.50');
    const request = new Request('http://127.0.0.1/settle', { method: 'POST', headers: { 'content-type': 'application/json' }, body: json });
    await expect(verifySettlementNotification(request, merchant)).resolves.toMatchObject({ amount: 150000, status: 1, fee: '10.50' });
  });

  it('must carry mchNo, appId and reqTime, the verifier\'s own, as every notification does', async () => {
    for (const missing of ['mchNo', 'appId', 'reqTime']) {
      const bare = signedFields({ [missing]: undefined }, SETTLEMENT_FIELDS);
      expect((await issuesOf(verifySettlementNotification(bare, merchant))).map((i) => i.path)).toEqual([[missing]]);
    }
    const other = signedFields({ appId: 'another-app' }, SETTLEMENT_FIELDS);
    await expect(verifySettlementNotification(other, merchant)).rejects.toThrow(/appId: is "another-app"/);
  });

  it('reject tampering, a wrong shape and an unexpected request', async () => {
    await expect(verifySettlementNotification({ ...signedFields({}, SETTLEMENT_FIELDS), amount: '1' }, merchant)).rejects.toThrow(GatewaySignatureError);
    const issues = await issuesOf(verifySettlementNotification(signedFields({ tokenId: undefined }, SETTLEMENT_FIELDS), merchant));
    expect(issues.map((i) => i.path)).toEqual([['tokenId']]);
    const unexpected = await issuesOf(verifySettlementNotification(signedFields({}, SETTLEMENT_FIELDS), { ...merchant, expect: { requestId: 'settle-2024-08' } }));
    expect(unexpected.map((i) => i.path)).toEqual([['requestId']]);
  });
});

describe('the acknowledgement', () => {
  it('is exactly SUCCESS', () => {
    expect(NOTIFICATION_ACK).toBe('SUCCESS');
  });

  it('as a Response: 200, text/plain, the seven bytes SUCCESS and no newline', async () => {
    const response = notificationAckResponse();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new TextEncoder().encode('SUCCESS'));
  });
});

describe('GatewayClient', () => {
  const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT });

  it('verifies notifications with its own credentials and passes the checks on', async () => {
    await expect(client.verifyNotification(formBody(signedFields()), { expect: { amount: 58, currency: 'CNY' } })).resolves.toMatchObject({ idempotencyKey: 'P202106181104177050002:2' });
    await expect(client.verifyNotification(formBody(signedFields()), { expect: { amount: 59, currency: 'CNY' } })).rejects.toThrow(GatewayValidationError);
    await expect(client.verifySettlementNotification(signedFields({}, SETTLEMENT_FIELDS))).resolves.toMatchObject({ status: 1 });
  });

  it('rejects notifications signed with another secret', async () => {
    await expect(client.verifyNotification(formBody(signedFields({}, PAY_FIELDS, 'other-secret')))).rejects.toThrow(GatewaySignatureError);
  });
});
