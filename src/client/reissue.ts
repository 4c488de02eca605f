/**
 * `reissueOrder`: the way out of a recovered create (no payData): close the order found, unless it was
 * paid, and create a new one under a new `mchOrderNo`.
 *
 * @module
 */
import { GatewayApiError, GatewayError, GatewayValidationError } from '../errors/index.js';
import { PayOrderState } from '../protocol/schemas/enums.js';
import type { PayOrder, RecoveredOrder, UnifiedOrderParams, UnifiedOrderResult } from '../protocol/schemas/order.js';
import type { ConfirmOptions, RequestOptions } from './options.js';
import type { ReadBack } from './runner.js';

/**
 * {@link GatewayClient.reissueOrder} found the order it was to replace paid (state 2): it was not closed
 * and no new order was created. Fulfil the paid order (its notification comes, or already came) instead.
 *
 * @example
 * ```ts
 * import { GatewayOrderPaidError } from 'payment-gateway-sdk';
 *
 * try {
 *   order = await client.reissueOrder(order, { ...params, mchOrderNo: 'order-1001-2' });
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
    super(
      `The order ${JSON.stringify(order.mchOrderNo)} (payOrderId ${order.payOrderId}) was paid (state 2), so it was not replaced: fulfil it, and create no other order for the same purchase.`,
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

/** Closes the recovered order for good (or finds it final), refuses a paid one, and creates the new order. */
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
  try {
    old = await calls.close(ids, { ...options, confirm: true }, readBack);
  } catch (error) {
    // Refused: the order is past closing (paid, failed, closed...) or the channel would not close it yet.
    if (!(error instanceof GatewayApiError)) throw error;
    // The close read the order to judge its refusal: read again only when that read failed.
    old = readBack.response?.data ?? (await calls.query(ids, options));
    if (old.state === PayOrderState.Generated || old.state === PayOrderState.Paying) throw error;
  }
  if (old.state === PayOrderState.Succeeded) throw new GatewayOrderPaidError(old);
  return calls.unifiedOrder(params, options);
}
