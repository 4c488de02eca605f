// A key means one record (issue 35): a create's outcome is what exists under its key, never an unsigned status or a
// refusal taken on its word. Every create with a lookup is attacked through the public client, against the mock in
// process and over loopback behind a proxy that answers 408/429 after the gateway committed, or refuses after the
// record was stored (as the reference does); each case counts the records the gateway holds afterwards.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  GatewayApiError,
  GatewayClient,
  GatewayOutcomeUnknownError,
  GatewayReconciliationMismatchError,
  type GatewayHooks,
  type OperationName,
} from '../../src/index.js';
import { operations } from '../../src/operations/table.js';
import { createMockGateway, type MockGateway, type MockGatewayServer } from '../../src/testing/index.js';
import { faultyFetch, startFaultProxy, type FaultProxy, type ProxyFault } from '../support/fault-proxy.js';

const MERCHANT = { mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9', secret: 'jeepay-test-secret-0123456789' };
const ADDRESS = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';

/** What the reference answers after it stored the record (refunds.md, transfers.md): its own and a channel's texts. */
const REFUSED_AFTER_STORE = ['系统异常', '更新退款单异常!', '渠道系统异常: SYSTEMERROR 系统繁忙，请稍后再试'] as const;

/** A create with a lookup, as a merchant calls it: its parameters under a key, and the records the mock holds under it. */
interface Create {
  readonly operation: Extract<OperationName, 'unifiedOrder' | 'refundOrder' | 'settleRequest'>;
  /** The key's parameter. */
  readonly key: string;
  /** What must exist first (a paid order to refund). */
  prepare?(gateway: MockGateway, client: GatewayClient): Promise<Record<string, unknown>>;
  params(key: string, prepared: Record<string, unknown>): Record<string, unknown>;
  /** The field whose other value makes another request under the same key. */
  readonly differing: string;
  count(gateway: MockGateway, key: string): number;
}

const CREATES: readonly Create[] = [
  {
    operation: 'unifiedOrder',
    key: 'mchOrderNo',
    params: (key) => ({ mchOrderNo: key, wayCode: 'QR_CASHIER', amount: 1000, currency: 'USD', subject: 'Shirt', body: 'Blue shirt' }),
    differing: 'amount',
    count: (gateway, key) => gateway.orders().filter((o) => o.mchOrderNo === key).length,
  },
  {
    operation: 'refundOrder',
    key: 'mchRefundNo',
    async prepare(gateway, client) {
      const order = await client.unifiedOrder({ mchOrderNo: `paid-${Math.random().toString(36).slice(2)}`, wayCode: 'QR_CASHIER', amount: 1000, currency: 'USD', subject: 's', body: 'b' });
      gateway.payOrder(order.payOrderId);
      return { payOrderId: order.payOrderId };
    },
    params: (key, { payOrderId }) => ({ payOrderId, mchRefundNo: key, refundAmount: 400, currency: 'USD', refundReason: 'Returned: wrong size' }),
    differing: 'refundAmount',
    count: (gateway, key) => gateway.refunds().filter((r) => r.mchRefundNo === key).length,
  },
  {
    operation: 'settleRequest',
    key: 'requestId',
    params: (key) => ({ requestId: key, amount: 500, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: ADDRESS }),
    differing: 'amount',
    count: (gateway, key) => gateway.state().settlements.filter((s) => s.requestId === key).length,
  },
];

/** The two ways a merchant's client reaches the gateway: the mock's fetch in process, or loopback through a proxy. */
const PATHS = ['in process', 'over loopback'] as const;

let server: MockGatewayServer | undefined;
let proxy: FaultProxy | undefined;
const gateway = createMockGateway({ merchants: [MERCHANT] });
beforeAll(async () => {
  server = await gateway.listen({ port: 0 });
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});
afterAll(async () => server?.close());

let keys = 0;
const newKey = (operation: string) => `${operation}-${++keys}`;

/** A client on `path` whose requests of `operation` meet the faults `faults` names in turn (then none); its hooks count what was sent. */
async function clientOn(path: (typeof PATHS)[number], operation: OperationName, faults: readonly ProxyFault[]) {
  const sent: GatewayHooks.RequestEvent[] = [];
  let next = 0;
  const decide = (urlPath: string): ProxyFault => (urlPath === operations[operation].path ? (faults[next++] ?? 'none') : 'none');
  const common = { ...MERCHANT, retry: { initialDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 5 }, hooks: { onRequest: (e: GatewayHooks.RequestEvent) => sent.push(e) } };
  if (path === 'in process') return { client: new GatewayClient({ baseUrl: 'https://gateway.test', ...common, fetch: faultyFetch(gateway.fetch, decide) }), sent };
  proxy = await startFaultProxy(server!.url, decide);
  return { client: new GatewayClient({ baseUrl: proxy.url, ...common }), sent };
}

const plain = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch });
const creates = (sent: readonly GatewayHooks.RequestEvent[], operation: string) => sent.filter((e) => e.operation === operation);

describe.each(PATHS)('a key means one record, %s', (path) => {
  describe.each(CREATES)('$operation', (create) => {
    const setUp = async (faults: readonly ProxyFault[]) => {
      const key = newKey(create.operation);
      const prepared = (await create.prepare?.(gateway, plain)) ?? {};
      const { client, sent } = await clientOn(path, create.operation, faults);
      return { key, params: create.params(key, prepared), client, sent };
    };

    it.each(['status408After', 'status429After'] as const)('%s: the unsigned status after the commit is looked up, resolves to the one record, never re-sent', async (fault) => {
      const { key, params, client, sent } = await setUp([fault]);
      const response = await client.withResponse(create.operation, params as never);
      expect(response).toMatchObject({ reconciled: true, replayed: false });
      expect(create.count(gateway, key)).toBe(1);
      expect(creates(sent, create.operation)).toHaveLength(1);
    });

    it.each(REFUSED_AFTER_STORE)('refused with %j after the record was stored: looked up, resolves to the record, never reported refused', async (text) => {
      const { key, params, client, sent } = await setUp([`refusedAfter:${text}`]);
      const response = await client.withResponse(create.operation, params as never);
      expect(response).toMatchObject({ reconciled: true, replayed: true });
      expect(create.count(gateway, key)).toBe(1);
      expect(creates(sent, create.operation)).toHaveLength(1);
    });

    it('an identical repeat after success resolves to the record made (replayed), one lookup, nothing made again', async () => {
      const { key, params, client, sent } = await setUp([]);
      const first = await client.withResponse(create.operation, params as never);
      const again = await client.withResponse(create.operation, params as never);
      expect(first).toMatchObject({ reconciled: false, replayed: false });
      expect(again).toMatchObject({ reconciled: true, replayed: true });
      expect(create.count(gateway, key)).toBe(1);
      expect(sent.filter((e) => e.purpose === 'reconcile')).toHaveLength(create.operation === 'refundOrder' && 'mchOrderNo' in params ? 2 : 1);
    });

    it('the same key with another value is a key conflict naming the field, the refusal its cause; nothing is made', async () => {
      const { key, params, client } = await setUp([]);
      await client[create.operation](params as never);
      const value = params[create.differing] as number;
      const error = await client[create.operation]({ ...params, [create.differing]: value - 1 } as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayReconciliationMismatchError);
      expect((error as GatewayReconciliationMismatchError).differences).toEqual([{ field: create.differing, expected: value - 1, found: value }]);
      expect((error as Error).message).toMatch(new RegExp(`${create.key} '${key}' is used by another request`));
      expect((error as Error).cause).toBeInstanceOf(GatewayApiError);
      expect(create.count(gateway, key)).toBe(1);
    });

    it("the merchant's retry after an unknown outcome, with the same key, resolves to the record made the first time", async () => {
      // The answer is lost after the commit and every lookup fails: the outcome is unknown.
      const { key, params, client } = await setUp(['resetAfter']);
      gateway.injectFault({ kind: 'html502', operation: create.operation === 'settleRequest' ? 'settleRequestGet' : create.operation === 'refundOrder' ? 'refundQuery' : 'query', when: 'before', times: 4 });
      const unknown = await client[create.operation](params as never).catch((e: unknown) => e);
      gateway.clearFaults();
      expect(unknown).toBeInstanceOf(GatewayOutcomeUnknownError);
      expect((unknown as Error).message).toMatch(new RegExp(`send it again with the same ${create.key}`));
      const retried = await client.withResponse(create.operation, params as never);
      expect(retried).toMatchObject({ reconciled: true, replayed: true });
      expect(create.count(gateway, key)).toBe(1);
    });

    it('a refusal decided before any record (a wrong signature) is final at once: no lookup', async () => {
      const { params, sent } = await setUp([]);
      const wrongSecret = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, secret: 'not-the-secret', fetch: gateway.fetch, hooks: { onRequest: (e) => sent.push(e) } });
      const error = await wrongSecret[create.operation](params as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayApiError);
      expect((error as GatewayApiError).reason).toBe('signature_invalid');
      expect(sent.filter((e) => e.purpose === 'reconcile')).toHaveLength(0);
    });
  });

  it('settleAddressApply (no lookup): a 429 after the commit, or a refusal after storing, is an unknown outcome that says never to send it again', async () => {
    for (const fault of ['status429After', 'refusedAfter:系统异常'] as const) {
      const { client, sent } = await clientOn(path, 'settleAddressApply', [fault]);
      const error = await client.settleAddressApply({ requestId: newKey('addr'), tokenId: 'TRON_USDT', address: ADDRESS }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayOutcomeUnknownError);
      expect((error as Error).message).toMatch(/do not send it again/);
      expect(creates(sent, 'settleAddressApply')).toHaveLength(1);
      await proxy?.close();
      proxy = undefined;
    }
  });
});

describe('the refusals that stand', () => {
  it('a refund larger than what is left is looked up, found absent, and the refusal stands with its advice (no new key suggested)', async () => {
    const order = await plain.unifiedOrder({ mchOrderNo: newKey('order'), wayCode: 'QR_CASHIER', amount: 1000, currency: 'USD', subject: 's', body: 'b' });
    gateway.payOrder(order.payOrderId);
    const sent: GatewayHooks.RequestEvent[] = [];
    const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch, hooks: { onRequest: (e) => sent.push(e) } });
    const error = await client.refundOrder({ payOrderId: order.payOrderId, mchRefundNo: newKey('refund'), refundAmount: 1001, currency: 'USD', refundReason: 'r' }).catch((e: unknown) => e);
    expect((error as GatewayApiError).reason).toBe('refund_exceeds_refundable');
    expect((error as Error).message).toMatch(/^No refund was made under this mchRefundNo/);
    expect((error as Error).message).not.toMatch(/new mchRefundNo/);
    expect(sent.filter((e) => e.purpose === 'reconcile').map((e) => e.operation)).toEqual(['refundQuery']);
  });

  it('a refund of an unknown order is final at once (decided before any record): no lookup', async () => {
    const sent: GatewayHooks.RequestEvent[] = [];
    const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch, hooks: { onRequest: (e) => sent.push(e) } });
    const error = await client.refundOrder({ payOrderId: 'P-none', mchRefundNo: newKey('refund'), refundAmount: 1, currency: 'USD', refundReason: 'r' }).catch((e: unknown) => e);
    expect((error as GatewayApiError).reason).toBe('order_not_found');
    expect(sent.filter((e) => e.purpose === 'reconcile')).toHaveLength(0);
  });
});

describe("the mock's own faults put a merchant's tests on these paths", () => {
  it.each(PATHS)('%s: a refund stored then refused (refusedAfterStore) resolves to the refund in 0; the channel later pays it, notified once', async (path) => {
    const order = await plain.unifiedOrder({ mchOrderNo: newKey('order'), wayCode: 'QR_CASHIER', amount: 1000, currency: 'USD', subject: 's', body: 'b' });
    gateway.payOrder(order.payOrderId);
    const client = new GatewayClient({ baseUrl: path === 'in process' ? 'https://gateway.test' : server!.url, ...MERCHANT, ...(path === 'in process' ? { fetch: gateway.fetch } : {}) });
    const mchRefundNo = newKey('refund');
    gateway.injectFault({ kind: 'refusedAfterStore', operation: 'refundOrder', when: 'after', msg: '更新退款单异常!' });
    const response = await client.withResponse('refundOrder', { payOrderId: order.payOrderId, mchRefundNo, refundAmount: 300, currency: 'USD', refundReason: 'r' });
    expect(response).toMatchObject({ replayed: true, data: { mchRefundNo, state: 0 } });
    gateway.settleRefund(mchRefundNo, { to: 'succeed' });
    expect((await client.refundQuery({ mchRefundNo })).state).toBe(2);
    expect(gateway.refunds().filter((r) => r.mchRefundNo === mchRefundNo)).toHaveLength(1);
  });

  it.each(['status408', 'status429'] as const)('the mock answering %s after the commit: the order is found, never created twice', async (kind) => {
    const mchOrderNo = newKey('order');
    gateway.injectFault({ kind, operation: 'unifiedOrder', when: 'after' });
    const response = await new GatewayClient({ baseUrl: server!.url, ...MERCHANT, retry: { maxRetryAfterMs: 5 } }).withResponse('unifiedOrder', { mchOrderNo, wayCode: 'QR_CASHIER', amount: 1000, currency: 'USD', subject: 's', body: 'b' });
    expect(response).toMatchObject({ reconciled: true, data: { mchOrderNo, recovered: true } });
    expect(gateway.orders().filter((o) => o.mchOrderNo === mchOrderNo)).toHaveLength(1);
  });
});
