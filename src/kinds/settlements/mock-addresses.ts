/**
 * The settlement addresses a merchant declares (`settleAddressApply`), each under review until a test approves or
 * rejects it. Not a record kind of the generic desk: an address has no query, notification, mode or decision of
 * the channel, only the platform's review; the settlement kind keeps them as its world (`mock.ts`), and its
 * create reads them.
 *
 * @module
 */
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

/** Each address status's name, for the log and the dashboard. */
export const ADDRESS_STATUS_NAMES: Readonly<Record<MockAddressStatus, string>> = ['under review', 'approved', 'rejected'];

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

/** The declared addresses of all merchants, and their review. */
export class AddressBook {
  readonly #addresses = new Map<string, MockAddress>();
  #sequence = 0;

  constructor(private readonly clock: SimulatedClock) {}

  /** settleAddressApply: records the address, under review. */
  declare(app: MockMerchant, params: Readonly<Record<string, string | number>>): Record<string, unknown> {
    const requestId = String(params.requestId);
    const key = merchantScoped(app.mchNo, requestId);
    if (this.#addresses.has(key)) throw refuse(MESSAGES.duplicateRequestId(requestId));
    const record: MockAddress = {
      serverRequestId: `SA${this.clock.now()}${String(++this.#sequence).padStart(4, '0')}`, requestId, mchNo: app.mchNo, appId: app.appId, tokenId: String(params.tokenId),
      address: String(params.address), remark: params.remark === undefined ? undefined : String(params.remark), status: MockAddressStatus.UnderReview,
    };
    this.#addresses.set(key, record);
    return { serverRequestId: record.serverRequestId, status: record.status };
  }

  /** The merchant's declared address of this `serverRequestId` (a settlement's `addrServerRequestId`). */
  declared(mchNo: string, serverRequestId: string | undefined): MockAddress | undefined {
    return [...this.#addresses.values()].find((a) => a.serverRequestId === serverRequestId && a.mchNo === mchNo);
  }

  /** Test control: the platform's review decision. */
  review(ref: string, decision: 'approve' | 'reject'): MockAddress {
    const control = decision === 'approve' ? 'approveAddress' : 'rejectAddress';
    const record = this.#only(ref, control);
    if (!record) throw new Error(`${control}: nothing with serverRequestId or requestId ${JSON.stringify(ref)}`);
    if (record.status !== MockAddressStatus.UnderReview) throw new Error(`${decision}Address: address ${record.serverRequestId} was already reviewed`);
    record.status = decision === 'approve' ? MockAddressStatus.Approved : MockAddressStatus.Rejected;
    return { ...record };
  }

  /** Copies of every declared address, newest first. */
  list(): MockAddress[] {
    return [...this.#addresses.values()].map((a) => ({ ...a })).reverse();
  }

  /** A copy of an address, by `serverRequestId` or a `requestId` only one merchant uses. */
  address(ref: string): MockAddress | undefined {
    const record = this.#only(ref, 'lookup');
    return record && { ...record };
  }

  #only(ref: string, control: string): MockAddress | undefined {
    const found = [...this.#addresses.values()].filter((r) => r.serverRequestId === ref || r.requestId === ref);
    if (found.length > 1) throw new Error(`${control}: several merchants use requestId ${JSON.stringify(ref)}; give the serverRequestId`);
    return found[0];
  }
}
