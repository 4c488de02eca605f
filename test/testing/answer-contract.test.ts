// The mock never sends an answer that breaks its operation's declared result (issue 30): a declaration and the
// mock that disagree fail loudly in the mock, not as a client's contract error that a test could take for the SDK's.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayClient } from '../../src/index.js';
import { OPERATIONS } from '../../src/testing/domain/operations.js';
import { createMockGateway } from '../../src/testing/index.js';

const MERCHANT = { mchNo: 'M1700000001', appId: 'app-0001', secret: 'mock-test-secret-1' };

afterEach(() => vi.restoreAllMocks());

describe("the mock checks its answers against the operation's declared result", () => {
  it('an answer with a field of the wrong type is never signed and sent: the request fails, naming the field', async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT] });
    const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch, retry: { maxRetries: 0 } });
    vi.spyOn(OPERATIONS, 'refundQuery').mockReturnValue({ refundOrderId: 'R1', mchRefundNo: 'r-1', refundAmount: '400' });
    const failure = await client.refundQuery({ mchRefundNo: 'r-1' }).catch((e: unknown) => e);
    expect(String((failure as Error).cause ?? failure)).toMatch(/The mock gateway's refundQuery answer breaks the operation's declared result \(.*refundAmount/);
  });

  it('its real answers pass: a refund made and read back', async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT] });
    const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch });
    const order = await client.unifiedOrder({ mchOrderNo: 'o-1', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', subject: 's', body: 'b' });
    gateway.payOrder(order.payOrderId);
    await client.refundOrder({ payOrderId: order.payOrderId, mchRefundNo: 'r-1', refundAmount: 100, currency: 'USD', refundReason: 'r' });
    await expect(client.refundQuery({ mchRefundNo: 'r-1' })).resolves.toMatchObject({ refundAmount: 100 });
  });
});
