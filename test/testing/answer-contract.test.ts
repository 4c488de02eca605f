// A mock answer that breaks its operation's declared result reaches the client as what it is (issue 36): signed and
// sent as a gateway would send it, so the client raises its contract error, loud. Before, the mock threw, the client
// read that as a lost answer, and a create was reconciled into a record that passed every test in silence.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayClient, GatewayResponseContractError } from '../../src/index.js';
import { OPERATIONS } from '../../src/testing/domain/operations.js';
import { createMockGateway, type MockGatewayEvent } from '../../src/testing/index.js';
import { rejection } from '../support/rejection.js';

const MERCHANT = { mchNo: 'M1700000001', appId: 'app-0001', secret: 'mock-test-secret-1' };
const ORDER = { mchOrderNo: 'o-1', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', subject: 's', body: 'b' } as const;

afterEach(() => vi.restoreAllMocks());

function setUp() {
  const events: MockGatewayEvent[] = [];
  const gateway = createMockGateway({ merchants: [MERCHANT], log: (event) => events.push(event) });
  const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch, retry: { maxRetries: 0 } });
  return { gateway, client, lines: () => events.map((event) => event.line) };
}

describe("a mock answer that breaks its operation's declared result", () => {
  it('a create answered so (orderState as text) rejects with the contract error naming the field; never reconciled into the order made', async () => {
    const { gateway, client, lines } = setUp();
    const create = OPERATIONS.unifiedOrder;
    // The mock's business step for this one create answers a wrong type; the order is made all the same.
    vi.spyOn(OPERATIONS, 'unifiedOrder').mockImplementation((context) => ({ ...create(context), orderState: '0' }));
    const error = await rejection(client.withResponse('unifiedOrder', ORDER));
    expect(error).toBeInstanceOf(GatewayResponseContractError);
    const contract = error as GatewayResponseContractError;
    expect(contract.signatureVerified).toBe(true);
    expect(contract.issues.map((issue) => issue.path.join('.'))).toEqual(['orderState']);
    // The one lookup finds the order the create made: attached for the caller, never returned as the result.
    expect(contract.lookup).toMatchObject({ outcome: 'found', record: { mchOrderNo: 'o-1', amount: 100 } });
    expect(gateway.requests.map((request) => request.operation)).toEqual(['unifiedOrder', 'query']);
    // The mock shows the break on its side: in the request log and in its log line.
    const [answered] = gateway.requests;
    expect(answered?.contractBreak).toMatch(/orderState/);
    expect(answered?.outcome).toMatch(/^SUCCESS .*, an answer that breaks the declared result \(.*orderState/);
    expect(lines()[0]).toMatch(/breaks unifiedOrder's declared result: fix the mock or the declaration/);
  });

  it('a read answered so (refundAmount as text) rejects at once with the contract error naming the field', async () => {
    const { gateway, client } = setUp();
    vi.spyOn(OPERATIONS, 'refundQuery').mockReturnValue({ refundOrderId: 'R1', mchRefundNo: 'r-1', refundAmount: '400' });
    const error = await rejection(client.refundQuery({ mchRefundNo: 'r-1' }));
    expect(error).toBeInstanceOf(GatewayResponseContractError);
    expect((error as GatewayResponseContractError).issues.map((issue) => issue.path.join('.'))).toContain('refundAmount');
    expect(gateway.requests).toHaveLength(1);
    expect(gateway.requests[0]?.contractBreak).toMatch(/refundAmount/);
  });

  it('its real answers pass and mark nothing: a refund made and read back', async () => {
    const { gateway, client, lines } = setUp();
    const order = await client.unifiedOrder(ORDER);
    gateway.payOrder(order.payOrderId);
    await client.refundOrder({ payOrderId: order.payOrderId, mchRefundNo: 'r-1', refundAmount: 100, currency: 'USD', refundReason: 'r' });
    await expect(client.refundQuery({ mchRefundNo: 'r-1' })).resolves.toMatchObject({ refundAmount: 100 });
    expect(gateway.requests.map((request) => request.contractBreak)).toEqual([undefined, undefined, undefined]);
    expect(lines().join('\n')).not.toMatch(/declared result/);
  });
});
