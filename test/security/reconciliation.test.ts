// Reconciliation returns only the record that was asked for (issue 9, defect 5), against the mock
// gateway's real order and settlement books; and the onReconcile hook that reports each lookup.
import { describe, expect, it } from 'vitest';
import { GatewayClient, GatewayOutcomeUnknownError, GatewayReconciliationMismatchError, PayOrderState, type GatewayHooks } from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';

type ReconcileEvent = GatewayHooks.ReconcileEvent;

const MERCHANT = { mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9', secret: 'jeepay-test-secret-0123456789' };

function setup() {
  const gateway = createMockGateway({ merchants: [MERCHANT] });
  const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch, retry: { initialDelayMs: 1, maxDelayMs: 2 } });
  return { gateway, client };
}

const order = (mchOrderNo: string, amount: number) => ({ mchOrderNo, wayCode: 'QR_CASHIER', amount, currency: 'USD', subject: 'Sofa', body: 'Sofa' }) as const;

describe('a create reconciles only to the record it asked for', () => {
  it('a 500000 order reusing the mchOrderNo of an old paid 100 order does not come back as paid', async () => {
    const { gateway, client } = setup();
    await client.unifiedOrder(order('reused-1', 100));
    gateway.payOrder('reused-1');
    // The new create is lost before the gateway sees it (a proxy's 502), so the client looks the key up.
    gateway.injectFault({ kind: 'html502', operation: 'unifiedOrder', when: 'before' });
    const error = await client.unifiedOrder(order('reused-1', 500000)).then(() => undefined, (e: unknown) => e as GatewayReconciliationMismatchError) as GatewayReconciliationMismatchError;
    expect(error).toBeInstanceOf(GatewayReconciliationMismatchError);
    expect(error).toMatchObject({ operation: 'unifiedOrder', key: { name: 'mchOrderNo', value: 'reused-1' }, differences: [{ field: 'amount', expected: 500000, found: 100 }] });
    expect(error.message).toMatch(/mchOrderNo 'reused-1'.*amount: sent 500000, found 100/);
    expect(gateway.order('reused-1')?.state).toBe(PayOrderState.Succeeded); // the old order, untouched
  });

  it('names every differing field (currency compared case-insensitively), and the same request still reconciles', async () => {
    const { gateway, client } = setup();
    await client.unifiedOrder(order('reused-2', 100));
    gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'before' });
    const error = await client.unifiedOrder({ ...order('reused-2', 100), wayCode: 'WEB_CASHIER', currency: 'usd' }).then(() => undefined, (e: unknown) => e as GatewayReconciliationMismatchError) as GatewayReconciliationMismatchError;
    expect(error.differences).toEqual([{ field: 'wayCode', expected: 'WEB_CASHIER', found: 'QR_CASHIER' }]);
    // The create that was asked for, lost after the gateway made it: reconciled as before.
    gateway.injectFault({ kind: 'html502', operation: 'unifiedOrder', when: 'after' });
    const result = await client.withResponse('unifiedOrder', order('same-3', 250));
    expect(result).toMatchObject({ reconciled: true, data: { mchOrderNo: 'same-3' } });
  });

  it('settleRequest: a record with another amount, token or address under the requestId is a mismatch', async () => {
    const { gateway, client } = setup();
    const request = { requestId: 'set-1', amount: 500, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf' } as const;
    await client.settleRequest(request);
    gateway.injectFault({ kind: 'html502', operation: 'settleRequest', when: 'before' });
    const error = (await client.settleRequest({ ...request, amount: 90000, address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' }).catch((e: unknown) => e)) as GatewayReconciliationMismatchError;
    expect(error).toBeInstanceOf(GatewayReconciliationMismatchError);
    expect(error.differences.map((d) => d.field)).toEqual(['amount', 'address']);
  });
});

describe('the onReconcile hook reports each lookup', () => {
  function observed() {
    const gateway = createMockGateway({ merchants: [MERCHANT] });
    const events: ReconcileEvent[] = [];
    const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch, retry: { initialDelayMs: 1, maxDelayMs: 2 }, hooks: { onReconcile: (e) => events.push(e) } });
    return { gateway, client, events };
  }

  it('found: the create was made, then its answer lost', async () => {
    const { gateway, client, events } = observed();
    gateway.injectFault({ kind: 'html502', operation: 'unifiedOrder', when: 'after' });
    await client.unifiedOrder(order('hook-found', 100));
    expect(events).toEqual([{ operation: 'unifiedOrder', key: { name: 'mchOrderNo', value: 'hook-found' }, outcome: 'found' }]);
  });

  it('absent: the create never arrived, so it is sent again', async () => {
    const { gateway, client, events } = observed();
    gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'before' });
    await client.unifiedOrder(order('hook-absent', 100));
    expect(events.map((e) => e.outcome)).toEqual(['absent']);
    expect(gateway.requests.filter((r) => r.operation === 'unifiedOrder')).toHaveLength(2);
  });

  it('mismatch: another record holds the key', async () => {
    const { gateway, client, events } = observed();
    await client.unifiedOrder(order('hook-mismatch', 100));
    gateway.injectFault({ kind: 'html502', operation: 'unifiedOrder', when: 'before' });
    await expect(client.unifiedOrder(order('hook-mismatch', 200))).rejects.toBeInstanceOf(GatewayReconciliationMismatchError);
    expect(events.map((e) => e.outcome)).toEqual(['mismatch']);
  });

  it('unknown: the lookup failed too', async () => {
    const { gateway, client, events } = observed();
    gateway.injectFault({ kind: 'html502', operation: 'unifiedOrder', when: 'after' });
    gateway.injectFault({ kind: 'html502', operation: 'query', when: 'before', times: 10 });
    await expect(client.unifiedOrder(order('hook-unknown', 100))).rejects.toBeInstanceOf(GatewayOutcomeUnknownError);
    expect(events).toEqual([{ operation: 'unifiedOrder', key: { name: 'mchOrderNo', value: 'hook-unknown' }, outcome: 'unknown' }]);
  });

  it('a settlement is reported by its requestId', async () => {
    const { gateway, client, events } = observed();
    gateway.injectFault({ kind: 'truncatedJson', operation: 'settleRequest', when: 'after' });
    await client.settleRequest({ requestId: 'hook-set', amount: 500, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf' });
    expect(events).toEqual([{ operation: 'settleRequest', key: { name: 'requestId', value: 'hook-set' }, outcome: 'found' }]);
  });
});
