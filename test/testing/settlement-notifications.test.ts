// The mock's settlement notifications, received by a real loopback HTTP endpoint that runs the SDK's processor with
// onSettlement: a completed settlement notified, verified and run once (retried as payments are; a resend is a
// duplicate), a failed one notified too, each named in the mock's log and on its dashboard.
import { describe, expect, it, vi } from 'vitest';
import { createNotificationProcessor, GatewayClient, memoryStore, type Settlements } from '../../src/index.js';
import { createMockGateway, MockSettlementStatus, type MockGatewayEvent } from '../../src/testing/index.js';
import { useServers } from '../support/http-server.js';
import { deliverAll, serveProcessor } from '../support/processor-endpoint.js';

const MERCHANT = { mchNo: 'M1700000041', appId: 'app-settlements', secret: 'settle-notify-secret' };
const ADDRESS = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
const startServer = useServers();

/** The shop: the settlements it asked for, a processor over them, served on loopback. */
async function startShop() {
  const onSettlement = vi.fn(async (_settlement: Settlements.Notification) => {});
  const asked = new Map<string, Settlements.Expectation>();
  const processor = createNotificationProcessor({ ...MERCHANT, store: memoryStore(), expectSettlement: async (s) => asked.get(s.requestId), onSettlement });
  const { url, replies } = await serveProcessor(startServer, processor);
  return { url, onSettlement, asked, replies };
}

function setUp() {
  const events: MockGatewayEvent[] = [];
  const gateway = createMockGateway({ merchants: [MERCHANT], clock: 'manual', log: (event) => void events.push(event) });
  const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch });
  return { gateway, client, events };
}

describe('settlement notifications to a processor on a loopback endpoint', () => {
  it('a completed settlement is notified, verified and run once: retried as payments are, a resend is a duplicate', async () => {
    const shop = await startShop();
    const { gateway, client, events } = setUp();
    shop.asked.set('settle-e1', { requestId: 'settle-e1', amount: 150000, currency: 'USD', tokenId: 'TRON_USDT' });
    const { serverRequestId } = await client.settleRequest({ requestId: 'settle-e1', amount: 150000, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: ADDRESS, notifyUrl: `${shop.url}/settled` });
    gateway.progressSettlement('settle-e1');
    await gateway.deliverNotifications();
    expect(gateway.notifications).toEqual([]); // processing is not final
    gateway.progressSettlement('settle-e1');
    // The handler fails once: the processor answers 500, the gateway retries 30 s later.
    shop.onSettlement.mockRejectedValueOnce(new Error('db down'));
    await deliverAll(gateway);

    const [notification] = gateway.state().notifications;
    expect(notification).toMatchObject({ kind: 'settlement', state: 'delivered', serverRequestId, requestId: 'settle-e1', attempts: 2 });
    expect(notification!.attemptLog.map((a) => [a.at - notification!.attemptLog[0]!.at, a.delivered])).toEqual([[0, false], [30_000, true]]);
    expect(shop.replies).toEqual(['/settled failed', '/settled processed']);
    expect(shop.onSettlement).toHaveBeenCalledTimes(2);
    const settled = shop.onSettlement.mock.calls[1]![0];
    expect(settled).toMatchObject({ serverRequestId, requestId: 'settle-e1', amount: 150000, currency: 'USD', tokenId: 'TRON_USDT', address: ADDRESS, status: MockSettlementStatus.Completed, mchNo: MERCHANT.mchNo, appId: MERCHANT.appId });
    expect(settled.idempotencyKey).toBe(`${serverRequestId}:${MockSettlementStatus.Completed}`);
    // What the notification says is what settleRequestGet answers.
    const record = await client.settleRequestGet({ requestId: 'settle-e1' });
    expect(settled).toMatchObject({ ...record });

    // A resend of the delivered notification, by its requestId: a duplicate, nothing runs again.
    expect(await gateway.resendNotification('settle-e1')).toMatchObject({ notificationId: notification!.id, resend: true, delivered: true });
    expect(shop.replies.at(-1)).toBe('/settled duplicate');
    expect(shop.onSettlement).toHaveBeenCalledTimes(2);

    // The mock's log and dashboard name the settlement by its requestId.
    const lines = events.filter((e) => e.type === 'notification').map((e) => e.line);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(new RegExp(`notify ${notification!.id} #2 +requestId=settle-e1 POST ${shop.url}/settled -> accepted`));
    const page = await (await gateway.fetch('https://gateway.test/')).text();
    expect(page).toContain(`<tr data-notification="${notification!.id}"><td><code>${notification!.id}</code></td><td>settlement <code>settle-e1</code><div class="muted">${shop.url}/settled</div>`);
  });

  it('a failed settlement is notified too, and one without a notifyUrl is not', async () => {
    const shop = await startShop();
    const { gateway, client } = setUp();
    shop.asked.set('settle-e2', { requestId: 'settle-e2', amount: 2500, currency: 'USD' });
    gateway.setSettlementMode('failed', { requestId: 'settle-e2' });
    await client.settleRequest({ requestId: 'settle-e2', amount: 2500, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: ADDRESS, notifyUrl: `${shop.url}/settled` });
    await client.settleRequest({ requestId: 'settle-e3', amount: 2500, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: ADDRESS });
    gateway.settleSettlement('settle-e3', { to: 'completed' });
    await deliverAll(gateway);
    expect(gateway.notifications.map((n) => [n.requestId, n.state])).toEqual([['settle-e2', 'delivered']]);
    expect(shop.onSettlement).toHaveBeenCalledTimes(1);
    expect(shop.onSettlement.mock.calls[0]![0]).toMatchObject({ requestId: 'settle-e2', status: MockSettlementStatus.Failed });
  });

  it('a settlement the shop did not ask for is refused (its expectation says so) and retried, never run', async () => {
    const shop = await startShop();
    const { gateway, client } = setUp();
    shop.asked.set('settle-e4', { requestId: 'settle-e4', amount: 100, currency: 'USD' });
    gateway.setSettlementMode('completed');
    await client.settleRequest({ requestId: 'settle-e4', amount: 2500, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: ADDRESS, notifyUrl: `${shop.url}/settled` });
    await gateway.deliverNotifications();
    expect(shop.replies).toEqual(['/settled refused']);
    expect(gateway.notifications[0]).toMatchObject({ requestId: 'settle-e4', state: 'pending', nextAttemptAt: gateway.now() + 30_000 });
    expect(shop.onSettlement).not.toHaveBeenCalled();
  });
});
