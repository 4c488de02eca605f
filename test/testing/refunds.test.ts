// Issue 31, the mock's refunds: every refusal of the reference in its order and with its text (raw signed requests),
// the same refusals through the public client with their reasons, partial then full refund, held refunds decided
// later, the two-hour close, and lost answers that resolve to the one refund the gateway holds.
import { describe, expect, it } from 'vitest';
import {
  GatewayApiError,
  GatewayReconciliationMismatchError,
  GatewayClient,
  GatewayValidationError,
  PayOrderState,
  Refunds,
} from '../../src/index.js';
import { createMockGateway, MOCK_MESSAGES, REFUND_EXPIRY_MS, type FaultOptions, type MockGateway, type MockGatewayEvent } from '../../src/testing/index.js';
import { call, MERCHANT, OTHER_MERCHANT, orderFields, ORIGIN, refundFields, START } from '../support/raw-gateway.js';

/** A gateway with order-1 (1999 USD) paid, and order-2 created but unpaid. */
async function paidGateway(log?: (event: MockGatewayEvent) => void): Promise<MockGateway> {
  const gateway = createMockGateway({ merchants: [MERCHANT, OTHER_MERCHANT], startTime: START, clock: 'manual', log });
  await call(gateway, 'unifiedOrder', orderFields());
  await call(gateway, 'unifiedOrder', orderFields({ mchOrderNo: 'order-2' }));
  gateway.payOrder('order-1');
  return gateway;
}

const clientOf = (gateway: MockGateway) => new GatewayClient({ baseUrl: ORIGIN, ...MERCHANT, fetch: gateway.fetch });
const refundParams = (overrides: { [Name in keyof Refunds.CreateParams]?: Refunds.CreateParams[Name] | undefined } = {}): Refunds.CreateParams =>
  ({ mchOrderNo: 'order-1', mchRefundNo: 'refund-1', refundAmount: 500, currency: 'USD', refundReason: 'Returned', ...overrides }) as Refunds.CreateParams;
/** What the gateway holds of order-1's refunds: the order's state and the refunded sum. */
const refundedOf = (gateway: MockGateway) => ({
  orderState: gateway.order('order-1')?.state,
  refunded: gateway.refunds().filter((r) => r.state === Refunds.State.Succeeded).reduce((sum, r) => sum + r.refundAmount, 0),
  refunds: gateway.refunds().length,
});

describe('refundOrder refusals, raw: in the reference order, with its texts, and nothing refunded', () => {
  it('each refusal wins over the ones after it', async () => {
    const gateway = await paidGateway();
    const refused = async (fields: Record<string, string | number | undefined>) => (await call(gateway, 'refundOrder', refundFields(fields))).json;

    // Neither id (and a bad notifyUrl): the ids are checked first.
    expect(await refused({ mchOrderNo: undefined, notifyUrl: 'ftp://shop.example/notify' })).toEqual({ code: 9999, msg: MOCK_MESSAGES.missingRefundOrderIds });
    // A notifyUrl that is not http(s) (of an order that does not exist): the URL first.
    expect(await refused({ mchOrderNo: 'no-such-order', notifyUrl: 'ftp://shop.example/notify' })).toEqual({ code: 9999, msg: MOCK_MESSAGES.notifyUrlProtocol });
    // Another merchant's order is not found, as an unknown one.
    expect(await refused({ mchOrderNo: 'no-such-order' })).toEqual({ code: 9999, msg: '退款订单不存在' });
    expect((await call(gateway, 'refundOrder', refundFields(), OTHER_MERCHANT)).json).toEqual({ code: 9999, msg: '退款订单不存在' });
    // Not paid (and more than it costs): the state first.
    expect(await refused({ mchOrderNo: 'order-2', refundAmount: 5000 })).toEqual({ code: 9999, msg: '订单状态不正确， 无法完成退款' });
    // More than is left to refund.
    expect(await refused({ refundAmount: 2000 })).toEqual({ code: 9999, msg: '申请金额超出订单可退款余额，请检查退款金额' });

    // A refund in progress (and a duplicate number): in progress first.
    gateway.setRefundMode('hold');
    expect((await call(gateway, 'refundOrder', refundFields())).json.data).toMatchObject({ mchRefundNo: 'refund-1', state: Refunds.State.Refunding });
    expect(await refused({ mchRefundNo: 'refund-1', refundAmount: 100 })).toEqual({ code: 9999, msg: '支付订单具有在途退款申请，请稍后再试' });
    gateway.settleRefund('refund-1', { to: 'succeed' });
    gateway.setRefundMode('succeed');

    // A duplicate number refunds nothing: the sum, the state and the refunds stay as they were.
    const before = refundedOf(gateway);
    expect(before).toEqual({ orderState: PayOrderState.Succeeded, refunded: 500, refunds: 1 });
    expect(await refused({ mchRefundNo: 'refund-1', refundAmount: 500 })).toEqual({ code: 9999, msg: '商户退款订单号[refund-1]已存在' });
    expect(refundedOf(gateway)).toEqual(before);
    // ...even with an amount that would refund the order in full.
    expect(await refused({ mchRefundNo: 'refund-1', refundAmount: 1499 })).toEqual({ code: 9999, msg: '商户退款订单号[refund-1]已存在' });
    expect(refundedOf(gateway)).toEqual(before);

    // Refunded in full: the reference makes the order 5 in the statement that completes the refund, so the state
    // refusal (3) answers before "already fully refunded" (4), as on the reference server.
    expect((await call(gateway, 'refundOrder', refundFields({ mchRefundNo: 'refund-2', refundAmount: 1499 }))).json.data).toMatchObject({ state: Refunds.State.Succeeded });
    expect(await refused({ mchRefundNo: 'refund-3', refundAmount: 1 })).toEqual({ code: 9999, msg: '订单状态不正确， 无法完成退款' });
    expect(refundedOf(gateway)).toEqual({ orderState: PayOrderState.Refunded, refunded: 1999, refunds: 2 });

    // refundQuery of a refund the merchant does not have (another merchant's number included).
    expect((await call(gateway, 'refundQuery', { mchRefundNo: 'no-such-refund' })).json).toEqual({ code: 9999, msg: '订单不存在' });
    expect((await call(gateway, 'refundQuery', { mchRefundNo: 'refund-1' }, OTHER_MERCHANT)).json).toEqual({ code: 9999, msg: '订单不存在' });
    expect((await call(gateway, 'refundQuery', { refundOrderId: gateway.refund('refund-1')?.refundOrderId }, OTHER_MERCHANT)).json).toEqual({ code: 9999, msg: '订单不存在' });
  });
});

describe('refundOrder refusals through the public client: typed, with their reasons', () => {
  const reasonOf = async (promise: Promise<unknown>) => {
    const error = await promise.then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayApiError);
    return (error as GatewayApiError).reason;
  };

  it('names each refusal', async () => {
    const gateway = await paidGateway();
    const client = clientOf(gateway);
    expect(await reasonOf(client.refundOrder(refundParams({ mchOrderNo: 'no-such-order' })))).toBe('order_not_found');
    expect(await reasonOf(client.refundOrder(refundParams({ mchOrderNo: 'order-2' })))).toBe('order_not_refundable');
    expect(await reasonOf(client.refundOrder(refundParams({ refundAmount: 2000 })))).toBe('refund_exceeds_refundable');
    gateway.setRefundMode('hold');
    await client.refundOrder(refundParams());
    expect(await reasonOf(client.refundOrder(refundParams({ mchRefundNo: 'refund-2' })))).toBe('refund_in_progress');
    gateway.settleRefund('refund-1', { to: 'succeed' });
    gateway.setRefundMode('succeed');
    const before = refundedOf(gateway);
    // The duplicate is looked up first: another amount under the number is a key conflict, its cause the refusal.
    const conflict = await client.refundOrder(refundParams({ refundAmount: 1499 })).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(GatewayReconciliationMismatchError);
    expect(((conflict as Error).cause as GatewayApiError).reason).toBe('duplicate_refund');
    expect(refundedOf(gateway)).toEqual(before);
    await client.refundOrder(refundParams({ mchRefundNo: 'refund-2', refundAmount: 1499 }));
    expect(await reasonOf(client.refundOrder(refundParams({ mchRefundNo: 'refund-3', refundAmount: 1 })))).toBe('order_not_refundable');
    expect(await reasonOf(client.refundQuery({ mchRefundNo: 'no-such-refund' }))).toBe('refund_not_found');
    const other = await client.unifiedOrder({ mchOrderNo: 'order-3', wayCode: 'QR_CASHIER', amount: 1000, currency: 'USD', subject: 's', body: 'b' });
    gateway.payOrder(other.payOrderId);
    gateway.refuseRefunds({ order: other.payOrderId });
    expect(await reasonOf(client.refundOrder(refundParams({ mchOrderNo: 'order-3', mchRefundNo: 'refund-4', refundAmount: 1 })))).toBe('refund_unsupported');
  });

  it('neither id, or a notifyUrl that is not http(s): refused before sending, nothing reaches the gateway', async () => {
    const gateway = await paidGateway();
    const client = clientOf(gateway);
    const sent = gateway.requests.length;
    await expect(client.refundOrder(refundParams({ mchOrderNo: undefined }))).rejects.toBeInstanceOf(GatewayValidationError);
    await expect(client.refundOrder(refundParams({ notifyUrl: 'ftp://shop.example/notify' }))).rejects.toBeInstanceOf(GatewayValidationError);
    expect(gateway.requests.length).toBe(sent);
    expect(gateway.refunds()).toEqual([]);
  });
});

describe('refunds through the public client', () => {
  it('partial then full: found by mchRefundNo and by refundOrderId; the order reads 2, then 5', async () => {
    const gateway = await paidGateway();
    const client = clientOf(gateway);
    const partial = await client.refundOrder(refundParams({ refundAmount: 500 }));
    expect(partial).toMatchObject({ mchRefundNo: 'refund-1', refundAmount: 500, payAmount: 1999, state: Refunds.State.Succeeded });
    const byNumber = await client.refundQuery({ mchRefundNo: 'refund-1' });
    const byId = await client.refundQuery({ refundOrderId: partial.refundOrderId });
    expect(byId).toEqual(byNumber);
    expect(byId).toMatchObject({ refundOrderId: partial.refundOrderId, payOrderId: gateway.order('order-1')?.payOrderId, refundAmount: 500, currency: 'USD', state: Refunds.State.Succeeded });
    expect((await client.query({ mchOrderNo: 'order-1' })).state).toBe(PayOrderState.Succeeded);

    const rest = await client.refundOrder(refundParams({ payOrderId: gateway.order('order-1')?.payOrderId, mchOrderNo: undefined, mchRefundNo: 'refund-2', refundAmount: 1499 }));
    expect(rest).toMatchObject({ mchRefundNo: 'refund-2', refundAmount: 1499, state: Refunds.State.Succeeded });
    expect((await client.refundQuery({ refundOrderId: rest.refundOrderId })).mchRefundNo).toBe('refund-2');
    expect((await client.query({ mchOrderNo: 'order-1' })).state).toBe(PayOrderState.Refunded);
  });

  it.each([
    ['succeed', { to: 'succeed' }, { state: Refunds.State.Succeeded, orderState: PayOrderState.Refunded }],
    ['fail', { to: 'fail', errCode: 'NOT_ENOUGH_BALANCE', errMsg: 'balance too low' }, { state: Refunds.State.Failed, errCode: 'NOT_ENOUGH_BALANCE', errMsg: 'balance too low', orderState: PayOrderState.Succeeded }],
    ['close', { to: 'close' }, { state: Refunds.State.Closed, orderState: PayOrderState.Succeeded }],
  ] as const)('held in 1, then %s: the query reads the decision', async (_name, decision, expected) => {
    const gateway = await paidGateway();
    const client = clientOf(gateway);
    gateway.setRefundMode('hold');
    const held = await client.refundOrder(refundParams({ refundAmount: 1999 }));
    expect(held.state).toBe(Refunds.State.Refunding);
    expect((await client.refundQuery({ mchRefundNo: 'refund-1' })).state).toBe(Refunds.State.Refunding);
    gateway.settleRefund(held.refundOrderId, decision);
    const { orderState, ...refund } = expected;
    expect(await client.refundQuery({ refundOrderId: held.refundOrderId })).toMatchObject(refund);
    expect((await client.query({ mchOrderNo: 'order-1' })).state).toBe(orderState);
    expect(() => gateway.settleRefund(held.refundOrderId, { to: 'succeed' })).toThrow(/only refunds in state 0 or 1 can change/);
    // Only a succeeded refund is notified; a closed one is not.
    expect(gateway.notifications.filter((n) => n.kind === 'refund')).toEqual([]); // no notifyUrl given
  });

  it('fail mode: refunds fail at once (3) and refund nothing', async () => {
    const gateway = await paidGateway();
    gateway.setRefundMode('fail');
    expect(await clientOf(gateway).refundOrder(refundParams())).toMatchObject({ state: Refunds.State.Failed, errCode: 'MOCK_REFUND_FAILED' });
    expect(refundedOf(gateway)).toEqual({ orderState: PayOrderState.Succeeded, refunded: 0, refunds: 1 });
    expect(() => gateway.setRefundMode('later' as never)).toThrow(GatewayValidationError);
  });

  it('a refund still open two hours after its creation closes (4), without a notification; the order can be refunded again', async () => {
    const gateway = await paidGateway();
    const client = clientOf(gateway);
    gateway.setRefundMode('hold');
    const held = await client.refundOrder(refundParams({ notifyUrl: 'http://127.0.0.1:9/refund/notify' }));
    gateway.advanceTime(REFUND_EXPIRY_MS - 1);
    expect((await client.refundQuery({ refundOrderId: held.refundOrderId })).state).toBe(Refunds.State.Refunding);
    gateway.advanceTime(1);
    expect((await client.refundQuery({ refundOrderId: held.refundOrderId })).state).toBe(Refunds.State.Closed);
    expect(gateway.notifications).toHaveLength(0);
    gateway.setRefundMode('succeed');
    expect((await client.refundOrder(refundParams({ mchRefundNo: 'refund-2' }))).state).toBe(Refunds.State.Succeeded);
  });
});

describe('a lost refundOrder answer (sent by payOrderId) resolves to the one refund the gateway holds', () => {
  it.each<[string, FaultOptions]>([
    ['connection reset after the refund', { kind: 'connectionReset', operation: 'refundOrder', when: 'after' }],
    ['connection reset before the gateway saw it', { kind: 'connectionReset', operation: 'refundOrder', when: 'before' }],
    ['HTML 502 after the refund', { kind: 'html502', operation: 'refundOrder', when: 'after' }],
    ['HTML 502 before the gateway saw it', { kind: 'html502', operation: 'refundOrder', when: 'before' }],
    ['a wrong sign on the answer', { kind: 'wrongSign', operation: 'refundOrder' }],
    ['a truncated answer', { kind: 'truncatedJson', operation: 'refundOrder' }],
    ['an answer that never comes (stall after the refund)', { kind: 'stall', operation: 'refundOrder', when: 'after' }],
    ['a request the gateway never answers nor sees (stall before)', { kind: 'stall', operation: 'refundOrder', when: 'before' }],
  ])('%s', async (_name, fault) => {
    const gateway = await paidGateway();
    gateway.injectFault(fault);
    // A short timeout: a stalled request is given up on, then looked up.
    const client = new GatewayClient({ baseUrl: ORIGIN, ...MERCHANT, fetch: gateway.fetch, timeout: 200 });
    const refund = await client.refundOrder(refundParams({ payOrderId: gateway.order('order-1')?.payOrderId, mchOrderNo: undefined, refundAmount: 700 }));
    const held = gateway.refunds();
    expect(held).toHaveLength(1);
    expect(refund).toMatchObject({ refundOrderId: held[0]?.refundOrderId, mchRefundNo: 'refund-1', refundAmount: 700, state: Refunds.State.Succeeded });
    expect(refundedOf(gateway)).toEqual({ orderState: PayOrderState.Succeeded, refunded: 700, refunds: 1 });
  });
});

describe('a stalled refundOrder over a real loopback server', () => {
  it.each(['before', 'after'] as const)('stall %s: the client gives up, the server lets go, and the one refund is found', async (when) => {
    const answered: string[] = [];
    const gateway = await paidGateway((event) => answered.push(event.line));
    const server = await gateway.listen({ port: 0 });
    try {
      gateway.injectFault({ kind: 'stall', operation: 'refundOrder', when });
      const client = new GatewayClient({ baseUrl: server.url, ...MERCHANT, timeout: 300 });
      const refund = await client.refundOrder(refundParams({ payOrderId: gateway.order('order-1')?.payOrderId, mchOrderNo: undefined }));
      expect(gateway.refunds().map((r) => r.refundOrderId)).toEqual([refund.refundOrderId]);
      expect(gateway.requests.map((r) => [r.operation, r.fault])).toEqual([
        ['unifiedOrder', undefined], ['unifiedOrder', undefined], ['refundOrder', 'stall'], ['refundQuery', undefined],
        ...(when === 'before' ? [['refundOrder', undefined]] : []),
      ]);
      // The stalled request was let go when the client hung up, well before the mock's own bound (a minute).
      expect(answered.filter((line) => /refundOrder .*stall/.test(line))).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe('a lost refundOrder answer sent by mchOrderNo alone', () => {
  it("resolves to the refund found once a signed query of the order gives its payOrderId, and refunds nothing twice", async () => {
    const gateway = await paidGateway();
    gateway.injectFault({ kind: 'connectionReset', operation: 'refundOrder', when: 'after' });
    const client = clientOf(gateway);
    await expect(client.refundOrder(refundParams({ refundAmount: 700 }))).resolves.toMatchObject({ mchRefundNo: 'refund-1', refundAmount: 700, state: Refunds.State.Succeeded });
    expect(refundedOf(gateway)).toEqual({ orderState: PayOrderState.Succeeded, refunded: 700, refunds: 1 });
  });
});
