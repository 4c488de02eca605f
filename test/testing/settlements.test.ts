// Settlement on the mock: declared addresses under review, settlement rules (spec 4.5), records by requestId.
import { beforeEach, describe, expect, it } from 'vitest';
import { createMockGateway, MOCK_MESSAGES, MockAddressStatus, MockSettlementStatus, type MockGateway } from '../../src/testing/index.js';
import { call, expectedSign, MERCHANT, OTHER_MERCHANT, START } from '../support/raw-gateway.js';

const ADDRESS = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
let gateway: MockGateway;
beforeEach(() => {
  gateway = createMockGateway({ merchants: [MERCHANT, OTHER_MERCHANT], startTime: START });
});

const declare = async (requestId = 'addr-1', tokenId = 'TRON_USDT') =>
  (await call(gateway, 'settleAddressApply', { requestId, tokenId, address: ADDRESS, remark: 'treasury' })).json;

const settle = (fields: Record<string, string | number | undefined>) =>
  call(gateway, 'settleRequest', { requestId: 'settle-1', amount: 150000, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', ...fields });

describe('settleAddressApply', () => {
  it('records the address under review and answers a signed { serverRequestId, status }', async () => {
    const answer = await declare();
    expect(answer).toMatchObject({ code: 200, data: { serverRequestId: expect.stringMatching(/^SA/), status: MockAddressStatus.UnderReview } });
    expect(answer.sign).toBe(expectedSign(answer.data ?? {}));
    expect(gateway.address('addr-1')).toMatchObject({ address: ADDRESS, remark: 'treasury', tokenId: 'TRON_USDT', status: MockAddressStatus.UnderReview });
  });

  it('refuses a duplicate requestId of the same merchant', async () => {
    await declare();
    expect(await declare()).toEqual({ code: 9999, msg: MOCK_MESSAGES.duplicateRequestId('addr-1') });
    expect((await call(gateway, 'settleAddressApply', { requestId: 'addr-1', tokenId: 'TRON_USDT', address: ADDRESS }, OTHER_MERCHANT)).json.code).toBe(200);
  });

  it('refuses a missing address', async () => {
    expect((await call(gateway, 'settleAddressApply', { requestId: 'a', tokenId: 'TRON_USDT' })).json).toEqual({ code: 9999, msg: MOCK_MESSAGES.required('address') });
  });
});

describe('settleRequest', () => {
  it('settles to a declared address only once it is approved', async () => {
    const { serverRequestId } = (await declare()).data as { serverRequestId: string };
    expect((await settle({ addrServerRequestId: serverRequestId })).json.msg).toBe(MOCK_MESSAGES.addressNotApproved);
    expect(gateway.approveAddress('addr-1').status).toBe(MockAddressStatus.Approved);
    const answer = await settle({ addrServerRequestId: serverRequestId, notifyUrl: 'https://shop.test/settled' });
    expect(answer.json).toMatchObject({ code: 200, data: { serverRequestId: expect.stringMatching(/^SR/), status: MockSettlementStatus.Pending } });
    expect(answer.json.sign).toBe(expectedSign(answer.json.data ?? {}));
  });

  it('refuses a rejected, unknown, other-token or other-merchant address', async () => {
    const first = (await declare('addr-1')).data as { serverRequestId: string };
    const second = (await declare('addr-2', 'ETH_USDT')).data as { serverRequestId: string };
    gateway.rejectAddress(first.serverRequestId);
    gateway.approveAddress('addr-2');
    expect((await settle({ addrServerRequestId: first.serverRequestId })).json.msg).toBe(MOCK_MESSAGES.addressNotApproved);
    expect((await settle({ addrServerRequestId: 'SA-unknown' })).json.msg).toBe(MOCK_MESSAGES.addressNotFound);
    expect((await settle({ addrServerRequestId: second.serverRequestId })).json.msg).toBe(MOCK_MESSAGES.addressTokenMismatch);
    const other = await call(gateway, 'settleRequest', { requestId: 's', amount: 1, tokenId: 'ETH_USDT', payoutChannel: 'Crypto', currency: 'USD', addrServerRequestId: second.serverRequestId }, OTHER_MERCHANT);
    expect(other.json.msg).toBe(MOCK_MESSAGES.addressNotFound);
    expect(() => gateway.approveAddress('addr-1')).toThrow(/already reviewed/);
  });

  it.each([
    ['neither address nor addrServerRequestId', {}, MOCK_MESSAGES.addressChoice],
    ['both address and addrServerRequestId', { address: ADDRESS, addrServerRequestId: 'SA1' }, MOCK_MESSAGES.addressChoice],
    ['payoutChannel OffRamp', { address: ADDRESS, payoutChannel: 'OffRamp' }, MOCK_MESSAGES.payoutChannelUnsupported],
    ['currency EUR', { address: ADDRESS, currency: 'EUR' }, MOCK_MESSAGES.currencyUnsupported],
    ['amount 0', { address: ADDRESS, amount: 0 }, MOCK_MESSAGES.settleAmount],
    ['no tokenId', { address: ADDRESS, tokenId: undefined }, MOCK_MESSAGES.required('tokenId')],
  ])('refuses %s', async (_name, fields, msg) => {
    expect((await settle(fields)).json).toEqual({ code: 9999, msg });
  });

  it('refuses a duplicate requestId', async () => {
    expect((await settle({ address: ADDRESS })).json.code).toBe(200);
    expect((await settle({ address: ADDRESS, amount: 1 })).json).toEqual({ code: 9999, msg: MOCK_MESSAGES.duplicateRequestId('settle-1') });
  });
});

describe('settleRequestGet', () => {
  it('reads the record by requestId as it progresses', async () => {
    const { serverRequestId } = (await declare()).data as { serverRequestId: string };
    gateway.approveAddress(serverRequestId);
    await settle({ addrServerRequestId: serverRequestId, notifyUrl: 'https://shop.test/settled' });
    const read = async () => (await call(gateway, 'settleRequestGet', { requestId: 'settle-1' })).json;
    const first = await read();
    expect(first.data).toEqual({
      serverRequestId: expect.stringMatching(/^SR/), requestId: 'settle-1', tokenId: 'TRON_USDT', currency: 'USD', amount: 150000,
      status: MockSettlementStatus.Pending, address: ADDRESS, notifyUrl: 'https://shop.test/settled',
    });
    expect(first.sign).toBe(expectedSign(first.data ?? {}));
    gateway.progressSettlement('settle-1');
    expect((await read()).data?.status).toBe(MockSettlementStatus.Processing);
    gateway.progressSettlement('settle-1');
    expect((await read()).data?.status).toBe(MockSettlementStatus.Completed);
    expect(() => gateway.progressSettlement('settle-1')).toThrow(/already final/);
  });

  it('can fail a settlement, and finds only the merchant\'s own records', async () => {
    await settle({ address: ADDRESS });
    expect(gateway.progressSettlement('settle-1', 'failed').status).toBe(MockSettlementStatus.Failed);
    expect((await call(gateway, 'settleRequestGet', { requestId: 'settle-1' }, OTHER_MERCHANT)).json).toEqual({ code: 9999, msg: MOCK_MESSAGES.settlementNotFound });
    expect(() => gateway.progressSettlement('nope')).toThrow(/nothing with serverRequestId or requestId "nope"/);
    expect(gateway.settlement('nope')).toBeUndefined();
  });
});
