// Settlement on the mock: declared addresses under review, settlement rules (spec 4.5), records by requestId.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { listState } from '../../src/cli/mock-list.js';
import { addressPart } from '../../src/kinds/settlements/mock-address-part.js';
import { settlementKind } from '../../src/kinds/settlements/mock.js';
import { LOGGED_NAMES } from '../../src/testing/domain/logged-names.js';
import { createMockGateway, MOCK_MESSAGES, MockAddressStatus, MockSettlementStatus, type MockGateway } from '../../src/testing/index.js';
import { call, expectedSign, MERCHANT, ORIGIN, OTHER_MERCHANT, START } from '../support/raw-gateway.js';

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

describe('the declared addresses, a part of the mock (issue 36)', () => {
  it('are reviewed through their routes of a path segment, as by the facade; a second review is refused with its reason', async () => {
    const { serverRequestId } = (await declare()).data as { serverRequestId: string };
    await declare('addr-2');
    const approved = await gateway.fetch(`${ORIGIN}/_mock/addresses/${serverRequestId}/approve`, { method: 'POST' });
    expect(await approved.json()).toEqual({ ...gateway.address(serverRequestId) });
    expect(gateway.address('addr-1')?.status).toBe(MockAddressStatus.Approved);
    const again = await gateway.fetch(`${ORIGIN}/_mock/addresses/addr-1/reject`, { method: 'POST' });
    expect([again.status, await again.json()]).toEqual([400, { error: `rejectAddress: address ${serverRequestId} was already reviewed` }]);
    const unknown = await gateway.fetch(`${ORIGIN}/_mock/addresses/addr-9/approve`, { method: 'POST' });
    expect(await unknown.json()).toEqual({ error: 'approveAddress: nothing with serverRequestId or requestId "addr-9"' });
    expect(gateway.rejectAddress('addr-2').status).toBe(MockAddressStatus.Rejected);
    expect(gateway.state().addresses.map((a) => [a.requestId, a.status])).toEqual([['addr-2', MockAddressStatus.Rejected], ['addr-1', MockAddressStatus.Approved]]);
  });

  it('show on the dashboard, with Approve and Reject while under review, and in mock list', async () => {
    const { serverRequestId } = (await declare()).data as { serverRequestId: string };
    const page = await (await gateway.fetch(`${ORIGIN}/`)).text();
    const row = page.slice(page.indexOf(`<tr data-address="${serverRequestId}">`));
    expect(row.slice(0, row.indexOf('</tr>'))).toContain(
      `<td>under review</td>\n        <td><button class="primary" data-post="/_mock/addresses/${serverRequestId}/approve">Approve</button> <button class="danger" data-post="/_mock/addresses/${serverRequestId}/reject">Reject</button></td>`,
    );
    gateway.approveAddress(serverRequestId);
    const reviewed = await (await gateway.fetch(`${ORIGIN}/`)).text();
    expect(reviewed).toContain('<td>approved</td>');
    expect(reviewed).not.toContain(`/_mock/addresses/${serverRequestId}/approve`);
    expect(listState(gateway.state() as never)).toEqual(expect.arrayContaining(['Declared addresses (1)', `  ${serverRequestId}  requestId addr-1  TRON_USDT ${ADDRESS}  status 1`]));
  });

  it("the request log's names of statuses come from the declarations: the settlement kind's states, the addresses' logged names", () => {
    const settlementNames = Object.fromEntries(Object.entries(settlementKind.states.names).map(([name, status]) => [status, name]));
    expect(LOGGED_NAMES.settleRequest?.status).toEqual(settlementNames);
    expect(LOGGED_NAMES.settleRequestGet?.status).toEqual({ 0: 'pending', 1: 'processing', 2: 'completed', 3: 'failed' });
    expect(LOGGED_NAMES.settleAddressApply).toBe(addressPart.logged?.settleAddressApply);
    const handler = readFileSync(fileURLToPath(new URL('../../src/testing/http/handler.ts', import.meta.url)), 'utf8');
    // No kind's folder (src/kinds/{kind}/): the shared operation machinery of src/kinds/ only.
    expect(handler).not.toMatch(/from '\.\.\/\.\.\/kinds\/\w+\//);
    expect(handler).toMatch(/from '\.\.\/\.\.\/kinds\/define-operation\.js'/);
  });
});
