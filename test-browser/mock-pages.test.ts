// The mock gateway's cashier page and dashboard in a real browser, against the `mock` command.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient, PayOrderState, RefundOrderState, verifyNotification, type PayOrderNotification } from '../src/index.js';
import { created } from '../test/support/created.js';
import { md5Hex } from '../src/protocol/signing/md5.js';
import { signingString } from '../src/protocol/signing/sign.js';
import type { MockGatewayState } from '../src/testing/index.js';
import { eventually, startMockCommand, type RunningMock } from '../test/support/mock-command.js';

const MERCHANT = { mchNo: 'M1700000001', appId: 'app-shop', secret: 'browser-test-secret' };
// `npm run screenshots` refreshes the docs' images; an ordinary run keeps its shots out of the work tree.
const SCREENSHOTS = fileURLToPath(new URL(process.env.SAVE_SCREENSHOTS === 'docs' ? '../docs/images/' : '../.tmp/screenshots/', import.meta.url));

/** The merchant's backend on loopback: a notify route that verifies, and the page the payer returns to. */
async function startShop() {
  const notifications: PayOrderNotification[] = [];
  const refused: unknown[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url?.startsWith('/notify')) {
        verifyNotification(Buffer.concat(chunks).toString('utf8'), MERCHANT).then(
          (n) => {
            notifications.push(n);
            res.end('SUCCESS');
          },
          (error: unknown) => {
            refused.push(error);
            res.end('FAIL');
          },
        );
        return;
      }
      res.setHeader('content-type', 'text/html');
      if (req.url?.startsWith('/evil?')) {
        res.end(attackPage(new URL(req.url, 'http://shop').searchParams));
        return;
      }
      res.end('<!doctype html><title>Shop</title><h1>Thanks for your order</h1>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, notifications, refused, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * A page of another site (here the shop's origin) attacking the mock as the issue describes: a text/plain
 * `fetch` arming 1,000 wrongSign faults, then a cross-site form paying an order.
 */
function attackPage(params: URLSearchParams): string {
  const target = JSON.stringify(params.get('target'));
  return `<!doctype html><title>Win a prize</title><iframe name="sink"></iframe>
<form id="pay" method="POST" enctype="text/plain" target="sink" action="${params.get('target')}/_mock/orders/${params.get('order')}/pay"><input name="x" value="1"></form>
<script>
fetch(${target} + '/_mock/faults', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"kind":"wrongSign","times":1000}' })
  .catch(() => undefined)
  .finally(() => document.getElementById('pay').submit());
</script>`;
}

let mock: RunningMock;
let shop: Awaited<ReturnType<typeof startShop>>;
let client: GatewayClient;
let browser: BrowserContext;
let page: Page;
let profile: string;
const timings: Record<string, number> = {};

beforeAll(async () => {
  shop = await startShop();
  mock = await startMockCommand(['--merchant', `${MERCHANT.mchNo}:${MERCHANT.appId}:${MERCHANT.secret}`]);
  client = new GatewayClient({ baseUrl: mock.url, ...MERCHANT });
  profile = mkdtempSync(join(tmpdir(), 'pgs-chromium-'));
  const started = performance.now();
  // A fresh profile (the --user-data-dir) each run; Debian's Chromium, never a browser download.
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1100, height: 760 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  timings.launch = performance.now() - started;
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
  await mock?.stop();
  await shop?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  console.log(`browser timings (ms): ${JSON.stringify(Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Math.round(v)])))}`);
});

const newOrder = (mchOrderNo: string, subject = 'Blue T-shirt, size M') =>
  created(
    client.unifiedOrder({
      mchOrderNo, wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject, body: 'Organic cotton',
      notifyUrl: `${shop.url}/notify`, returnUrl: `${shop.url}/return`,
    }),
  );

async function state(): Promise<MockGatewayState> {
  return (await (await fetch(`${mock.url}/_mock/state`)).json()) as MockGatewayState;
}

describe('the cashier page', () => {
  it('Pay: the shop gets a notification that verifies, and the browser arrives at returnUrl with signed fields', async () => {
    const started = performance.now();
    const order = await newOrder('shop-1001');
    await page.goto(order.payData ?? '');
    await expect(page.locator('.amount').textContent()).resolves.toBe('19.99 USD');
    await expect(page.locator('#state').textContent()).resolves.toBe('Awaiting payment');
    await page.screenshot({ path: `${SCREENSHOTS}cashier.png` });
    await Promise.all([page.waitForURL(`${shop.url}/return?**`), page.click('#pay')]);
    const notification = await eventually(() => shop.notifications.find((n) => n.payOrderId === order.payOrderId));
    expect(notification).toMatchObject({ mchOrderNo: 'shop-1001', state: PayOrderState.Succeeded, amount: 1999 });
    expect(shop.refused).toEqual([]);
    // The return URL carries the signed order fields, as the reference gateway adds them.
    const returned = await verifyNotification(new URL(page.url()).searchParams, MERCHANT);
    expect(returned).toMatchObject({ payOrderId: order.payOrderId, state: PayOrderState.Succeeded });
    await expect(page.locator('h1').textContent()).resolves.toBe('Thanks for your order');
    timings.pay = performance.now() - started;
  });

  it('Fail: state 3, back at returnUrl, and no notification', async () => {
    const started = performance.now();
    const order = await newOrder('shop-1002');
    await page.goto(order.payData ?? '');
    await Promise.all([page.waitForURL(`${shop.url}/return?**`), page.click('#fail')]);
    expect(new URL(page.url()).searchParams.get('state')).toBe('3');
    expect((await client.query({ payOrderId: order.payOrderId })).state).toBe(PayOrderState.Failed);
    // The mock queues a notification in the step that marks an order paid: its own list, not a wait, shows none.
    expect((await state()).notifications.filter((n) => n.payOrderId === order.payOrderId)).toEqual([]);
    expect(shop.notifications.some((n) => n.payOrderId === order.payOrderId)).toBe(false);
    await page.goto(order.payData ?? '');
    await expect(page.locator('#state').textContent()).resolves.toBe('Payment failed');
    await expect(page.locator('#pay').count()).resolves.toBe(0);
    timings.fail = performance.now() - started;
  });
});

describe('the dashboard', () => {
  it('shows the order and its delivery; Resend delivers the same notification again', async () => {
    const started = performance.now();
    const paid = (await state()).orders.find((o) => o.mchOrderNo === 'shop-1001');
    expect(paid).toBeDefined();
    await newOrder('shop-1003', 'Gift card');
    await page.goto(`${mock.url}/`);
    const row = page.locator(`tr[data-order="${paid?.payOrderId}"]`);
    await expect(row.textContent()).resolves.toContain('2 Succeeded');
    const delivery = page.locator('tr[data-notification]', { hasText: paid?.payOrderId ?? '' });
    await expect(delivery.textContent()).resolves.toContain('accepted: the body was "SUCCESS"');
    const before = shop.notifications.filter((n) => n.payOrderId === paid?.payOrderId);
    expect(before).toHaveLength(1);
    await Promise.all([page.waitForEvent('load'), delivery.locator('button', { hasText: 'Resend' }).click()]);
    const after = await eventually(() => {
      const got = shop.notifications.filter((n) => n.payOrderId === paid?.payOrderId);
      return got.length === 2 ? got : undefined;
    });
    expect(after[1]?.reqTime).toBe(after[0]?.reqTime); // the original reqTime (and so the original sign)
    expect(after[1]?.idempotencyKey).toBe(after[0]?.idempotencyKey);
    await expect(page.locator('tr[data-notification]', { hasText: paid?.payOrderId ?? '' }).textContent()).resolves.toContain('#2 resend');
    timings.dashboard = performance.now() - started;
  });

  it('approves a declared address; the page refreshes itself when the state changes', async () => {
    const started = performance.now();
    const declared = await client.settleAddressApply({ requestId: 'addr-001', tokenId: 'TRON_USDT', address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', remark: 'treasury' });
    // The page was open before the address existed: its polling brings the row in.
    const row = page.locator(`tr[data-address="${declared.serverRequestId}"]`);
    await row.waitFor({ timeout: 5000 });
    await Promise.all([page.waitForEvent('load'), row.locator('button', { hasText: 'Approve' }).click()]);
    expect((await state()).addresses[0]).toMatchObject({ serverRequestId: declared.serverRequestId, status: 1 });
    await expect(page.locator(`tr[data-address="${declared.serverRequestId}"]`).textContent()).resolves.toContain('approved');
    await client.settleRequest({ requestId: 'settle-2026-11', amount: 150000, tokenId: 'TRON_USDT', currency: 'USD', payoutChannel: 'Crypto', addrServerRequestId: declared.serverRequestId });
    await page.locator('tr[data-settlement]').waitFor({ timeout: 5000 });
    await page.screenshot({ path: `${SCREENSHOTS}dashboard.png`, fullPage: true });
    timings.address = performance.now() - started;
  });

  it("lists refunds by name with the order's refunded sum; Succeed settles a held refund and the order reads Refunded", async () => {
    const order = await newOrder('shop-1006');
    await fetch(`${mock.url}/_mock/orders/${order.payOrderId}/pay`, { method: 'POST' });
    await client.refundOrder({ payOrderId: order.payOrderId, mchRefundNo: 'shop-1006-r1', refundAmount: 999, currency: 'USD', refundReason: 'Returned' });
    await fetch(`${mock.url}/_mock/refunds/mode`, { method: 'POST', body: '{"mode":"hold"}' });
    try {
      const held = await client.refundOrder({ payOrderId: order.payOrderId, mchRefundNo: 'shop-1006-r2', refundAmount: 1000, currency: 'USD', refundReason: 'Returned' });
      expect(held.state).toBe(RefundOrderState.Refunding);
      await page.goto(`${mock.url}/`);
      const row = page.locator(`tr[data-refund="${held.refundOrderId}"]`);
      await expect(row.textContent()).resolves.toContain('1 Refunding');
      await expect(page.locator(`tr[data-order="${order.payOrderId}"]`).textContent()).resolves.toContain('9.99 USD');
      await Promise.all([page.waitForEvent('load'), row.locator('button', { hasText: 'Succeed' }).click()]);
      await expect(page.locator(`tr[data-refund="${held.refundOrderId}"]`).textContent()).resolves.toContain('2 Succeeded');
      await expect(page.locator(`tr[data-order="${order.payOrderId}"]`).textContent()).resolves.toContain('5 Refunded');
      expect((await client.refundQuery({ refundOrderId: held.refundOrderId })).state).toBe(RefundOrderState.Succeeded);
    } finally {
      await fetch(`${mock.url}/_mock/refunds/mode`, { method: 'POST', body: '{"mode":"succeed"}' });
    }
  });

  it('lists the latest requests; a refused signature comes in by itself, explained, without the secret', async () => {
    await page.goto(`${mock.url}/`);
    await expect(page.locator('#requests').textContent()).resolves.toContain('SUCCESS payOrderId=');
    const fields = { mchNo: MERCHANT.mchNo, appId: MERCHANT.appId, version: '1.0.1', signType: 'MD5', reqTime: String(Date.now()), mchOrderNo: 'shop-bad-sign' };
    const answer = await fetch(`${mock.url}/api/pay/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...fields, sign: md5Hex(`&${signingString(fields, MERCHANT.secret)}`) }) });
    expect(await answer.text()).toBe('{"code":9999,"msg":"验签失败"}');
    const why = page.locator('#requests tr.why');
    await why.first().waitFor({ timeout: 5000 });
    const text = await why.first().textContent();
    expect(text).toContain('Why the signature was refused: the string starts with "&"');
    expect(text).toContain(signingString(fields, '***'));
    expect(await page.content()).not.toContain(MERCHANT.secret);
  });
});

describe('pages of other sites', () => {
  it('cannot arm faults or pay an order: the mock refuses what the browser sends from them (403)', async () => {
    const order = await newOrder('shop-1004');
    const [faults, pay] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${mock.url}/_mock/faults`),
      page.waitForResponse((r) => r.url() === `${mock.url}/_mock/orders/${order.payOrderId}/pay`),
      page.goto(`${shop.url}/evil?target=${encodeURIComponent(mock.url)}&order=${order.payOrderId}`),
    ]);
    expect(await pay.request().headerValue('origin')).toBe(shop.url);
    expect([faults.status(), pay.status()]).toEqual([403, 403]);
    expect((await state()).orders.find((o) => o.payOrderId === order.payOrderId)?.state).toBe(PayOrderState.Generated);
    // No wrongSign fault was armed: the signed answer verifies.
    expect((await client.query({ payOrderId: order.payOrderId })).state).toBe(PayOrderState.Generated);
  });

  it('the dashboard reached through localhost still works: its buttons call the origin it was opened on', async () => {
    const order = await newOrder('shop-1005');
    await page.goto(`${mock.url.replace('127.0.0.1', 'localhost')}/`);
    const row = page.locator(`tr[data-order="${order.payOrderId}"]`);
    await Promise.all([page.waitForEvent('load'), row.locator('button', { hasText: 'Pay' }).click()]);
    expect((await state()).orders.find((o) => o.payOrderId === order.payOrderId)?.state).toBe(PayOrderState.Succeeded);
  });
});
