/**
 * A Next.js App Router route handler (`app/pay/notify/route.ts`), or any `(request: Request) => Response`
 * runtime: process the payment notification once, checked against the shop's own order record. No client needed.
 *
 * ```ts
 * // app/pay/notify/route.ts
 * const store = postgresStore({ pool }); // its table made by store.migrate() when you deploy
 * export const POST = createNotifyRoute({
 *   merchant: { secret: process.env.GATEWAY_SECRET!, mchNo: process.env.GATEWAY_MCH_NO!, appId: process.env.GATEWAY_APP_ID! },
 *   orders, store, onPaid: markOrderPaid,
 * });
 * ```
 */
import { logOutcome, shopProcessor, type ShopOptions } from './shop.js';

export function createNotifyRoute(shop: ShopOptions): (request: Request) => Promise<Response> {
  const processor = shopProcessor(shop);

  // #region readme
  // Next.js route handler (app/pay/notify/route.ts), Bun, Deno, Workers: processor.handleRequest does the same
  return async function POST(request: Request): Promise<Response> {
    const reply = await processor.handle(request);
    logOutcome(reply);
    return new Response(reply.body, { status: reply.status, headers: reply.headers });
  };
  // #endregion readme
}
