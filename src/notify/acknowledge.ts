/**
 * The body that tells the gateway a notification was received: exactly `SUCCESS`, with no whitespace
 * and no newline. Any other answer, an error status or no answer within 20 s makes the gateway try
 * again. Send it only after the notification is verified and processed (or was processed before).
 *
 * Node's `http` server: `res.writeHead(200, { 'content-type': 'text/plain' }); res.end(NOTIFICATION_ACK);`
 * (never `res.end(NOTIFICATION_ACK + '\n')`, nor a JSON string: `"SUCCESS"` with quotes is not it).
 *
 * @example
 * ```ts
 * import { NOTIFICATION_ACK } from 'payment-gateway-sdk';
 *
 * res.type('text/plain').send(NOTIFICATION_ACK);      // Express
 * reply.type('text/plain').send(NOTIFICATION_ACK);    // Fastify
 * ```
 */
export const NOTIFICATION_ACK = 'SUCCESS';

/**
 * A Web `Response` acknowledging a notification: status 200, `text/plain`, body exactly `SUCCESS`.
 * For route handlers that return a `Response` (Next.js, Hono, Bun, Deno, Cloudflare Workers).
 *
 * @example
 * ```ts
 * import { notificationAckResponse, verifyNotification } from 'payment-gateway-sdk';
 *
 * export async function POST(request: Request): Promise<Response> {
 *   const notification = await verifyNotification(request, credentials);
 *   await fulfilOnce(notification);
 *   return notificationAckResponse();
 * }
 * ```
 */
export function notificationAckResponse(): Response {
  return new Response(NOTIFICATION_ACK, { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}
