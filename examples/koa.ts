/**
 * Koa: verify the gateway's payment notification from the raw body, fulfil the order once, answer SUCCESS.
 *
 * ```ts
 * const client = new GatewayClient({ baseUrl, mchNo, appId, secret });
 * createApp({ client, fulfil: markOrderPaid }).listen(3000);
 * ```
 */
import type { IncomingMessage } from 'node:http';
import Koa from 'koa';
import { type GatewayClient, isGatewayError, NOTIFICATION_ACK, type PayOrderNotification, PayOrderState } from 'payment-gateway-sdk';
import { oncePerEvent } from './once-per-event.js';

export interface NotifyAppOptions {
  client: GatewayClient;
  /** Your business step, e.g. mark the order paid and ship it. */
  fulfil: (notification: PayOrderNotification) => Promise<void>;
}

/** A notification is a small form: anything larger is not the gateway's. */
const MAX_BODY_BYTES = 64 * 1024;

export function createApp({ client, fulfil }: NotifyAppOptions): Koa {
  const app = new Koa();
  const fulfilOnce = oncePerEvent(fulfil);

  app.use(async (ctx, next) => {
    if (ctx.method !== 'POST' || ctx.path !== '/pay/notify') return next();
    let notification: PayOrderNotification;
    try {
      // The bytes as received (no body parser needed): the SDK decodes the form and verifies it.
      notification = await client.verifyNotification(await readBody(ctx.req));
    } catch (error) {
      if (!isGatewayError(error) && !(error instanceof BodyTooLarge)) throw error;
      console.warn('payment notification rejected:', error.message); // never contains the secret
      ctx.status = 400;
      ctx.type = 'text/plain';
      ctx.body = 'FAIL';
      return;
    }
    if (notification.state === PayOrderState.Succeeded) await fulfilOnce(notification); // a failure answers 500: the gateway retries
    ctx.type = 'text/plain';
    ctx.body = NOTIFICATION_ACK;
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
