/**
 * Fastify: process the gateway's payment notification once, from the raw body, checked against the shop's
 * own order record.
 *
 * ```ts
 * const store = postgresStore({ pool });
 * await store.migrate();
 * await createServer({ merchant, orders, store, onPaid: markOrderPaid }).listen({ port: 3000 });
 * ```
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { logOutcome, shopProcessor, type ShopOptions } from './shop.js';

export function createServer(shop: ShopOptions): FastifyInstance {
  const app = Fastify();
  const processor = shopProcessor(shop);

  // #region readme
  // Fastify: hand the form body over as the bytes received (no form plugin needed); the SDK decodes and verifies them.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post('/pay/notify', async (request, reply) => {
    const answer = await processor.handle(request.body as Buffer);
    logOutcome(answer);
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  });
  // #endregion readme
  return app;
}
