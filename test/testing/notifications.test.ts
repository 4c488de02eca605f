// Payment notifications from the mock to a real merchant endpoint on loopback (docs/reference/protocol.md section 3).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sign } from '../../src/protocol/signing/sign.js';
import { createMockGateway, NOTIFY_MAX_ATTEMPTS, type MockGateway } from '../../src/testing/index.js';
import { vector } from '../support/vectors.js';
import { startNotifyEndpoint } from '../support/notify-endpoint.js';
import { call, MERCHANT, orderFields, START } from '../support/raw-gateway.js';

let endpoint: Awaited<ReturnType<typeof startNotifyEndpoint>>;
let gateway: MockGateway;
beforeAll(async () => {
  endpoint = await startNotifyEndpoint();
});
afterAll(() => endpoint.close());
beforeEach(() => {
  endpoint.received.length = 0;
  endpoint.answerWith(() => 'SUCCESS');
  gateway = createMockGateway({ merchants: [MERCHANT], startTime: START });
});

async function paidOrder(overrides: Record<string, string | number> = {}) {
  await call(gateway, 'unifiedOrder', orderFields({ notifyUrl: `${endpoint.url}/pay/notify`, ...overrides }));
  return gateway.payOrder(String(overrides.mchOrderNo ?? 'order-1'));
}

/** The sign check a merchant does: every received field except `sign` (and any named unsigned keys). */
function verifies(fields: Record<string, string>, secret: string = MERCHANT.secret, unsigned: string[] = []): boolean {
  const { sign: received, ...rest } = fields;
  for (const key of unsigned) delete rest[key];
  return received === sign(rest, secret);
}

describe('payment notification', () => {
  it('is a signed form POST of the query fields plus reqTime, sent when the order is paid', async () => {
    const order = await paidOrder({ extParam: '{"cart":7}', clientIp: '192.0.2.1' });
    expect(endpoint.received).toHaveLength(0); // queued, not sent until delivered
    const [attempt] = await gateway.deliverNotifications();
    expect(attempt).toMatchObject({ attempt: 1, delivered: true, status: 200, response: 'SUCCESS', at: START });
    const [got] = endpoint.received;
    expect(got?.path).toBe('/pay/notify');
    expect(got?.contentType).toBe('application/x-www-form-urlencoded');
    expect(got?.fields).toEqual({
      payOrderId: order.payOrderId, mchNo: MERCHANT.mchNo, appId: MERCHANT.appId, mchOrderNo: 'order-1', ifCode: 'mockpay', wayCode: 'QR_CASHIER',
      amount: '1999', currency: 'USD', state: '2', clientIp: '192.0.2.1', subject: 'T-shirt', body: 'Blue, M', channelOrderNo: order.channelOrderNo,
      extParam: '{"cart":7}', successTime: String(START), createdAt: String(START), reqTime: String(START), sign: expect.stringMatching(/^[0-9A-F]{32}$/),
    });
    expect(verifies(got?.fields ?? {})).toBe(true);
    expect(verifies(got?.fields ?? {}, 'another-secret')).toBe(false);
    expect(gateway.notifications[0]).toMatchObject({ state: 'delivered', attempts: 1, nextAttemptAt: undefined });
  });

  it('echoes a field the merchant sent as "" but does not sign it, as in the pay-notification vector', async () => {
    const v = vector('pay notification');
    const { extParam, ...signedFields } = v.params;
    expect(extParam).toBe('');
    expect(sign(signedFields as Record<string, string>, v.secret)).toBe(v.sign);
    await paidOrder({ extParam: '' });
    await gateway.deliverNotifications();
    expect(endpoint.received[0]?.body).toContain('&extParam=&');
    const fields = endpoint.received[0]?.fields ?? {};
    expect(fields.extParam).toBe('');
    expect(verifies(fields)).toBe(true);
    const withEmptyFragment = `${Object.entries(fields).filter(([k]) => k !== 'sign').map(([k, val]) => `${k}=${val}`).join('&')}`;
    expect(withEmptyFragment).toContain('extParam=&'); // a verifier that signed it would fail
  });

  it('is sent for barcode orders paid at creation, and not for orders without notifyUrl or not paid', async () => {
    await call(gateway, 'unifiedOrder', orderFields({ mchOrderNo: 'bar', wayCode: 'WX_BAR', channelExtra: '{"authCode":"1"}', notifyUrl: `${endpoint.url}/n` }));
    await call(gateway, 'unifiedOrder', orderFields({ mchOrderNo: 'silent' }));
    gateway.payOrder('silent');
    await call(gateway, 'unifiedOrder', orderFields({ mchOrderNo: 'failed', notifyUrl: `${endpoint.url}/n` }));
    gateway.failOrder('failed');
    await gateway.deliverNotifications();
    expect(endpoint.received.map((r) => r.fields.mchOrderNo)).toEqual(['bar']);
  });

  it('adds the notifyUrl query keys as unsigned body fields', async () => {
    await paidOrder({ notifyUrl: `${endpoint.url}/n?shop=7&channel=web` });
    await gateway.deliverNotifications();
    const got = endpoint.received[0];
    expect(got?.path).toBe('/n?shop=7&channel=web');
    expect(got?.fields).toMatchObject({ shop: '7', channel: 'web' });
    expect(verifies(got?.fields ?? {})).toBe(false);
    expect(verifies(got?.fields ?? {}, MERCHANT.secret, ['shop', 'channel'])).toBe(true);
  });

  it.each(['success', 'Success'])('counts %j as acknowledged (case-insensitive)', async (reply) => {
    endpoint.answerWith(() => reply);
    await paidOrder();
    expect((await gateway.deliverNotifications())[0]?.delivered).toBe(true);
  });

  it.each(['SUCCESS\n', ' SUCCESS', 'OK', '{"code":"SUCCESS"}', ''])('counts %j as a failure', async (reply) => {
    endpoint.answerWith(() => reply);
    await paidOrder();
    expect((await gateway.deliverNotifications())[0]?.delivered).toBe(false);
    expect(gateway.notifications[0]?.state).toBe('pending');
  });
});

describe('retries', () => {
  it('retries n x 30 s after the n-th failure on the simulated clock, re-sending the original reqTime and sign', async () => {
    endpoint.answerWith((n) => (n < 4 ? 'FAIL' : 'SUCCESS'));
    await paidOrder();
    gateway.advanceTime(10_000); // the retries keep the reqTime of the first attempt
    await gateway.deliverNotifications();
    expect(gateway.nextNotificationAt()).toBe(START + 10_000 + 30_000);

    gateway.advanceTime(29_999);
    expect(await gateway.deliverNotifications()).toEqual([]); // not due yet
    gateway.advanceTime(1);
    await gateway.deliverNotifications();
    expect(gateway.nextNotificationAt()).toBe(START + 40_000 + 60_000);
    gateway.advanceTime(60_000);
    await gateway.deliverNotifications();
    gateway.advanceTime(90_000);
    await gateway.deliverNotifications();

    expect(gateway.deliveries.map((d) => [d.attempt, d.at - START, d.delivered])).toEqual([
      [1, 10_000, false], [2, 40_000, false], [3, 100_000, false], [4, 190_000, true],
    ]);
    const bodies = new Set(endpoint.received.map((r) => r.body));
    expect(bodies.size).toBe(1); // byte-identical re-sends
    expect(endpoint.received[3]?.fields.reqTime).toBe(String(START));
    expect(gateway.nextNotificationAt()).toBeUndefined();
  });

  it(`gives up after ${NOTIFY_MAX_ATTEMPTS} attempts (0 s, 30 s, 1.5 min, 3 min, 5 min, 7.5 min)`, async () => {
    endpoint.answerWith(() => 'FAIL');
    await paidOrder();
    for (let due = gateway.nextNotificationAt(); due !== undefined; due = gateway.nextNotificationAt()) {
      gateway.advanceTime(due - gateway.now());
      await gateway.deliverNotifications();
    }
    expect(gateway.deliveries.map((d) => (d.at - START) / 1000)).toEqual([0, 30, 90, 180, 300, 450]);
    expect(gateway.notifications[0]).toMatchObject({ state: 'failed', attempts: 6 });
    // A refused answer on the last attempt says the notification failed; the earlier ones do not.
    expect(gateway.deliveries.map((d) => /the notification failed/.test(d.reason))).toEqual([false, false, false, false, false, true]);
    gateway.advanceTime(3600_000);
    expect(await gateway.deliverNotifications()).toEqual([]);
  });

  it('logs an unreachable endpoint as a failed attempt with the reason', async () => {
    const closed = await startNotifyEndpoint();
    await closed.close();
    await paidOrder({ notifyUrl: `${closed.url}/n` });
    const [attempt] = await gateway.deliverNotifications();
    expect(attempt).toMatchObject({ delivered: false, status: undefined, error: 'ECONNREFUSED' });
  });

  it('says on the last attempt that the notification failed, never that it will be retried; earlier unanswered ones will be', async () => {
    const closed = await startNotifyEndpoint();
    await closed.close();
    const lines: string[] = [];
    gateway = createMockGateway({ merchants: [MERCHANT], startTime: START, log: (event) => lines.push(event.line) });
    await paidOrder({ notifyUrl: `${closed.url}/n` });
    for (let due = gateway.nextNotificationAt(); due !== undefined; due = gateway.nextNotificationAt()) {
      gateway.advanceTime(due - gateway.now());
      await gateway.deliverNotifications();
    }
    const reasons = gateway.deliveries.map((d) => d.reason);
    expect(reasons).toHaveLength(NOTIFY_MAX_ATTEMPTS);
    expect(reasons.slice(0, -1)).toEqual(Array(NOTIFY_MAX_ATTEMPTS - 1).fill('no answer (ECONNREFUSED): the notification will be retried'));
    expect(reasons.at(-1)).toBe(`no answer (ECONNREFUSED); the notification failed: no attempt is left (the gateway makes ${NOTIFY_MAX_ATTEMPTS})`);
    const notifyLines = lines.filter((line) => line.includes(' notify N1 '));
    expect(notifyLines.at(-1)).toMatch(/notify N1 #6 .*-> no answer \(ECONNREFUSED\); the notification failed: no attempt is left/);
    expect(notifyLines.at(-1)).not.toMatch(/retried/);
  });

  it('logs a notifyUrl that cannot be parsed as a failed attempt instead of failing payOrder', async () => {
    await paidOrder({ notifyUrl: 'http://exa mple.test/n' });
    expect((await gateway.deliverNotifications())[0]).toMatchObject({ delivered: false, error: expect.any(String) });
  });

  it('delivers through notifyFetch when given (e.g. straight into the app under test)', async () => {
    const seen: string[] = [];
    gateway = createMockGateway({
      merchants: [MERCHANT], startTime: START,
      notifyFetch: async (input, init) => {
        seen.push(`${String(input)} ${String(init?.body).slice(0, 10)}`);
        return new Response('SUCCESS');
      },
    });
    await call(gateway, 'unifiedOrder', orderFields({ notifyUrl: 'https://shop.invalid/n' }));
    gateway.payOrder('order-1');
    expect((await gateway.deliverNotifications())[0]?.delivered).toBe(true);
    expect(seen).toEqual(['https://shop.invalid/n payOrderId']);
  });

  it('fails an attempt that gets no answer within notifyTimeout', async () => {
    gateway = createMockGateway({ merchants: [MERCHANT], startTime: START, notifyTimeout: 50, notifyFetch: (_input, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))) });
    await call(gateway, 'unifiedOrder', orderFields({ notifyUrl: 'https://shop.invalid/n' }));
    gateway.payOrder('order-1');
    expect((await gateway.deliverNotifications())[0]).toMatchObject({ delivered: false, error: 'timeout' });
  });
});
