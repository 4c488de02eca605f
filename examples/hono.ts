/**
 * Hono: process the gateway's payment notification once, from the Web Request, checked against the shop's
 * own order record. Runs wherever Hono runs (Node with @hono/node-server, Bun, Deno, Cloudflare Workers).
 *
 * ```ts
 * const store = postgresStore({ pool });
 * await store.migrate();
 * serve({ fetch: createApp({ merchant, orders, store, onPaid: markOrderPaid }).fetch, port: 3000 }); // @hono/node-server
 * ```
 */
import { Hono } from 'hono';
import { logOutcome, shopProcessor, type ShopOptions } from './shop.js';

export function createApp(shop: ShopOptions): Hono {
  const app = new Hono();
  const processor = shopProcessor(shop);

  // #region readme
  // Hono: the Request is read from a clone, so c.req.text() and other middleware still work afterwards.
  app.post('/pay/notify', async (c) => {
    const reply = await processor.handle(c.req.raw);
    logOutcome(reply);
    return c.body(reply.body, reply.status, reply.headers);
  });
  // #endregion readme
  return app;
}
