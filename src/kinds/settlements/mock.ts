/**
 * Declared settlement addresses and settlement requests (docs/reference/protocol.md section 7). The gateway does not
 * publish its status integers, so the mock uses its own, exported as {@link MockAddressStatus} and
 * {@link MockSettlementStatus}: code that reads them should treat them as opaque numbers.
 *
 * @module
 */
import type { OperationName } from '../../operations/table.js';
import * as z from 'zod/mini';
import { parseInput } from '../../protocol/schemas/parse.js';
import type { SimulatedClock } from '../../testing/domain/clock.js';
import { merchantScoped, type MockMerchant } from '../../testing/domain/merchants.js';
import { MESSAGES, refuse } from '../../testing/domain/refusals.js';

/**
 * The mock's review states of a declared address: under review until a test approves or rejects it.
 *
 * @example
 * ```ts
 * gateway.approveAddress(declared.serverRequestId);
 * expect(gateway.address(declared.serverRequestId)?.status).toBe(MockAddressStatus.Approved);
 * ```
 */
export const MockAddressStatus = { UnderReview: 0, Approved: 1, Rejected: 2 } as const;
/** A review state of a declared address in the mock (see the constant of the same name). */
export type MockAddressStatus = (typeof MockAddressStatus)[keyof typeof MockAddressStatus];

/**
 * The mock's settlement states: pending, then processing, then completed or failed, moved by
 * {@link MockGateway.progressSettlement}.
 *
 * @example
 * ```ts
 * gateway.progressSettlement('settle-1', 'completed');
 * expect((await client.settleRequestGet({ requestId: 'settle-1' })).status).toBe(MockSettlementStatus.Completed);
 * ```
 */
export const MockSettlementStatus = { Pending: 0, Processing: 1, Completed: 2, Failed: 3 } as const;
/** A settlement state in the mock (see the constant of the same name). */
export type MockSettlementStatus = (typeof MockSettlementStatus)[keyof typeof MockSettlementStatus];

/** Each address status's name, for the log and the dashboard. */
export const ADDRESS_STATUS_NAMES: Readonly<Record<MockAddressStatus, string>> = ['under review', 'approved', 'rejected'];
/** Each settlement status's name, for the log and the dashboard. */
export const SETTLEMENT_STATUS_NAMES: Readonly<Record<MockSettlementStatus, string>> = ['pending', 'processing', 'completed', 'failed'];
/**
 * The names of the mock's own settlement statuses, by the answer field of each operation that carries one: the
 * spec defines no status values (the SDK types them as numbers), so the mock names its own for the log.
 */
export const MOCK_STATUS_NAMES: { readonly [Op in OperationName]?: Readonly<Record<string, Readonly<Record<number, string>>>> } = {
  settleAddressApply: { status: ADDRESS_STATUS_NAMES },
  settleRequest: { status: SETTLEMENT_STATUS_NAMES },
  settleRequestGet: { status: SETTLEMENT_STATUS_NAMES },
};

/**
 * What the mock records of every coinpay request: the gateway's id, the merchant's id, whose it is and
 * for which token. Test controls find a record by either id.
 *
 * @example
 * ```ts
 * const record: MockCoinpayRecord | undefined = gateway.settlement('settle-2024-07');
 * record?.serverRequestId;
 * ```
 */
export interface MockCoinpayRecord {
  serverRequestId: string;
  requestId: string;
  mchNo: string;
  appId: string;
  tokenId: string;
}

/**
 * A declared settlement address as the mock holds it.
 *
 * @example
 * ```ts
 * const address: MockAddress | undefined = gateway.address('addr-001');
 * ```
 */
export interface MockAddress extends MockCoinpayRecord {
  address: string;
  remark?: string | undefined;
  status: MockAddressStatus;
}

/**
 * A settlement request as the mock holds it.
 *
 * @example
 * ```ts
 * const settlement: MockSettlement | undefined = gateway.settlement('settle-2024-07');
 * ```
 */
export interface MockSettlement extends MockCoinpayRecord {
  currency: string;
  amount: number;
  payoutChannel: string;
  /** The withdrawal address: the one given, or the declared one's. */
  address: string;
  addrServerRequestId?: string | undefined;
  notifyUrl?: string | undefined;
  status: MockSettlementStatus;
  createdAt: number;
}

/**
 * The target of {@link MockGateway.progressSettlement}; by default the next step.
 *
 * @example
 * ```ts
 * const to: SettlementProgress = 'failed';
 * gateway.progressSettlement('settle-1', to);
 * ```
 */
export type SettlementProgress = 'processing' | 'completed' | 'failed';

/** Checks a {@link SettlementProgress}; the control route `POST /_mock/settlements/{requestId}/progress` reads its `to` with it. */
export const settlementProgressSchema = z.optional(z.enum(['processing', 'completed', 'failed'], { error: "must be 'processing', 'completed' or 'failed' (leave it out for the next step)" }));

/** Addresses and settlements of all merchants. */
export class SettlementDesk {
  readonly #addresses = new Map<string, MockAddress>();
  readonly #settlements = new Map<string, MockSettlement>();
  #sequence = 0;

  constructor(private readonly clock: SimulatedClock) {}

  /** settleAddressApply: records the address, under review. */
  declareAddress(app: MockMerchant, params: Readonly<Record<string, string | number>>): Record<string, unknown> {
    const requestId = String(params.requestId);
    const key = merchantScoped(app.mchNo, requestId);
    if (this.#addresses.has(key)) throw refuse(MESSAGES.duplicateRequestId(requestId));
    const record: MockAddress = {
      serverRequestId: this.#nextId('SA'), requestId, mchNo: app.mchNo, appId: app.appId, tokenId: String(params.tokenId),
      address: String(params.address), remark: params.remark === undefined ? undefined : String(params.remark), status: MockAddressStatus.UnderReview,
    };
    this.#addresses.set(key, record);
    return { serverRequestId: record.serverRequestId, status: record.status };
  }

  /** settleRequest: the Crypto rules of spec 4.5, an approved declared address or a given one. */
  requestSettlement(app: MockMerchant, params: Readonly<Record<string, string | number>>): Record<string, unknown> {
    const p = params as Record<string, string | undefined> & { amount: number };
    if (p.amount < 1) throw refuse(MESSAGES.settleAmount);
    if (p.payoutChannel !== 'Crypto') throw refuse(MESSAGES.payoutChannelUnsupported);
    if (p.currency !== 'USD') throw refuse(MESSAGES.currencyUnsupported);
    if ((p.addrServerRequestId === undefined) === (p.address === undefined)) throw refuse(MESSAGES.addressChoice);
    const requestId = String(p.requestId);
    const key = merchantScoped(app.mchNo, requestId);
    if (this.#settlements.has(key)) throw refuse(MESSAGES.duplicateRequestId(requestId));
    const tokenId = String(p.tokenId);
    let address = p.address;
    if (p.addrServerRequestId !== undefined) {
      const declared = [...this.#addresses.values()].find((a) => a.serverRequestId === p.addrServerRequestId && a.mchNo === app.mchNo);
      if (!declared) throw refuse(MESSAGES.addressNotFound);
      if (declared.status !== MockAddressStatus.Approved) throw refuse(MESSAGES.addressNotApproved);
      if (declared.tokenId !== tokenId) throw refuse(MESSAGES.addressTokenMismatch);
      address = declared.address;
    }
    const record: MockSettlement = {
      serverRequestId: this.#nextId('SR'), requestId, mchNo: app.mchNo, appId: app.appId, tokenId, currency: 'USD', amount: p.amount,
      payoutChannel: 'Crypto', address: String(address), addrServerRequestId: p.addrServerRequestId, notifyUrl: p.notifyUrl,
      status: MockSettlementStatus.Pending, createdAt: this.clock.now(),
    };
    this.#settlements.set(key, record);
    return { serverRequestId: record.serverRequestId, status: record.status };
  }

  /** settleRequestGet: the record by the merchant's `requestId` (spec 2.7). */
  settlementData(app: MockMerchant, params: Readonly<Record<string, string | number>>): Record<string, unknown> {
    const record = this.#settlements.get(merchantScoped(app.mchNo, String(params.requestId)));
    if (!record) throw refuse(MESSAGES.settlementNotFound);
    const { serverRequestId, requestId, tokenId, currency, amount, status, address, notifyUrl } = record;
    return { serverRequestId, requestId, tokenId, currency, amount, status, address, notifyUrl };
  }

  /** Test control: the platform's review decision. */
  review(ref: string, decision: 'approve' | 'reject'): MockAddress {
    const record = this.#find(this.#addresses.values(), ref, decision === 'approve' ? 'approveAddress' : 'rejectAddress');
    if (record.status !== MockAddressStatus.UnderReview) throw new Error(`${decision}Address: address ${record.serverRequestId} was already reviewed`);
    record.status = decision === 'approve' ? MockAddressStatus.Approved : MockAddressStatus.Rejected;
    return { ...record };
  }

  /** Test control: a settlement moves on (pending -> processing -> completed), or to the given state. */
  progress(ref: string, requested: SettlementProgress | undefined): MockSettlement {
    const to = parseInput(settlementProgressSchema, requested, 'Invalid progressSettlement to', 'options');
    const record = this.#find(this.#settlements.values(), ref, 'progressSettlement');
    if (record.status === MockSettlementStatus.Completed || record.status === MockSettlementStatus.Failed) {
      throw new Error(`progressSettlement: settlement ${record.requestId} is already final (status ${record.status}, ${SETTLEMENT_STATUS_NAMES[record.status]})`);
    }
    const target = to ?? (record.status === MockSettlementStatus.Pending ? 'processing' : 'completed');
    record.status = { processing: MockSettlementStatus.Processing, completed: MockSettlementStatus.Completed, failed: MockSettlementStatus.Failed }[target];
    return { ...record };
  }

  /** Copies of every declared address, newest first. */
  addresses(): MockAddress[] {
    return [...this.#addresses.values()].map((a) => ({ ...a })).reverse();
  }

  /** Copies of every settlement, newest first. */
  settlements(): MockSettlement[] {
    return [...this.#settlements.values()].map((s) => ({ ...s })).reverse();
  }

  address(ref: string): MockAddress | undefined {
    const record = only(this.#addresses.values(), ref);
    return record && { ...record };
  }

  settlement(ref: string): MockSettlement | undefined {
    const record = only(this.#settlements.values(), ref);
    return record && { ...record };
  }

  #find<T extends MockCoinpayRecord>(records: Iterable<T>, ref: string, control: string): T {
    const record = only(records, ref, control);
    if (!record) throw new Error(`${control}: nothing with serverRequestId or requestId ${JSON.stringify(ref)}`);
    return record;
  }

  #nextId(prefix: string): string {
    return `${prefix}${this.clock.now()}${String(++this.#sequence).padStart(4, '0')}`;
  }
}

/** The record a test control means: by the gateway's id, or by a requestId only one merchant uses. */
function only<T extends MockCoinpayRecord>(records: Iterable<T>, ref: string, control = 'lookup'): T | undefined {
  const found = [...records].filter((r) => r.serverRequestId === ref || r.requestId === ref);
  if (found.length > 1) throw new Error(`${control}: several merchants use requestId ${JSON.stringify(ref)}; give the serverRequestId`);
  return found[0];
}
