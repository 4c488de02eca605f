// Refunds against the mock gateway (a real HTTP server on 127.0.0.1): the region is the block of
// docs/guides/refunds.md's "Testing refunds with the mock", written by npm run docs:readme; the other tests hold the guide's
// claims (partial and full refunds and the order's state, the refusals, a failed refund) to what the client and
// the mock do; test/security/refund-never-twice.test.ts attacks the lost answer.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNotificationProcessor, GatewayApiError, GatewayClient, memoryStore, PayOrderState, Refunds } from 'payment-gateway-sdk';
import { createMockGateway, type MockGatewayServer } from 'payment-gateway-sdk/testing';

const merchant = { mchNo: 'M1700000001', appId: 'app-1', secret: 'test-secret' };
const notifyUrl = 'https://shop.example.com/pay/notify';
const paid: string[] = [];
const refunded: string[] = [];
const failed: string[] = [];
// One processor for the one notify URL: payments and refunds.
const processor = createNotificationProcessor({
  ...merchant,
  store: memoryStore(),
  expect: { currency: 'USD' },
  expectRefund: { currency: 'USD' },
  onPaid: async (payment) => void paid.push(payment.mchOrderNo),
  onRefunded: async (refund) => void refunded.push(refund.mchRefundNo),
  onRefundFailed: async (refund) => void failed.push(refund.mchRefundNo),
});
const gateway = createMockGateway({
  merchants: [merchant],
  notifyFetch: async (_url, init) => {
    const reply = await processor.handle(String(init?.body));
    return new Response(reply.body, { status: reply.status });
  },
});
let server: MockGatewayServer;
let client: GatewayClient;

beforeAll(async () => {
  server = await gateway.listen();
  client = new GatewayClient({ baseUrl: server.url, ...merchant });
});
beforeEach(() => gateway.setRefundMode('succeed'));
afterAll(() => server.close());

/** A paid order of 10.00 USD, its payment notified. */
async function paidOrder(mchOrderNo: string): Promise<string> {
  const order = await client.unifiedOrder({ mchOrderNo, wayCode: 'QR_CASHIER', amount: 1000, currency: 'USD', subject: 'Shoes', body: 'Shoes', notifyUrl });
  gateway.payOrder(order.payOrderId);
  await gateway.deliverNotifications();
  return order.payOrderId;
}

const refundOf = (payOrderId: string, mchRefundNo: string, refundAmount: number) => ({ payOrderId, mchRefundNo, refundAmount, currency: 'USD', refundReason: 'Returned', notifyUrl });

describe('docs/guides/refunds.md', () => {
  it('a partial refund leaves the order 2 (its query does not show the refunded sum); the rest makes it 5; then the order is not refundable', async () => {
    const payOrderId = await paidOrder('order-partial');
    expect(await client.refundOrder(refundOf(payOrderId, 'refund-p-1', 400))).toMatchObject({ state: Refunds.State.Succeeded, payAmount: 1000, refundAmount: 400 });
    const partly = await client.query({ payOrderId });
    expect(partly.state).toBe(PayOrderState.Succeeded);
    expect(Object.keys(partly).filter((field) => /refund/i.test(field))).toEqual([]);
    await client.refundOrder(refundOf(payOrderId, 'refund-p-2', 600));
    expect((await client.query({ payOrderId })).state).toBe(PayOrderState.Refunded);
    await expect(client.refundOrder(refundOf(payOrderId, 'refund-p-3', 1))).rejects.toMatchObject({ reason: 'order_not_refundable' });
    await gateway.deliverNotifications();
    expect(refunded).toEqual(expect.arrayContaining(['refund-p-1', 'refund-p-2']));
    expect(paid.filter((mchOrderNo) => mchOrderNo === 'order-partial')).toEqual(['order-partial']); // a refund's state 2 is never a payment
  });

  it('a refund larger than what is left is refused (refund_exceeds_refundable); a second use of mchRefundNo resolves to the refund made (replayed)', async () => {
    const payOrderId = await paidOrder('order-refusals');
    await expect(client.refundOrder(refundOf(payOrderId, 'refund-r-1', 1001))).rejects.toMatchObject({ reason: 'refund_exceeds_refundable' });
    const made = await client.refundOrder(refundOf(payOrderId, 'refund-r-2', 100));
    const again = await client.withResponse('refundOrder', refundOf(payOrderId, 'refund-r-2', 100));
    expect(again).toMatchObject({ replayed: true, data: { refundOrderId: made.refundOrderId } });
    expect(gateway.state().refunds.filter((refund) => refund.mchRefundNo === 'refund-r-2')).toHaveLength(1);
  });

  it('a held refund refuses another of the same order (refund_in_progress) until it ends; a failed one runs onRefundFailed', async () => {
    const payOrderId = await paidOrder('order-held');
    gateway.setRefundMode('hold');
    await client.refundOrder(refundOf(payOrderId, 'refund-h-1', 100));
    await expect(client.refundOrder(refundOf(payOrderId, 'refund-h-2', 100))).rejects.toMatchObject({ reason: 'refund_in_progress' });
    gateway.settleRefund('refund-h-1', { to: 'fail', errCode: 'NOT_ENOUGH_BALANCE' });
    await gateway.deliverNotifications();
    expect(failed).toContain('refund-h-1');
    expect((await client.refundQuery({ mchRefundNo: 'refund-h-1' })).state).toBe(Refunds.State.Failed);
  });

  it('testing a refund that waits, as the guide shows', async () => {
    const payOrderId = await paidOrder('order-1001');
    // #region readme
    gateway.setRefundMode('hold');               // refunds wait in state 1, as a real channel's usually do
    const refund = await client.refundOrder({
      payOrderId, mchRefundNo: 'refund-1001', refundAmount: 400, currency: 'USD', refundReason: 'Returned', notifyUrl,
    });
    expect(refund.state).toBe(Refunds.State.Refunding);

    gateway.settleRefund('refund-1001', { to: 'succeed' }); // or 'fail' (3, notified), 'close' (4, not notified)
    await gateway.deliverNotifications();        // the refund notification, to the processor with onRefunded
    expect(refunded).toContain('refund-1001');
    expect((await client.refundQuery({ mchRefundNo: 'refund-1001' })).state).toBe(Refunds.State.Succeeded);
    // #endregion readme
  });
});
