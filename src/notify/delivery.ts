/**
 * One delivery to a processor: read once, its kind picked by its shape (identify.ts), verified as that kind,
 * checked against the merchant's record, and run through the store by the handler of its kind and state, once.
 *
 * @module
 */
import { GatewayError, GatewayValidationError, isGatewayError, type ValidationIssue } from '../errors/index.js';
import { REPORT_INPUT, toValidationIssues } from '../protocol/schemas/issues.js';
import { notificationKinds, type DeclaredKind, type EventTime } from './kinds.js';
import { identifyKind } from './identify.js';
import { expectationIssues } from './options.js';
import type { NotificationInput, ReceivedFields } from './input.js';
import type { NotificationProcessor } from './processor-options.js';
import type { ExpectFunction, GivenHandler, ParsedProcessorOptions, ProcessedKind, ProcessorSettings } from './processor-settings.js';
import { replyTo, type NotificationOutcome } from './reply.js';
import type { ProcessingContext, RunOnceResult } from './store.js';
import { isoTime } from '../util/iso-time.js';
import { maskPersonalFields } from '../protocol/schemas/free-text.js';
import { objectFields } from '../protocol/schemas/introspect.js';
import { checkExpected, type IdempotentNotification } from './verify-received.js';

type Outcome = NotificationOutcome<IdempotentNotification>;
/** What a delivery has once read: its fields and the kind they are shaped as, or why it is refused already. */
type Received = { readonly kind: ProcessedKind; readonly fields: ReceivedFields } | { readonly refused: Outcome };

/** A processor of every kind of the parsed options: each delivery runs the handler of its kind and state, or none. */
export function processorOf({ settings, kinds, ignoreKeys }: ParsedProcessorOptions): NotificationProcessor<IdempotentNotification> {
  const { telemetry } = settings;
  // Every kind reads alike (the same maxBodyBytes): a handled kind's reader serves, built already.
  const { read } = (kinds.find((kind) => kind.handlers.length > 0) ?? kinds[0]!).verifier;
  const rows = kinds.map((kind) => kind.row);

  async function receive(input: NotificationInput): Promise<Received> {
    let fields: ReceivedFields;
    try {
      fields = await read(input);
    } catch (error) {
      return { refused: isGatewayError(error) ? { kind: 'refused', error } : { kind: 'failed', notification: undefined, error } };
    }
    const row = identifyKind(rows, fields, ignoreKeys);
    if (row instanceof GatewayError) return { refused: { kind: 'refused', error: row } };
    return { kind: kinds[rows.indexOf(row)]!, fields };
  }

  const handle = async (input: NotificationInput) => {
    const received = await receive(input);
    const deliver = async () => ('refused' in received ? received.refused : forLogs(await deliverKind(received.kind, received.fields, settings), received.kind.row));
    // The span names the kind by its row, never by anything received, and records only the fields its row says name the record.
    if (!telemetry) return replyTo(await deliver());
    return replyTo(await ('refused' in received ? telemetry.notification('unknown', deliver) : telemetry.notification(received.kind.row.name, deliver, recordIds(received.kind.row))));
  };
  return {
    handle,
    handleRequest: async (request) => {
      const { status, headers, body } = await handle(request);
      return new Response(body, { status, headers });
    },
  };
}

/** The outcome as a merchant logs it: its notification (the handler had it whole) with a payee's account and name masked. */
function forLogs(outcome: Outcome, row: DeclaredKind): Outcome {
  if (!('notification' in outcome) || outcome.notification === undefined) return outcome;
  return { ...outcome, notification: maskPersonalFields(outcome.notification, objectFields(row.schema).personal) } as Outcome;
}

/** The fields that name a kind's record (its row's `ids`): by default its tracking's `by`, and those of the kind it belongs to. */
function recordIds({ ids, tracking }: DeclaredKind): readonly string[] {
  if (ids || !tracking) return ids ?? [];
  const owner = tracking.byKey.of === undefined ? undefined : (notificationKinds as Readonly<Record<string, DeclaredKind>>)[tracking.byKey.of]?.tracking;
  return [...tracking.by, ...(owner?.by ?? [])];
}

/** Verifies the fields as their kind, then runs the handler that takes their state through the store. */
async function deliverKind(kind: ProcessedKind, fields: ReceivedFields, settings: ProcessorSettings): Promise<Outcome> {
  let notification: IdempotentNotification;
  try {
    notification = kind.verifier.verify(fields);
  } catch (error) {
    return isGatewayError(error) ? { kind: 'refused', error } : { kind: 'failed', notification: undefined, error };
  }
  const handler = handlerFor(kind, notification);
  if (handler === undefined) return { kind: 'unhandled', notification, error: unhandledError(kind, notification) };
  if (kind.expectFunction) {
    const refusal = await checkAgainstRecord(kind, kind.expectFunction, notification);
    if (refusal) return refusal;
  }
  return runHandler(kind, handler, notification, settings);
}

/** The given handler of the kind that takes the notification's state, if any. */
export function handlerFor(kind: ProcessedKind, notification: IdempotentNotification): GivenHandler | undefined {
  const state = stateOf(kind.row, notification);
  return kind.handlers.find((handler) => handler.states === undefined || handler.states.includes(state as number));
}

/** The value of the row's `stateField` (verified, so of the schema's type); `undefined` for a kind without one. */
function stateOf(row: DeclaredKind, notification: IdempotentNotification): unknown {
  return row.stateField === undefined ? undefined : (notification as unknown as Readonly<Record<string, unknown>>)[row.stateField];
}

function unhandledError({ row, leftUnhandled }: ProcessedKind, notification: IdempotentNotification): GatewayError {
  const { stateField } = row;
  const state = stateOf(row, notification);
  const takers = Object.entries(row.handlers)
    .filter(([, handler]) => handler?.states === undefined || handler.states.includes(state as number))
    .map(([option]) => option);
  const of = state === undefined ? '' : ` of ${stateField} ${String(state)}`;
  const declined = takers.length > 0 && takers.every((option) => leftUnhandled.includes(option));
  const why = declined ? `this processor leaves it unhandled (leaveUnhandled: ${takers.join(', ')})` : `this processor has no handler for it (${takers.join(' or ')})`;
  return new GatewayError(
    `A genuine ${row.label}${of} arrived, but ${why}, so nothing ran and it was answered FAIL: ` +
      `the gateway will deliver it again (six attempts in all). Give the processor ${takers.join(' or ')} (one processor takes every kind your notifyUrl receives); until then ${row.recover.charAt(0).toLowerCase()}${row.recover.slice(1)}.`,
  );
}

/** Claims the event in the store and runs the handler once, waiting for another delivery of it for up to `busyWaitMs`. */
async function runHandler(kind: ProcessedKind, handler: GivenHandler, notification: IdempotentNotification, settings: ProcessorSettings): Promise<Outcome> {
  const { telemetry } = settings;
  try {
    const eventTime = kind.row.eventTime(notification as never);
    const result = await runWaiting(settings, notification.idempotencyKey, eventTime.time, async (context) => {
      await (telemetry ? telemetry.handler(handler.name, () => handler.run(notification, context)) : handler.run(notification, context));
    });
    if (result.status === 'stale') return { kind: 'stale', notification, error: staleError(kind.row, eventTime, result.horizon) };
    // Best effort: a tracked order left behind is read by the next sweep, which finds it done.
    if (result.status !== 'busy') await kind.settled?.(notification).catch(() => undefined);
    if (result.status === 'ran') return { kind: 'processed', notification, warning: result.warning };
    return { kind: result.status === 'done' ? 'duplicate' : 'busy', notification };
  } catch (error) {
    return { kind: 'failed', notification, error };
  }
}

/**
 * Runs an `expect` function and checks the notification against its result as verification checks a fixed
 * `expect`. No record, a mismatch or a `GatewayError` it throws refuse the notification; any other error, or a
 * result that is not an expectation (a column of the wrong type, an unknown field), is a failure of ours: 500.
 */
export async function checkAgainstRecord<Notification>(
  kind: Pick<ProcessedKind, 'expectSchema'> & { readonly row: Pick<DeclaredKind, 'label' | 'amountField' | 'expectOption'> },
  expectFunction: ExpectFunction,
  notification: Notification,
): Promise<NotificationOutcome<Notification> | undefined> {
  let expected: unknown;
  try {
    expected = await expectFunction(notification);
  } catch (error) {
    return isGatewayError(error) ? { kind: 'refused', error } : { kind: 'failed', notification, error };
  }
  if (expected === null || expected === undefined) {
    const issue = { path: [], message: `${kind.row.expectOption} returned no expectation (null or undefined); if the record exists, return what the notification must match` };
    return { kind: 'refused', error: new GatewayValidationError(`The ${kind.row.label} is genuine but your ${kind.row.expectOption} function found no record for it, so it was not processed`, [issue]) };
  }
  let parsed: ReturnType<typeof kind.expectSchema.safeParse>;
  let issues: ValidationIssue[];
  try {
    parsed = kind.expectSchema.safeParse(expected, REPORT_INPUT);
    // A field it names without a value, an amount without its currency, or nothing to check is no check: fail closed.
    issues = [...expectationIssues(kind.row, expected, []), ...(parsed.success ? [] : toValidationIssues(parsed.error.issues))];
  } catch (error) {
    // Reading what it returned may throw (a getter of a lazy ORM record): a failure of ours, never a rejection.
    return { kind: 'failed', notification, error };
  }
  if (issues.length > 0 || !parsed.success) {
    const summary = `Your ${kind.row.expectOption} function returned something that is not an expectation, so the notification was not processed (return the fields to match, each with a value, an amount as an integer with its currency)`;
    return { kind: 'failed', notification, error: new GatewayValidationError(summary, issues) };
  }
  try {
    checkExpected(kind.row.label, notification as Record<string, unknown>, parsed.data as Parameters<typeof checkExpected>[2]);
  } catch (error) {
    return { kind: 'refused', error: error as GatewayValidationError };
  }
  return undefined;
}

/**
 * Runs once through the store, asking again (more slowly each time) while another delivery holds the key. An
 * event older than the store's horizon is `stale`: checked before every ask, in the same tick as the memory
 * store's claim, since a key may be forgotten while this delivery waits.
 */
export async function runWaiting(
  settings: ProcessorSettings,
  key: string,
  eventTime: number,
  effect: (context: ProcessingContext) => Promise<void>,
): Promise<RunOnceResult | { readonly status: 'stale'; readonly horizon: number }> {
  const deadline = performance.now() + settings.busyWaitMs;
  for (let pause = 20; ; pause = Math.min(pause * 2, 500)) {
    const horizon = settings.store.horizon?.();
    // A horizon that is no time (NaN compares false with everything) would let every replay through: fail closed.
    if (horizon !== undefined && !Number.isFinite(horizon)) {
      throw new GatewayError(`The notification store's horizon() returned ${typeof horizon === 'number' ? horizon : typeof horizon}, not a time in milliseconds: fix the store (its horizon is the oldest event time it vouches for); the handler did not run and the gateway will retry.`);
    }
    if (horizon !== undefined && eventTime < horizon) return { status: 'stale', horizon };
    const result = await settings.store.runOnce(key, effect, { eventTime });
    const left = deadline - performance.now();
    if (result.status !== 'busy' || left <= 0) return result;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
  }
}

/** Why a verified event older than the store's horizon did not run the handler, and what to do instead. */
function staleError({ label, recover }: Pick<DeclaredKind, 'label' | 'recover'>, { field, time, happened }: EventTime, horizon: number): GatewayError {
  const when = `${happened} at ${isoTime(time)} (${field} ${time})`;
  return new GatewayError(
    `The ${label} is genuine but ${when}, before ${isoTime(horizon)}, the oldest event your store still remembers (memoryStore: its creation or maxKeys; redisStore: doneTtlMs). ` +
      'It may have been processed before and forgotten since, so the handler did not run: a replay must not fulfil twice. ' +
      `${recover} only if you have not already; use a store that does not forget (sqliteStore, postgresStore) to avoid this.`,
  );
}
