/**
 * The SDK's end-to-end scenarios: the real GatewayClient against the mock gateway, all six operations and
 * the error paths. Each transport (loopback HTTP, msw, the mock's fetch) runs the same list.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  GatewayApiError,
  GatewayClient,
  GatewayConnectionError,
  GatewayEmptyResponseError,
  GatewayHttpStatusError,
  GatewaySignatureError,
  GatewayTruncatedResponseError,
  PayOrderState,
  type GatewayClientOptions,
} from '../../src/index.js';
import { createMockGateway, MockAddressStatus, MockSettlementStatus, type MockGateway } from '../../src/testing/index.js';

export const E2E_MERCHANT = { mchNo: 'M1700000009', appId: 'app-e2e', secret: 'e2e-secret-0123456789' } as const;

/** How a transport connects a client to the mock. */
export interface Transport {
  /** Starts serving `gateway`; returns the client options that reach it. */
  start(gateway: MockGateway): Promise<Pick<GatewayClientOptions, 'baseUrl' | 'fetch'>>;
  stop(): Promise<void>;
}

const ADDRESS = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';

export function describeEndToEnd(name: string, transport: Transport): void {
  describe(`GatewayClient against the mock gateway (${name})`, () => {
    const gateway = createMockGateway({ merchants: [E2E_MERCHANT] });
    let connection: Pick<GatewayClientOptions, 'baseUrl' | 'fetch'>;
    let client: GatewayClient;
    let seq = 0;
    const id = (prefix: string) => `${prefix}-${++seq}`;
    const clientWith = (overrides: Partial<GatewayClientOptions>) => new GatewayClient({ ...connection, ...E2E_MERCHANT, ...overrides } as GatewayClientOptions);
    const order = (mchOrderNo: string, extra: Record<string, unknown> = {}) =>
      client.unifiedOrder({ mchOrderNo, wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: 'T-shirt', body: 'Blue, M', ...extra });

    beforeAll(async () => {
      connection = await transport.start(gateway);
      client = clientWith({});
    });
    afterAll(() => transport.stop());
    afterEach(() => gateway.clearFaults());

    describe('orders', () => {
      it('unifiedOrder, payOrder, query: the paid order with its success time', async () => {
        const mchOrderNo = id('o');
        const created = await order(mchOrderNo, { channelExtra: { payDataType: 'codeImgUrl' }, extParam: { cart: 7 } });
        expect(created).toMatchObject({ mchOrderNo, orderState: PayOrderState.Generated, payDataType: 'codeImgUrl', payData: expect.stringMatching(/\.png$/) });
        gateway.payOrder(created.payOrderId);
        const paid = await client.query({ payOrderId: created.payOrderId });
        expect(paid).toMatchObject({ mchOrderNo, state: PayOrderState.Succeeded, amount: 1999, extParam: '{"cart":7}', successTime: gateway.now() });
      });

      it('close, then query: state 6; closing again is refused', async () => {
        const mchOrderNo = id('o');
        await order(mchOrderNo, { wayCode: 'WX_H5' });
        await expect(client.close({ mchOrderNo })).resolves.toBeUndefined();
        expect((await client.query({ mchOrderNo })).state).toBe(PayOrderState.Closed);
        await expect(client.close({ mchOrderNo })).rejects.toMatchObject({ name: 'GatewayApiError', code: 9999, msg: '当前订单不可关闭' });
      });

      it('a barcode payment is paid at once; a declined one is a result with errCode, not an exception', async () => {
        const paid = await order(id('bar'), { wayCode: 'WX_BAR', channelExtra: { authCode: '134567890123456789' } });
        expect(paid).toMatchObject({ orderState: PayOrderState.Succeeded, payDataType: 'none' });
        gateway.declineNextPayment({ errCode: 'ACQ.PAYMENT_AUTH_CODE_INVALID', errMsg: 'invalid auth code' });
        const declined = await order(id('bar'), { wayCode: 'ALI_BAR', channelExtra: { authCode: '28763443825664394' } });
        expect(declined).toMatchObject({ orderState: PayOrderState.Failed, errCode: 'ACQ.PAYMENT_AUTH_CODE_INVALID', errMsg: 'invalid auth code' });
      });

      it('a coin order: decimal transaction amounts verify and arrive as exact strings', async () => {
        const mchOrderNo = id('coin');
        const created = await order(mchOrderNo, { wayCode: 'COIN_TRON_USDT', amount: 1050 });
        gateway.addTransaction(mchOrderNo, { amount: '0.10', status: 'Confirming' });
        gateway.payOrder(mchOrderNo);
        const queried = await client.query({ mchOrderNo });
        expect(queried.orderTransactionList?.map((tx) => [tx.amount, tx.status, tx.toAddress])).toEqual([
          ['0.10', 'Confirming', created.payData], ['10.50', 'Completed', created.payData],
        ]);
      });

      it('expiry on the simulated clock closes an unpaid order', async () => {
        const mchOrderNo = id('exp');
        await order(mchOrderNo, { expiredTime: 900 });
        gateway.advanceTime(900_000);
        expect((await client.query({ mchOrderNo })).state).toBe(PayOrderState.Closed);
      });

      it('refusals surface as GatewayApiError with the gateway text', async () => {
        const mchOrderNo = id('dup');
        await order(mchOrderNo);
        await expect(order(mchOrderNo)).rejects.toMatchObject({ code: 9999, msg: `商户订单[${mchOrderNo}]已存在` });
        await expect(client.query({ mchOrderNo: id('missing') })).rejects.toMatchObject({ code: 9999, msg: '订单不存在' });
        await expect(clientWith({ secret: 'not-the-secret' }).query({ mchOrderNo })).rejects.toMatchObject({ msg: '验签失败' });
        await expect(clientWith({ mchNo: 'M-unknown' }).query({ mchOrderNo })).rejects.toMatchObject({ msg: '商户或商户应用不存在' });
      });
    });

    describe('settlement', () => {
      it('declare, approve, settle to the declared address, read it back as it progresses', async () => {
        const requestId = id('settle');
        const declared = await client.settleAddressApply({ requestId: id('addr'), tokenId: 'TRON_USDT', address: ADDRESS, remark: 'treasury' });
        expect(declared.status).toBe(MockAddressStatus.UnderReview);
        const early = client.settleRequest({ requestId, amount: 150000, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', addrServerRequestId: declared.serverRequestId });
        await expect(early).rejects.toBeInstanceOf(GatewayApiError);
        gateway.approveAddress(declared.serverRequestId);
        const settled = await client.settleRequest({ requestId, amount: 150000, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', addrServerRequestId: declared.serverRequestId });
        expect(settled.status).toBe(MockSettlementStatus.Pending);
        gateway.progressSettlement(requestId, 'completed');
        expect(await client.settleRequestGet({ requestId })).toEqual({
          serverRequestId: settled.serverRequestId, requestId, tokenId: 'TRON_USDT', currency: 'USD', amount: 150000, status: MockSettlementStatus.Completed, address: ADDRESS,
        });
      });

      it('a duplicate requestId and an unknown record are refused', async () => {
        const requestId = id('settle');
        const params = { requestId, amount: 1, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: ADDRESS } as const;
        await client.settleRequest(params);
        await expect(client.settleRequest(params)).rejects.toMatchObject({ code: 9999, msg: expect.stringContaining(requestId) });
        await expect(client.settleRequestGet({ requestId: id('nope') })).rejects.toBeInstanceOf(GatewayApiError);
      });
    });

    describe('faults', () => {
      it('wrongSign: the order is created but the answer is not trusted', async () => {
        const mchOrderNo = id('f');
        gateway.injectFault({ kind: 'wrongSign', operation: 'unifiedOrder' });
        await expect(order(mchOrderNo)).rejects.toBeInstanceOf(GatewaySignatureError);
        expect(gateway.order(mchOrderNo)?.state).toBe(PayOrderState.Generated);
      });

      it('html502 before processing: HTTP status error, nothing created', async () => {
        const mchOrderNo = id('f');
        const fault = gateway.injectFault({ kind: 'html502', operation: 'unifiedOrder', when: 'before' });
        await expect(order(mchOrderNo)).rejects.toMatchObject({ name: 'GatewayHttpStatusError', status: 502 });
        expect(fault).toMatchObject({ hits: 1, remaining: 0 });
        expect(gateway.order(mchOrderNo)).toBeUndefined();
      });

      it('emptyBody on close before processing (a channel refusal): the order stays open', async () => {
        const mchOrderNo = id('f');
        await order(mchOrderNo);
        gateway.injectFault({ kind: 'emptyBody', operation: 'close', when: 'before' });
        await expect(client.close({ mchOrderNo })).rejects.toBeInstanceOf(GatewayEmptyResponseError);
        expect((await client.query({ mchOrderNo })).state).toBe(PayOrderState.Generated);
      });

      it('truncatedJson: a truncated-response error', async () => {
        gateway.injectFault({ kind: 'truncatedJson', operation: 'query' });
        const mchOrderNo = id('f');
        await order(mchOrderNo);
        await expect(client.query({ mchOrderNo })).rejects.toBeInstanceOf(GatewayTruncatedResponseError);
      });

      it('connectionReset after processing: the order exists, and resending the same mchOrderNo is refused as a duplicate', async () => {
        const mchOrderNo = id('f');
        gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'after' });
        await expect(order(mchOrderNo)).rejects.toBeInstanceOf(GatewayConnectionError);
        expect(gateway.orders().filter((o) => o.mchOrderNo === mchOrderNo)).toHaveLength(1);
        expect((await client.query({ mchOrderNo })).state).toBe(PayOrderState.Generated); // reconcile by your key
        await expect(order(mchOrderNo)).rejects.toMatchObject({ msg: `商户订单[${mchOrderNo}]已存在` });
        expect(gateway.orders().filter((o) => o.mchOrderNo === mchOrderNo)).toHaveLength(1);
      });

      it('connectionReset before processing: nothing is created', async () => {
        const mchOrderNo = id('f');
        gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'before' });
        await expect(order(mchOrderNo)).rejects.toBeInstanceOf(GatewayConnectionError);
        expect(gateway.order(mchOrderNo)).toBeUndefined();
        await expect(order(mchOrderNo)).resolves.toMatchObject({ mchOrderNo });
      });

      it('a fault aimed at one operation leaves the others alone, and strikes `times` times', async () => {
        const mchOrderNo = id('f');
        const fault = gateway.injectFault({ kind: 'html502', operation: 'query', times: 2 });
        await order(mchOrderNo);
        await expect(client.query({ mchOrderNo })).rejects.toBeInstanceOf(GatewayHttpStatusError);
        await expect(client.query({ mchOrderNo })).rejects.toBeInstanceOf(GatewayHttpStatusError);
        await expect(client.query({ mchOrderNo })).resolves.toMatchObject({ mchOrderNo });
        expect(fault.hits).toBe(2);
      });
    });
  });
}
