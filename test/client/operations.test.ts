import { describe, expect, it } from 'vitest';
import { GatewayClient, PayOrderState, sign } from '../../src/index.js';
import { created } from '../support/created.js';
import { vector } from '../support/vectors.js';
import { CREDENTIALS, FIXED_NOW, Raw, SECRET, signedEnvelope, useWire } from '../support/wire.js';

const wire = useWire();
const client = new GatewayClient({ ...CREDENTIALS, now: () => FIXED_NOW });
const common = { version: '1.0.1', signType: 'MD5', reqTime: String(FIXED_NOW), mchNo: CREDENTIALS.mchNo, appId: CREDENTIALS.appId };

function expectSignedBy(body: Record<string, unknown>, secret = SECRET) {
  const { sign: received, ...rest } = body;
  expect(received).toBe(sign(rest as Record<string, string | number>, secret));
}

describe('unifiedOrder', () => {
  it('sends exactly the spec fields, JSON POST, and reproduces the vector signature', async () => {
    const v = vector('unifiedOrder request');
    const { version, signType, reqTime, mchNo, appId, ...own } = v.params;
    const vectorClient = new GatewayClient({ ...CREDENTIALS, mchNo: String(mchNo), appId: String(appId), secret: v.secret, version: String(version), now: () => Number(reqTime) });
    const result = vector('unifiedOrder response data');
    wire.replyWith(signedEnvelope(result.params, v.secret));
    expect(signType).toBe('MD5');

    await vectorClient.unifiedOrder({
      ...(own as Record<string, string | number>),
      channelExtra: { payDataType: 'codeImgUrl' },
    } as never);

    const [sent] = wire.captured;
    expect(sent?.path).toBe('/api/pay/unifiedOrder');
    expect(sent?.contentType).toMatch(/^application\/json/);
    expect(sent?.body.sign).toBe(v.sign);
    // "" fields (returnUrl, extParam) are not signed, so they are not sent either.
    expect(Object.keys(sent?.body ?? {}).sort()).toEqual(
      ['amount', 'appId', 'body', 'channelExtra', 'clientIp', 'currency', 'divisionMode', 'expiredTime', 'mchNo', 'mchOrderNo', 'notifyUrl', 'reqTime', 'sign', 'signType', 'subject', 'version', 'wayCode'],
    );
    expect(sent?.body.amount).toBe(100);
    expect(sent?.body.channelExtra).toBe('{"payDataType":"codeImgUrl"}');
  });

  it('returns the typed result of the gateway (the response vector verifies)', async () => {
    const v = vector('unifiedOrder response data');
    wire.replyWith(JSON.stringify({ code: 200, msg: 'SUCCESS', data: v.params, sign: v.sign }));
    const vectorClient = new GatewayClient({ ...CREDENTIALS, secret: v.secret, now: () => FIXED_NOW });
    const result = await vectorClient.unifiedOrder({ mchOrderNo: 'mho1624005107281', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', subject: 's', body: 'b' });
    expect(result).toEqual({
      payOrderId: 'P202106181642329900002',
      mchOrderNo: 'mho1624005107281',
      orderState: PayOrderState.Generated,
      payDataType: 'codeImgUrl',
      payData: 'https://pay.example.com/api/scan/imgs/abc.png',
      recovered: false, // the gateway's own answer, with payData
      sentExpiredTime: 7_200, // what was sent: none, so the gateway's default
    });
  });

  it('fills the common fields and signs with the client secret', async () => {
    wire.replyWith(signedEnvelope({ payOrderId: 'P1', mchOrderNo: 'o-1', orderState: 1, payDataType: 'payurl', payData: 'https://pay.test/x' }));
    await client.unifiedOrder({ mchOrderNo: 'o-1', wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: 'T-shirt', body: 'Blue', extParam: { campaign: 'summer' } });
    const body = wire.captured[0]?.body ?? {};
    expect(body).toMatchObject({ ...common, mchOrderNo: 'o-1', wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: 'T-shirt', body: 'Blue', extParam: '{"campaign":"summer"}' });
    expectSignedBy(body);
  });

  it('sends a ready channelExtra string unchanged', async () => {
    wire.replyWith(signedEnvelope({ payOrderId: 'P1', mchOrderNo: 'o-1', orderState: 2, payDataType: 'none', payData: '' }));
    await client.unifiedOrder({ mchOrderNo: 'o-1', wayCode: 'WX_BAR', amount: 1, currency: 'USD', subject: 's', body: 'b', channelExtra: '{"authCode":"134567890123456789"}' });
    expect(wire.captured[0]?.body.channelExtra).toBe('{"authCode":"134567890123456789"}');
  });

  it('normalizes the case of known payDataType values and keeps unknown ones', async () => {
    wire.replyWith(signedEnvelope({ payOrderId: 'P1', mchOrderNo: 'o-1', orderState: 1, payDataType: 'payUrl', payData: 'https://pay.test/x' }));
    const known = await created(client.unifiedOrder({ mchOrderNo: 'o-1', wayCode: 'ALI_WAP', amount: 1, currency: 'USD', subject: 's', body: 'b' }));
    expect(known.payDataType).toBe('payurl');
    wire.replyWith(signedEnvelope({ payOrderId: 'P1', mchOrderNo: 'o-1', orderState: 1, payDataType: 'coinAddress', payData: 'TXYZ' }));
    const unknown = await created(client.unifiedOrder({ mchOrderNo: 'o-1', wayCode: 'COIN_TRON_USDT', amount: 1, currency: 'USD', subject: 's', body: 'b' }));
    expect(unknown.payDataType).toBe('coinAddress');
  });

  it('resolves a channel failure (orderState 3 with errCode/errMsg) as a result, not an exception', async () => {
    wire.replyWith(signedEnvelope({ payOrderId: 'P1', mchOrderNo: 'o-1', orderState: 3, errCode: 'ACQ.PAYMENT_AUTH_CODE_INVALID', errMsg: 'invalid auth code' }));
    const result = await client.unifiedOrder({ mchOrderNo: 'o-1', wayCode: 'ALI_BAR', amount: 1, currency: 'USD', subject: 's', body: 'b', channelExtra: { authCode: '28763443825664394' } });
    expect(result).toMatchObject({ orderState: PayOrderState.Failed, errCode: 'ACQ.PAYMENT_AUTH_CODE_INVALID', errMsg: 'invalid auth code' });
  });
});

describe('query', () => {
  it('sends payOrderId only and reproduces the vector signature', async () => {
    const v = vector('query request');
    const r = vector('query response data');
    wire.replyWith(JSON.stringify({ code: 200, msg: 'SUCCESS', data: r.params, sign: r.sign }));
    const vectorClient = new GatewayClient({ ...CREDENTIALS, mchNo: String(v.params.mchNo), appId: String(v.params.appId), secret: v.secret, version: '1.0', now: () => Number(v.params.reqTime) });
    const order = await vectorClient.query({ payOrderId: String(v.params.payOrderId) });
    const [sent] = wire.captured;
    expect(sent?.path).toBe('/api/pay/query');
    expect(sent?.body).toEqual({ ...v.params, sign: v.sign });
    // extParam is sent as "", which the gateway does not sign: only signed members are returned.
    const { extParam, ...signedParams } = r.params;
    expect(extParam).toBe('');
    expect(order).toEqual({ ...signedParams, state: 2, amount: 58, successTime: 1623985459000, createdAt: 1623985457705 });
    expect(order.state).toBe(PayOrderState.Succeeded);
  });

  it('queries by mchOrderNo and returns on-chain transactions with exact decimal amounts', async () => {
    const data = {
      payOrderId: 'P2', mchNo: CREDENTIALS.mchNo, appId: CREDENTIALS.appId, mchOrderNo: 'o-2', ifCode: 'coinpay', wayCode: 'COIN_TRON_USDT',
      amount: 1050, currency: 'USD', state: 1, subject: 's', body: 'b', createdAt: 1700000000000,
      orderTransactionList: [
        { txId: 'T1', payOrderId: 'P2', txHash: '0xabc', amount: new Raw('10.50'), tokenId: 'TRON_USDT', fromAddress: 'TA', toAddress: 'TB', status: 'Confirming', createdAt: '2024-07-01T10:00:00Z', updatedAt: '2024-07-01T10:01:00Z' },
        { txId: 'T2', amount: new Raw('0.000001'), status: 'SomeNewStatus' },
      ],
      riskLevel: 'low',
    };
    wire.replyWith(signedEnvelope(data));
    const order = await client.query({ mchOrderNo: 'o-2' });
    expect(wire.captured[0]?.body).toMatchObject({ ...common, mchOrderNo: 'o-2' });
    expect(wire.captured[0]?.body).not.toHaveProperty('payOrderId');
    expect(order.orderTransactionList?.[0]?.amount).toBe('10.50');
    expect(order.orderTransactionList?.[0]?.createdAt).toBe('2024-07-01T10:00:00Z');
    expect(order.orderTransactionList?.[1]).toEqual({ txId: 'T2', amount: '0.000001', status: 'SomeNewStatus' });
    // Unknown extra fields are kept.
    expect((order as Record<string, unknown>).riskLevel).toBe('low');
  });
});

describe('close', () => {
  it('resolves when the gateway answers data {} signed as key=SECRET (close vector)', async () => {
    const v = vector('close response');
    wire.replyWith(JSON.stringify({ code: 200, msg: 'SUCCESS', data: {}, sign: v.sign }));
    await expect(new GatewayClient({ ...CREDENTIALS, secret: v.secret }).close({ mchOrderNo: 'o-1' })).resolves.toBeUndefined();
    expect(wire.captured[0]?.path).toBe('/api/pay/close');
    expect(Object.keys(wire.captured[0]?.body ?? {}).sort()).toEqual(['appId', 'mchNo', 'mchOrderNo', 'reqTime', 'sign', 'signType', 'version']);
  });
});

describe('settlement operations', () => {
  it('settleAddressApply sends its fields and returns { serverRequestId, status }', async () => {
    wire.replyWith(signedEnvelope({ serverRequestId: 'SRV-ADDR-1', status: 0 }));
    const result = await client.settleAddressApply({ requestId: 'addr-1', tokenId: 'TRON_USDT', address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', remark: 'treasury' });
    expect(result).toEqual({ serverRequestId: 'SRV-ADDR-1', status: 0 });
    const body = wire.captured[0]?.body ?? {};
    expect(wire.captured[0]?.path).toBe('/api/channelbiz/coinpay/settleAddressApply');
    expect(body).toEqual({ ...common, requestId: 'addr-1', tokenId: 'TRON_USDT', address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', remark: 'treasury', sign: body.sign });
    expectSignedBy(body);
  });

  it('settleRequest sends a declared-address settlement', async () => {
    wire.replyWith(signedEnvelope({ serverRequestId: 'SRV-SET-1', status: 1 }));
    const result = await client.settleRequest({ requestId: 'set-1', amount: 150000, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', addrServerRequestId: 'SRV-ADDR-1', notifyUrl: 'https://shop.test/settle' });
    expect(result).toEqual({ serverRequestId: 'SRV-SET-1', status: 1 });
    const body = wire.captured[0]?.body ?? {};
    expect(wire.captured[0]?.path).toBe('/api/channelbiz/coinpay/settleRequest');
    expect(body).toEqual({ ...common, requestId: 'set-1', amount: 150000, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', addrServerRequestId: 'SRV-ADDR-1', notifyUrl: 'https://shop.test/settle', sign: body.sign });
    expectSignedBy(body);
  });

  it('settleRequestGet returns the settlement record', async () => {
    const record = { serverRequestId: 'SRV-SET-1', requestId: 'set-1', tokenId: 'TRON_USDT', currency: 'USD', amount: 150000, status: 2, address: 'TXYZ', notifyUrl: 'https://shop.test/settle' };
    wire.replyWith(signedEnvelope(record));
    expect(await client.settleRequestGet({ requestId: 'set-1' })).toEqual(record);
    expect(wire.captured[0]?.path).toBe('/api/channelbiz/coinpay/settleRequestGet');
    expect(wire.captured[0]?.body).toMatchObject({ ...common, requestId: 'set-1' });
  });
});

describe('baseUrl', () => {
  it('appends the operation path to a baseUrl with a path of its own', async () => {
    wire.replyWith(signedEnvelope({}));
    await new GatewayClient({ ...CREDENTIALS, baseUrl: `${CREDENTIALS.baseUrl}/gw/` }).close({ payOrderId: 'P1' });
    expect(wire.captured[0]?.path).toBe('/gw/api/pay/close');
  });
});
