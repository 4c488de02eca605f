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
  PayOrderState,
  type GatewayClientOptions,
} from '../../src/index.js';
import { createMockGateway, MockAddressStatus, MockSettlementStatus, type MockGateway } from '../../src/testing/index.js';
import { created } from './created.js';

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
    // No backoff wait: the mock answers at once, and retries are what these tests are about.
    const clientWith = (overrides: Partial<GatewayClientOptions>) =>
      new GatewayClient({ ...connection, ...E2E_MERCHANT, retry: { initialDelayMs: 0, maxDelayMs: 0 }, ...overrides } as GatewayClientOptions);
    /** The last requests the gateway saw, as [operation, answered code]. */
    const operationsSince = (from: number) => gateway.requests.slice(from).map((r) => [r.operation, r.code]);
    const create = (mchOrderNo: string, extra: Record<string, unknown> = {}) =>
      client.unifiedOrder({ mchOrderNo, wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: 'T-shirt', body: 'Blue, M', ...extra });
    const order = (mchOrderNo: string, extra: Record<string, unknown> = {}) => created(create(mchOrderNo, extra));

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
        expect(created).toMatchObject({ mchOrderNo, orderState: PayOrderState.Generated, payDataType: 'codeImgUrl', payData: expect.stringMatching(/\/cashier\/P\d+\/qr\.svg$/) });
        gateway.payOrder(created.payOrderId);
        const paid = await client.query({ payOrderId: created.payOrderId });
        expect(paid).toMatchObject({ mchOrderNo, state: PayOrderState.Succeeded, amount: 1999, extParam: '{"cart":7}', successTime: gateway.now() });
      });

      it('close, then query: state 6; closing again resolves, closing a paid order is refused', async () => {
        const mchOrderNo = id('o');
        await order(mchOrderNo, { wayCode: 'WX_H5' });
        await expect(client.close({ mchOrderNo })).resolves.toBeUndefined();
        expect((await client.query({ mchOrderNo })).state).toBe(PayOrderState.Closed);
        // The gateway refuses a second close; the client looks the order up and finds it closed: done.
        await expect(client.close({ mchOrderNo })).resolves.toBeUndefined();
        expect(operationsSince(-2)).toEqual([['close', 9999], ['query', 200]]);
        const paid = id('o');
        await order(paid);
        gateway.payOrder(paid);
        await expect(client.close({ mchOrderNo: paid })).rejects.toMatchObject({ name: 'GatewayApiError', code: 9999, msg: '当前订单不可关闭' });
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
        const first = await order(mchOrderNo);
        // The duplicate is looked up: the identical order resolves to the one made; another amount is a key conflict.
        await expect(create(mchOrderNo)).resolves.toMatchObject({ payOrderId: first.payOrderId, recovered: true });
        await expect(create(mchOrderNo, { amount: 2 })).rejects.toMatchObject({ cause: { code: 9999, msg: `商户订单[${mchOrderNo}]已存在` } });
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

      it('a duplicate requestId resolves to the settlement made; an unknown record is refused', async () => {
        const requestId = id('settle');
        const params = { requestId, amount: 1, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: ADDRESS } as const;
        const made = await client.settleRequest(params);
        await expect(client.withResponse('settleRequest', params)).resolves.toMatchObject({ replayed: true, data: { serverRequestId: made.serverRequestId } });
        await expect(client.settleRequestGet({ requestId: id('nope') })).rejects.toBeInstanceOf(GatewayApiError);
      });
    });

    describe('faults: retries and reconciliation against a stateful gateway', () => {
      const ordersWith = (mchOrderNo: string) => gateway.orders().filter((o) => o.mchOrderNo === mchOrderNo);

      it('reset after the order was created: the client finds it by mchOrderNo, no duplicate', async () => {
        const mchOrderNo = id('f');
        gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'after' });
        const result = await client.withResponse('unifiedOrder', { mchOrderNo, wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: 's', body: 'b' });
        expect(result).toMatchObject({ reconciled: true, attempts: 2, data: { mchOrderNo, orderState: PayOrderState.Generated } });
        expect(ordersWith(mchOrderNo)).toHaveLength(1);
        expect(result.data.payOrderId).toBe(ordersWith(mchOrderNo)[0]?.payOrderId);
        expect(operationsSince(-2)).toEqual([['unifiedOrder', 200], ['query', 200]]);
      });

      it('reset before the gateway saw it: the lookup finds nothing, the create is sent again, once', async () => {
        const mchOrderNo = id('f');
        gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'before' });
        await expect(order(mchOrderNo)).resolves.toMatchObject({ mchOrderNo });
        expect(ordersWith(mchOrderNo)).toHaveLength(1);
        expect(operationsSince(-3)).toEqual([['unifiedOrder', undefined], ['query', 9999], ['unifiedOrder', 200]]);
      });

      it('a wrong sign or an HTML 502 on a create is settled the same way', async () => {
        const signed = id('f');
        gateway.injectFault({ kind: 'wrongSign', operation: 'unifiedOrder' });
        await expect(create(signed)).resolves.toMatchObject({ mchOrderNo: signed, recovered: true }); // made, then found
        const proxied = id('f');
        gateway.injectFault({ kind: 'html502', operation: 'unifiedOrder', when: 'before' });
        await expect(create(proxied)).resolves.toMatchObject({ mchOrderNo: proxied, recovered: false }); // proved absent, sent again
        expect([ordersWith(signed).length, ordersWith(proxied).length]).toEqual([1, 1]);
      });

      it('reset after a settlement request: reconciled through settleRequestGet', async () => {
        const requestId = id('settle');
        gateway.injectFault({ kind: 'connectionReset', operation: 'settleRequest', when: 'after' });
        const result = await client.withResponse('settleRequest', { requestId, amount: 1, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: ADDRESS });
        expect(result).toMatchObject({ reconciled: true, data: { serverRequestId: gateway.settlement(requestId)?.serverRequestId } });
      });

      it('reset after an address declaration (no lookup exists): outcome unknown, and a resend, refused as a duplicate, is unknown too', async () => {
        const requestId = id('addr');
        const params = { requestId, tokenId: 'TRON_USDT', address: ADDRESS };
        gateway.injectFault({ kind: 'connectionReset', operation: 'settleAddressApply', when: 'after' });
        await expect(client.settleAddressApply(params)).rejects.toMatchObject({ name: 'GatewayOutcomeUnknownError', key: { name: 'requestId', value: requestId } });
        expect(gateway.address(requestId)?.status).toBe(MockAddressStatus.UnderReview);
        await expect(client.settleAddressApply(params)).rejects.toMatchObject({ name: 'GatewayOutcomeUnknownError', cause: { code: 9999, msg: expect.stringContaining(requestId) } });
      });

      it('reads are retried: a truncated body, then the answer', async () => {
        const mchOrderNo = id('f');
        await order(mchOrderNo);
        gateway.injectFault({ kind: 'truncatedJson', operation: 'query' });
        await expect(client.withResponse('query', { mchOrderNo })).resolves.toMatchObject({ attempts: 2, data: { mchOrderNo } });
      });

      it('reads give up after the retries: the last error surfaces', async () => {
        const mchOrderNo = id('f');
        await order(mchOrderNo);
        const fault = gateway.injectFault({ kind: 'html502', operation: 'query', times: 3 });
        await expect(client.query({ mchOrderNo })).rejects.toMatchObject({ name: 'GatewayHttpStatusError', status: 502 });
        expect(fault.hits).toBe(3); // one attempt and the 2 default retries
        await expect(client.query({ mchOrderNo })).resolves.toMatchObject({ mchOrderNo });
      });

      it('close with an empty body (the channel refused): retried; when it keeps failing the order stays open', async () => {
        const mchOrderNo = id('f');
        await order(mchOrderNo);
        gateway.injectFault({ kind: 'emptyBody', operation: 'close', when: 'before', times: 3 });
        await expect(client.close({ mchOrderNo })).rejects.toBeInstanceOf(GatewayEmptyResponseError);
        expect((await client.query({ mchOrderNo })).state).toBe(PayOrderState.Generated);
        gateway.injectFault({ kind: 'emptyBody', operation: 'close', when: 'before' });
        await expect(client.close({ mchOrderNo })).resolves.toBeUndefined();
        expect((await client.query({ mchOrderNo })).state).toBe(PayOrderState.Closed);
      });

      it('a fault aimed at one operation leaves the others alone', async () => {
        const mchOrderNo = id('f');
        const fault = gateway.injectFault({ kind: 'connectionReset', operation: 'settleRequestGet', when: 'before' });
        await order(mchOrderNo);
        await client.query({ mchOrderNo });
        expect(fault).toMatchObject({ hits: 0, remaining: 1 });
        await expect(clientWith({ retry: { maxRetries: 0 } }).settleRequestGet({ requestId: id('nope') })).rejects.toBeInstanceOf(GatewayConnectionError);
      });
    });
  });
}
