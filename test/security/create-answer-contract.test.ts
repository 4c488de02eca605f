// Every create's answer contract, with reconciliation off (issue 36): each row of the operation table that creates
// is answered success, signed, with a required field of its declared result left out or of the wrong type. The
// record is made and its lookup finds it, matching what was sent: only the contract rule keeps the call from
// resolving, so a contract error taken for a lost answer and reconciled fails here.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayClient, GatewayResponseContractError } from '../../src/index.js';
import { objectFields } from '../../src/protocol/schemas/introspect.js';
import { definitionOf, OPERATION_NAMES, type OperationName, type operations, type ParamsOf } from '../../src/operations/table.js';
import { DecimalLiteral } from '../../src/testing/domain/json-text.js';
import { MOCK_KINDS } from '../../src/testing/domain/kinds.js';
import { hasModes } from '../../src/testing/domain/record-kind.js';
import { OPERATIONS } from '../../src/testing/domain/operations.js';
import { createMockGateway, type MockGateway } from '../../src/testing/index.js';
import { rejection } from '../support/rejection.js';

const MERCHANT = { mchNo: 'M1700000001', appId: 'app-0001', secret: 'mock-test-secret-1' };
const ADDRESS = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';

type Create = { [Op in OperationName]: (typeof operations)[Op]['retry'] extends 'create' ? Op : never }[OperationName];

// What each create is sent, made ready on the mock first; typed by the table, so a new create fails to compile here.
const PARAMS: { readonly [Op in Create]: (gateway: MockGateway, client: GatewayClient) => Promise<ParamsOf<Op>> } = {
  unifiedOrder: async () => ({ mchOrderNo: 'order-1', wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: 's', body: 'b' }),
  settleAddressApply: async () => ({ requestId: 'addr-1', tokenId: 'TRON_USDT', address: ADDRESS }),
  settleRequest: async () => ({ requestId: 'settle-1', amount: 150000, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: ADDRESS }),
  refundOrder: async (gateway, client) => {
    const order = await client.unifiedOrder({ mchOrderNo: 'order-r', wayCode: 'QR_CASHIER', amount: 1000, currency: 'USD', subject: 's', body: 'b' });
    gateway.payOrder(order.payOrderId);
    return { payOrderId: order.payOrderId, mchRefundNo: 'refund-1', refundAmount: 400, currency: 'USD', refundReason: 'r' };
  },
  transferOrder: async () => ({ mchOrderNo: 'payout-1', ifCode: 'wxpay', entryType: 'WX_CASH', amount: 1500, currency: 'CNY', accountNo: 'o8xYz0123456789', transferDesc: 'payout' }),
  bindDivisionReceiver: async (gateway) => {
    // Groups are made in the merchant portal (no API): the mock's control.
    const { receiverGroupId } = gateway.createDivisionGroup();
    return { ifCode: 'wxpay', receiverGroupId, accType: 0, accNo: 'o8xYz0123456789', relationType: 'PARTNER', divisionProfit: '0.1' };
  },
  executeDivision: async (gateway, client) => {
    const order = await client.unifiedOrder({ mchOrderNo: 'order-d', wayCode: 'QR_CASHIER', amount: 1000, currency: 'USD', subject: 's', body: 'b', divisionMode: 2 });
    gateway.payOrder(order.payOrderId);
    return { payOrderId: order.payOrderId, releaseAllToMerchant: true };
  },
};

const CREATES = OPERATION_NAMES.filter((name): name is Create => definitionOf(name).retry === 'create');
type Break = 'missing' | 'of the wrong type';
const CASES = CREATES.flatMap((operation) => [...objectFields(definitionOf(operation).result).required].flatMap((field) => (['missing', 'of the wrong type'] as const).map((how) => ({ operation, field, how }))));

/** The answer with `field` left out, or as a number where it is text and as text where it is a number. */
function broken(data: Readonly<Record<string, unknown>>, field: string, how: Break): Record<string, unknown> {
  const { [field]: value, ...rest } = data;
  if (how === 'missing') return rest;
  // A decimal written as a JSON number (bind's divisionProfit): a boolean is its wrong type (text is a decimal too).
  if (value instanceof DecimalLiteral) return { ...rest, [field]: true };
  if (typeof value !== 'string' && typeof value !== 'number') throw new Error(`${field} is neither text nor a number: add its wrong type here`);
  return { ...rest, [field]: typeof value === 'string' ? 1001 : String(value) };
}

afterEach(() => vi.restoreAllMocks());

describe("every create answered success, signed, with data that breaks its declared result", () => {
  it('covers every create of the table, each required field both ways', () => {
    expect(Object.keys(PARAMS).sort()).toEqual([...CREATES].sort());
    expect(CREATES).toContain('settleAddressApply'); // one without a lookup
    expect(CREATES.some((name) => definitionOf(name).reconcile)).toBe(true);
    expect(CASES.length).toBeGreaterThanOrEqual(CREATES.length * 2);
  });

  it.each(CASES)('$operation with $field $how: the contract error naming it, never resolved', async ({ operation, field, how }) => {
    const gateway = createMockGateway({ merchants: [MERCHANT] });
    const onReconcile = vi.fn();
    const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch, retry: { initialDelayMs: 1, maxDelayMs: 2 }, hooks: { onReconcile } });
    const params = await PARAMS[operation](gateway, client);
    const made = gateway.requests.length;
    const create = OPERATIONS[operation];
    // The mock makes the record as always, and answers it broken: signed, as a gateway would send it.
    vi.spyOn(OPERATIONS, operation).mockImplementation((context) => broken(create(context), field, how));
    const error = await rejection(client.withResponse(operation, params as never));
    expect(error).toBeInstanceOf(GatewayResponseContractError);
    const contract = error as GatewayResponseContractError;
    expect(contract.operation).toBe(operation);
    expect(contract.signatureVerified).toBe(true);
    expect(contract.issues.map((issue) => issue.path.join('.'))).toContain(field);
    expect(contract.message).toContain(field);
    const { reconcile } = definitionOf(operation);
    const sent = gateway.requests.slice(made).map((request) => request.operation);
    if (reconcile) {
      // The lookup finds the record, matching: only the contract rule keeps it from being the result.
      expect(contract.lookup).toMatchObject({ outcome: 'found' });
      expect(sent).toEqual([operation, reconcile.lookup]);
    } else {
      expect(contract.lookup).toBeUndefined();
      expect(sent).toEqual([operation]);
    }
    expect(gateway.requests[made]?.contractBreak).toContain(field);
    // The lookup settled nothing: the call failed whatever it found, so no reconciliation is reported.
    expect(onReconcile).not.toHaveBeenCalled();
  });
});

// The other half of the contract: what the mock sends in every way a declared kind's record can go (each mode: paid
// at once, held, failed with the channel's errCode and errMsg) is read by the client's schemas, its create's answer
// and its query's. A field the schemas type wrongly (an errCode typed as a number) fails here, even one that only a
// failed record carries.
describe("every declared kind's answers, in each of its modes, read by the client's schemas", () => {
  const MODES = MOCK_KINDS.flatMap((kind) => Object.keys(kind.modes).map((mode) => ({ kind: kind.name, create: kind.operations.create, query: kind.operations.query, mode })));

  it('covers every mode of every declared kind', () => {
    // Payments have no modes (their world decides a create): their answers are read in test/testing/orders.test.ts.
    expect(MODES.length).toBeGreaterThanOrEqual(MOCK_KINDS.filter(hasModes).length * 3);
    expect(MODES.map(({ mode }) => mode)).toContain('fail');
  });

  it.each(MODES)('$create, then $query, with the $kind mode $mode', async ({ kind, create, query, mode }) => {
    const gateway = createMockGateway({ merchants: [MERCHANT] });
    const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch });
    const params = await PARAMS[create](gateway, client);
    gateway.setMode(kind, mode as never);
    const made = await client.withResponse(create, params as never);
    expect(made.replayed).toBe(false);
    const record = gateway.records(kind)[0] as unknown as Readonly<Record<string, unknown>>;
    if (mode === 'fail') expect(record).toMatchObject({ errCode: expect.any(String), errMsg: expect.any(String) });
    const key = MOCK_KINDS.find((declared) => declared.name === kind)!.key;
    const read = await client.withResponse(query, { [key]: params[key as keyof typeof params] } as never);
    expect(read.data).toMatchObject({ [key]: params[key as keyof typeof params] });
    expect(gateway.requests.every((request) => request.contractBreak === undefined)).toBe(true);
  });
});
