// A signed answer that breaks the schema is a contract error, loud, never a lost answer repaired in secret
// (issue 30): a create answered so is looked up once (the caller learns the record), never re-sent and never
// resolved as recovered; a read is not repeated (the same answer would come again).
import { describe, expect, it } from 'vitest';
import { GatewayClient, GatewayResponseContractError, GatewayResponseValidationError, type GatewayHooks } from '../../src/index.js';
import { CREDENTIALS, signedEnvelope, useWire } from '../support/wire.js';

type RequestEvent = GatewayHooks.RequestEvent;

const wire = useWire();
const ORDER = { mchOrderNo: 'order-1001', wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: 'T-shirt', body: 'Blue T-shirt' } as const;
const PAY_ORDER = {
  payOrderId: 'P1001', mchNo: CREDENTIALS.mchNo, appId: CREDENTIALS.appId, mchOrderNo: 'order-1001', ifCode: 'coinpay', wayCode: 'QR_CASHIER',
  amount: 1999, currency: 'USD', state: 0, subject: 'T-shirt', body: 'Blue T-shirt', createdAt: 1_700_000_000_000,
};

function client(options: { verifyResponses?: boolean } = {}) {
  const sent: RequestEvent[] = [];
  const gateway = new GatewayClient({ ...CREDENTIALS, ...options, retry: { initialDelayMs: 1, maxDelayMs: 2 }, hooks: { onRequest: (event) => sent.push(event) } });
  return { gateway, sent };
}

const rejection = <T>(promise: Promise<T>) => promise.then(() => { throw new Error('resolved: a broken answer was repaired'); }, (error: unknown) => error as GatewayResponseContractError);

describe('a create answered success with data that breaks the schema', () => {
  it('rejects naming the field, after exactly one lookup, with the record found attached; never recovered', async () => {
    // payOrderId as a number: signed correctly, but not the documented shape.
    wire.replyWith((path) => (path.endsWith('/unifiedOrder') ? signedEnvelope({ payOrderId: 1001, mchOrderNo: 'order-1001', orderState: 0 }) : signedEnvelope(PAY_ORDER)));
    const { gateway, sent } = client();
    const error = await rejection(gateway.unifiedOrder(ORDER));
    expect(error).toBeInstanceOf(GatewayResponseContractError);
    expect(error).toBeInstanceOf(GatewayResponseValidationError); // existing handlers of untrusted shapes still catch it
    expect(error.operation).toBe('unifiedOrder');
    expect(error.signatureVerified).toBe(true);
    expect(error.issues.map((issue) => issue.path.join('.'))).toContain('payOrderId');
    expect(error.message).toMatch(/payOrderId/);
    expect(error.message).toMatch(/Do not send it again under a new mchOrderNo/);
    expect(error.lookup).toMatchObject({ outcome: 'found', record: { payOrderId: 'P1001', mchOrderNo: 'order-1001' } });
    expect(sent.map((event) => `${event.operation}:${event.purpose}`)).toEqual(['unifiedOrder:request', 'query:reconcile']);
  });

  it("a lookup that finds another order under the key (a reused mchOrderNo) is not shown as this create's record", async () => {
    wire.replyWith((path) => (path.endsWith('/unifiedOrder') ? signedEnvelope({ payOrderId: 1001, mchOrderNo: 'order-1001', orderState: 0 }) : signedEnvelope({ ...PAY_ORDER, amount: 5 })));
    const { gateway, sent } = client();
    const error = await rejection(gateway.unifiedOrder(ORDER));
    expect(error).toBeInstanceOf(GatewayResponseContractError);
    expect(error.lookup?.outcome).toBe('unknown');
    expect(sent.map((event) => event.operation)).toEqual(['unifiedOrder', 'query']);
  });

  it('a lookup that finds nothing is reported, and the create is still not sent again', async () => {
    wire.replyWith((path) =>
      path.endsWith('/unifiedOrder') ? signedEnvelope({ payOrderId: 'P1', mchOrderNo: 'order-1001', orderState: 9 }) : JSON.stringify({ code: 9999, msg: '订单不存在' }),
    );
    const { gateway, sent } = client();
    const error = await rejection(gateway.unifiedOrder(ORDER));
    expect(error).toBeInstanceOf(GatewayResponseContractError);
    expect(error.issues.map((issue) => issue.path.join('.'))).toContain('orderState');
    expect(error.lookup).toEqual({ outcome: 'absent' });
    expect(sent.filter((event) => event.operation === 'unifiedOrder')).toHaveLength(1);
  });

  it('refundOrder: a refundAmount as text rejects naming it, after one refundQuery; never resolves', async () => {
    const record = { refundOrderId: 'R1', payOrderId: 'P1', mchNo: CREDENTIALS.mchNo, appId: CREDENTIALS.appId, mchRefundNo: 'refund-1', payAmount: 1000, refundAmount: 400, currency: 'USD', state: 2, createdAt: 1_700_000_000_000 };
    wire.replyWith((path) => (path.endsWith('/refundOrder') ? signedEnvelope({ refundOrderId: 'R1', mchRefundNo: 'refund-1', payAmount: 1000, refundAmount: '400', state: 2 }) : signedEnvelope(record)));
    const { gateway, sent } = client();
    const error = await rejection(gateway.refundOrder({ payOrderId: 'P1', mchRefundNo: 'refund-1', refundAmount: 400, currency: 'USD', refundReason: 'r' }));
    expect(error).toBeInstanceOf(GatewayResponseContractError);
    expect(error.issues.map((issue) => issue.path.join('.'))).toContain('refundAmount');
    expect(error.message).toMatch(/Do not send it again under a new mchRefundNo/);
    expect(error.lookup).toMatchObject({ outcome: 'found', record: { refundOrderId: 'R1' } });
    expect(sent.map((event) => event.operation)).toEqual(['refundOrder', 'refundQuery']);
  });

  it('refundOrder by mchOrderNo: the one lookup cannot show the order, so the record is not shown as found; still one lookup', async () => {
    const record = { refundOrderId: 'R1', payOrderId: 'P1', mchNo: CREDENTIALS.mchNo, appId: CREDENTIALS.appId, mchRefundNo: 'refund-1', payAmount: 1000, refundAmount: 400, currency: 'USD', state: 2, createdAt: 1_700_000_000_000 };
    wire.replyWith((path) => (path.endsWith('/refundOrder') ? signedEnvelope({ refundOrderId: 'R1', mchRefundNo: 'refund-1', payAmount: 1000, refundAmount: '400', state: 2 }) : signedEnvelope(record)));
    const { gateway, sent } = client();
    const error = await rejection(gateway.refundOrder({ mchOrderNo: 'order-1001', mchRefundNo: 'refund-1', refundAmount: 400, currency: 'USD', refundReason: 'r' }));
    expect(error).toBeInstanceOf(GatewayResponseContractError);
    expect(error.lookup?.outcome).toBe('unknown');
    expect(sent.map((event) => event.operation)).toEqual(['refundOrder', 'refundQuery']);
  });

  it('a create without a lookup (settleAddressApply) rejects at once, sending it once', async () => {
    wire.replyWith(signedEnvelope({ serverRequestId: 'SRV-1', status: 'approved-ish' }));
    const { gateway, sent } = client();
    const error = await rejection(gateway.settleAddressApply({ requestId: 'addr-1', tokenId: 'TRON_USDT', address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf' }));
    expect(error).toBeInstanceOf(GatewayResponseContractError);
    expect(error.lookup).toBeUndefined();
    expect(error.message).toMatch(/no lookup/);
    expect(sent).toHaveLength(1);
  });
});

describe('a read answered success with data that breaks the schema', () => {
  it('rejects at once: one attempt, not retried as a lost answer', async () => {
    wire.replyWith(signedEnvelope({ ...PAY_ORDER, amount: '19.99' }));
    const { gateway, sent } = client();
    const error = await rejection(gateway.query({ mchOrderNo: 'order-1001' }));
    expect(error).toBeInstanceOf(GatewayResponseContractError);
    expect(error.issues[0]?.path).toEqual(['amount']);
    expect(sent).toHaveLength(1);
  });

  it('says when the signature was not checked (verifyResponses: false)', async () => {
    wire.replyWith(JSON.stringify({ code: 200, msg: 'SUCCESS', data: { ...PAY_ORDER, state: 42 } }));
    const { gateway } = client({ verifyResponses: false });
    const error = await rejection(gateway.query({ mchOrderNo: 'order-1001' }));
    expect(error).toBeInstanceOf(GatewayResponseContractError);
    expect(error.signatureVerified).toBe(false);
    expect(error.message).toMatch(/unchecked/);
  });
});
