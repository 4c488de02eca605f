/**
 * Payment notifications as the reference gateway sends them (protocol.md section 3): when an order becomes
 * paid and has a `notifyUrl`, a form POST of the query fields plus `reqTime` and `sign` (MD5 with the
 * merchant's secret). Success only when the body is `SUCCESS` (any case, nothing else); otherwise retried
 * up to 6 attempts in all, the n-th retry n x 30 s after the previous failure, on the simulated clock. A
 * retry re-sends the stored form: the original `reqTime` and `sign`.
 *
 * @module
 */
import { sign } from '../signing/sign.js';
import type { SimulatedClock } from './clock.js';
import type { MockPayOrder } from './orders.js';

/**
 * Attempts in all before a notification is given up (the operator may resend by hand later).
 *
 * @example
 * ```ts
 * expect(gateway.deliveries).toHaveLength(NOTIFY_MAX_ATTEMPTS); // an endpoint that never answers SUCCESS
 * ```
 */
export const NOTIFY_MAX_ATTEMPTS = 6;

/**
 * The n-th retry comes n times this many milliseconds after the previous failure: attempts at 0 s, 30 s,
 * 1.5 min, 3 min, 5 min and 7.5 min.
 *
 * @example
 * ```ts
 * gateway.advanceTime(NOTIFY_RETRY_STEP_MS); // the first retry is due
 * await gateway.deliverNotifications();
 * ```
 */
export const NOTIFY_RETRY_STEP_MS = 30_000;

/** The query fields a notification carries, in the reference's order (`orderTransactionList` is not sent). */
const NOTIFIED_FIELDS = [
  'payOrderId', 'mchNo', 'appId', 'mchOrderNo', 'ifCode', 'wayCode', 'amount', 'currency', 'state', 'clientIp', 'subject', 'body',
  'channelOrderNo', 'errCode', 'errMsg', 'extParam', 'successTime', 'createdAt',
] as const satisfies readonly (keyof MockPayOrder)[];

/**
 * One delivery attempt of a notification, as recorded in {@link MockGateway.deliveries}.
 *
 * @example
 * ```ts
 * const [first]: readonly NotificationAttempt[] = gateway.deliveries;
 * expect(first?.delivered).toBe(true);
 * ```
 */
export interface NotificationAttempt {
  readonly payOrderId: string;
  readonly url: string;
  /** 1 for the first attempt, up to {@link NOTIFY_MAX_ATTEMPTS}. */
  readonly attempt: number;
  /** Simulated-clock time of the attempt. */
  readonly at: number;
  /** The form fields sent (every value a string). */
  readonly fields: Readonly<Record<string, string>>;
  /** The merchant's HTTP status, when it answered. */
  readonly status?: number | undefined;
  /** The merchant's answer body (first 200 characters), when it answered. */
  readonly response?: string | undefined;
  /** Why the attempt failed to get an answer (connection refused, timeout). */
  readonly error?: string | undefined;
  /** Whether the merchant acknowledged with `SUCCESS`. */
  readonly delivered: boolean;
}

/**
 * A notification and where it stands.
 *
 * @example
 * ```ts
 * const [notification]: readonly MockNotification[] = gateway.notifications;
 * expect(notification?.state).toBe('delivered');
 * ```
 */
export interface MockNotification {
  readonly payOrderId: string;
  readonly mchOrderNo: string;
  readonly url: string;
  /** The form fields, signed once when the order was paid and re-sent unchanged by every retry. */
  readonly fields: Readonly<Record<string, string>>;
  /** `pending` until acknowledged (`delivered`) or out of attempts (`failed`). */
  readonly state: 'pending' | 'delivered' | 'failed';
  readonly attempts: number;
  /** Simulated-clock time of the next attempt while pending. */
  readonly nextAttemptAt?: number | undefined;
}

interface Outbox {
  notification: MockNotification;
  body: string;
}

/** Signs, queues and delivers payment notifications; keeps the delivery log. */
export class Notifier {
  readonly #outbox: Outbox[] = [];
  readonly #log: NotificationAttempt[] = [];

  constructor(
    private readonly clock: SimulatedClock,
    private readonly secretOf: (appId: string) => string,
    private readonly fetch: () => typeof globalThis.fetch,
    private readonly timeoutMs: number,
  ) {}

  /** Queues the notification of a paid order, due now. Orders without `notifyUrl` are not notified. */
  enqueue(order: MockPayOrder): void {
    if (!order.notifyUrl) return;
    const fields: Record<string, string> = {};
    for (const name of NOTIFIED_FIELDS) {
      const value = order[name];
      if (value !== undefined && value !== null) fields[name] = String(value);
    }
    fields.reqTime = String(this.clock.now());
    fields.sign = sign(fields, this.secretOf(order.appId));
    // Query-string keys of the notifyUrl also arrive as body fields, unsigned (protocol.md section 3).
    const query = URL.canParse(order.notifyUrl) ? new URL(order.notifyUrl).searchParams : [];
    for (const [key, value] of query) if (!Object.hasOwn(fields, key)) fields[key] = value;
    this.#outbox.push({
      notification: { payOrderId: order.payOrderId, mchOrderNo: order.mchOrderNo, url: order.notifyUrl, fields, state: 'pending', attempts: 0, nextAttemptAt: this.clock.now() },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** Attempts every notification due on the simulated clock, oldest first. */
  async deliverDue(): Promise<NotificationAttempt[]> {
    const now = this.clock.now();
    const due = this.#outbox.filter((o) => o.notification.state === 'pending' && (o.notification.nextAttemptAt ?? Infinity) <= now);
    const attempts: NotificationAttempt[] = [];
    for (const entry of due) attempts.push(await this.#attempt(entry, now));
    return attempts;
  }

  /** When the next pending attempt is due, or `undefined` when nothing is pending. */
  nextDueAt(): number | undefined {
    const times = this.#outbox.flatMap((o) => (o.notification.state === 'pending' && o.notification.nextAttemptAt !== undefined ? [o.notification.nextAttemptAt] : []));
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  get notifications(): readonly MockNotification[] {
    return this.#outbox.map((o) => o.notification);
  }

  get log(): readonly NotificationAttempt[] {
    return this.#log;
  }

  async #attempt(entry: Outbox, now: number): Promise<NotificationAttempt> {
    const { notification } = entry;
    const attempt = notification.attempts + 1;
    let status: number | undefined;
    let response: string | undefined;
    let error: string | undefined;
    try {
      const answer = await this.fetch()(notification.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: entry.body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      status = answer.status;
      response = await answer.text();
    } catch (cause) {
      error = describeFailure(cause);
    }
    const delivered = response?.toLowerCase() === 'success';
    const record: NotificationAttempt = { payOrderId: notification.payOrderId, url: notification.url, attempt, at: now, fields: notification.fields, status, response: response?.slice(0, 200), error, delivered };
    this.#log.push(record);
    const exhausted = !delivered && attempt >= NOTIFY_MAX_ATTEMPTS;
    entry.notification = {
      ...notification,
      attempts: attempt,
      state: delivered ? 'delivered' : exhausted ? 'failed' : 'pending',
      nextAttemptAt: delivered || exhausted ? undefined : now + attempt * NOTIFY_RETRY_STEP_MS,
    };
    return record;
  }
}

// The useful part is deep in the cause chain (TypeError 'fetch failed' -> { code: 'ECONNREFUSED' }).
function describeFailure(error: unknown): string {
  let deepest = String(error);
  for (let e = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    if (e instanceof Error) deepest = e.name === 'TimeoutError' ? 'timeout' : e.message;
  }
  return deepest;
}
