/**
 * Each operation's business step; routing, binding, signing and errors are shared by all of them.
 *
 * @module
 */
import type { OperationName } from '../../operations/table.js';
import type { AcceptedRequest } from './accepted-request.js';
import type { DivisionReceiverBook } from '../../kinds/division/mock-receivers.js';
import type { DivisionDesk } from '../../kinds/division/mock.js';
import { MOCK_KINDS, type MockDesks, type MockKind } from './kinds.js';
import type { OrderBook } from '../../kinds/payments/mock.js';
import type { RecordDesk } from './record-desk.js';

export interface OperationContext extends AcceptedRequest {
  readonly orders: OrderBook;
  /** The desk of each declared record kind. */
  readonly desks: MockDesks;
  /** Division receiver groups and receivers, and the divisions. */
  readonly receivers: DivisionReceiverBook;
  readonly divisions: DivisionDesk;
  /** The origin (and base path) the gateway is reached by, for the cashier links in `payData`. */
  readonly origin: string;
  /** The `closeRacesPayer` fault struck this request. */
  readonly payerFirst?: boolean;
  /** The `refusedAfterStore` fault struck this create: store its record, leave it here, ask no channel. */
  readonly interrupted?: 'created' | 'processing' | undefined;
}

type Step = (context: OperationContext) => Readonly<Record<string, unknown>>;
type KindOperation = MockKind['operations'][keyof MockKind['operations']];

/** Each declared kind's create and query, answered by its desk. */
const KIND_OPERATIONS = Object.fromEntries(
  MOCK_KINDS.flatMap((kind): [KindOperation, Step][] => [
    [kind.operations.create, ({ desks, interrupted, ...request }) => desks[kind.name].create(request, interrupted)],
    // Each kind's desk, as any desk: a union of desks takes no record of either.
    [kind.operations.query, ({ desks, app, params }) => (desks[kind.name] as unknown as RecordDesk).queryData((desks[kind.name] as unknown as RecordDesk).find(app, params))],
  ]),
) as { readonly [Op in KindOperation]: Step };

/** The `data` of each operation's success answer, or a {@link Refusal} thrown. */
export const OPERATIONS: { readonly [Op in OperationName]: Step } = {
  ...KIND_OPERATIONS,
  unifiedOrder: ({ orders, origin, interrupted, ...request }) => orders.create(request, origin, interrupted),
  query: ({ orders, app, params }) => orders.queryData(orders.find(app, params)),
  close: ({ orders, app, params, payerFirst }) => {
    orders.close(orders.find(app, params), payerFirst);
    return {};
  },
  // The declared addresses are the settlement kind's world.
  settleAddressApply: ({ desks, app, params }) => desks.settlement.world.declare(app, params),
  bindDivisionReceiver: ({ receivers, interrupted, app, params, blank }) => receivers.bind({ app, params, blank }, interrupted),
  executeDivision: ({ divisions, interrupted, app, params, blank }) => divisions.exec({ app, params, blank }, interrupted),
};
