/**
 * Payment and refund notifications as the reference gateway sends them (docs/reference/protocol.md section 3): signed
 * once, retried on the mock's clock with the same form, each attempt judged; docs/guides/testing.md, "Notifications".
 *
 * @module
 */
import * as z from 'zod/mini';
import { httpUrl, timerDelayMs } from '../../protocol/schemas/fields.js';
import { sign } from '../../protocol/signing/sign.js';
import { readCappedStream } from '../../util/read-capped-stream.js';
import type { SimulatedClock } from './clock.js';
import { NOTIFICATION_REFS_TEXT, type MockKind, type MockKindName } from './kinds.js';
import { fieldsOf } from './record-desk.js';
import type { MockKindOperations, MockNotificationDeclaration, MockRecordBase } from './record-kind.js';

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

/**
 * Where notifications go. By default to each order's `notifyUrl`, whatever its host.
 *
 * @example
 * ```ts
 * const policy: NotificationRouting = { loopbackOnly: true, forwardTo: 'http://127.0.0.1:3000/notify' };
 * createMockGateway({ merchants, notifications: policy });
 * ```
 */
export interface NotificationRouting {
  /** Deliver every notification to this URL instead of the order's `notifyUrl` (whose query string is kept). */
  readonly forwardTo?: string | undefined;
  /** Deliver only to loopback hosts (127.0.0.0/8, ::1, localhost); others are recorded as not delivered. */
  readonly loopbackOnly?: boolean | undefined;
  /** The n-th retry comes n times this many milliseconds after the previous failure; default {@link NOTIFY_RETRY_STEP_MS}. */
  readonly retryStepMs?: number | undefined;
}

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
  /** The {@link MockNotification.id} this attempt delivered. */
  readonly notificationId: string;
  readonly payOrderId: string;
  /** Where it was sent (the `notifyUrl`, or the forwarding URL). */
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
  /** Why the attempt failed: no answer (connection refused, timeout), not sent, or an answer other than `SUCCESS`. */
  readonly error?: string | undefined;
  /** Whether the merchant acknowledged with `SUCCESS`. */
  readonly delivered: boolean;
  /** In plain English, why the answer was or was not accepted. */
  readonly reason: string;
  /** `true` for a resend by hand ({@link MockGateway.resendNotification}), outside the retry schedule. */
  readonly resend?: boolean | undefined;
  /** Real milliseconds the attempt took, the merchant's answer included. */
  readonly ms: number;
}

/**
 * For a record of a declared kind, what names it: the gateway's id and the merchant's key of each kind (a refund's
 * `refundOrderId` and `mchRefundNo`, a transfer's `transferId`; its key is the notification's `mchOrderNo`).
 */
type NotifiedRecordRefs = { readonly [Field in Exclude<MockKind['id'] | MockKind['key'], 'payOrderId' | 'mchOrderNo'>]?: string | undefined };

/**
 * A notification and where it stands.
 *
 * @example
 * ```ts
 * const [notification]: readonly MockNotification[] = gateway.notifications;
 * expect(notification?.state).toBe('delivered');
 * ```
 */
export interface MockNotification extends NotifiedRecordRefs {
  /** The mock's id of the notification (`N1`, `N2`...), for {@link MockGateway.resendNotification}. */
  readonly id: string;
  /** What it notifies: a paid order, or a record of a declared kind (a refund that succeeded or failed). */
  readonly kind: MockKindName;
  /** The order paid, or refunded. */
  readonly payOrderId: string;
  /** The merchant's number of the order paid (empty for a refund: a refund's notification does not carry it). */
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

const FORWARD_EXAMPLE = 'http://127.0.0.1:3000/notify';

/** Checks {@link NotificationRouting}. */
export const notificationRoutingSchema = z.strictObject({
  forwardTo: z.optional(
    httpUrl(FORWARD_EXAMPLE).check(
      z.minLength(1, { error: `must not be empty, e.g. ${FORWARD_EXAMPLE}` }),
      // fetch refuses a URL with credentials, and the mock prints where it forwards: a password would be in every log.
      z.refine((value) => !URL.canParse(value) || (new URL(value).username === '' && new URL(value).password === ''), {
        error: 'must not hold credentials (user:password@): fetch refuses them and the mock prints this URL; protect the endpoint otherwise',
      }),
    ),
  ),
  loopbackOnly: z.optional(z.boolean({ error: 'must be true or false' })),
  retryStepMs: z.optional(timerDelayMs(0)),
});

/** The most of a merchant's answer read: the answer expected is `SUCCESS`; anything longer is read no further. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** What the notifier needs from the gateway. */
export interface NotifierSetup {
  readonly clock: SimulatedClock;
  readonly secretOf: (appId: string) => string;
  /** The fetch of the moment (the global one may be replaced by a test after the gateway is created). */
  readonly fetch: () => typeof globalThis.fetch;
  readonly timeoutMs: number;
  /** Checked by {@link notificationRoutingSchema}. */
  readonly routing: NotificationRouting;
  /** Told of every attempt once it is recorded. */
  readonly onAttempt: (attempt: NotificationAttempt) => void;
}

interface Outbox {
  notification: MockNotification;
  body: string;
  /** The ids and keys it is about, for a resend by what it notifies. */
  refs: readonly string[];
}

/** What the notifier reads of a declared kind: its name, query, id and key, its notification's declaration and the fields it notifies. */
type NotifiedKind = {
  readonly name: MockKindName;
  readonly operations: MockKindOperations;
  readonly id: string;
  readonly key: string;
  readonly notification?: MockNotificationDeclaration | undefined;
  readonly notifiedFields?: readonly string[] | undefined;
};

/** What says which fields a kind notifies. */
type FieldsOfKind = Pick<NotifiedKind, 'operations' | 'notification' | 'notifiedFields'>;

/** The fields a kind's notification carries but `reqTime` (added when signed): its own list, else its declared schema's, else its query's answer's. */
function notifiedFields(kind: FieldsOfKind): readonly string[] {
  if (kind.notifiedFields !== undefined) return kind.notifiedFields;
  return kind.notification === undefined ? fieldsOf(kind.operations.query) : Object.keys(kind.notification.schema.def.shape).filter((name) => name !== 'reqTime');
}

/**
 * The signed fields of a record of a declared kind, as its notification carries them (and a paid order's `returnUrl`
 * redirect): the fields it notifies present, `reqTime` and `sign` (MD5 with the merchant's secret).
 */
export function signedRecordFields(kind: FieldsOfKind, record: MockRecordBase, secret: string, now: number): Record<string, string> {
  return signedFields(record as unknown as Readonly<Record<string, unknown>>, notifiedFields(kind), secret, now);
}

/** A record's fields present, as text, with `reqTime` and `sign`: what every notification carries. */
function signedFields<R>(record: R, names: readonly (keyof R & string)[], secret: string, now: number): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const name of names) {
    const value = record[name];
    if (value !== undefined && value !== null) fields[name] = String(value);
  }
  fields.reqTime = String(now);
  fields.sign = sign(fields, secret);
  return fields;
}

/** Signs, queues and delivers payment and refund notifications; keeps the delivery log. */
export class Notifier {
  readonly #outbox: Outbox[] = [];
  readonly #log: NotificationAttempt[] = [];
  // An attempt awaits the merchant; a timer and a control call may overlap, and must not send twice.
  readonly #inFlight = new Set<Outbox>();
  readonly #retryStepMs: number;
  readonly #setup: NotifierSetup;

  constructor(setup: NotifierSetup) {
    this.#setup = setup;
    this.#retryStepMs = setup.routing.retryStepMs ?? NOTIFY_RETRY_STEP_MS;
  }

  /**
   * Queues the notification of a record of a declared kind that reached a notified state (a paid order, a refund),
   * due now; a record without `notifyUrl` is not notified. It carries the fields its kind notifies (its own list, its
   * notification kind's, else its query answer's), and names the record by its id and key.
   */
  enqueueRecord(kind: NotifiedKind, record: MockRecordBase): void {
    if (!record.notifyUrl) return;
    const own = record as unknown as Readonly<Record<string, unknown>>;
    const fields = signedRecordFields(kind, record, this.#setup.secretOf(record.appId), this.#setup.clock.now());
    const [id, key] = [String(own[kind.id]), String(own[kind.key])];
    const about = { kind: kind.name, payOrderId: typeof own.payOrderId === 'string' ? own.payOrderId : '', mchOrderNo: '', [kind.id]: id, [kind.key]: key };
    this.#queue(about, [id, key], record.notifyUrl, fields);
  }

  #queue(about: Pick<MockNotification, 'kind' | 'payOrderId' | 'mchOrderNo'>, refs: readonly string[], url: string, fields: Record<string, string>): void {
    // Query-string keys of the notifyUrl also arrive as body fields, unsigned (docs/reference/protocol.md section 3).
    const query = URL.canParse(url) ? new URL(url).searchParams : [];
    for (const [key, value] of query) if (!Object.hasOwn(fields, key)) fields[key] = value;
    const id = `N${this.#outbox.length + 1}`;
    this.#outbox.push({
      notification: { id, ...about, url, fields, state: 'pending', attempts: 0, nextAttemptAt: this.#setup.clock.now() },
      body: new URLSearchParams(fields).toString(),
      refs,
    });
  }

  /** Attempts every notification due on the mock's clock, oldest first. */
  async deliverDue(): Promise<NotificationAttempt[]> {
    const now = this.#setup.clock.now();
    const due = this.#outbox.filter((o) => o.notification.state === 'pending' && (o.notification.nextAttemptAt ?? Infinity) <= now && !this.#inFlight.has(o));
    const attempts: NotificationAttempt[] = [];
    for (const entry of due) attempts.push(await this.#attempt(entry, false));
    return attempts;
  }

  /**
   * Sends a notification again now, with its original `reqTime` and `sign`, whatever its state: by its id (`N1`...), or
   * by what it notifies: a payment's `payOrderId` or `mchOrderNo`, a refund's `refundOrderId` or `mchRefundNo`.
   */
  async resend(ref: string): Promise<NotificationAttempt> {
    const entry = this.#find(ref);
    const id = entry.notification.id;
    if (this.#inFlight.has(entry)) throw new Error(`resendNotification: notification ${id} is being delivered right now`);
    return this.#attempt(entry, true);
  }

  #find(ref: string): Outbox {
    const byId = this.#outbox.find((o) => o.notification.id === ref);
    if (byId) return byId;
    const about = this.#outbox.filter((o) => o.refs.includes(ref));
    if (about.length > 1) throw new Error(`resendNotification: several notifications are about ${JSON.stringify(ref)} (records of several merchants or kinds): give its id, ${about.map((o) => o.notification.id).join(' or ')}`);
    const [entry] = about;
    if (!entry) throw new Error(`resendNotification: no notification ${JSON.stringify(ref)}: give its id (N1, N2...: see gateway.notifications), or the ${NOTIFICATION_REFS_TEXT} it notifies`);
    return entry;
  }

  /** When the next pending attempt is due, or `undefined` when nothing is pending (an attempt under way is not due again). */
  nextDueAt(): number | undefined {
    const times = this.#outbox.flatMap((o) => (o.notification.state === 'pending' && o.notification.nextAttemptAt !== undefined && !this.#inFlight.has(o) ? [o.notification.nextAttemptAt] : []));
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  get notifications(): readonly MockNotification[] {
    return this.#outbox.map((o) => o.notification);
  }

  get log(): readonly NotificationAttempt[] {
    return this.#log;
  }

  async #attempt(entry: Outbox, resend: boolean): Promise<NotificationAttempt> {
    this.#inFlight.add(entry);
    try {
      const { notification } = entry;
      const at = this.#setup.clock.now();
      const started = performance.now();
      const target = deliveryTarget(notification.url, this.#setup.routing);
      const outcome = typeof target === 'string' ? await this.#send(target, entry.body) : { error: target.refused, reason: target.refused };
      const attempt = notification.attempts + 1;
      const current = entry.notification;
      const delivered = outcome.error === undefined || current.state === 'delivered';
      const exhausted = !delivered && (attempt >= NOTIFY_MAX_ATTEMPTS || current.state === 'failed');
      const record: NotificationAttempt = {
        notificationId: notification.id, payOrderId: notification.payOrderId, url: typeof target === 'string' ? target : notification.url, attempt, at,
        fields: notification.fields, status: outcome.status, response: outcome.response?.slice(0, 200), error: outcome.error,
        delivered: outcome.error === undefined, reason: withFate(outcome, exhausted ? 'failed' : delivered ? 'delivered' : 'pending'), resend: resend || undefined, ms: Math.round(performance.now() - started),
      };
      this.#log.push(record);
      entry.notification = {
        ...current,
        attempts: attempt,
        state: delivered ? 'delivered' : exhausted ? 'failed' : 'pending',
        // A resend leaves the retry schedule as it was; a scheduled failure sets the next retry.
        nextAttemptAt: delivered || exhausted ? undefined : resend ? current.nextAttemptAt : this.#setup.clock.now() + attempt * this.#retryStepMs,
      };
      this.#setup.onAttempt(record);
      return record;
    } finally {
      this.#inFlight.delete(entry);
    }
  }

  async #send(url: string, body: string): Promise<SendOutcome> {
    try {
      const answer = await this.#setup.fetch()(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.#setup.timeoutMs),
      });
      const read = answer.body ? await readCappedStream(answer.body, MAX_ANSWER_BYTES) : { bytes: new Uint8Array(), complete: true };
      const response = new TextDecoder().decode(read.bytes);
      if (!read.complete) {
        const reason = `not accepted: the answer was over ${MAX_ANSWER_BYTES} bytes (HTTP ${answer.status}), so the mock stopped reading it; answer with the plain-text body SUCCESS and nothing else`;
        return { status: answer.status, response, error: reason, reason };
      }
      const verdict = judgeAnswer(answer.status, response);
      return { status: answer.status, response, reason: verdict.reason, ...(verdict.accepted ? {} : { error: verdict.reason }) };
    } catch (cause) {
      const error = describeFailure(cause);
      return { error, reason: `no answer (${error})`, unanswered: true };
    }
  }
}

/** What one delivery attempt got; `unanswered` when no answer came at all. */
interface SendOutcome {
  readonly status?: number;
  readonly response?: string;
  readonly error?: string;
  readonly reason: string;
  readonly unanswered?: boolean;
}

/** An attempt's reason, with what becomes of its notification when it failed: failed for good, or (unanswered) retried. */
function withFate(outcome: SendOutcome, state: MockNotification['state']): string {
  if (outcome.error === undefined) return outcome.reason;
  if (state === 'failed') return `${outcome.reason}; the notification failed: no attempt is left (the gateway makes ${NOTIFY_MAX_ATTEMPTS})`;
  return state === 'pending' && outcome.unanswered ? `${outcome.reason}: the notification will be retried` : outcome.reason;
}

/** Where a notification goes under the routing, or why it is not sent. */
function deliveryTarget(notifyUrl: string, routing: NotificationRouting): string | { refused: string } {
  if (routing.forwardTo !== undefined) {
    const target = new URL(routing.forwardTo);
    if (URL.canParse(notifyUrl)) for (const [key, value] of new URL(notifyUrl).searchParams) target.searchParams.append(key, value);
    return target.href;
  }
  if (routing.loopbackOnly && !(URL.canParse(notifyUrl) && isLoopbackHost(new URL(notifyUrl).hostname))) {
    return { refused: `not sent: ${notifyUrl} is not a loopback address, and the mock delivers only to loopback; run it with --forward-to URL to receive notifications elsewhere` };
  }
  return notifyUrl;
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** The reference accepts the body `SUCCESS` in any case and nothing else; say what was wrong with anything else. */
export function judgeAnswer(status: number, body: string): { accepted: boolean; reason: string } {
  if (body.toLowerCase() === 'success') return { accepted: true, reason: `accepted: the body was ${JSON.stringify(body)} (HTTP ${status})` };
  const shown = JSON.stringify(body.length > 60 ? `${body.slice(0, 60)}...` : body);
  let why: string;
  if (body === '') why = status === 204 ? 'HTTP 204 No Content: the body was empty' : `the body was empty (HTTP ${status})`;
  else if (body.trim().toLowerCase() === 'success') why = `the body ${shown} has whitespace or a newline around SUCCESS (HTTP ${status})`;
  else if (body.trim().toLowerCase() === '"success"') why = `the body ${shown} is JSON-quoted (HTTP ${status})`;
  else why = `the body was ${shown} (HTTP ${status})`;
  return { accepted: false, reason: `not accepted: ${why}; answer with the plain-text body SUCCESS and nothing else` };
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
