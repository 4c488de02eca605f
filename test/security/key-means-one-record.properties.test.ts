// A key means one record (issue 35), as a property: whatever schedule of lost answers, unsigned statuses and
// refusals (before the record is stored or after) meets a create and its lookups, the gateway never holds two
// records under the key, a call that resolved has the record, and a call rejected as refused has none.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayApiError, GatewayClient, GatewayError } from '../../src/index.js';
import { operations } from '../../src/operations/table.js';
import { createMockGateway } from '../../src/testing/index.js';
import { faultyFetch, type ProxyFault } from '../support/fault-proxy.js';
import { propertyRuns } from '../support/property-runs.js';

const MERCHANT = { mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9', secret: 'jeepay-test-secret-0123456789' };

/** What may meet a create: nothing, a loss, an unsigned status or a refusal, before the gateway acted or after. */
const CREATE_FATES: readonly ProxyFault[] = [
  'none', 'resetBefore', 'resetAfter', 'html502Before', 'html502After', 'status408Before', 'status408After', 'status429Before', 'status429After',
  'refusedBefore:系统异常', 'refusedAfter:系统异常', 'refusedAfter:更新退款单异常!', 'refusedBefore:数据库异常',
];
/** What may meet a lookup: nothing, or a loss before the gateway read anything. */
const LOOKUP_FATES: readonly ProxyFault[] = ['none', 'html502Before', 'resetBefore', 'status429Before'];

const schedule = fc.record({
  operation: fc.constantFrom('unifiedOrder', 'refundOrder'),
  creates: fc.array(fc.constantFrom(...CREATE_FATES), { minLength: 1, maxLength: 5 }),
  lookups: fc.array(fc.constantFrom(...LOOKUP_FATES), { maxLength: 4 }),
  maxRetries: fc.integer({ min: 0, max: 3 }),
  // The merchant calls again with the same key after a failure (a retried job, a double click).
  retriedByMerchant: fc.boolean(),
});

describe('no schedule of faults makes two records under one key, or reports a refusal while a record exists', () => {
  for (const { label, parameters } of propertyRuns(300, 35, 60)) {
    it(label, async () => {
      await fc.assert(
        fc.asyncProperty(schedule, async ({ operation, creates, lookups, maxRetries, retriedByMerchant }) => {
          const gateway = createMockGateway({ merchants: [MERCHANT] });
          const setup = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch });
          const order = await setup.unifiedOrder({ mchOrderNo: 'paid-1', wayCode: 'QR_CASHIER', amount: 1000, currency: 'USD', subject: 's', body: 'b' });
          gateway.payOrder(order.payOrderId);
          const lookup = operations[operation].reconcile.lookup;
          const fates = { [operations[operation].path]: [...creates], [operations[lookup].path]: [...lookups] };
          const decide = (path: string): ProxyFault => fates[path]?.shift() ?? 'none';
          const client = new GatewayClient({
            baseUrl: 'https://gateway.test', ...MERCHANT, fetch: faultyFetch(gateway.fetch, decide),
            retry: { maxRetries, initialDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 1 },
          });
          const params =
            operation === 'unifiedOrder'
              ? { mchOrderNo: 'order-key', wayCode: 'QR_CASHIER', amount: 700, currency: 'USD', subject: 's', body: 'b' }
              : { payOrderId: order.payOrderId, mchRefundNo: 'refund-key', refundAmount: 400, currency: 'USD', refundReason: 'r' };
          const held = () => (operation === 'unifiedOrder' ? gateway.orders().filter((o) => o.mchOrderNo === 'order-key') : gateway.refunds().filter((r) => r.mchRefundNo === 'refund-key')).length;
          const judge = (outcome: unknown) => {
            expect(held()).toBeLessThanOrEqual(1);
            if (outcome instanceof GatewayApiError) expect(held(), `refused (${outcome.reason}) while a record exists`).toBe(0);
            else if (outcome instanceof GatewayError) return;
            else expect(held(), 'resolved without a record').toBe(1);
          };
          const call = () => client[operation](params as never).catch((e: unknown) => e);
          const first = await call();
          judge(first);
          if (retriedByMerchant && first instanceof GatewayError) judge(await call());
        }),
        parameters,
      );
    });
  }
});
