import type { CreatedOrder, UnifiedOrderResult } from '../../src/index.js';

/** The gateway's own answer to a create (with payData); a recovered order where the test expects none fails it. */
export async function created(result: UnifiedOrderResult | Promise<UnifiedOrderResult>): Promise<CreatedOrder> {
  const order = await result;
  if (order.recovered) throw new Error(`expected the gateway's answer to unifiedOrder, but ${order.mchOrderNo} was recovered by a lookup`);
  return order;
}
