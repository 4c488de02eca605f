/**
 * Each operation's business step; routing, binding, signing and errors are shared by all of them.
 *
 * @module
 */
import type { OperationName } from '../../operations/table.js';
import type { AcceptedRequest } from './accepted-request.js';
import type { OrderBook } from './orders.js';
import type { RefundDesk } from './refunds.js';
import type { SettlementDesk } from './settlements.js';

export interface OperationContext extends AcceptedRequest {
  readonly orders: OrderBook;
  readonly settlements: SettlementDesk;
  readonly refunds: RefundDesk;
  /** The origin (and base path) the gateway is reached by, for the cashier links in `payData`. */
  readonly origin: string;
  /** The `closeRacesPayer` fault struck this request. */
  readonly payerFirst?: boolean;
  /** The `refusedAfterStore` fault struck this create: store its record, leave it here, ask no channel. */
  readonly interrupted?: 'created' | 'processing' | undefined;
}

/** The `data` of each operation's success answer, or a {@link Refusal} thrown. */
export const OPERATIONS: { readonly [Op in OperationName]: (context: OperationContext) => Readonly<Record<string, unknown>> } = {
  unifiedOrder: ({ orders, origin, interrupted, ...request }) => orders.create(request, origin, interrupted),
  query: ({ orders, app, params }) => orders.queryData(orders.find(app, params)),
  close: ({ orders, app, params, payerFirst }) => {
    orders.close(orders.find(app, params), payerFirst);
    return {};
  },
  settleAddressApply: ({ settlements, app, params }) => settlements.declareAddress(app, params),
  settleRequest: ({ settlements, app, params }) => settlements.requestSettlement(app, params),
  settleRequestGet: ({ settlements, app, params }) => settlements.settlementData(app, params),
  refundOrder: ({ refunds, interrupted, ...request }) => refunds.create(request, interrupted),
  refundQuery: ({ refunds, app, params }) => refunds.queryData(refunds.find(app, params)),
};
