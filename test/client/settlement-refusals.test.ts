// Every refusal the mock gateway gives a settlement reads as its own reason with advice (issue 18 §3): a
// declared address not yet approved is not a generic parameter error.
import { describe, expect, it } from 'vitest';
import { GatewayApiError, GatewayClient, GatewayReconciliationMismatchError, type GatewayApiErrorReason } from '../../src/index.js';
import { createMockGateway, MOCK_MESSAGES } from '../../src/testing/index.js';

const MERCHANT = { mchNo: 'M1700000001', appId: 'app-1', secret: 'test-secret-0123456789' };
const ADDRESS = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
const payout = { amount: 500, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD' } as const;

async function refusal(promise: Promise<unknown>): Promise<GatewayApiError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!(error instanceof GatewayApiError)) throw new Error(`expected a GatewayApiError, got ${String(error)}`);
  return error;
}

describe('settlement refusals, through the client against the mock', () => {
  const gateway = createMockGateway({ merchants: [MERCHANT] });
  const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch });

  it.each<[string, () => Promise<unknown>, GatewayApiErrorReason, string, RegExp]>([
    [
      'an address still under review',
      async () => client.settleRequest({ ...payout, requestId: 'r-review', addrServerRequestId: (await client.settleAddressApply({ requestId: 'a-review', tokenId: 'TRON_USDT', address: ADDRESS })).serverRequestId }),
      'address_not_approved', MOCK_MESSAGES.addressNotApproved, /^The declared address is not approved: the platform has not reviewed it yet, or rejected it/,
    ],
    [
      'a rejected address',
      async () => {
        const { serverRequestId } = await client.settleAddressApply({ requestId: 'a-rejected', tokenId: 'TRON_USDT', address: ADDRESS });
        gateway.rejectAddress(serverRequestId);
        return client.settleRequest({ ...payout, requestId: 'r-rejected', addrServerRequestId: serverRequestId });
      },
      'address_not_approved', MOCK_MESSAGES.addressNotApproved, /^The declared address is not approved/,
    ],
    [
      'an address declared for another token',
      async () => {
        const { serverRequestId } = await client.settleAddressApply({ requestId: 'a-eth', tokenId: 'ETH_USDT', address: `0x${'1'.repeat(40)}` });
        gateway.approveAddress(serverRequestId);
        return client.settleRequest({ ...payout, requestId: 'r-token', addrServerRequestId: serverRequestId });
      },
      'address_token_mismatch', MOCK_MESSAGES.addressTokenMismatch, /^The declared address was declared for another tokenId/,
    ],
    ['an unknown declared address', async () => client.settleRequest({ ...payout, requestId: 'r-unknown', addrServerRequestId: 'SA-NOPE' }), 'address_not_found', MOCK_MESSAGES.addressNotFound, /^The gateway has no declared address with this addrServerRequestId/],
    ['an unknown settlement', async () => client.settleRequestGet({ requestId: 'r-none' }), 'record_not_found', MOCK_MESSAGES.settlementNotFound, /^The gateway has no such record/],
  ])('%s', async (_case, call, reason, msg, advice) => {
    const error = await refusal(call());
    expect(error).toMatchObject({ reason, msg });
    expect(error.message).toMatch(advice);
    expect(error.message.endsWith(msg)).toBe(true); // the gateway's own text, verbatim
  });

  it('a duplicate requestId is looked up before it is believed: another amount under it is a key conflict naming the field, the refusal its cause', async () => {
    await client.settleRequest({ ...payout, requestId: 'r-dup', address: ADDRESS });
    const error = await client.settleRequest({ ...payout, requestId: 'r-dup', address: ADDRESS, amount: 9 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayReconciliationMismatchError);
    expect((error as GatewayReconciliationMismatchError).differences.map((d) => d.field)).toEqual(['amount']);
    expect((error as Error).message).toMatch(/requestId 'r-dup' is used by another request/);
    expect((error as Error).cause).toMatchObject({ reason: 'duplicate_request', msg: MOCK_MESSAGES.duplicateRequestId('r-dup') });
    // The identical repeat resolves to the settlement made the first time.
    const again = await client.withResponse('settleRequest', { ...payout, requestId: 'r-dup', address: ADDRESS });
    expect(again).toMatchObject({ replayed: true, reconciled: true });
    expect(gateway.state().settlements.filter((r) => r.requestId === 'r-dup')).toHaveLength(1);
  });
});
