/**
 * A Next.js App Router route handler (`app/pay/notify/route.ts`), or any `(request: Request) => Response`
 * runtime: verify the payment notification, fulfil the order once, answer SUCCESS. No client needed.
 *
 * ```ts
 * // app/pay/notify/route.ts
 * export const POST = createNotifyRoute({
 *   secret: process.env.GATEWAY_SECRET!, mchNo: process.env.GATEWAY_MCH_NO!, appId: process.env.GATEWAY_APP_ID!,
 *   fulfil: markOrderPaid,
 * });
 * ```
 */
import { isGatewayError, notificationAckResponse, type PayOrderNotification, PayOrderState, verifyNotification } from 'payment-gateway-sdk';
import { oncePerEvent } from './once-per-event.js';

export interface NotifyRouteOptions {
  secret: string;
  mchNo: string;
  appId: string;
  /** Your business step, e.g. mark the order paid and ship it. */
  fulfil: (notification: PayOrderNotification) => Promise<void>;
}

export function createNotifyRoute({ fulfil, ...credentials }: NotifyRouteOptions): (request: Request) => Promise<Response> {
  const fulfilOnce = oncePerEvent(fulfil);

  return async function POST(request: Request): Promise<Response> {
    let notification: PayOrderNotification;
    try {
      notification = await verifyNotification(request, credentials);
    } catch (error) {
      if (!isGatewayError(error)) throw error;
      console.warn('payment notification rejected:', error.message); // never contains the secret
      return new Response('FAIL', { status: 400, headers: { 'content-type': 'text/plain' } });
    }
    if (notification.state === PayOrderState.Succeeded) await fulfilOnce(notification); // a failure answers 500: the gateway retries
    return notificationAckResponse();
  };
}
