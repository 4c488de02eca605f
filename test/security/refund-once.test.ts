// A refund whose answer is lost is never made twice (issue 31): the create is looked up by mchRefundNo and
// resolves to the refund found, is re-sent under the same mchRefundNo only when the lookup proves it absent,
// and fails closed when the record found cannot be told apart from another refund (asked by mchOrderNo alone)
// or is another refund. Attacked through the public client against the mock gateway and its faults.
import { describe, expect, it } from 'vitest';
import { GatewayClient, GatewayOutcomeUnknownError, GatewayReconciliationMismatchError, PayOrderState, RefundOrderState, type RefundOrderParams } from '../../src/index.js';
import { createMockGateway, type FaultKind, type MockGateway } from '../../src/testing/index.js';

const MERCHANT = { mchNo: 'M1700000001', appId: 'app-1', secret: 'test-secret-0123456789' };

/** A client of an in-process mock holding one paid order of 10.00 USD. */
async function paidOrder(): Promise<{ gateway: MockGateway; client: GatewayClient; payOrderId: string }> {
  const gateway = createMockGateway({ merchants: [MERCHANT] });
  const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch, retry: { initialDelayMs: 1, maxDelayMs: 2 } });
  const order = await client.unifiedOrder({ mchOrderNo: 'order-1', wayCode: 'QR_CASHIER', amount: 1000, currency: 'USD', subject: 'Shoes', body: 'Shoes' });
  gateway.payOrder(order.payOrderId);
  return { gateway, client, payOrderId: order.payOrderId };
}

const refund = (order: Pick<RefundOrderParams, 'payOrderId' | 'mchOrderNo'>, refundAmount = 400, mchRefundNo = 'refund-1'): RefundOrderParams =>
  ({ ...order, mchRefundNo, refundAmount, currency: 'USD', refundReason: 'Returned' }) as RefundOrderParams;
const refundsUnder = (gateway: MockGateway, mchRefundNo: string) => gateway.state().refunds.filter((r) => r.mchRefundNo === mchRefundNo);
const operationsSince = (gateway: MockGateway, before: number) => gateway.requests.slice(before).map((r) => r.operation);

describe('refundOrder whose answer is lost after the gateway made the refund', () => {
  it.each<FaultKind>(['connectionReset', 'html502', 'truncatedJson', 'wrongSign'])('%s: resolves to the refund found by mchRefundNo, made once, never sent again', async (kind) => {
    const { gateway, client, payOrderId } = await paidOrder();
    gateway.injectFault({ kind, operation: 'refundOrder', when: 'after' });
    const before = gateway.requests.length;
    const result = await client.refundOrder(refund({ payOrderId }));
    expect(result).toMatchObject({ mchRefundNo: 'refund-1', refundAmount: 400, state: RefundOrderState.Succeeded });
    expect(refundsUnder(gateway, 'refund-1')).toHaveLength(1);
    expect(operationsSince(gateway, before).filter((operation) => operation === 'refundOrder')).toHaveLength(1);
    expect(operationsSince(gateway, before)).toContain('refundQuery');
  });

  it('asked by mchOrderNo alone: GatewayOutcomeUnknownError keyed by mchRefundNo, made once, never sent again', async () => {
    const { gateway, client } = await paidOrder();
    gateway.injectFault({ kind: 'connectionReset', operation: 'refundOrder', when: 'after' });
    const before = gateway.requests.length;
    const error = await client.refundOrder(refund({ mchOrderNo: 'order-1' })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GatewayOutcomeUnknownError);
    expect((error as GatewayOutcomeUnknownError).key).toEqual({ name: 'mchRefundNo', value: 'refund-1' });
    expect((error as Error).message).toMatch(/Do not create a new one/);
    expect(refundsUnder(gateway, 'refund-1')).toHaveLength(1);
    expect(operationsSince(gateway, before).filter((operation) => operation === 'refundOrder')).toHaveLength(1);
  });
});

describe('refundOrder whose request never reached the gateway', () => {
  it('is re-sent once under the same mchRefundNo after the lookup proves it absent: one refund', async () => {
    const { gateway, client, payOrderId } = await paidOrder();
    gateway.injectFault({ kind: 'connectionReset', operation: 'refundOrder', when: 'before' });
    const before = gateway.requests.length;
    expect(await client.refundOrder(refund({ payOrderId }))).toMatchObject({ mchRefundNo: 'refund-1', refundAmount: 400 });
    expect(refundsUnder(gateway, 'refund-1')).toHaveLength(1);
    expect(operationsSince(gateway, before).filter((operation) => operation === 'refundQuery').length).toBeGreaterThanOrEqual(1);
  });

  it('finds another refund under its mchRefundNo (another amount): GatewayReconciliationMismatchError, nothing refunded again', async () => {
    const { gateway, client, payOrderId } = await paidOrder();
    await client.refundOrder(refund({ payOrderId }, 400));
    gateway.injectFault({ kind: 'connectionReset', operation: 'refundOrder', when: 'before' });
    const error = await client.refundOrder(refund({ payOrderId }, 300)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GatewayReconciliationMismatchError);
    expect((error as GatewayReconciliationMismatchError).differences.map((difference) => difference.field)).toContain('refundAmount');
    expect(refundsUnder(gateway, 'refund-1')).toHaveLength(1);
    expect(gateway.state().refunds.reduce((sum, r) => sum + r.refundAmount, 0)).toBe(400);
    expect((await client.query({ payOrderId })).state).toBe(PayOrderState.Succeeded);
  });
});
