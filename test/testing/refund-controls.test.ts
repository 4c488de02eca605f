// The mock's refund controls a merchant's tests reach the refund paths with: a channel that cannot refund, a mode per
// refund, the currency recorded as the reference records it, the dashboard's view of refunds, and resends by reference.
import { describe, expect, it } from 'vitest';
import { createMockGateway, MOCK_MESSAGES, type MockGateway } from '../../src/testing/index.js';
import { call, MERCHANT, ORIGIN, orderFields, refundFields, START } from '../support/raw-gateway.js';

const newGateway = () => createMockGateway({ merchants: [MERCHANT], startTime: START, notifyFetch: async () => new Response('SUCCESS') });
const control = (gateway: MockGateway, method: 'POST' | 'DELETE', path: string, body: object) =>
  gateway.fetch(`${ORIGIN}/_mock/${path}`, { method, body: JSON.stringify(body) });
async function paid(gateway: MockGateway, mchOrderNo = 'order-1', wayCode = 'QR_CASHIER') {
  await call(gateway, 'unifiedOrder', orderFields({ mchOrderNo, wayCode }));
  return gateway.payOrder(mchOrderNo);
}

describe('refuseRefunds: the channel cannot refund (refund_unsupported)', () => {
  it('by way code, channel or order; last of the refusals, as the reference checks it; allowRefunds undoes it', async () => {
    const gateway = newGateway();
    const order = await paid(gateway);
    gateway.refuseRefunds({ wayCode: 'QR_CASHIER' });
    // Earlier refusals come first: more than is left (step 5) is refused for that, not for the channel.
    expect((await call(gateway, 'refundOrder', refundFields({ refundAmount: 5000 }))).json.msg).toBe('申请金额超出订单可退款余额，请检查退款金额');
    expect((await call(gateway, 'refundOrder', refundFields())).json).toEqual({ code: 9999, msg: MOCK_MESSAGES.refundUnsupported });
    expect(gateway.requests.at(-1)).toMatchObject({ reason: 'refund_unsupported' });
    expect(gateway.refunds()).toEqual([]); // refused before anything is stored
    gateway.allowRefunds({ wayCode: 'QR_CASHIER' });
    gateway.refuseRefunds({ ifCode: order.ifCode });
    expect((await call(gateway, 'refundOrder', refundFields())).json.msg).toBe('当前通道不支持退款！');
    gateway.allowRefunds({ ifCode: order.ifCode });
    gateway.refuseRefunds({ order: order.payOrderId });
    expect((await call(gateway, 'refundOrder', refundFields())).json.msg).toBe('当前通道不支持退款！');
    await paid(gateway, 'order-2');
    expect((await call(gateway, 'refundOrder', refundFields({ mchOrderNo: 'order-2', mchRefundNo: 'refund-2' }))).json.code).toBe(200); // another order
    gateway.allowRefunds({ order: 'order-1' });
    expect((await call(gateway, 'refundOrder', refundFields())).json.data).toMatchObject({ mchRefundNo: 'refund-1', state: 2 });
    // The duplicate (step 8) comes before the channel (step 9).
    gateway.refuseRefunds({ order: 'order-1' });
    expect((await call(gateway, 'refundOrder', refundFields())).json.msg).toBe('商户退款订单号[refund-1]已存在');
  });

  it('takes exactly one scope, and an order that exists', () => {
    const gateway = newGateway();
    expect(() => gateway.refuseRefunds({})).toThrow(/give exactly one of ifCode, wayCode and order/);
    expect(() => gateway.refuseRefunds({ ifCode: 'wxpay', wayCode: 'WX_NATIVE' })).toThrow(/give exactly one/);
    expect(() => gateway.refuseRefunds({ order: 'nope' })).toThrow('refuseRefunds: no order with payOrderId or mchOrderNo "nope"');
  });

  it('through the control routes: POST and DELETE /_mock/refunds/unsupported', async () => {
    const gateway = newGateway();
    await paid(gateway);
    const set = await control(gateway, 'POST', 'refunds/unsupported', { order: 'order-1' });
    expect([set.status, await set.json()]).toEqual([200, { refundsUnsupported: { order: 'order-1' } }]);
    expect((await call(gateway, 'refundOrder', refundFields())).json.msg).toBe('当前通道不支持退款！');
    expect((await control(gateway, 'POST', 'refunds/unsupported', { ifCode: 'a', order: 'b' })).status).toBe(400);
    expect((await control(gateway, 'DELETE', 'refunds/unsupported', { order: 'order-1' })).status).toBe(200);
    expect((await call(gateway, 'refundOrder', refundFields())).json.code).toBe(200);
  });
});

describe('setRefundMode per refund', () => {
  it("a refund's own mode wins over the mode of all refunds, either way", async () => {
    const gateway = newGateway();
    await paid(gateway);
    gateway.setRefundMode('fail', { mchRefundNo: 'refund-2' });
    expect((await call(gateway, 'refundOrder', refundFields({ mchRefundNo: 'refund-1', refundAmount: 100 }))).json.data).toMatchObject({ state: 2 });
    expect((await call(gateway, 'refundOrder', refundFields({ mchRefundNo: 'refund-2', refundAmount: 100 }))).json.data).toMatchObject({ state: 3, errCode: 'MOCK_REFUND_FAILED' });
    gateway.setRefundMode('hold');
    gateway.setRefundMode('succeed', { mchRefundNo: 'refund-3' });
    expect((await call(gateway, 'refundOrder', refundFields({ mchRefundNo: 'refund-3', refundAmount: 100 }))).json.data).toMatchObject({ state: 2 });
    expect((await call(gateway, 'refundOrder', refundFields({ mchRefundNo: 'refund-4', refundAmount: 100 }))).json.data).toMatchObject({ state: 1 });
    expect(() => gateway.setRefundMode('fail', { mchRefundNo: '' })).toThrow(/mchRefundNo: must not be empty/);
  });

  it('through the control route: POST /_mock/refunds/mode with mchRefundNo', async () => {
    const gateway = newGateway();
    await paid(gateway);
    expect(await (await control(gateway, 'POST', 'refunds/mode', { mode: 'hold', mchRefundNo: 'refund-1' })).json()).toEqual({ mode: 'hold', mchRefundNo: 'refund-1' });
    expect((await call(gateway, 'refundOrder', refundFields())).json.data).toMatchObject({ state: 1 });
    expect((await call(gateway, 'refundOrder', refundFields({ mchRefundNo: 'refund-9', mchOrderNo: undefined, payOrderId: 'P-none' }))).json.msg).toBe('退款订单不存在');
    expect((await control(gateway, 'POST', 'refunds/mode', { mode: 'hold', mchRefundNo: 7 })).status).toBe(400);
  });
});

describe("the refund's currency", () => {
  it("is the request's, as Jeepay's RefundOrderController records it (setCurrency(rq.getCurrency())), not the order's", async () => {
    const gateway = newGateway();
    await paid(gateway); // a USD order
    await call(gateway, 'refundOrder', refundFields({ currency: 'usd' }));
    expect(gateway.refund('refund-1')?.currency).toBe('usd');
    expect((await call(gateway, 'refundQuery', { mchRefundNo: 'refund-1' })).json.data).toMatchObject({ currency: 'usd' });
  });
});

describe('the dashboard and refunds', () => {
  it("shows each refund's reason and each order's refunds, received text escaped", async () => {
    const gateway = newGateway();
    await paid(gateway);
    const hostile = '<img src=x onerror="alert(1)">&amp;';
    await call(gateway, 'refundOrder', refundFields({ refundReason: hostile, refundAmount: 300 }));
    gateway.setRefundMode('hold');
    await call(gateway, 'refundOrder', refundFields({ mchRefundNo: '<b>r2</b>', refundAmount: 200, refundReason: 'Damaged' }));
    const page = await (await gateway.fetch(`${ORIGIN}/`)).text();
    expect(page).not.toContain('<img src=x');
    expect(page).not.toContain('<b>r2</b>');
    const escapedReason = '&#60;img src=x onerror=&#34;alert(1)&#34;&#62;&#38;amp;';
    const first = gateway.refund('refund-1')!;
    expect(new RegExp(`<tr data-refund="${first.refundOrderId}">[\\s\\S]*?<td class="reason">([^<]*)</td>`).exec(page)?.[1]).toBe(escapedReason);
    expect(page).toContain('<td class="reason">Damaged</td>');
    const orderRow = /<tr data-order="[^"]+">([\s\S]*?)<\/tr>/.exec(page)?.[1] ?? '';
    const refundsOfOrder = [...orderRow.matchAll(/<div class="refund" data-order-refund="[^"]+"><code>([^<]*)<\/code> ([^<]*) <span class="badge[^"]*">([^<]*)<\/span><\/div>/g)].map((m) => m.slice(1));
    expect(refundsOfOrder).toEqual([
      ['refund-1', '3.00 USD', '2 Succeeded'],
      ['&#60;b&#62;r2&#60;/b&#62;', '2.00 USD', '1 Refunding'],
    ]);
  });
});

describe('resendNotification by what it notifies', () => {
  it('by payOrderId, mchOrderNo, refundOrderId or mchRefundNo, with the original reqTime and sign', async () => {
    const gateway = newGateway();
    await call(gateway, 'unifiedOrder', orderFields({ notifyUrl: 'http://127.0.0.1:9/pay' }));
    const order = gateway.payOrder('order-1');
    await call(gateway, 'refundOrder', refundFields({ notifyUrl: 'http://127.0.0.1:9/refund' }));
    const refund = gateway.refund('refund-1')!;
    const [paidFirst, refundFirst] = await gateway.deliverNotifications();
    gateway.advanceTime(60_000); // a resend keeps the first reqTime whatever the clock says
    for (const [ref, first] of [[order.payOrderId, paidFirst], ['order-1', paidFirst], [refund.refundOrderId, refundFirst], ['refund-1', refundFirst]] as const) {
      const again = await gateway.resendNotification(ref);
      expect(again).toMatchObject({ notificationId: first?.notificationId, resend: true, fields: first?.fields });
    }
    await expect(gateway.resendNotification('refund-9')).rejects.toThrow(/no notification "refund-9": give its id \(N1, N2/);
    const viaRoute = await gateway.fetch(`${ORIGIN}/_mock/notifications/refund-1/resend`, { method: 'POST' });
    expect(await viaRoute.json()).toMatchObject({ notificationId: refundFirst?.notificationId, fields: { sign: refundFirst?.fields.sign, reqTime: refundFirst?.fields.reqTime } });
  });
});
