// The mock's order state machine, pay data and channel simulation, driven with hand-signed raw requests.
import { describe, expect, it } from 'vitest';
import { PayOrderState } from '../../src/kinds/payments/enums.js';
import { createMockGateway, MOCK_MESSAGES } from '../../src/testing/index.js';
import { call, expectedSign, MERCHANT, orderFields, OTHER_MERCHANT, START } from '../support/raw-gateway.js';

const newGateway = () => createMockGateway({ merchants: [MERCHANT, OTHER_MERCHANT], startTime: START });

async function create(gateway: ReturnType<typeof newGateway>, overrides: Record<string, string | number> = {}) {
  const answer = await call(gateway, 'unifiedOrder', orderFields(overrides));
  expect(answer.json.code).toBe(200);
  return answer.json.data as { payOrderId: string; mchOrderNo: string; orderState: number; payDataType?: string; payData?: string; errCode?: string; errMsg?: string };
}

const stateOf = async (gateway: ReturnType<typeof newGateway>, mchOrderNo = 'order-1') => (await call(gateway, 'query', { mchOrderNo })).json.data?.state;

describe('unifiedOrder', () => {
  it('creates an order the query returns with every spec field, createdAt from the simulated clock', async () => {
    const gateway = newGateway();
    const created = await create(gateway, { clientIp: '192.0.2.1', extParam: '{"cart":7}', notifyUrl: 'https://shop.test/n' });
    const query = await call(gateway, 'query', { payOrderId: created.payOrderId });
    expect(query.json.data).toEqual({
      payOrderId: created.payOrderId, mchNo: MERCHANT.mchNo, appId: MERCHANT.appId, mchOrderNo: 'order-1', ifCode: 'mockpay', wayCode: 'QR_CASHIER',
      amount: 1999, currency: 'USD', state: PayOrderState.Generated, clientIp: '192.0.2.1', subject: 'T-shirt', body: 'Blue, M', extParam: '{"cart":7}', createdAt: START,
    });
  });

  it('two mocks of one process, their clocks at the same millisecond, never hand out the same payOrderId', async () => {
    const [first, second] = [newGateway(), newGateway()];
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) for (const gateway of [first, second]) ids.push((await create(gateway, { mchOrderNo: `order-${i}` })).payOrderId);
    expect(ids.every((id) => id.startsWith(`P${START}`))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('echoes optional fields sent as "" in the query, unsigned (as the query-response vector)', async () => {
    const gateway = newGateway();
    await create(gateway, { extParam: '', clientIp: '', returnUrl: '', notifyUrl: '' });
    const query = await call(gateway, 'query', { mchOrderNo: 'order-1' });
    expect(query.json.data).toMatchObject({ extParam: '', clientIp: '' });
    expect(query.json.data).not.toHaveProperty('returnUrl');
    expect(query.json.sign).toBe(expectedSign(query.json.data ?? {}));
    expect(gateway.order('order-1')?.notifyUrl).toBeUndefined();
  });

  it('refuses a second order with the same mchOrderNo for the merchant, not for another merchant', async () => {
    const gateway = newGateway();
    await create(gateway);
    expect((await call(gateway, 'unifiedOrder', orderFields({ amount: 5 }))).json).toEqual({ code: 9999, msg: '商户订单[order-1]已存在' });
    expect((await call(gateway, 'unifiedOrder', orderFields(), OTHER_MERCHANT)).json.code).toBe(200);
    expect(gateway.orders()).toHaveLength(2);
  });

  it.each([
    ['QR_CASHIER', {}, 0, 'codeUrl', /^https:\/\/gateway\.test\/cashier\/P\d+$/],
    ['QR_CASHIER', { payDataType: 'codeImgUrl' }, 0, 'codeImgUrl', /^https:\/\/gateway\.test\/cashier\/P\d+\/qr\.svg$/],
    ['WX_NATIVE', { payDataType: 'payUrl' }, 1, 'payurl', /^https:\/\/gateway\.test\/cashier\/P\d+$/],
    ['ALI_PC', { payDataType: 'form' }, 1, 'form', /^<form /],
    ['ALI_WAP', {}, 1, 'payurl', /^https:\/\/gateway\.test\/cashier\/P\d+$/],
    ['WX_JSAPI', { openid: 'o-123' }, 1, 'wxapp', /"package":"prepay_id=/],
    ['ALI_JSAPI', { buyerUserId: '2088' }, 1, 'aliapp', /alipayTradeNo/],
    ['ALI_BAR', { authCode: '28763443825664394' }, 2, 'none', /^$/],
    ['COIN_TRON_USDT', {}, 1, 'codeUrl', /^T[1-9A-HJ-NP-Za-km-z]{33}$/],
    ['COIN_ETH_USDC', {}, 1, 'codeUrl', /^0x[0-9a-f]{40}$/],
  ])('%s with channelExtra %j: orderState %i, payDataType %s', async (wayCode, extra, state, type, payData) => {
    const created = await create(newGateway(), { wayCode, channelExtra: JSON.stringify(extra) });
    expect(created).toMatchObject({ orderState: state, payDataType: type });
    expect(created.payData).toMatch(payData);
  });

  it('refuses a payDataType the way code cannot give, and channelExtra that is not a JSON object', async () => {
    const gateway = newGateway();
    expect((await call(gateway, 'unifiedOrder', orderFields({ channelExtra: '{"payDataType":"wxapp"}' }))).json).toMatchObject({ code: 9999, msg: expect.stringContaining('wxapp') });
    expect((await call(gateway, 'unifiedOrder', orderFields({ channelExtra: 'authCode=1' }))).json.msg).toBe(MOCK_MESSAGES.channelExtraFormat);
  });

  it.each([
    ['WX_BAR', '{}', MOCK_MESSAGES.authCodeMissing],
    ['AUTO_BAR', '{"authCode":""}', MOCK_MESSAGES.authCodeMissing],
    ['WX_JSAPI', '{}', MOCK_MESSAGES.channelExtraMember('openid')],
    ['ALI_LITE', '{"openid":"x"}', MOCK_MESSAGES.channelExtraMember('buyerUserId')],
  ])('%s with channelExtra %s is refused', async (wayCode, channelExtra, msg) => {
    expect((await call(newGateway(), 'unifiedOrder', orderFields({ wayCode, channelExtra }))).json).toEqual({ code: 9999, msg });
  });

  it('refuses a barcode way with no channelExtra at all', async () => {
    expect((await call(newGateway(), 'unifiedOrder', orderFields({ wayCode: 'YSF_BAR' }))).json.msg).toBe(MOCK_MESSAGES.authCodeMissing);
  });

  it('pays barcode ways synchronously: state 2, successTime, channelOrderNo', async () => {
    const gateway = newGateway();
    await create(gateway, { wayCode: 'WX_BAR', channelExtra: '{"authCode":"134567890123456789"}' });
    const order = (await call(gateway, 'query', { mchOrderNo: 'order-1' })).json.data;
    expect(order).toMatchObject({ state: 2, successTime: START, ifCode: 'wxpay', channelOrderNo: expect.stringMatching(/^CH/) });
  });

  it('reports a declined payment as a result: orderState 3 with errCode/errMsg and no payData', async () => {
    const gateway = newGateway();
    gateway.declineNextPayment({ errCode: 'ACQ.PAYMENT_AUTH_CODE_INVALID', errMsg: 'invalid auth code' });
    const created = await create(gateway, { wayCode: 'ALI_BAR', channelExtra: '{"authCode":"28763443825664394"}' });
    expect(created).toEqual({ payOrderId: created.payOrderId, mchOrderNo: 'order-1', orderState: 3, errCode: 'ACQ.PAYMENT_AUTH_CODE_INVALID', errMsg: 'invalid auth code' });
    expect((await call(gateway, 'query', { mchOrderNo: 'order-1' })).json.data).toMatchObject({ state: 3, errCode: 'ACQ.PAYMENT_AUTH_CODE_INVALID' });
    // Consumed: the next order is paid normally.
    expect((await create(gateway, { mchOrderNo: 'order-2', wayCode: 'ALI_BAR', channelExtra: '{"authCode":"1"}' })).orderState).toBe(2);
  });

  it('declines only the named order when declineNextPayment has a mchOrderNo', async () => {
    const gateway = newGateway();
    gateway.declineNextPayment({ mchOrderNo: 'order-2' });
    expect((await create(gateway, { mchOrderNo: 'order-1', wayCode: 'ALI_WAP' })).orderState).toBe(1);
    expect(await create(gateway, { mchOrderNo: 'order-2', wayCode: 'ALI_WAP' })).toMatchObject({ orderState: 3, errCode: 'MOCK_CHANNEL_DECLINED' });
  });
});

describe('query', () => {
  it('needs payOrderId or mchOrderNo, and finds only the merchant\'s own orders', async () => {
    const gateway = newGateway();
    const created = await create(gateway);
    expect((await call(gateway, 'query', {})).json).toEqual({ code: 9999, msg: 'mchOrderNo 和 payOrderId 不能同时为空' });
    expect((await call(gateway, 'query', { mchOrderNo: 'nope' })).json).toEqual({ code: 9999, msg: '订单不存在' });
    expect((await call(gateway, 'query', { payOrderId: created.payOrderId }, OTHER_MERCHANT)).json.msg).toBe('订单不存在');
  });

  it('prefers payOrderId when both ids are given, as the reference does', async () => {
    const gateway = newGateway();
    const first = await create(gateway);
    await create(gateway, { mchOrderNo: 'order-2' });
    const answer = await call(gateway, 'query', { payOrderId: first.payOrderId, mchOrderNo: 'order-2' });
    expect(answer.json.data?.mchOrderNo).toBe('order-1');
  });
});

describe('state machine', () => {
  it('0 -> 2 by payOrder; then close is refused', async () => {
    const gateway = newGateway();
    await create(gateway);
    gateway.advanceTime(5_000);
    expect(gateway.payOrder('order-1')).toMatchObject({ state: 2, successTime: START + 5_000 });
    expect(await stateOf(gateway)).toBe(2);
    expect((await call(gateway, 'close', { mchOrderNo: 'order-1' })).json).toEqual({ code: 9999, msg: '当前订单不可关闭' });
  });

  it('1 -> 3 by failOrder with the channel error; then close is refused and payOrder throws', async () => {
    const gateway = newGateway();
    const created = await create(gateway, { wayCode: 'ALI_WAP' });
    gateway.failOrder(created.payOrderId, { errCode: 'INSUFFICIENT', errMsg: 'balance' });
    expect((await call(gateway, 'query', { mchOrderNo: 'order-1' })).json.data).toMatchObject({ state: 3, errCode: 'INSUFFICIENT', errMsg: 'balance' });
    expect((await call(gateway, 'close', { payOrderId: created.payOrderId })).json.msg).toBe('当前订单不可关闭');
    expect(() => gateway.payOrder('order-1')).toThrow(/state 3.*only orders in state 0 or 1/);
  });

  it('0 -> 6 and 1 -> 6 by close; a closed order cannot be closed or paid again', async () => {
    const gateway = newGateway();
    await create(gateway);
    await create(gateway, { mchOrderNo: 'order-2', wayCode: 'WX_H5' });
    for (const mchOrderNo of ['order-1', 'order-2']) {
      expect((await call(gateway, 'close', { mchOrderNo })).json).toMatchObject({ code: 200, data: {} });
      expect(await stateOf(gateway, mchOrderNo)).toBe(6);
    }
    expect((await call(gateway, 'close', { mchOrderNo: 'order-1' })).json.msg).toBe('当前订单不可关闭');
    expect(() => gateway.payOrder('order-1')).toThrow(/Closed/);
  });

  it('closes an unpaid order when its default validity (2 h) ends on the simulated clock', async () => {
    const gateway = newGateway();
    await create(gateway);
    gateway.advanceTime(2 * 3600_000 - 1);
    expect(await stateOf(gateway)).toBe(0);
    gateway.advanceTime(1);
    expect(await stateOf(gateway)).toBe(6);
    expect(gateway.order('order-1')?.state).toBe(6);
  });

  it('honours expiredTime (seconds) and leaves paid orders alone', async () => {
    const gateway = newGateway();
    await create(gateway, { expiredTime: 60 });
    await create(gateway, { mchOrderNo: 'order-2', expiredTime: 60 });
    gateway.payOrder('order-2');
    gateway.advanceTime(60_000);
    expect(await stateOf(gateway, 'order-1')).toBe(6);
    expect(await stateOf(gateway, 'order-2')).toBe(2);
  });

  it('control errors name the problem', () => {
    const gateway = newGateway();
    expect(() => gateway.payOrder('missing')).toThrow('payOrder: no order with payOrderId or mchOrderNo "missing"');
    expect(() => gateway.advanceTime(-1)).toThrow(/Invalid advanceTime ms .*must be at least 0/);
    expect(() => gateway.failOrder('order-1', { errCode: 7 as never })).toThrow(/errCode: must be a string/);
    expect(gateway.order('missing')).toBeUndefined();
  });

  it('asks for the payOrderId when two merchants use the same mchOrderNo', async () => {
    const gateway = newGateway();
    await create(gateway);
    const other = (await call(gateway, 'unifiedOrder', orderFields(), OTHER_MERCHANT)).json.data as { payOrderId: string };
    expect(() => gateway.payOrder('order-1')).toThrow(/several merchants.*payOrderId/);
    expect(gateway.payOrder(other.payOrderId).mchNo).toBe(OTHER_MERCHANT.mchNo);
  });

  it('returns copies: changing a snapshot does not change the gateway', async () => {
    const gateway = newGateway();
    await create(gateway);
    const snapshot = gateway.order('order-1');
    if (snapshot) snapshot.state = 2;
    expect(gateway.order('order-1')?.state).toBe(0);
  });
});

describe('coin orders', () => {
  it('lists on-chain transactions; payOrder adds a completed one for the full amount', async () => {
    const gateway = newGateway();
    await create(gateway, { wayCode: 'COIN_TRON_USDT', amount: 1050 });
    const first = gateway.addTransaction('order-1', { amount: '4.25' });
    expect(first).toMatchObject({ status: 'Confirming', tokenId: 'TRON_USDT', amount: '4.25' });
    gateway.payOrder('order-1');
    const order = gateway.order('order-1');
    expect(order?.orderTransactionList.map((tx) => [tx.amount, tx.status])).toEqual([['4.25', 'Confirming'], ['10.50', 'Completed']]);
    expect(order?.orderTransactionList[1]?.toAddress).toBe(order?.payData);
  });

  it('refuses transactions for other ways and amounts that are not exact decimal text', async () => {
    const gateway = newGateway();
    await create(gateway);
    expect(() => gateway.addTransaction('order-1', { amount: '1.00' })).toThrow(/not a coin way/);
    await create(gateway, { mchOrderNo: 'coin', wayCode: 'COIN_TRON_USDT' });
    expect(() => gateway.addTransaction('coin', { amount: '1e3' })).toThrow(/decimal/);
  });
});
