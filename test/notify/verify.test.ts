import { describe, expect, it } from 'vitest';
import { GatewayClient, GatewaySignatureError, GatewayValidationError, PayOrderState, sign, verifyNotification, type PayOrderNotification } from '../../src/index.js';
import { formBody, formRequest, MERCHANT, PAY_FIELDS, PAY_NOTIFICATION, signedFields } from '../support/notification.js';
import { rejection } from '../support/rejection.js';

const genuine: Record<string, string> & { sign: string } = { ...PAY_FIELDS, sign: PAY_NOTIFICATION.sign };

const expected: PayOrderNotification = {
  payOrderId: 'P202106181104177050002',
  mchNo: 'M1623984572',
  appId: '60cc09bce4b0f1c0b83761c9',
  mchOrderNo: 'mho1623985457320',
  ifCode: 'alipay',
  wayCode: 'ALI_BAR',
  amount: 58,
  currency: 'cny',
  state: PayOrderState.Succeeded,
  clientIp: '192.166.1.132',
  subject: '商品标题',
  body: '商品描述',
  channelOrderNo: '2021061822001423031419593035',
  // extParam arrives as "", which the gateway does not sign: it is not in the result.
  successTime: 1623985459000,
  createdAt: 1623985457705,
  reqTime: 1623985460123,
  idempotencyKey: 'P202106181104177050002:2',
};

describe('a genuine notification (the shared vector)', () => {
  it('is the vector: its fields sign to its sign', () => {
    expect(sign(PAY_FIELDS, MERCHANT.secret)).toBe(PAY_NOTIFICATION.sign);
  });

  it('verifies from the raw form body and comes back typed, with its idempotency key', async () => {
    await expect(verifyNotification(formBody(genuine), MERCHANT)).resolves.toStrictEqual(expected);
  });

  const body = formBody(genuine);
  const inputs: [string, () => Parameters<typeof verifyNotification>[0]][] = [
    ['a Buffer', () => Buffer.from(body)],
    ['a Uint8Array', () => new TextEncoder().encode(body)],
    ['an ArrayBuffer', () => new TextEncoder().encode(body).buffer as ArrayBuffer],
    ['URLSearchParams', () => new URLSearchParams(body)],
    ['FormData', () => {
      const form = new FormData();
      for (const [k, v] of Object.entries(genuine)) form.append(k, v);
      return form;
    }],
    ['a plain object (express.urlencoded)', () => ({ ...genuine })],
    ['a null-prototype object (querystring)', () => Object.assign(Object.create(null) as Record<string, string>, genuine)],
    ['a form Request', () => formRequest(genuine)],
    ['a JSON Request', () => new Request('http://127.0.0.1/n', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(genuine) })],
    ['a Request without content type', () => new Request('http://127.0.0.1/n', { method: 'POST', body: new TextEncoder().encode(body) })],
    ['a JSON string', () => JSON.stringify(genuine)],
  ];
  it.each(inputs)('gives the same result from %s', async (_name, input) => {
    await expect(verifyNotification(input(), MERCHANT)).resolves.toStrictEqual(expected);
  });

  it('accepts the sign in lower case (the gateway compares case-insensitively)', async () => {
    await expect(verifyNotification(formBody({ ...genuine, sign: genuine.sign.toLowerCase() }), MERCHANT)).resolves.toStrictEqual(expected);
  });

  it('verifies a field the gateway added later and keeps it as text', async () => {
    const fields = signedFields({ payerName: 'A. Buyer', refundAmount: '0' });
    const notification = await verifyNotification(formBody(fields), MERCHANT);
    expect(notification).toMatchObject({ payerName: 'A. Buyer', refundAmount: '0' });
  });

  it('does not reject an old reqTime by default (retries keep the original one)', async () => {
    const notification = await verifyNotification(formBody(genuine), { ...MERCHANT, now: () => Date.UTC(2030, 0, 1) });
    expect(notification.reqTime).toBe(1623985460123);
  });

  it('gives every delivery of the event the same idempotency key', async () => {
    const first = await verifyNotification(formBody(genuine), MERCHANT);
    const resent = await verifyNotification(formBody(signedFields({ reqTime: '1623985999999' })), MERCHANT);
    expect(resent.idempotencyKey).toBe(first.idempotencyKey);
  });
});

describe('forged or altered notifications are rejected', () => {
  const changed = (value: string) => (value === '' ? 'x' : value.endsWith('1') ? `${value.slice(0, -1)}2` : `${value.slice(0, -1)}1`);

  it.each(Object.keys(PAY_FIELDS))('a change of %s', async (key) => {
    const tampered = { ...genuine, [key]: changed(genuine[key] as string) };
    expect(tampered[key]).not.toBe(genuine[key]);
    await expect(verifyNotification(formBody(tampered), MERCHANT)).rejects.toThrow(GatewaySignatureError);
  });

  it.each(Object.keys(PAY_FIELDS).filter((key) => PAY_FIELDS[key] !== ''))('the removal of %s', async (key) => {
    const { [key]: _removed, ...rest } = genuine;
    await expect(verifyNotification(formBody(rest), MERCHANT)).rejects.toThrow(GatewaySignatureError);
  });

  it('an added unsigned field', async () => {
    await expect(verifyNotification(formBody({ ...genuine, bonus: '1' }), MERCHANT)).rejects.toThrow(GatewaySignatureError);
  });

  it('a changed sign', async () => {
    await expect(verifyNotification(formBody({ ...genuine, sign: changed(genuine.sign) }), MERCHANT)).rejects.toThrow(/signature does not match/);
  });

  it('an empty or missing sign', async () => {
    const { sign: _sign, ...unsigned } = genuine;
    for (const body of [formBody({ ...genuine, sign: '' }), formBody(unsigned)]) {
      const error = await rejection(verifyNotification(body, MERCHANT));
      expect(error).toBeInstanceOf(GatewaySignatureError);
      expect(error.message).toMatch(/has no sign/);
    }
  });

  it('a wrong secret, with neither secret nor the expected sign in the error', async () => {
    const wrongSecret = 'another-apps-secret-9876543210';
    const error = await rejection(verifyNotification(formBody(genuine), { ...MERCHANT, secret: wrongSecret }));
    expect(error).toBeInstanceOf(GatewaySignatureError);
    const visible = `${error.message} ${JSON.stringify(error)} ${String(error.stack)}`;
    expect(visible).not.toContain(wrongSecret);
    expect(visible).not.toContain(sign(PAY_FIELDS, wrongSecret));
    expect(visible).not.toContain(MERCHANT.secret);
  });

  it('a forged sign made by signing with an empty secret', async () => {
    await expect(verifyNotification(formBody(signedFields({}, PAY_FIELDS, '')), MERCHANT)).rejects.toThrow(GatewaySignatureError);
  });

  it.each([
    ['mchNo', 'M0000000001'],
    ['appId', '60cc09bce4b0f1c0b8370000'],
  ])('a correctly signed notification for another %s', async (key, other) => {
    const error = await rejection(verifyNotification(formBody(signedFields({ [key]: other })), MERCHANT));
    expect(error).toBeInstanceOf(GatewayValidationError);
    expect((error as GatewayValidationError).issues).toEqual([{ path: [key], message: expect.stringContaining('not') }]);
  });

  it.each(['mchNo', 'appId'])('a correctly signed notification without %s', async (key) => {
    const error = await rejection(verifyNotification(formBody(signedFields({ [key]: undefined })), MERCHANT));
    expect((error as GatewayValidationError).issues).toEqual([{ path: [key], message: 'is missing' }]);
  });

  it('a genuine notification checked with another merchant application\'s credentials', async () => {
    const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, appId: 'another-app' });
    await expect(client.verifyNotification(formBody(genuine))).rejects.toThrow(GatewayValidationError);
  });
});

describe('form bodies decode like the gateway encodes', () => {
  const tricky = { subject: 'Tee+shirt 100% cotton', body: '商品 描述 & more = yes', extParam: '{"note":"a+b c%20"}' };
  const fields = signedFields(tricky);

  it('round-trips +, spaces, %-escapes and UTF-8 (URLSearchParams encoding, space as +)', async () => {
    await expect(verifyNotification(formBody(fields), MERCHANT)).resolves.toMatchObject(tricky);
  });

  it('decodes %20 for spaces (encodeURIComponent encoding) to the same result', async () => {
    const body = Object.entries(fields).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
    expect(body).toContain('%20');
    await expect(verifyNotification(body, MERCHANT)).resolves.toMatchObject(tricky);
  });

  it('accepts UTF-8 sent unescaped in the bytes', async () => {
    const escapeReserved = (text: string) => text.replace(/[%&=+ ]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
    const body = Object.entries(fields).map(([k, v]) => `${k}=${escapeReserved(v)}`).join('&');
    expect(body).toContain('商品');
    await expect(verifyNotification(Buffer.from(body, 'utf8'), MERCHANT)).resolves.toMatchObject(tricky);
  });

  it('rejects bytes that are not UTF-8', async () => {
    const bytes = Buffer.concat([Buffer.from(formBody(genuine)), Buffer.from('&x=%', 'latin1'), Buffer.from([0xff, 0xfe])]);
    await expect(verifyNotification(bytes, MERCHANT)).rejects.toThrow(/not valid UTF-8/);
  });

  it('rejects a field sent twice', async () => {
    const error = await rejection(verifyNotification(`${formBody(genuine)}&amount=1`, MERCHANT));
    expect((error as GatewayValidationError).issues).toEqual([{ path: ['amount'], message: expect.stringContaining('more than once') }]);
  });

  it('fails closed when an unescaped & splits a value (why & and = belong out of extParam, subject and body)', async () => {
    const withAmpersand = signedFields({ extParam: 'a=1&b=2' });
    const unescaped = Object.entries(withAmpersand).map(([k, v]) => `${k}=${v}`).join('&');
    await expect(verifyNotification(unescaped, MERCHANT)).rejects.toThrow(GatewaySignatureError);
  });
});

describe('a Request', () => {
  it('is verified from a clone: the caller can still read its body', async () => {
    const request = formRequest(genuine);
    await verifyNotification(request, MERCHANT);
    expect(request.bodyUsed).toBe(false);
    await expect(request.text()).resolves.toBe(formBody(genuine));
  });

  it('can be verified again (a framework or a second check) with the same result', async () => {
    const request = formRequest(genuine);
    const first = await verifyNotification(request, MERCHANT);
    await expect(verifyNotification(request, MERCHANT)).resolves.toStrictEqual(first);
  });

  it('whose body was already read is refused with what to do instead', async () => {
    const request = formRequest(genuine);
    const text = await request.text();
    await expect(verifyNotification(request, MERCHANT)).rejects.toThrow(/already read.*pass the text/);
    await expect(verifyNotification(text, MERCHANT)).resolves.toStrictEqual(expected);
  });

  it.each([
    ['multipart/form-data; boundary=x', /multipart\/form-data/],
    ['application/x-www-form-urlencoded; charset=GBK', /charset is "gbk"/],
  ])('with content type %s is refused', async (contentType, message) => {
    const request = new Request('http://127.0.0.1/n', { method: 'POST', headers: { 'content-type': contentType }, body: formBody(genuine) });
    await expect(verifyNotification(request, MERCHANT)).rejects.toThrow(message);
  });

  it('without a body gets a hint about the URL query', async () => {
    const request = new Request(`http://127.0.0.1/n?${formBody(genuine)}`, { method: 'POST' });
    await expect(verifyNotification(request, MERCHANT)).rejects.toThrow(/body is empty.*searchParams/);
    await expect(verifyNotification(new URL(request.url).searchParams, MERCHANT)).resolves.toStrictEqual(expected);
  });
});
