// How the mock's notifier judges a merchant's answers, resends, and runs on the real clock, through
// gateway.fetch and a stubbed notifyFetch (a real merchant server on loopback for an endless answer).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createMockGateway, type MockGateway } from '../../src/testing/index.js';
import { call, MERCHANT, orderFields, START } from '../support/raw-gateway.js';

type Answer = { status?: number; body?: string | null; location?: string };

function gatewayAnswering(answers: Answer[], options: Parameters<typeof createMockGateway>[0] | object = {}): { gateway: MockGateway; sent: Request[] } {
  const sent: Request[] = [];
  const gateway = createMockGateway({
    merchants: [MERCHANT], startTime: START, ...options,
    notifyFetch: async (input, init) => {
      sent.push(new Request(input as string, init));
      const next = answers[Math.min(sent.length, answers.length) - 1] ?? {};
      return new Response(next.body ?? null, { status: next.status ?? 200, headers: next.location ? { location: next.location } : {} });
    },
  });
  return { gateway, sent };
}

async function paidOrder(gateway: MockGateway, overrides: Record<string, string | number> = {}) {
  await call(gateway, 'unifiedOrder', orderFields({ notifyUrl: 'http://127.0.0.1:9/notify', ...overrides }));
  return gateway.payOrder(String(overrides.mchOrderNo ?? 'order-1'));
}

describe('notification answers', () => {
  it.each([
    ['"SUCCESS"', 200, /is JSON-quoted/],
    ['SUCCESS\n', 200, /whitespace or a newline/],
    [null, 204, /HTTP 204 No Content: the body was empty/],
    ['FAIL', 500, /the body was "FAIL" \(HTTP 500\)/],
  ])('%j with HTTP %i is not accepted, and the attempt says why', async (body, status, why) => {
    const { gateway } = gatewayAnswering([{ status, body }]);
    await paidOrder(gateway);
    const [attempt] = await gateway.deliverNotifications();
    expect(attempt).toMatchObject({ delivered: false, notificationId: 'N1', status });
    expect(attempt?.error).toMatch(why);
    expect(attempt?.reason).toMatch(/^not accepted: .*; answer with the plain-text body SUCCESS and nothing else$/);
    expect(gateway.notifications[0]).toMatchObject({ state: 'pending', attempts: 1 });
  });

  it('reads at most 64 KiB of an answer: an endless body from a merchant server on loopback is not accepted, and the connection is dropped', async () => {
    // It starts with SUCCESS, then never ends: the mock must stop reading, not wait for the end or the timeout.
    const dropped = Promise.withResolvers<void>();
    const merchant = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(16 * 1024, 'SUCCESS');
      const pump = () => {
        while (!response.destroyed) if (!response.write(chunk)) return void response.once('drain', pump);
      };
      response.on('close', () => dropped.resolve());
      pump();
    });
    await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve));
    try {
      const gateway = createMockGateway({ merchants: [MERCHANT], startTime: START, notifyTimeout: 15_000 });
      await paidOrder(gateway, { notifyUrl: `http://127.0.0.1:${(merchant.address() as AddressInfo).port}/notify` });
      const [attempt] = await gateway.deliverNotifications();
      expect(attempt).toMatchObject({ delivered: false, status: 200 });
      expect(attempt?.reason).toBe('not accepted: the answer was over 65536 bytes (HTTP 200), so the mock stopped reading it; answer with the plain-text body SUCCESS and nothing else');
      expect(attempt?.error).toBe(attempt?.reason);
      expect(attempt?.response).toHaveLength(200);
      expect(attempt?.ms).toBeLessThan(15_000);
      await dropped.promise;
      expect(gateway.notifications[0]).toMatchObject({ state: 'pending', attempts: 1 });
    } finally {
      merchant.closeAllConnections();
      await new Promise((resolve) => merchant.close(resolve));
    }
  });

  it('accepts success in any case, as the reference does', async () => {
    const { gateway } = gatewayAnswering([{ body: 'success' }]);
    await paidOrder(gateway);
    const [attempt] = await gateway.deliverNotifications();
    expect(attempt).toMatchObject({ delivered: true, error: undefined, reason: 'accepted: the body was "success" (HTTP 200)' });
  });

  it('does not follow a redirect with the signed body', async () => {
    const { gateway, sent } = gatewayAnswering([{ status: 302, location: 'http://127.0.0.1:9/elsewhere' }]);
    await paidOrder(gateway);
    const [attempt] = await gateway.deliverNotifications();
    expect(sent[0]?.redirect).toBe('manual');
    expect(attempt).toMatchObject({ delivered: false, status: 302 });
  });

  it('resendNotification sends the stored form again (original reqTime and sign) and leaves the retry schedule', async () => {
    const { gateway, sent } = gatewayAnswering([{ body: 'FAIL' }, { body: 'FAIL' }, { body: 'SUCCESS' }]);
    await paidOrder(gateway);
    await gateway.deliverNotifications();
    const due = gateway.notifications[0]?.nextAttemptAt;
    gateway.advanceTime(5000);
    const again = await gateway.resendNotification('N1');
    expect(again).toMatchObject({ attempt: 2, resend: true, delivered: false });
    expect(gateway.notifications[0]?.nextAttemptAt).toBe(due);
    expect(await sent[1]?.text()).toBe(await sent[0]?.text());
    expect((await gateway.resendNotification('N1')).delivered).toBe(true);
    expect(gateway.notifications[0]).toMatchObject({ state: 'delivered', nextAttemptAt: undefined });
    await expect(gateway.resendNotification('N9')).rejects.toThrow(/no notification "N9"/);
  });

  it('loopbackOnly: another host is recorded as not sent, with the hint; forwardTo keeps the notifyUrl query', async () => {
    const local = gatewayAnswering([{ body: 'SUCCESS' }], { notifications: { loopbackOnly: true } });
    await paidOrder(local.gateway, { notifyUrl: 'https://shop.example/notify' });
    const [refused] = await local.gateway.deliverNotifications();
    expect(local.sent).toHaveLength(0);
    expect(refused?.error).toMatch(/https:\/\/shop\.example\/notify is not a loopback address.*--forward-to/);
    const forwarded = gatewayAnswering([{ body: 'SUCCESS' }], { notifications: { forwardTo: 'http://127.0.0.1:9/hook?k=1' } });
    await paidOrder(forwarded.gateway, { notifyUrl: 'https://shop.example/notify?shop=eu' });
    expect((await forwarded.gateway.deliverNotifications())[0]).toMatchObject({ delivered: true, url: 'http://127.0.0.1:9/hook?k=1&shop=eu' });
    expect(new URLSearchParams(await forwarded.sent[0]?.text()).get('shop')).toBe('eu');
  });

  it('an attempt under way is not due again (no second send, no timer spinning while the merchant is slow)', async () => {
    const received = Promise.withResolvers<void>();
    const release = Promise.withResolvers<void>();
    let calls = 0;
    const gateway = createMockGateway({
      merchants: [MERCHANT], startTime: START,
      notifyFetch: async () => {
        calls++;
        received.resolve();
        await release.promise;
        return new Response('SUCCESS');
      },
    });
    await paidOrder(gateway);
    const first = gateway.deliverNotifications();
    await received.promise; // the attempt is under way: the merchant has the request and has not answered
    expect(gateway.nextNotificationAt()).toBeUndefined();
    expect(await gateway.deliverNotifications()).toEqual([]);
    release.resolve();
    expect((await first)[0]?.delivered).toBe(true);
    expect(calls).toBe(1);
  });

  it('the real clock sends at once and retries on the step by itself', async () => {
    const { gateway, sent } = gatewayAnswering([{ body: 'FAIL' }, { body: 'SUCCESS' }], { clock: 'real', notifications: { retryStepMs: 40 } });
    const before = Date.now();
    await paidOrder(gateway);
    for (let i = 0; i < 100 && gateway.notifications[0]?.state !== 'delivered'; i++) await new Promise((r) => setTimeout(r, 10));
    expect(gateway.deliveries.map((d) => d.delivered)).toEqual([false, true]);
    expect(gateway.deliveries[1]!.at - gateway.deliveries[0]!.at).toBeGreaterThanOrEqual(40);
    expect(gateway.deliveries[0]!.at).toBeGreaterThanOrEqual(before);
    expect(sent).toHaveLength(2);
  });
});
