/**
 * Koa: process the gateway's payment notification once, from the raw body read with a size limit, checked
 * against the shop's own order record.
 *
 * ```ts
 * const store = postgresStore({ pool });
 * await store.migrate();
 * createApp({ merchant, orders, store, onPaid: markOrderPaid }).listen(3000);
 * ```
 */
import type { IncomingMessage } from 'node:http';
import Koa from 'koa';
import { logOutcome, shopProcessor, type ShopOptions } from './shop.js';

/** A notification is a small form: anything larger is not the gateway's. */
const MAX_BODY_BYTES = 64 * 1024;

export function createApp(shop: ShopOptions): Koa {
  const app = new Koa();
  const processor = shopProcessor(shop);

  app.use(async (ctx, next) => {
    if (ctx.method !== 'POST' || ctx.path !== '/pay/notify') return next();
    let body: Buffer;
    try {
      // The bytes as received (no body parser needed): the SDK decodes the form and verifies it.
      body = await readBody(ctx.req);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      console.warn('payment notification refused:', error.message);
      ctx.status = 413;
      ctx.type = 'text/plain';
      ctx.body = 'FAIL';
      return;
    }
    // #region readme
    // Koa: the raw bytes, read with a size limit (readBody, in examples/koa.ts)
    const reply = await processor.handle(body);
    logOutcome(reply);
    ctx.status = reply.status;
    ctx.set(reply.headers);
    ctx.body = reply.body;
    // #endregion readme
  });
  return app;
}

class BodyTooLarge extends Error {}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge(`body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
