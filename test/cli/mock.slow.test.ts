// `payment-gateway-sdk mock` end to end: the command as a child process, the SDK and raw HTTP against it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient, GatewayHttpStatusError, PayOrderState, RefundOrderState, verifyNotification, verifyRefundNotification } from '../../src/index.js';
import { created as createdOrder } from '../support/created.js';
import { CONTROL_ROUTES } from '../../src/testing/http/control-routes.js';
import type { MockGatewayState } from '../../src/testing/index.js';
import { startNotifyEndpoint } from '../support/notify-endpoint.js';
import { eventually, runToEnd, startMockCommand, type RunningMock } from '../support/mock-command.js';

const MERCHANT = { mchNo: 'M1700000001', appId: 'app-cli-1', secret: 'cli-test-secret:with-colon' };
const order = (mchOrderNo: string, notifyUrl?: string) => ({
  mchOrderNo, wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: 'T-shirt', body: 'Blue, M', ...(notifyUrl ? { notifyUrl } : {}),
});

async function control(base: string, path: string, body?: object): Promise<{ status: number; json: any }> {
  const response = await fetch(`${base}/_mock/${path}`, body === undefined && path === 'state' ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
  return { status: response.status, json: await response.json() };
}
const state = async (base: string) => (await control(base, 'state')).json as MockGatewayState;

/** A request with headers fetch does not let a caller choose (Host). */
function rawRequest(base: string, path: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, method, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

let endpoint: Awaited<ReturnType<typeof startNotifyEndpoint>>;
let mock: RunningMock;
let client: GatewayClient;
beforeAll(async () => {
  endpoint = await startNotifyEndpoint();
  mock = await startMockCommand(['--merchant', `${MERCHANT.mchNo}:${MERCHANT.appId}:${MERCHANT.secret}`, '--notify-retry-ms', '150']);
  client = new GatewayClient({ baseUrl: mock.url, ...MERCHANT });
}, 20_000);
afterAll(async () => {
  await mock?.stop();
  await endpoint?.close();
});

describe('payment-gateway-sdk mock', () => {
  it('prints the base URL alone on the first line, then the merchants and the dashboard', () => {
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(mock.output()).toContain(`mchNo ${MERCHANT.mchNo}  appId ${MERCHANT.appId}  secret (as given)`);
    expect(mock.output()).toContain(`Dashboard:   ${mock.url}/`);
    expect(mock.output()).not.toContain(MERCHANT.secret);
  });

  it('answers the SDK; a notification goes out at once on the real clock and verifies', async () => {
    endpoint.received.length = 0;
    endpoint.answerWith(() => 'SUCCESS');
    const created = await createdOrder(client.unifiedOrder(order('cli-1', `${endpoint.url}/pay/notify?shop=eu`)));
    expect(created.payData).toBe(`${mock.url}/cashier/${created.payOrderId}`);
    expect((await control(mock.url, `orders/${created.payOrderId}/pay`)).json).toMatchObject({ payOrderId: created.payOrderId, state: 2 });
    const got = await eventually(() => endpoint.received[0]);
    expect(got.path).toBe('/pay/notify?shop=eu');
    const verified = await verifyNotification(got.body, { ...MERCHANT, ignoreKeys: ['shop'] });
    expect(verified).toMatchObject({ payOrderId: created.payOrderId, state: PayOrderState.Succeeded, amount: 1999 });
    expect((await client.query({ mchOrderNo: 'cli-1' })).state).toBe(PayOrderState.Succeeded);
    const [notification] = (await state(mock.url)).notifications;
    expect(notification).toMatchObject({ payOrderId: created.payOrderId, state: 'delivered', attempts: 1 });
    expect(notification?.attemptLog[0]?.reason).toBe('accepted: the body was "SUCCESS" (HTTP 200)');
  });

  it('mock pay|expire ORDER, a second process, drives the running mock: the payment is notified, the other order expires', async () => {
    endpoint.received.length = 0;
    endpoint.answerWith(() => 'SUCCESS');
    const paid = await createdOrder(client.unifiedOrder(order('cli-trigger-1', `${endpoint.url}/pay/notify`)));
    await client.unifiedOrder(order('cli-trigger-2'));
    const pay = await runToEnd(['mock', 'pay', 'cli-trigger-1', '--url', mock.url]);
    expect(pay, pay.stderr).toMatchObject({ code: 0, stderr: '' });
    expect(pay.stdout).toMatch(new RegExp(`^payOrderId ${paid.payOrderId}  mchOrderNo cli-trigger-1  state 2 \\(Succeeded\\)`));
    const got = await eventually(() => endpoint.received[0]);
    expect(await verifyNotification(got.body, MERCHANT)).toMatchObject({ payOrderId: paid.payOrderId, state: PayOrderState.Succeeded });
    const expire = await runToEnd(['mock', 'expire', 'cli-trigger-2', '--url', mock.url]);
    expect(expire.stdout).toContain('state 6 (Closed)');
    expect((await client.query({ mchOrderNo: 'cli-trigger-2' })).state).toBe(PayOrderState.Closed);
    expect((await runToEnd(['mock', 'fail', 'cli-trigger-2', '--url', mock.url])).code).toBe(1);
  }, 20_000);

  it('mock refund-mode hold and refund-succeed REFUND, second processes, hold a refund and decide it: the refund is notified', async () => {
    endpoint.received.length = 0;
    endpoint.answerWith(() => 'SUCCESS');
    await client.unifiedOrder(order('cli-refund-1'));
    await control(mock.url, 'orders/cli-refund-1/pay');
    expect((await runToEnd(['mock', 'refund-mode', 'hold', '--url', mock.url])).stdout).toMatch(/^refund mode hold: coming refunds wait in state 1 \(Refunding\)/);
    try {
      const held = await client.refundOrder({ mchOrderNo: 'cli-refund-1', mchRefundNo: 'cli-refund-1-r1', refundAmount: 1999, currency: 'USD', refundReason: 'Returned', notifyUrl: `${endpoint.url}/refund/notify` });
      expect(held.state).toBe(RefundOrderState.Refunding);
      const decided = await runToEnd(['mock', 'refund-succeed', 'cli-refund-1-r1', '--url', mock.url]);
      expect(decided, decided.stderr).toMatchObject({ code: 0, stderr: '' });
      expect(decided.stdout).toMatch(new RegExp(`^refundOrderId ${held.refundOrderId}  mchRefundNo cli-refund-1-r1  state 2 \\(Succeeded\\)`));
      const got = await eventually(() => endpoint.received[0]);
      expect(got.path).toBe('/refund/notify');
      expect(await verifyRefundNotification(got.body, MERCHANT)).toMatchObject({ refundOrderId: held.refundOrderId, state: RefundOrderState.Succeeded, refundAmount: 1999 });
      expect((await client.query({ mchOrderNo: 'cli-refund-1' })).state).toBe(PayOrderState.Refunded);
    } finally {
      await runToEnd(['mock', 'refund-mode', 'succeed', '--url', mock.url]);
    }
  }, 20_000);

  it('retries on the real clock at the short interval, recording why each answer was not accepted', async () => {
    endpoint.received.length = 0;
    endpoint.answerWith((n) => (n === 1 ? '"SUCCESS"' : n === 2 ? 'SUCCESS\n' : 'success'));
    const created = await client.unifiedOrder(order('cli-2', `${endpoint.url}/notify`));
    await control(mock.url, `orders/${created.payOrderId}/pay`);
    const notification = await eventually(async () => (await state(mock.url)).notifications.find((n) => n.payOrderId === created.payOrderId && n.state === 'delivered'));
    expect(notification.attemptLog.map((a) => [a.attempt, a.delivered])).toEqual([[1, false], [2, false], [3, true]]);
    expect(notification.attemptLog[0]?.reason).toMatch(/^not accepted: the body "\\"SUCCESS\\"" is JSON-quoted .*answer with the plain-text body SUCCESS/);
    expect(notification.attemptLog[1]?.error).toMatch(/whitespace or a newline/);
    expect(notification.attemptLog[2]?.at).toBeGreaterThanOrEqual((notification.attemptLog[1]?.at ?? 0) + 2 * 150);
  });

  it('does not send to a host other than loopback, and says to use --forward-to', async () => {
    const created = await client.unifiedOrder(order('cli-3', 'https://shop.example/notify'));
    await control(mock.url, `orders/${created.payOrderId}/pay`);
    const attempt = await eventually(async () => (await state(mock.url)).notifications.find((n) => n.payOrderId === created.payOrderId)?.attemptLog[0]);
    expect(attempt.delivered).toBe(false);
    expect(attempt.status).toBeUndefined();
    expect(attempt.reason).toMatch(/not a loopback address.*--forward-to/);
  });

  it('control API: fail with the channel error, advance the clock, a clear 404 and 400', async () => {
    const created = await client.unifiedOrder(order('cli-4'));
    const failed = await control(mock.url, `orders/${created.payOrderId}/fail`, { errCode: 'E1', errMsg: 'card declined' });
    expect(failed.json).toMatchObject({ state: 3, errCode: 'E1', errMsg: 'card declined' });
    expect((await control(mock.url, `orders/${created.payOrderId}/pay`)).status).toBe(400);
    const before = (await state(mock.url)).now;
    expect((await control(mock.url, 'clock/advance', { ms: 3_600_000 })).json.now).toBeGreaterThanOrEqual(before + 3_600_000);
    expect((await control(mock.url, 'clock/advance', { ms: -1 })).status).toBe(400);
    const unknown = await control(mock.url, 'orders/x/refund');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toContain('POST /_mock/orders/{payOrderId}/pay');
  });

  it('a client whose baseUrl has a wrong path fails as in production (framework 404); an extra /api is refused when created', async () => {
    const wrong = new GatewayClient({ baseUrl: `${mock.url}/gateway`, ...MERCHANT });
    const error = await wrong.query({ mchOrderNo: 'cli-1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayHttpStatusError);
    expect((error as GatewayHttpStatusError).status).toBe(404);
    expect((error as GatewayHttpStatusError).message).toContain(`from POST ${mock.url}/gateway/api/pay/query (check baseUrl`);
    expect(() => new GatewayClient({ baseUrl: `${mock.url}/api`, ...MERCHANT })).toThrow(/baseUrl: ends in \/api, which the operations' paths already start with/);
  });

  it('--forward-to delivers every notification there, keeping the notifyUrl query string', async () => {
    const forwarded = await startNotifyEndpoint();
    const other = await startMockCommand(['--merchant', `${MERCHANT.mchNo}:${MERCHANT.appId}:${MERCHANT.secret}`, '--forward-to', `${forwarded.url}/fwd`]);
    try {
      const created = await new GatewayClient({ baseUrl: other.url, ...MERCHANT }).unifiedOrder(order('fwd-1', 'https://shop.example/notify?shop=eu'));
      await control(other.url, `orders/${created.payOrderId}/pay`);
      const got = await eventually(() => forwarded.received[0]);
      expect(got.path).toBe('/fwd?shop=eu');
      expect(got.fields.shop).toBe('eu');
      await expect(verifyNotification(got.body, { ...MERCHANT, ignoreKeys: ['shop'] })).resolves.toMatchObject({ payOrderId: created.payOrderId });
    } finally {
      await other.stop();
      await forwarded.close();
    }
  }, 20_000);

  it('--config: merchants and a manual clock from a JSON file; notifications wait for /_mock/notifications/deliver', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pgs-config-'));
    const file = join(dir, 'mock.json');
    writeFileSync(file, JSON.stringify({ merchants: [MERCHANT], clock: 'manual', publicUrl: 'http://mock.test:8080' }));
    const manual = await startMockCommand(['--config', file]);
    try {
      expect(manual.output()).toContain(`Merchants:\n  mchNo ${MERCHANT.mchNo}  appId ${MERCHANT.appId}  secret (as given)`);
      expect(manual.output()).toContain('Clock: manual');
      endpoint.received.length = 0;
      endpoint.answerWith(() => 'SUCCESS');
      const created = await createdOrder(new GatewayClient({ baseUrl: manual.url, ...MERCHANT }).unifiedOrder(order('cfg-1', `${endpoint.url}/notify`)));
      expect(created.payData).toBe(`http://mock.test:8080/cashier/${created.payOrderId}`);
      await control(manual.url, `orders/${created.payOrderId}/pay`);
      // The mock's own account, not a wait: the notification is queued and due, and no attempt was made.
      const queued = await state(manual.url);
      const notification = queued.notifications.find((n) => n.payOrderId === created.payOrderId);
      expect(notification).toMatchObject({ state: 'pending', attempts: 0, attemptLog: [] });
      expect(notification?.nextAttemptAt).toBeLessThanOrEqual(queued.now);
      expect(endpoint.received).toHaveLength(0);
      const [attempt] = (await control(manual.url, 'notifications/deliver')).json as { delivered: boolean }[];
      expect(attempt?.delivered).toBe(true);
      expect(endpoint.received).toHaveLength(1);
      expect((await state(manual.url)).clock).toBe('manual');
    } finally {
      await manual.stop();
      rmSync(dir, { recursive: true, force: true });
    }
    writeFileSync(join(tmpdir(), 'pgs-bad-config.json'), '{"merchants": [{"mchNo": "M1"}]}');
    const badConfig = (await runToEnd(['mock', '--config', join(tmpdir(), 'pgs-bad-config.json')])).stderr;
    expect(badConfig).toContain('--config file: merchants.0.appId: is required');
    expect(badConfig).toContain('merchants.0.secret: is required');
    writeFileSync(join(tmpdir(), 'pgs-typo-config.json'), '{"merchant": []}');
    expect((await runToEnd(['mock', '--config', join(tmpdir(), 'pgs-typo-config.json')])).stderr).toMatch(/unknown option 'merchant'\. Did you mean 'merchants'\?/);
    expect((await runToEnd(['mock', '--config', join(tmpdir(), 'pgs-no-such-file.json')])).stderr).toContain('cannot read');
  }, 20_000);

  it('refuses other web pages (foreign Host, foreign Origin); --public-url sets the pages and payData origin', async () => {
    const port = new URL(mock.url).port;
    const rebinding = await rawRequest(mock.url, '/_mock/state', { host: `evil.example:${port}` });
    expect(rebinding.status).toBe(403);
    expect(rebinding.text).toContain(`addressed to itself: 127.0.0.1:${port}, localhost:${port}`);
    const created = await client.unifiedOrder(order('cli-csrf'));
    const crossSite = await rawRequest(mock.url, `/_mock/orders/${created.payOrderId}/pay`, { origin: 'https://evil.example', 'content-type': 'text/plain' }, 'POST');
    expect(crossSite.status).toBe(403);
    expect((await client.query({ mchOrderNo: 'cli-csrf' })).state).toBe(PayOrderState.Generated);

    const shared = await startMockCommand(['--merchant', `${MERCHANT.mchNo}:${MERCHANT.appId}:${MERCHANT.secret}`, '--public-url', 'https://mock.example']);
    try {
      expect(shared.output()).toContain('Dashboard:   https://mock.example/');
      const local = `http://127.0.0.1:${new URL(shared.url).port}`;
      const viaPublic = await createdOrder(new GatewayClient({ baseUrl: local, ...MERCHANT }).unifiedOrder(order('pub-1')));
      expect(viaPublic.payData).toBe(`https://mock.example/cashier/${viaPublic.payOrderId}`);
      expect((await rawRequest(local, '/_mock/state', { host: 'mock.example' })).status).toBe(200);
      expect((await rawRequest(local, '/_mock/state', { host: 'evil.example' })).status).toBe(403);
    } finally {
      await shared.stop();
    }
    const bad = await runToEnd(['mock', '--public-url', 'https://mock.example/gateway']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--public-url: must be an http(s) origin such as');
  }, 20_000);

  it('closes cleanly on SIGINT and SIGTERM: exit code 0, the port released', async () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const running = await startMockCommand();
      expect(running.output()).toMatch(/Generated merchant:\n {2}mchNo M\d+ {2}appId app-[0-9a-f]{8} {2}secret \S{32}/);
      expect(await running.stop(signal)).toBe(0);
      expect(running.output()).toContain(`${signal}: stopping the mock gateway`);
      await expect(fetch(`${running.url}/_mock/state`)).rejects.toThrow();
    }
  }, 20_000);

  it('survives a reader that closes its stdout: the log and the stop line are dropped, no EPIPE crash, exit code 0', async () => {
    for (const args of [['--quiet'], []]) {
      const running = await startMockCommand(['--merchant', `${MERCHANT.mchNo}:${MERCHANT.appId}:${MERCHANT.secret}`, ...args]);
      running.child.stdout?.destroy();
      await new GatewayClient({ baseUrl: running.url, ...MERCHANT }).unifiedOrder(order(`epipe-${args.length}`));
      const alive = await eventually(async () => (await state(running.url)).orders.find((o) => o.mchOrderNo === `epipe-${args.length}`));
      expect(alive.state).toBe(PayOrderState.Generated); // still serving after the write into the closed pipe
      expect(await running.stop('SIGTERM'), running.output()).toBe(0);
      expect(running.output()).not.toMatch(/EPIPE|Error/);
    }
  }, 20_000);

  it('--merchant MCHNO:APPID takes the secret from GATEWAY_SECRET or --secret-file: it answers the SDK, and no argument holds it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pgsdk-mock-secret-'));
    try {
      const file = join(dir, 'secret');
      writeFileSync(file, `${MERCHANT.secret}\n`);
      const ids = `${MERCHANT.mchNo}:${MERCHANT.appId}`;
      for (const [args, env] of [[['--merchant', ids], { GATEWAY_SECRET: MERCHANT.secret }], [['--merchant', ids, '--secret-file', file], {}]] as const) {
        const running = await startMockCommand(args, env);
        try {
          // What ps shows: the process's arguments.
          expect(readFileSync(`/proc/${running.child.pid}/cmdline`, 'utf8')).not.toContain(MERCHANT.secret);
          expect(running.output()).not.toContain(MERCHANT.secret);
          await expect(new GatewayClient({ baseUrl: running.url, ...MERCHANT }).unifiedOrder(order(`secret-${args.length}`))).resolves.toMatchObject({ recovered: false });
          await expect(new GatewayClient({ baseUrl: running.url, ...MERCHANT, secret: 'another-secret-0123' }).unifiedOrder(order('wrong'))).rejects.toThrow(/signature/i);
        } finally {
          await running.stop('SIGTERM');
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('refuses bad flags with a clear message and exit code 2; --help and --version work', async () => {
    const unknown = await runToEnd(['mock', '--prot', '4010']);
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toMatch(/Unknown option '--prot'.*\n.*--help/);
    expect((await runToEnd(['mock', '--merchant', 'M1:app-1:'])).stderr).toContain('--merchant must be MCHNO:APPID:SECRET');
    expect((await runToEnd(['mock', '--clock', 'fast'])).stderr).toContain('--clock: must be real or manual');
    expect((await runToEnd(['mock', '--forward-to', 'ftp://x'])).stderr).toContain('--forward-to: must be an absolute http(s) URL, e.g. http://127.0.0.1:3000/notify');
    expect((await runToEnd(['mock', '--port', '70000'])).stderr).toContain('--port: must be at most 65535');
    expect((await runToEnd(['refund'])).code).toBe(2);
    const help = await runToEnd(['--help']);
    expect(help.code).toBe(0);
    for (const flag of ['--port', '--host', '--public-url', '--merchant', '--forward-to', '--config', '--clock', '--notify-retry-ms', '--quiet']) expect(help.stdout).toContain(flag);
    for (const route of CONTROL_ROUTES) expect(help.stdout).toContain(`  ${route.method} ${route.path}${route.body ? ` ${route.body}` : ''}\n      ${route.calls}: ${route.does}\n`);
    expect((await runToEnd(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+/);
  }, 30_000);

  // examples/python/checkout_test.py runs against the built command in test/docs/python-example.slow.test.ts.
});
