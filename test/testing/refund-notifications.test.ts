// The mock's refund notifications, received by a real loopback HTTP endpoint that runs the SDK's processor with
// onPaid, onRefunded and onRefundFailed: retried as payments are, each run once by its own handler, never onPaid,
// and a notification that reaches the merchant before the refundOrder answer does.
import { describe, expect, it, vi } from 'vitest';
import {
  createNotificationProcessor,
  GatewayClient,
  memoryStore,
  type PaidOrder,
  Refunds,
} from '../../src/index.js';
import { createMockGateway, type MockGateway } from '../../src/testing/index.js';
import { useServers } from '../support/http-server.js';
import { deliverAll, serveProcessor } from '../support/processor-endpoint.js';

const MERCHANT = { mchNo: 'M1700000031', appId: 'app-refunds', secret: 'refund-notify-secret' };
const startServer = useServers();

/** The shop: its records of orders and refunds, a processor over them, served on loopback. */
async function startShop() {
  const onPaid = vi.fn(async (_paid: PaidOrder) => {});
  const onRefunded = vi.fn(async (_refund: Refunds.Notification) => {});
  const onRefundFailed = vi.fn(async (_refund: Refunds.Notification) => {});
  const refunds = new Map<string, Refunds.Expectation>();
  const processor = createNotificationProcessor({
    ...MERCHANT,
    store: memoryStore(),
    expect: async (paid) => ({ mchOrderNo: paid.mchOrderNo, amount: 1999, currency: 'USD' }),
    expectRefund: async (refund) => refunds.get(refund.mchRefundNo),
    onPaid,
    onRefunded,
    onRefundFailed,
  });
  const { url, replies } = await serveProcessor(startServer, processor);
  return { url, onPaid, onRefunded, onRefundFailed, refunds, replies };
}

async function paidOrder(gateway: MockGateway, client: GatewayClient, mchOrderNo: string, notifyUrl: string) {
  const order = await client.unifiedOrder({ mchOrderNo, wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: 'T-shirt', body: 'Blue, M', notifyUrl });
  gateway.payOrder(order.payOrderId);
  return order;
}

describe('refund notifications to a processor on a loopback endpoint', () => {
  it('are retried as payments are (same schedule, same signed form), and run onRefunded once, never onPaid', async () => {
    const shop = await startShop();
    const gateway = createMockGateway({ merchants: [MERCHANT], clock: 'manual' });
    const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch });
    const order = await paidOrder(gateway, client, 'order-r1', `${shop.url}/notify`);
    shop.refunds.set('refund-r1', { mchRefundNo: 'refund-r1', refundAmount: 1999, currency: 'USD' });
    const refund = await client.refundOrder({ payOrderId: order.payOrderId, mchRefundNo: 'refund-r1', refundAmount: 1999, currency: 'USD', refundReason: 'Returned', notifyUrl: `${shop.url}/notify` });
    expect(refund.state).toBe(Refunds.State.Succeeded);
    // Both handlers fail twice: the processor answers 500, the gateway retries.
    shop.onPaid.mockRejectedValueOnce(new Error('db down')).mockRejectedValueOnce(new Error('db down'));
    shop.onRefunded.mockRejectedValueOnce(new Error('db down')).mockRejectedValueOnce(new Error('db down'));
    await deliverAll(gateway);

    const [payment, refunded] = (['payment', 'refund'] as const).map((kind) => gateway.state().notifications.find((n) => n.kind === kind)!);
    expect(refunded).toMatchObject({ kind: 'refund', state: 'delivered', refundOrderId: refund.refundOrderId, mchRefundNo: 'refund-r1' });
    const schedule = (n: typeof payment) => n!.attemptLog.map((a) => [a.at - n!.attemptLog[0]!.at, a.delivered]);
    expect(schedule(refunded)).toEqual([[0, false], [30_000, false], [90_000, true]]);
    expect(schedule(refunded)).toEqual(schedule(payment));
    expect(new Set(refunded!.attemptLog.map((a) => `${a.fields.reqTime} ${a.fields.sign}`)).size).toBe(1); // the same form each time
    expect(shop.onRefunded).toHaveBeenCalledTimes(3);
    expect(shop.onRefunded.mock.calls[2]?.[0]).toMatchObject({ refundOrderId: refund.refundOrderId, mchRefundNo: 'refund-r1', refundAmount: 1999, state: Refunds.State.Succeeded });
    expect(shop.onPaid).toHaveBeenCalledTimes(3);
    expect(shop.onPaid.mock.calls.map(([paid]) => paid.payOrderId)).toEqual([order.payOrderId, order.payOrderId, order.payOrderId]);
    expect(shop.onRefundFailed).not.toHaveBeenCalled();

    // A resend of the delivered refund notification is a duplicate: nothing runs again.
    await gateway.resendNotification(refunded!.id);
    expect(shop.replies.at(-1)).toBe('/notify duplicate');
    expect(shop.onRefunded).toHaveBeenCalledTimes(3);
  });

  it('a failed refund runs onRefundFailed; a refund with no record of the shop is refused and retried, never run', async () => {
    const shop = await startShop();
    const gateway = createMockGateway({ merchants: [MERCHANT], clock: 'manual' });
    const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch });
    const order = await paidOrder(gateway, client, 'order-r2', `${shop.url}/pay`);
    await gateway.deliverNotifications();
    gateway.setRefundMode('hold');
    const refund = (mchRefundNo: string) => client.refundOrder({ payOrderId: order.payOrderId, mchRefundNo, refundAmount: 500, currency: 'USD', refundReason: 'Returned', notifyUrl: `${shop.url}/refund` });
    shop.refunds.set('refund-r2', { mchRefundNo: 'refund-r2', refundAmount: 500, currency: 'USD' });
    const failing = await refund('refund-r2');
    gateway.settleRefund(failing.refundOrderId, { to: 'fail', errCode: 'NOT_ENOUGH_BALANCE', errMsg: 'balance too low' });
    await gateway.deliverNotifications();
    expect(shop.onRefundFailed).toHaveBeenCalledTimes(1);
    expect(shop.onRefundFailed.mock.calls[0]?.[0]).toMatchObject({ mchRefundNo: 'refund-r2', state: Refunds.State.Failed, errCode: 'NOT_ENOUGH_BALANCE' });

    const unknown = await refund('refund-unknown');
    gateway.settleRefund(unknown.refundOrderId, { to: 'succeed' });
    await gateway.deliverNotifications();
    expect(shop.replies.at(-1)).toBe('/refund refused');
    expect(gateway.state().notifications[0]).toMatchObject({ mchRefundNo: 'refund-unknown', state: 'pending', nextAttemptAt: gateway.now() + 30_000 }); // the gateway keeps it
    expect(shop.onRefunded).not.toHaveBeenCalled();
    expect(shop.onPaid).toHaveBeenCalledTimes(1);
  });

  it('a refund settled at once whose notification reaches the shop before the answer reaches the client: both agree, run once', async () => {
    const shop = await startShop();
    const gateway = createMockGateway({ merchants: [MERCHANT], clock: 'manual' });
    // The gateway notifies between settling the refund and answering the call.
    const racing = async (input: Request | string | URL, init?: RequestInit) => {
      const response = await gateway.fetch(input, init);
      if (String(input instanceof Request ? input.url : input).endsWith('/api/refund/refundOrder')) await gateway.deliverNotifications();
      return response;
    };
    const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: racing });
    const order = await paidOrder(gateway, client, 'order-r3', `${shop.url}/pay`);
    shop.refunds.set('refund-r3', { mchRefundNo: 'refund-r3', refundAmount: 1999, currency: 'USD' });
    const answer = await client.refundOrder({ payOrderId: order.payOrderId, mchRefundNo: 'refund-r3', refundAmount: 1999, currency: 'USD', refundReason: 'Returned', notifyUrl: `${shop.url}/refund` });
    expect(shop.onRefunded).toHaveBeenCalledTimes(1); // before the answer came back
    expect(shop.onRefunded.mock.calls[0]?.[0]).toMatchObject({ refundOrderId: answer.refundOrderId, state: Refunds.State.Succeeded });
    expect(answer.state).toBe(Refunds.State.Succeeded);
    expect(await client.refundQuery({ mchRefundNo: 'refund-r3' })).toMatchObject({ refundOrderId: answer.refundOrderId, state: Refunds.State.Succeeded });
    await deliverAll(gateway);
    expect(shop.onRefunded).toHaveBeenCalledTimes(1);
  });
});
