import { GatewayPayloadTooLargeError, type GatewayError } from '../errors/index.js';
import { NOTIFICATION_ACK } from './acknowledge.js';
import type { IdempotentNotification } from './verify-received.js';

/**
 * What a notification processor did with one delivery:
 * - `processed`: verified, claimed, and the handler ran now (and was recorded done);
 * - `duplicate`: an earlier delivery of the same event was processed: the handler did not run;
 * - `busy`: another delivery of the same event was still being processed when the wait ended;
 * - `failed`: the handler, the store or your `expect` function threw or returned no expectation (the claim released);
 * - `refused`: not verified, or not what `expect` says: nothing was claimed and nothing ran;
 * - `unhandled`: genuine, but of a kind or state none of the handlers takes: nothing ran, the gateway sends it
 *   again; give the processor the handler the error names;
 * - `stale`: older than the oldest event the store remembers (a `memoryStore` after a restart, a `redisStore`
 *   past `doneTtlMs`): it may have been processed and forgotten. Query the order and fulfil it if not done.
 *
 * @example
 * ```ts
 * const { outcome } = await processor.handle(request);
 * if (outcome.kind === 'refused') log.warn('notification refused', outcome.error.message);
 * if (outcome.kind === 'unhandled') log.error('notification without a handler', outcome.error.message);
 * if (outcome.kind === 'failed') log.error('notification processing failed', outcome.error);
 * if (outcome.kind === 'processed' && outcome.warning) log.warn(outcome.warning);
 * if (outcome.kind === 'stale') await fulfilIfPaid(outcome.notification.mchOrderNo); // after client.query
 * ```
 */
export type NotificationOutcome<Notification> =
  | { readonly kind: 'processed'; readonly notification: Notification; readonly warning?: string | undefined }
  | { readonly kind: 'duplicate'; readonly notification: Notification }
  | { readonly kind: 'busy'; readonly notification: Notification }
  | { readonly kind: 'failed'; readonly notification: Notification | undefined; readonly error: unknown }
  | { readonly kind: 'refused'; readonly error: GatewayError }
  | { readonly kind: 'unhandled'; readonly notification: IdempotentNotification; readonly error: GatewayError }
  | { readonly kind: 'stale'; readonly notification: Notification; readonly error: GatewayError };

/**
 * The answer to send the gateway for one delivery, and what happened. `SUCCESS` (status 200) only for a
 * notification processed now or before; every other answer makes the gateway deliver it again later:
 *
 * | outcome | status | body |
 * |---|---|---|
 * | `processed`, `duplicate` | 200 | `SUCCESS` |
 * | `refused` | 400 (413 when over `maxBodyBytes`) | `FAIL: refused` / `FAIL: too large` |
 * | `stale` | 400 | `FAIL: stale` |
 * | `unhandled` | 400 | `FAIL: unhandled` |
 * | `busy` | 409 | `FAIL: in progress` |
 * | `failed` | 500 | `FAIL: processing failed` |
 *
 * The body never contains an error message: log `outcome` instead.
 *
 * @example
 * ```ts
 * // Express
 * const { status, headers, body } = await processor.handle(req.body);
 * res.status(status).set(headers).send(body);
 * ```
 */
export interface NotificationReply<Notification> {
  /** The HTTP status to answer with. */
  readonly status: 200 | 400 | 409 | 413 | 500;
  /** `content-type: text/plain; charset=utf-8`. */
  readonly headers: { readonly 'content-type': 'text/plain; charset=utf-8' };
  /** `SUCCESS`, or a short `FAIL: ...` that reveals nothing about your system. */
  readonly body: string;
  /** What happened, for your logs: its notification has a payee's account and name masked (`***6789`); your handler had them whole. */
  readonly outcome: NotificationOutcome<Notification>;
}

const HEADERS = /* @__PURE__ */ Object.freeze({ 'content-type': 'text/plain; charset=utf-8' } as const);

/** The status and body that tell the gateway what to do next about an outcome. */
export function replyTo<Notification>(outcome: NotificationOutcome<Notification>): NotificationReply<Notification> {
  const [status, body] = answerFor(outcome);
  return { status, headers: HEADERS, body, outcome };
}

function answerFor(outcome: NotificationOutcome<unknown>): [NotificationReply<unknown>['status'], string] {
  switch (outcome.kind) {
    case 'processed':
    case 'duplicate':
      return [200, NOTIFICATION_ACK];
    case 'refused':
      return outcome.error instanceof GatewayPayloadTooLargeError ? [413, 'FAIL: too large'] : [400, 'FAIL: refused'];
    case 'stale':
      return [400, 'FAIL: stale'];
    case 'unhandled':
      return [400, 'FAIL: unhandled'];
    case 'busy':
      return [409, 'FAIL: in progress'];
    case 'failed':
      return [500, 'FAIL: processing failed'];
  }
}
