// Fields whose names differ only by case (issue 30): Java's order cannot tell `b=0&` from `B=0&`, so a Java
// gateway's signature of them depends on the order they came in. Every public path refuses such a message,
// signed genuinely (as a JDK signs it, in either order), with a reason that says so, and never crashes.
import { describe, expect, it } from 'vitest';
import { GatewayClient, GatewaySignatureError, GatewayValidationError, sign, verifyNotification, verifySign } from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';
import { runInProcess } from '../support/cli-in-process.js';
import { javaSign } from '../support/java-order.js';
import { formBody, MERCHANT, PAY_FIELDS } from '../support/notification.js';
import { common, MERCHANT as MOCK_MERCHANT, orderFields, PATHS, post } from '../support/raw-gateway.js';

const TWINS = /two fields whose names differ only by case \((?:"b" and "B"|"B" and "b")\), so its signature depends on their order/;

/** `fields` with `b` and `B` added in the given order, and the sign a JDK computes for them in that order. */
function genuinelySigned(fields: Readonly<Record<string, string>>, order: 'b first' | 'B first', secret: string = MERCHANT.secret): Record<string, string> {
  const twins: [string, string][] = order === 'b first' ? [['b', '0'], ['B', '0']] : [['B', '0'], ['b', '0']];
  const entries = [...Object.entries(fields).filter(([name]) => name !== 'sign'), ...twins];
  return { ...Object.fromEntries(entries), sign: javaSign(entries, secret)! };
}

const ORDERS = ['b first', 'B first'] as const;

describe('fields whose names differ only by case (issue 30)', () => {
  it('sign() gives one answer or a refusal whatever the order of b and B: a refusal, naming both', () => {
    for (const params of [{ b: 0, B: 0 }, { B: 0, b: 0 }]) {
      expect(() => sign(params, MERCHANT.secret)).toThrow(GatewayValidationError);
      expect(() => sign(params, MERCHANT.secret)).toThrow(/(b: and "B"|B: and "b"): two fields whose names differ only by case/);
    }
    // A JDK signs the two orders differently: the signature really does depend on the order.
    expect(javaSign([['b', '0'], ['B', '0']], 'k')).not.toBe(javaSign([['B', '0'], ['b', '0']], 'k'));
  });

  it.each(ORDERS)('verifySign is false for a message signed with %s', (order) => {
    const { sign: received, ...fields } = genuinelySigned({ amount: '100', mchOrderNo: 'o-1' }, order);
    expect(verifySign(fields, MERCHANT.secret, received)).toBe(false);
    expect(verifySign(new Map(Object.entries(fields)), MERCHANT.secret, received)).toBe(false);
  });

  it.each(ORDERS)('verifyNotification refuses a notification signed with %s (form and parsed object): a GatewaySignatureError saying why', async (order) => {
    const fields = genuinelySigned(PAY_FIELDS, order);
    for (const input of [formBody(fields), fields]) {
      const error = await verifyNotification(input, MERCHANT).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(GatewaySignatureError);
      expect((error as Error).message).toMatch(TWINS);
      expect((error as Error).message).toMatch(/do not act on it/);
    }
  });

  it.each(ORDERS)('the client refuses a query response whose data was signed with %s: a GatewaySignatureError saying why', async (order) => {
    const data = { payOrderId: 'P1', mchNo: MERCHANT.mchNo, appId: MERCHANT.appId, mchOrderNo: 'o-1', ifCode: 'coinpay', wayCode: 'QR_CASHIER', amount: '100', currency: 'USD', state: '2', createdAt: '1700000000000' };
    const { sign: signature, ...signedData } = genuinelySigned(data, order);
    const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, retry: { maxRetries: 0 }, fetch: async () => Response.json({ code: 200, msg: 'SUCCESS', data: signedData, sign: signature }) });
    const error = await client.query({ mchOrderNo: 'o-1' }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(GatewaySignatureError);
    expect((error as Error).message).toMatch(TWINS);
  });

  it.each(ORDERS)('payment-gateway-sdk verify says why it refuses a message signed with %s (exit code 1), and sign refuses it', async (order) => {
    const body = JSON.stringify(genuinelySigned({ amount: '100', mchOrderNo: 'o-1' }, order));
    const verified = await runInProcess(['verify'], body, { GATEWAY_SECRET: MERCHANT.secret });
    expect(verified.code).toBe(1);
    expect(verified.stdout.split('\n')[0]).toBe('invalid: the message cannot be signed');
    expect(verified.stdout).toMatch(/problem: .*two fields whose names differ only by case; .*the signature would depend on their order/);
    expect(verified.stdout + verified.stderr).not.toContain(MERCHANT.secret);
    const signed = await runInProcess(['sign'], body, { GATEWAY_SECRET: MERCHANT.secret });
    expect(signed.code).toBe(1);
    expect(signed.stderr).toMatch(/two fields whose names differ only by case/);
  });

  it.each(ORDERS)('the mock gateway refuses a request signed with %s as the reference server does (验签失败: it signs only the fields it knows), saying which fields it did not sign', async (order) => {
    const gateway = createMockGateway({ merchants: [MOCK_MERCHANT] });
    const body = genuinelySigned({ ...common(), ...orderFields() } as Record<string, string>, order, MOCK_MERCHANT.secret);
    const answer = await post(gateway, PATHS.unifiedOrder, body);
    expect(answer.json).toEqual({ code: 9999, msg: '验签失败' });
    const refusal = gateway.requests.at(-1)?.signature;
    expect(refusal?.fields.filter((field) => !field.signed).map(({ name, why }) => `${name}: ${why}`)).toEqual(expect.arrayContaining(['b: not signed by the gateway', 'B: not signed by the gateway']));
    expect(refusal?.mistake?.summary).toMatch(/fields the gateway does not sign were signed \((b, B|B, b)\)/);
    expect(gateway.orders()).toHaveLength(0);
  });

  it('the mock gateway refuses a twin of a field it knows (MchOrderNo beside mchOrderNo) and text it cannot sign, as 验签失败, never a crash', async () => {
    const gateway = createMockGateway({ merchants: [MOCK_MERCHANT] });
    const fields = { ...common(), ...orderFields() } as Record<string, string>;
    const twin = { ...fields, MchOrderNo: 'order-2' };
    const entries = Object.entries(twin);
    expect((await post(gateway, PATHS.unifiedOrder, { ...twin, sign: javaSign(entries, MOCK_MERCHANT.secret) })).json).toEqual({ code: 9999, msg: '验签失败' });
    // A lone surrogate in a field it signs: the rule has no UTF-8 form for it (the sign cannot match).
    const cut = await post(gateway, PATHS.unifiedOrder, { ...fields, subject: 'cut \ud83c', sign: 'A'.repeat(32) }); // JSON.stringify writes it as \ud83c
    expect(cut).toMatchObject({ status: 200, json: { code: 9999, msg: '验签失败' } });
    expect(gateway.requests.at(-1)?.signature?.hint).toMatch(/subject: contains a lone surrogate/);
    expect(gateway.orders()).toHaveLength(0);
  });
});
