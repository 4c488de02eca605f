/**
 * The declared settlement addresses as a part of the mock (`testing/domain/mock-part.ts`), declared once: its world
 * (the settlement kind's {@link AddressBook}, which a settlement's create reads), the operation it answers
 * (`settleAddressApply`), the platform's review (`approveAddress`, `rejectAddress`, each a route of a path segment),
 * the read `address(ref)`, its member of the state, the log's names of its statuses, its dashboard section and
 * `mock list` lines. The gateway's methods of it are derived from this and checked against {@link MockAddressMethods}.
 *
 * @module
 */
import { defineMockPart, routeOf, type MockPartControl } from '../../testing/domain/mock-part.js';
import { ADDRESS_STATUS_NAMES, MockAddressStatus, type AddressBook, type MockAddress } from './mock-addresses.js';

/**
 * The state's member of the declared addresses: of {@link MockGateway.state} and `GET /_mock/state`.
 *
 * @example
 * ```ts
 * const { addresses }: MockAddressState = gateway.state();
 * ```
 */
export interface MockAddressState {
  /** Declared settlement addresses, newest first, with their review `status`. */
  readonly addresses: readonly MockAddress[];
}

/** The platform's review of a declared address, by `serverRequestId` (the route's segment) or `requestId`. */
const review = <Decision extends 'approve' | 'reject'>(decision: Decision, does: string) =>
  ({
    name: `${decision}Address` as `${Decision}Address`, argument: 'ref', method: 'POST', path: `addresses/{serverRequestId}/${decision}`, does,
    run: (book: AddressBook, ref: string): MockAddress => book.review(ref, decision),
  }) as const satisfies MockPartControl<AddressBook>;

const approve = review('approve', 'the platform approves a declared address');
const reject = review('reject', 'the platform rejects a declared address');

/** The declared addresses, part of the mock. */
export const addressPart = defineMockPart<AddressBook, MockAddressState>()({
  name: 'addresses',
  // The settlement kind's world: its create reads the addresses declared here.
  world: ({ desks }) => desks.settlement.world,
  operations: {
    settleAddressApply: (book, { app, params }) => book.declare(app, params),
  },
  controls: [approve, reject],
  reads: {
    address: (book, ref: string): MockAddress | undefined => book.address(ref),
  },
  state: {
    addresses: (book) => book.list(),
  },
  holds: 'addresses',
  // The spec names no address status; the log shows the mock's own names.
  logged: { settleAddressApply: { status: ADDRESS_STATUS_NAMES } },
  sections: ({ addresses }, { html, section, button }) =>
    section('Declared addresses', addresses.length, html`<table><tr><th>serverRequestId</th><th>requestId</th><th>Token</th><th>Address</th><th>Status</th><th></th></tr>
      ${addresses.map((a) => html`<tr data-address="${a.serverRequestId}"><td><code>${a.serverRequestId}</code></td><td><code>${a.requestId}</code></td><td>${a.tokenId}</td><td><code>${a.address}</code></td>
        <td>${ADDRESS_STATUS_NAMES[a.status]}</td>
        <td>${a.status === MockAddressStatus.UnderReview ? html`${button(routeOf(approve, a.serverRequestId), 'Approve', 'primary')} ${button(routeOf(reject, a.serverRequestId), 'Reject', 'danger')}` : ''}</td></tr>`)}</table>`),
  list: {
    holds: 'addresses',
    lines: (state, { rows, text, section }) =>
      section('Declared addresses', rows(state.addresses).map((a) => `${text(a.serverRequestId)}  requestId ${text(a.requestId)}  ${text(a.tokenId)} ${text(a.address)}  status ${text(a.status)}`)),
  },
});

/**
 * The mock gateway's methods of the declared addresses, derived from `addressPart` (`testing/part-methods.ts` fails to
 * compile unless this is exactly what the part gives).
 *
 * @example
 * ```ts
 * gateway.approveAddress(declared.serverRequestId);
 * expect(gateway.address(declared.serverRequestId)?.status).toBe(MockAddressStatus.Approved);
 * ```
 */
export interface MockAddressMethods {
  /**
   * The platform approves a declared address (by `serverRequestId` or `requestId`).
   *
   * @throws an `Error` when no address (or more than one, of several merchants) is `ref`, or it was already reviewed
   * @example
   * ```ts
   * gateway.approveAddress(declared.serverRequestId);
   * ```
   */
  approveAddress(ref: string): MockAddress;
  /**
   * The platform rejects a declared address.
   *
   * @throws an `Error` when no address (or more than one, of several merchants) is `ref`, or it was already reviewed
   * @example
   * ```ts
   * gateway.rejectAddress('addr-001');
   * ```
   */
  rejectAddress(ref: string): MockAddress;
  /**
   * A copy of a declared address, by `serverRequestId` or `requestId`.
   *
   * @throws an `Error` when several merchants use the `requestId` `ref`
   * @example
   * ```ts
   * expect(gateway.address('addr-001')?.status).toBe(MockAddressStatus.Approved);
   * ```
   */
  address(ref: string): MockAddress | undefined;
}
