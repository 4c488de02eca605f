// The paths a create takes when its answer is not its outcome: refused after its record is stored (refusedAfterStore),
// or an unsigned 408/429 before or after the gateway acted. Raw signed requests: the client's own rules are not tested here.
import { describe, expect, it } from 'vitest';
import { definitionOf, type OperationName } from '../../src/operations/table.js';
import { CREATE_OPERATIONS } from '../../src/testing/domain/faults.js';
import { createMockGateway, MockAddressStatus, MockSettlementStatus, type MockGateway } from '../../src/testing/index.js';
import { call, common, MERCHANT, orderFields, PATHS, refundFields, signed, START } from '../support/raw-gateway.js';

const ADDRESS = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
type Fields = Record<string, string | number>;

const newGateway = () => createMockGateway({ merchants: [MERCHANT], startTime: START });
const paidOrder = async (gateway: MockGateway) => {
  await call(gateway, 'unifiedOrder', orderFields());
  gateway.payOrder('order-1');
};

/** Each create: what it needs first, its fields, and its stored record as the mock shows it. */
const CREATES: Readonly<Record<string, { prepare?: (g: MockGateway) => Promise<void>; fields: Fields; stored: (g: MockGateway) => { state?: number; status?: number } | undefined }>> = {
  unifiedOrder: { fields: orderFields({ notifyUrl: 'http://127.0.0.1:9/notify' }) as Fields, stored: (g) => g.order('order-1') },
  settleAddressApply: { fields: { requestId: 'addr-1', tokenId: 'TRON_USDT', address: ADDRESS }, stored: (g) => g.address('addr-1') },
  settleRequest: { fields: { requestId: 'settle-1', amount: 150000, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: ADDRESS }, stored: (g) => g.settlement('settle-1') },
  refundOrder: { prepare: paidOrder, fields: refundFields() as Fields, stored: (g) => g.refund('refund-1') },
  transferOrder: { fields: { mchOrderNo: 'payout-1', ifCode: 'wxpay', entryType: 'WX_CASH', amount: 1500, currency: 'CNY', accountNo: 'o8xYz0123456789', transferDesc: 'payout' }, stored: (g) => g.record('transfer', 'payout-1') },
  // The channel bound the account and it is stored (state 1): only the merchant portal tells.
  bindDivisionReceiver: {
    prepare: async (g) => void g.createDivisionGroup(),
    fields: { ifCode: 'wxpay', receiverGroupId: 100001, accType: 0, accNo: 'o8xYz0123456789', relationType: 'PARTNER', divisionProfit: '0.1' },
    stored: (g) => g.divisionReceivers()[0],
  },
  // The order is left dividing (divisionState 2) for good, its records waiting: every exec after is refused.
  executeDivision: {
    prepare: async (g) => {
      await call(g, 'unifiedOrder', orderFields({ divisionMode: 2 }));
      g.payOrder('order-1');
    },
    fields: { mchOrderNo: 'order-1', useSysAutoDivisionReceivers: 0, receivers: '[]' },
    stored: (g) => {
      const order = g.order('order-1');
      return order && { state: order.divisionState };
    },
  },
};
const INITIAL: Readonly<Record<string, { state?: number; status?: number }>> = {
  unifiedOrder: { state: 0 },
  settleAddressApply: { status: MockAddressStatus.UnderReview },
  settleRequest: { status: MockSettlementStatus.Pending },
  refundOrder: { state: 0 },
  transferOrder: { state: 0 },
  bindDivisionReceiver: { state: 1 },
  executeDivision: { state: 2 },
};

describe('refusedAfterStore', () => {
  it('has a case here for every create row of the operation table', () => {
    expect(Object.keys(CREATES).sort()).toEqual([...CREATE_OPERATIONS].sort());
  });

  it.each(CREATE_OPERATIONS)('%s: the record is stored and left as stored, the answer is the unsigned refusal, and the key finds the record', async (operation) => {
    const gateway = newGateway();
    const create = CREATES[operation]!;
    await create.prepare?.(gateway);
    const fault = gateway.injectFault({ kind: 'refusedAfterStore', operation });
    const answer = await call(gateway, operation as keyof typeof PATHS, create.fields);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ code: 9999, msg: '系统异常' }); // no data, no sign: as the reference's customFail
    expect(fault.hits).toBe(1);
    expect(create.stored(gateway)).toMatchObject(INITIAL[operation]!);
    const { key, reconcile } = definitionOf(operation);
    // Where the row looks a lost create up, the lookup finds the record under the create's key.
    if (reconcile && key) {
      const found = await call(gateway, reconcile.lookup as OperationName as keyof typeof PATHS, { [key]: create.fields[key]! });
      expect(found.json).toMatchObject({ code: 200, data: { [key]: create.fields[key] } });
    }
    const logged = gateway.requests.find((r) => r.operation === operation && r.fault === 'refusedAfterStore');
    expect(logged?.outcome).toMatch(/^stored \(SUCCESS.*\), then answered 9999 系统异常 \(system_error\) by the fault refusedAfterStore$/);
  });

  it('a payment order stays 0 (no channel asked, no decline applied); paid later by the control, its notification goes out', async () => {
    const sent: string[] = [];
    const gateway = createMockGateway({ merchants: [MERCHANT], startTime: START, notifyFetch: async (_url, init) => (sent.push(String(init?.body)), new Response('SUCCESS')) });
    gateway.declineNextPayment();
    gateway.injectFault({ kind: 'refusedAfterStore', operation: 'unifiedOrder' });
    await call(gateway, 'unifiedOrder', orderFields({ wayCode: 'ALI_BAR', channelExtra: '{"authCode":"28763443825664394"}', notifyUrl: 'http://127.0.0.1:9/n' }));
    expect(gateway.order('order-1')?.state).toBe(0);
    expect(gateway.order('order-1')?.errCode).toBeUndefined();
    gateway.payOrder('order-1');
    expect((await gateway.deliverNotifications()).map((a) => a.delivered)).toEqual([true]);
    expect(new URLSearchParams(sent[0]).get('state')).toBe('2');
    // The decline still waits for the next order: the interrupted one never reached the channel.
    expect((await call(gateway, 'unifiedOrder', orderFields({ mchOrderNo: 'order-2' }))).json.data).toMatchObject({ orderState: 3 });
  });

  it.each([
    ['系统异常', 'created', 0, '商户退款订单号[refund-1]已存在'],
    ['Read timed out', 'created', 0, '商户退款订单号[refund-1]已存在'], // a channel's system error: the reference answers the channel's own text
    ['更新退款单异常!', 'processing', 1, '支付订单具有在途退款申请，请稍后再试'], // the reference moved it to 1, then its next update failed
  ] as const)('a refund refused with %j is left %s (state %i); settled later, it is notified', async (msg, leaves, state, resent) => {
    const sent: string[] = [];
    const gateway = createMockGateway({ merchants: [MERCHANT], startTime: START, notifyFetch: async (_url, init) => (sent.push(String(init?.body)), new Response('SUCCESS')) });
    await paidOrder(gateway);
    gateway.injectFault({ kind: 'refusedAfterStore', operation: 'refundOrder', msg, leaves });
    const answer = await call(gateway, 'refundOrder', refundFields({ notifyUrl: 'http://127.0.0.1:9/refunds' }));
    expect(JSON.parse(answer.text)).toEqual({ code: 9999, msg });
    expect(gateway.refund('refund-1')?.state).toBe(state);
    expect(await gateway.deliverNotifications()).toEqual([]); // nothing decided yet
    // A blind resend is refused: the refund exists (duplicate), or is in progress (step 6 comes before 8).
    expect((await call(gateway, 'refundOrder', refundFields())).json.msg).toBe(resent);
    gateway.settleRefund('refund-1', { to: 'succeed' });
    await gateway.deliverNotifications();
    expect(Object.fromEntries(new URLSearchParams(sent[0]))).toMatchObject({ mchRefundNo: 'refund-1', state: '2' });
  });

  it('answers the code asked (10, a system error), and a refusal the operation makes itself wins: nothing is stored', async () => {
    const gateway = newGateway();
    gateway.injectFault({ kind: 'refusedAfterStore', operation: 'unifiedOrder', code: 10, msg: '系统异常[NullPointerException]' });
    expect(JSON.parse((await call(gateway, 'unifiedOrder', orderFields())).text)).toEqual({ code: 10, msg: '系统异常[NullPointerException]' });
    gateway.injectFault({ kind: 'refusedAfterStore', operation: 'unifiedOrder' });
    expect((await call(gateway, 'unifiedOrder', orderFields())).json).toEqual({ code: 9999, msg: '商户订单[order-1]已存在' });
    expect(gateway.orders()).toHaveLength(1);
  });

  it('armed over loopback through POST /_mock/faults, as a suite in another language would', async () => {
    const gateway = newGateway();
    const server = await gateway.listen();
    try {
      const armed = await fetch(`${server.url}/_mock/faults`, { method: 'POST', body: JSON.stringify({ kind: 'refusedAfterStore', operation: 'unifiedOrder', msg: '系统异常', leaves: 'processing' }) });
      expect(await armed.json()).toEqual({ kind: 'refusedAfterStore', operation: 'unifiedOrder', when: 'after', hits: 0, remaining: 1, msg: '系统异常', leaves: 'processing' });
      const bad = await fetch(`${server.url}/_mock/faults`, { method: 'POST', body: JSON.stringify({ kind: 'refusedAfterStore', operation: 'close' }) });
      expect([bad.status, (await bad.json()).error]).toEqual([400, expect.stringMatching(/refusedAfterStore refuses a create whose record is stored/)]);
      const body = JSON.stringify(signed({ ...common(), ...orderFields() }));
      const answer = await fetch(`${server.url}${PATHS.unifiedOrder}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(await answer.json()).toEqual({ code: 9999, msg: '系统异常' });
      expect(gateway.order('order-1')?.state).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('refuses options that cannot be produced', () => {
    const gateway = newGateway();
    expect(() => gateway.injectFault({ kind: 'refusedAfterStore' })).toThrow(/give operation: one of 'unifiedOrder', 'settleAddressApply', 'settleRequest', 'refundOrder'/);
    expect(() => gateway.injectFault({ kind: 'refusedAfterStore', operation: 'query' })).toThrow(/refusedAfterStore refuses a create/);
    expect(() => gateway.injectFault({ kind: 'refusedAfterStore', operation: 'refundOrder', when: 'before' })).toThrow(/cannot strike 'before'/);
    expect(() => gateway.injectFault({ kind: 'refusedAfterStore', operation: 'refundOrder', code: 200 })).toThrow(/must not be a success code/);
    expect(() => gateway.injectFault({ kind: 'html502', msg: 'x' })).toThrow(/options of refusedAfterStore, not of html502/);
    expect(() => gateway.injectFault({ kind: 'refusedAfterStore', operation: 'refundOrder', leaves: 'later' as 'created' })).toThrow(/'created' or 'processing'/);
  });
});

describe('status408 and status429', () => {
  const orderBody = () => JSON.stringify(signed({ ...common(), ...orderFields() }));

  it.each([
    ['status408', 408],
    ['status429', 429],
  ] as const)('%s before: not processed; after: processed, then the bare status (over loopback too)', async (kind, status) => {
    const gateway = newGateway();
    const server = await gateway.listen();
    try {
      for (const [when, stored] of [['before', false], ['after', true]] as const) {
        gateway.injectFault({ kind, operation: 'unifiedOrder', when });
        const response = await fetch(`${server.url}${PATHS.unifiedOrder}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: orderBody() });
        const text = await response.text();
        expect(response.status).toBe(status);
        expect(text).not.toMatch(/"sign"|"code"/); // nothing the client could verify
        expect(response.headers.get('retry-after')).toBe(kind === 'status429' ? '1' : null);
        expect(gateway.order('order-1') !== undefined).toBe(stored);
      }
    } finally {
      await server.close();
    }
  });
});
