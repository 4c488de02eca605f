/**
 * The error of a close that did not close: the order read back is still open (state 0 or 1).
 *
 * @module
 */
import { GatewayError, type GatewayErrorOptions } from '../errors/index.js';
import { payOrderStateName, type PayOrderState } from '../kinds/payments/enums.js';
import type { PayOrder } from '../kinds/payments/schemas.js';

/**
 * A close was not confirmed: the order, read back with a signed query after the close, is still open
 * (state 0, generated, or 1, paying). The reference gateway answers a close with success (`data: {}`) even
 * when a payer moved the order to paying meanwhile and nothing was closed, and a replayed answer looks the
 * same: so the payer may be paying this order now. Thrown by `close(params, { confirm: true })` and by
 * {@link GatewayClient.reissueOrder}, which then **creates no replacement** (both could be paid).
 *
 * Wait for the order's final state with {@link GatewayClient.waitForOrder}: fulfil it if it was paid,
 * reissue only once it is closed, failed or revoked. `order` is the order as read, `state` its state.
 *
 * @example
 * ```ts
 * import { GatewayOrderNotFinalError, GatewayOrderPaidError, PayOrderState } from 'payment-gateway-sdk';
 *
 * const recovered = await client.unifiedOrder(params);
 * if (!recovered.recovered) return recovered;
 * try {
 *   return await client.reissueOrder(recovered, { ...params, mchOrderNo: 'order-1001-2' });
 * } catch (error) {
 *   if (error instanceof GatewayOrderPaidError) return showPaid(error.order);
 *   if (!(error instanceof GatewayOrderNotFinalError)) throw error;
 *   // The payer may be paying the old order: learn how it ends before offering another one.
 *   const final = await client.waitForOrder({ payOrderId: error.order.payOrderId });
 *   if (final.state === PayOrderState.Succeeded) return showPaid(final);
 *   return await client.reissueOrder(recovered, { ...params, mchOrderNo: 'order-1001-2' });
 * }
 * ```
 */
export class GatewayOrderNotFinalError extends GatewayError {
  static override readonly kind: string = 'GatewayOrderNotFinalError';
  /** The order as read back after the close. */
  readonly order: PayOrder;
  /** The state it was found in: 0 (generated) or 1 (paying). */
  readonly state: PayOrderState;

  /** @param options - `operation` is `close` (its `confirm`) or `reissueOrder`, which words the advice. */
  constructor(order: PayOrder, options: GatewayErrorOptions = {}) {
    const ids = `${JSON.stringify(order.mchOrderNo)} (payOrderId ${order.payOrderId})`;
    const found = `state ${order.state} (${payOrderStateName(order.state)})`;
    const wait = `wait for its final state (client.waitForOrder({ payOrderId: '${order.payOrderId}' }))`;
    super(
      options.operation === 'reissueOrder'
        ? `The order ${ids} is still in ${found} after the close, so it was not replaced: the payer may be paying it now, and a replacement could be paid too. ` +
            `Create no other order for the same purchase: ${wait}, fulfil it if it was paid, and reissue only once it is closed, failed or revoked.`
        : `${options.operation ?? 'close'} was answered as done, but the order ${ids}, read back afterwards, is in ${found}, not final: the payer may be paying it now. ` +
            `Do not treat it as closed and create no other order for the same purchase: ${wait} and act on that.`,
      options,
    );
    this.order = order;
    this.state = order.state;
  }
}
