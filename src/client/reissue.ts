/**
 * `reissueOrder`: the way out of a recovered create (no payData): close the order found, unless it was
 * paid, and create a new one under a new `mchOrderNo` once a signed read proves the old one can no longer be paid.
 *
 * @module
 */
import { GatewayApiError } from '../operations/api-error.js';
import { GatewayError, GatewayValidationError } from '../errors/index.js';
import { PayOrderState } from '../kinds/payments/enums.js';
import { GatewayOrderNotFinalError } from './order-not-final.js';
import type { PayOrder, RecoveredOrder, UnifiedOrderParams, UnifiedOrderResult } from '../kinds/payments/schemas.js';
import type { ConfirmOptions, RequestOptions } from './options.js';
import type { ReadBack } from './runner.js';

/**
 * {@link GatewayClient.reissueOrder} found the order it was to replace paid (state 2), or paid and refunded
 * since (state 5): it was not closed and no new order was created. Fulfil the paid order (its notification
 * comes, or already came) instead; a refunded one was paid once, so whether to sell again is yours to decide.
 *
 * @example
 * ```ts
 * import { GatewayOrderPaidError } from 'payment-gateway-sdk';
 *
 * let order = await client.unifiedOrder(params);
 * try {
 *   if (order.recovered) order = await client.reissueOrder(order, { ...params, mchOrderNo: 'order-1001-2' });
 * } catch (error) {
 *   if (error instanceof GatewayOrderPaidError) return showPaid(error.order);
 *   throw error;
 * }
 * ```
 */
export class GatewayOrderPaidError extends GatewayError {
  static override readonly kind: string = 'GatewayOrderPaidError';
  /** The paid order, as last read. */
  readonly order: PayOrder;

  constructor(order: PayOrder) {
    const paid = order.state === PayOrderState.Refunded ? 'was paid and then refunded (state 5)' : 'was paid (state 2)';
    const advice = order.state === PayOrderState.Refunded ? 'the purchase was paid once and refunded: decide with the refund whether to sell again' : 'fulfil it';
    super(
      `The order ${JSON.stringify(order.mchOrderNo)} (payOrderId ${order.payOrderId}) ${paid}, so it was not replaced: ${advice}, and create no other order for the same purchase.`,
      { operation: 'reissueOrder' },
    );
    this.order = order;
  }
}

/** What reissuing needs of the client: its close (with confirm), query and create. */
export interface OrderCalls {
  /** Closes with confirm; when the close is refused, `readBack` holds the order as read to judge the refusal, if that read succeeded. */
  close(params: { payOrderId: string }, options: ConfirmOptions & { confirm: true }, readBack: ReadBack<PayOrder>): Promise<PayOrder>;
  query(params: { payOrderId: string }, options?: RequestOptions): Promise<PayOrder>;
  unifiedOrder(params: UnifiedOrderParams, options?: RequestOptions): Promise<UnifiedOrderResult>;
}

// The states in which the recovered order can never be paid: only then may a replacement exist beside it.
// Refunded (5) was paid: the purchase was settled once, so it is refused like a paid order.
const REPLACEABLE: ReadonlySet<PayOrderState> = new Set([PayOrderState.Failed, PayOrderState.Revoked, PayOrderState.Closed]);

/**
 * Closes the recovered order for good (or finds it final), refuses a paid one, and creates the new order
 * only when a signed read after the close shows the old one closed, failed or revoked.
 */
export async function reissueOrder(calls: OrderCalls, recovered: RecoveredOrder, params: UnifiedOrderParams, options: RequestOptions = {}): Promise<UnifiedOrderResult> {
  if (recovered?.recovered !== true || typeof recovered.payOrderId !== 'string') {
    throw new GatewayValidationError('Invalid reissueOrder call, nothing was sent', [{ path: ['recovered'], message: 'must be a result of unifiedOrder with recovered: true' }], { operation: 'reissueOrder' });
  }
  if (params?.mchOrderNo === recovered.mchOrderNo) {
    throw new GatewayValidationError('Invalid reissueOrder call, nothing was sent', [
      { path: ['mchOrderNo'], message: `is the recovered order's own ('${recovered.mchOrderNo}'), which the gateway would refuse as a duplicate: give the new order a new mchOrderNo` },
    ], { operation: 'reissueOrder' });
  }
  const ids = { payOrderId: recovered.payOrderId };
  const readBack: ReadBack<PayOrder> = {};
  let old: PayOrder;
  let refusal: GatewayError | undefined;
  try {
    // confirm: the close resolves only to the order read back in a final state.
    old = await calls.close(ids, { ...options, confirm: true }, readBack);
  } catch (error) {
    if (error instanceof GatewayOrderNotFinalError) throw new GatewayOrderNotFinalError(error.order, { operation: 'reissueOrder', cause: error });
    // Refused: the order is past closing (paid, failed, closed...) or the channel would not close it yet.
    if (!(error instanceof GatewayApiError)) throw error;
    refusal = error;
    // The close read the order to judge its refusal: read again only when that read failed.
    old = readBack.response?.data ?? (await calls.query(ids, options));
  }
  if (old.state === PayOrderState.Succeeded || old.state === PayOrderState.Refunded) throw new GatewayOrderPaidError(old);
  if (!REPLACEABLE.has(old.state)) throw new GatewayOrderNotFinalError(old, { operation: 'reissueOrder', cause: refusal });
  return calls.unifiedOrder(params, options);
}
