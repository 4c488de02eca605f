// Payments run on the generic desk (src/kinds/payments/mock.ts, paymentKind): what the declaration gives them beyond
// the methods they always had, through the public API and the control routes: settleOrder (the generic decision),
// POST /_mock/orders/{payOrderId}/settle and POST /_mock/orders/decline, a copy that is not the desk's record, the
// notification's fields and the state's members in their order.
import { describe, expect, it } from 'vitest';
import { PayOrderState } from '../../src/kinds/payments/enums.js';
import { ORDER_FIELDS } from '../../src/kinds/payments/mock.js';
import { createMockGateway } from '../../src/testing/index.js';
import { call, MERCHANT, orderFields, START } from '../support/raw-gateway.js';

const newGateway = () => createMockGateway({ merchants: [MERCHANT], startTime: START });
const control = (gateway: ReturnType<typeof newGateway>, path: string, body?: object) =>
  gateway.fetch(`https://gateway.test/_mock/${path}`, { method: 'POST', ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

describe('payments on the generic desk', () => {
  it('settleOrder decides an unpaid order as payOrder and failOrder do, by name; a final one is refused', async () => {
    const gateway = newGateway();
    await call(gateway, 'unifiedOrder', orderFields({ mchOrderNo: 'order-1', notifyUrl: 'http://127.0.0.1:9/n' }));
    await call(gateway, 'unifiedOrder', orderFields({ mchOrderNo: 'order-2' }));
    expect(gateway.settleOrder('order-1', { to: 'pay' })).toMatchObject({ state: PayOrderState.Succeeded, successTime: START, channelOrderNo: expect.stringMatching(/^CH/) });
    expect(gateway.settleOrder('order-2', { to: 'fail', errCode: 'CARD' })).toMatchObject({ state: PayOrderState.Failed, errCode: 'CARD', errMsg: 'payment declined by the channel (mock)' });
    expect(() => gateway.settleOrder('order-1', { to: 'fail' })).toThrow(/^settleOrder: order P\d+ is Succeeded \(state 2\); only orders in state 0 or 1 can change$/);
    expect(() => gateway.settleOrder('order-2', { to: 'refund' as 'pay' })).toThrow(/Invalid settleOrder decision/);
    expect(gateway.notifications.map((n) => [n.kind, n.mchOrderNo])).toEqual([['payment', 'order-1']]);
  });

  it('POST /_mock/orders/decline queues a decline for the next order (or one mchOrderNo); the settle route decides', async () => {
    const gateway = newGateway();
    expect(await (await control(gateway, 'orders/decline', { mchOrderNo: 'order-2', errCode: 'LIMIT' })).json()).toEqual({ declined: 'order-2' });
    expect(((await call(gateway, 'unifiedOrder', orderFields({ mchOrderNo: 'order-1' }))).json.data as { orderState: number }).orderState).toBe(PayOrderState.Generated);
    const declined = (await call(gateway, 'unifiedOrder', orderFields({ mchOrderNo: 'order-2' }))).json.data;
    expect(declined).toMatchObject({ orderState: PayOrderState.Failed, errCode: 'LIMIT' });
    expect(declined).not.toHaveProperty('payData'); // payData only while the payer may pay
    expect((await control(gateway, 'orders/decline', { errCode: 7 })).status).toBe(400);
    const settled = await control(gateway, `orders/${gateway.order('order-1')!.payOrderId}/settle`, { to: 'pay' });
    expect(await settled.json()).toMatchObject({ mchOrderNo: 'order-1', state: PayOrderState.Succeeded });
  });

  it("a copy is the caller's: changing it (its transactions too) changes nothing in the mock", async () => {
    const gateway = newGateway();
    await call(gateway, 'unifiedOrder', orderFields({ mchOrderNo: 'coin-1', wayCode: 'COIN_USDT_TRC20', currency: 'USDT' }));
    gateway.addTransaction('coin-1', { amount: '1.00' });
    const copy = gateway.order('coin-1')!;
    copy.state = PayOrderState.Succeeded;
    copy.orderTransactionList[0]!.amount = '999.00';
    expect(gateway.order('coin-1')).toMatchObject({ state: PayOrderState.Paying, orderTransactionList: [{ amount: '1.00' }] });
  });

  it("a paid order's notification carries the order's fields in the reference's order, signed; the state lists the orders first", async () => {
    const gateway = newGateway();
    await call(gateway, 'unifiedOrder', orderFields({ mchOrderNo: 'order-1', notifyUrl: 'http://127.0.0.1:9/n' }));
    gateway.payOrder('order-1');
    const fields = Object.keys(gateway.notifications[0]!.fields);
    expect(fields).toEqual([...ORDER_FIELDS.filter((name) => fields.includes(name)), 'reqTime', 'sign']);
    expect(Object.keys(gateway.state()).slice(0, 8)).toEqual(['now', 'clock', 'merchants', 'orders', 'refunds', 'transfers', 'settlements', 'notifications']);
  });
});
