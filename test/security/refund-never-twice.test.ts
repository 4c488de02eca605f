// Refunds are money too (issue 31): a refund whose answer is lost, refused or substituted is never made twice.
// Each test attacks the public client against the mock gateway (the reference's refund rules) and counts the
// refunds the gateway holds afterwards.
import { describe, expect, it } from 'vitest';
import {
  GatewayApiError,
  GatewayClient,
  GatewayOutcomeUnknownError,
  GatewayReconciliationMismatchError,
  GatewayResponseMismatchError,
  PayOrderState,
  type GatewayHooks,
  Refunds,
} from '../../src/index.js';
import { createMockGateway, type MockGateway } from '../../src/testing/index.js';
import { signedEnvelope } from '../support/wire.js';

const MERCHANT = { mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9', secret: 'jeepay-test-secret-0123456789' };

async function paidOrder(mchOrderNo = 'order-1', amount = 1000) {
  const gateway = createMockGateway({ merchants: [MERCHANT] });
  const sent: GatewayHooks.RequestEvent[] = [];
  const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch, retry: { initialDelayMs: 1, maxDelayMs: 2 }, hooks: { onRequest: (e) => sent.push(e) } });
  const order = await client.unifiedOrder({ mchOrderNo, wayCode: 'QR_CASHIER', amount, currency: 'USD', subject: 'Shirt', body: 'Blue shirt' });
  gateway.payOrder(order.payOrderId);
  return { gateway, client, payOrderId: order.payOrderId, sent };
}

const refundsOf = (gateway: MockGateway, payOrderId: string) => gateway.refunds().filter((r) => r.payOrderId === payOrderId);
const refund = (payOrderId: string, mchRefundNo: string, refundAmount = 400) => ({ payOrderId, mchRefundNo, refundAmount, currency: 'USD', refundReason: 'Returned: wrong size' });

describe('a refund whose answer is lost is made once', () => {
  it.each([
    ['the connection reset after the gateway refunded', { kind: 'connectionReset', when: 'after' }],
    ['a proxy 502 after the gateway refunded', { kind: 'html502', when: 'after' }],
    ['a cut answer after the gateway refunded', { kind: 'truncatedJson', when: 'after' }],
    ['an answer signed with another secret', { kind: 'wrongSign', when: 'after' }],
  ] as const)('%s: looked up by mchRefundNo, resolves to the one refund, never re-sent', async (_what, fault) => {
    const { gateway, client, payOrderId, sent } = await paidOrder();
    gateway.injectFault({ ...fault, operation: 'refundOrder' });
    const { data, reconciled } = await client.withResponse('refundOrder', refund(payOrderId, 'refund-1'));
    expect(reconciled).toBe(true);
    expect(data).toMatchObject({ mchRefundNo: 'refund-1', refundAmount: 400, state: Refunds.State.Succeeded });
    expect(refundsOf(gateway, payOrderId)).toHaveLength(1);
    expect(sent.filter((e) => e.operation === 'refundOrder')).toHaveLength(1);
    expect(sent.filter((e) => e.operation === 'refundQuery').map((e) => e.purpose)).toEqual(['reconcile']);
  });

  it('a 502 before the gateway saw it: the lookup proves it absent, then it is sent again with the same mchRefundNo, once', async () => {
    const { gateway, client, payOrderId, sent } = await paidOrder();
    gateway.injectFault({ kind: 'html502', operation: 'refundOrder', when: 'before' });
    const result = await client.refundOrder(refund(payOrderId, 'refund-2'));
    expect(result.state).toBe(Refunds.State.Succeeded);
    const creates = sent.filter((e) => e.operation === 'refundOrder');
    expect(creates).toHaveLength(2);
    expect(creates.map((e) => e.body.mchRefundNo)).toEqual(['refund-2', 'refund-2']);
    expect(refundsOf(gateway, payOrderId)).toHaveLength(1);
  });

  it('a refund asked by mchOrderNo alone whose answer is lost resolves only after a signed query of the order gives its payOrderId', async () => {
    const { gateway, client, payOrderId, sent } = await paidOrder('order-by-number');
    gateway.injectFault({ kind: 'connectionReset', operation: 'refundOrder', when: 'after' });
    const result = await client.refundOrder({ mchOrderNo: 'order-by-number', mchRefundNo: 'refund-3', refundAmount: 400, currency: 'USD', refundReason: 'r' });
    expect(result).toMatchObject({ mchRefundNo: 'refund-3', refundAmount: 400, state: Refunds.State.Succeeded });
    expect(sent.filter((e) => e.purpose === 'reconcile').map((e) => e.operation)).toEqual(['refundQuery', 'query']);
    expect(refundsOf(gateway, payOrderId)).toHaveLength(1);
  });

  it("by mchOrderNo, a lost answer whose lookup finds another order's refund under the number is a mismatch (the order's query names the order)", async () => {
    const { gateway, client, payOrderId } = await paidOrder('order-a1');
    const other = await client.unifiedOrder({ mchOrderNo: 'order-b1', wayCode: 'QR_CASHIER', amount: 1000, currency: 'USD', subject: 's', body: 'b' });
    gateway.payOrder(other.payOrderId);
    await client.refundOrder(refund(payOrderId, 'refund-9'));
    gateway.injectFault({ kind: 'connectionReset', operation: 'refundOrder', when: 'after' });
    const error = await client.refundOrder({ mchOrderNo: 'order-b1', mchRefundNo: 'refund-9', refundAmount: 400, currency: 'USD', refundReason: 'r' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayReconciliationMismatchError);
    expect((error as GatewayReconciliationMismatchError).differences).toEqual([{ field: 'payOrderId', expected: other.payOrderId, found: payOrderId }]);
    expect(refundsOf(gateway, other.payOrderId)).toHaveLength(0);
  });
});

describe('a refund under a mchRefundNo used before is never another refund', () => {
  it('an identical second refundOrder resolves to the refund made (replayed); another amount under the number is a key conflict; neither refunds anything', async () => {
    const { gateway, client, payOrderId } = await paidOrder();
    const first = await client.refundOrder(refund(payOrderId, 'refund-4', 300));
    const again = await client.withResponse('refundOrder', refund(payOrderId, 'refund-4', 300));
    expect(again).toMatchObject({ replayed: true, reconciled: true, data: { refundOrderId: first.refundOrderId, refundAmount: 300 } });
    const error = await client.refundOrder(refund(payOrderId, 'refund-4', 500)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayReconciliationMismatchError);
    expect((error as GatewayReconciliationMismatchError).differences).toEqual([{ field: 'refundAmount', expected: 500, found: 300 }]);
    expect((error as Error).message).not.toMatch(/look it up/);
    expect(((error as Error).cause as GatewayApiError).reason).toBe('duplicate_refund');
    expect(refundsOf(gateway, payOrderId)).toHaveLength(1);
    expect(gateway.order(payOrderId)?.state).toBe(PayOrderState.Succeeded); // 300 of 1000 refunded: still 2
  });

  it("a lost answer whose lookup finds another order's refund under the mchRefundNo is a mismatch, never that refund", async () => {
    const { gateway, client, payOrderId } = await paidOrder('order-a');
    const second = await client.unifiedOrder({ mchOrderNo: 'order-b', wayCode: 'QR_CASHIER', amount: 1000, currency: 'USD', subject: 's', body: 'b' });
    gateway.payOrder(second.payOrderId);
    await client.refundOrder(refund(payOrderId, 'refund-5'));
    // The same number for another order: its answer lost after the gateway refused it as a duplicate.
    gateway.injectFault({ kind: 'connectionReset', operation: 'refundOrder', when: 'after' });
    const error = await client.refundOrder(refund(second.payOrderId, 'refund-5')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayReconciliationMismatchError);
    expect((error as GatewayReconciliationMismatchError).differences.map((d) => d.field)).toEqual(['payOrderId']);
    expect(refundsOf(gateway, second.payOrderId)).toHaveLength(0);
  });

  it("another refund's genuine signed answer, replayed, is refused (bound by mchRefundNo and refundAmount)", async () => {
    const { client, payOrderId } = await paidOrder();
    const first = await client.withResponse('refundOrder', refund(payOrderId, 'refund-6', 100));
    const replaying = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, retry: { maxRetries: 0 }, fetch: async () => new Response(first.http.body, { status: 200 }) });
    const error = await replaying.refundQuery({ mchRefundNo: 'refund-7' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error); // a refundOrder answer is no refund record
    // The replay answers a refund of 200 with a refund of 100: refused, and as the real answer may be lost the
    // refund is looked up (the replayer answers that too, so nothing is taken): never resolved from the replay.
    const sameNumberOtherAmount = await replaying.refundOrder(refund(payOrderId, 'refund-6', 200)).catch((e: unknown) => e);
    expect(sameNumberOtherAmount).toBeInstanceOf(GatewayOutcomeUnknownError);
    expect((sameNumberOtherAmount as Error).cause).toBeInstanceOf(GatewayResponseMismatchError);
    expect(((sameNumberOtherAmount as Error).cause as GatewayResponseMismatchError).field).toBe('refundAmount');
  });

  it('a refund answer for another merchant application is refused', async () => {
    const body = signedEnvelope({ refundOrderId: 'R1', payOrderId: 'P1', mchNo: 'M-other', appId: MERCHANT.appId, mchRefundNo: 'refund-8', payAmount: 1000, refundAmount: 400, currency: 'USD', state: 2, createdAt: 1_700_000_000_000 }, MERCHANT.secret);
    const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, retry: { maxRetries: 0 }, fetch: async () => new Response(body, { status: 200 }) });
    const error = await client.refundQuery({ mchRefundNo: 'refund-8' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayResponseMismatchError);
    expect((error as GatewayResponseMismatchError).field).toBe('mchNo');
  });
});

describe('partial then full refund', () => {
  it('the order stays 2 until refunded in full, then 5; more than is left is refused and refunds nothing', async () => {
    const { gateway, client, payOrderId } = await paidOrder();
    const first = await client.refundOrder(refund(payOrderId, 'part-1', 400));
    expect(first).toMatchObject({ refundAmount: 400, payAmount: 1000, state: Refunds.State.Succeeded });
    expect((await client.query({ payOrderId })).state).toBe(PayOrderState.Succeeded);
    const tooMuch = await client.refundOrder(refund(payOrderId, 'part-2', 700)).catch((e: unknown) => e);
    expect((tooMuch as GatewayApiError).reason).toBe('refund_exceeds_refundable');
    await client.refundOrder(refund(payOrderId, 'part-3', 600));
    expect((await client.query({ payOrderId })).state).toBe(PayOrderState.Refunded);
    const again = await client.refundOrder(refund(payOrderId, 'part-4', 1)).catch((e: unknown) => e);
    expect((again as GatewayApiError).reason).toBe('order_not_refundable');
    expect(refundsOf(gateway, payOrderId).map((r) => r.refundAmount)).toEqual([400, 600]);
    const byId = await client.refundQuery({ refundOrderId: first.refundOrderId });
    const byNumber = await client.refundQuery({ mchRefundNo: 'part-1' });
    expect(byId).toEqual(byNumber);
    expect(byId).toMatchObject({ payOrderId, mchRefundNo: 'part-1', refundAmount: 400, currency: 'USD', state: Refunds.State.Succeeded });
  });

  it('a refund in progress (1) makes the next refund of the order wait: refused as refund_in_progress, nothing refunded', async () => {
    const { gateway, client, payOrderId } = await paidOrder();
    gateway.setRefundMode('hold');
    const held = await client.refundOrder(refund(payOrderId, 'held-1', 300));
    expect(held.state).toBe(Refunds.State.Refunding);
    const next = await client.refundOrder(refund(payOrderId, 'held-2', 300)).catch((e: unknown) => e);
    expect((next as GatewayApiError).reason).toBe('refund_in_progress');
    expect((next as Error).message).toMatch(/with the same mchRefundNo, never under a new one/);
    gateway.settleRefund('held-1', { to: 'succeed' });
    expect((await client.refundQuery({ mchRefundNo: 'held-1' })).state).toBe(Refunds.State.Succeeded);
    expect(refundsOf(gateway, payOrderId)).toHaveLength(1);
  });

  it('an unpaid order cannot be refunded; an unknown refund is refund_not_found', async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT] });
    const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch, retry: { maxRetries: 0 } });
    const order = await client.unifiedOrder({ mchOrderNo: 'unpaid', wayCode: 'QR_CASHIER', amount: 500, currency: 'USD', subject: 's', body: 'b' });
    const error = await client.refundOrder(refund(order.payOrderId, 'r-unpaid', 100)).catch((e: unknown) => e);
    expect((error as GatewayApiError).reason).toBe('order_not_refundable');
    const missing = await client.refundQuery({ mchRefundNo: 'nope' }).catch((e: unknown) => e);
    expect((missing as GatewayApiError).reason).toBe('refund_not_found');
    const noOrder = await client.refundOrder(refund('P-nope', 'r-none', 100)).catch((e: unknown) => e);
    expect((noOrder as GatewayApiError).reason).toBe('order_not_found');
  });
});
