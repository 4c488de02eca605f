/**
 * Fastify: verify the gateway's payment notification from the raw body, fulfil the order once, answer SUCCESS.
 *
 * ```ts
 * const client = new GatewayClient({ baseUrl, mchNo, appId, secret });
 * await createServer({ client, fulfil: markOrderPaid }).listen({ port: 3000 });
 * ```
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { type GatewayClient, isGatewayError, NOTIFICATION_ACK, type PayOrderNotification, PayOrderState } from 'payment-gateway-sdk';
import { oncePerEvent } from './once-per-event.js';

export interface NotifyServerOptions {
  client: GatewayClient;
  /** Your business step, e.g. mark the order paid and ship it. */
  fulfil: (notification: PayOrderNotification) => Promise<void>;
}

export function createServer({ client, fulfil }: NotifyServerOptions): FastifyInstance {
  const app = Fastify();
  const fulfilOnce = oncePerEvent(fulfil);

  // Hand the form body over as the bytes received (no form plugin needed): the SDK decodes and verifies them.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post('/pay/notify', async (request, reply) => {
    let notification: PayOrderNotification;
    try {
      notification = await client.verifyNotification(request.body as Buffer);
    } catch (error) {
      if (!isGatewayError(error)) throw error;
      request.log.warn(`payment notification rejected: ${error.message}`); // never contains the secret
      return reply.code(400).type('text/plain').send('FAIL');
    }
    if (notification.state === PayOrderState.Succeeded) await fulfilOnce(notification); // a failure answers 500: the gateway retries
    return reply.type('text/plain').send(NOTIFICATION_ACK);
  });
  return app;
}
