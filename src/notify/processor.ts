import * as z from 'zod/mini';
import { GatewayError, GatewayValidationError, isGatewayError, type ValidationIssue } from '../errors/index.js';
import { timerDelayMs } from '../protocol/schemas/fields.js';
import { REPORT_INPUT, toValidationIssues } from '../protocol/schemas/issues.js';
import { lazySchema } from '../protocol/schemas/lazy.js';
import { parseInput } from '../protocol/schemas/parse.js';
import { telemetryOption } from '../telemetry/option.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { memoryStore } from './memory-store.js';
import type { NotificationStore, ProcessingContext, RunOnceResult } from './store.js';
import { notificationKinds, type DeclaredKind, type EventTime } from './kinds.js';
import { assertExpectation, expectationIssues, kindOptionsSchemas, type NotificationOptions } from './options.js';
import type { NotificationInput } from './input.js';
import { replyTo, type NotificationOutcome, type NotificationReply } from './reply.js';
import { checkExpected, receivedVerifier, type IdempotentNotification } from './verify-received.js';
import { checkSweepClient, isoTime, orderSweeper, type OrderSweeper, type PaidOrder, type SweepClient, type SweeperSettings, type SweptPayOrder, type SweptRefusal } from './sweep.js';
import type { PayOrderExpectation, PayOrderNotification, SettlementExpectation, SettlementNotification } from './verify.js';

/**
 * What a processor's notification must match: fixed values, or a function of the verified notification that
 * reads your order record and returns them. A function that returns `null` or `undefined` (no such order)
 * refuses the notification; one that throws a {@link GatewayError} refuses it too; any other error, or a result
 * that is not an expectation (an unknown field, an amount as a string), answers 500, so that the gateway retries.
 * A result that would check nothing fails closed the same way (500, the handler never runs): a field without a
 * value (`undefined` or `null`, e.g. `order.totalMinor` read from a row whose column is `total_minor`), an
 * amount without its currency, or `{}`. A fixed `expect` with any of these is refused when the processor is created.
 *
 * @example
 * ```ts
 * const expect: ProcessorExpectation<PayOrderNotification, PaymentExpectation> = async (notification) => {
 *   const order = await orders.find(notification.mchOrderNo);
 *   return order && { amount: order.totalMinor, currency: order.currency };
 * };
 * ```
 */
export type ProcessorExpectation<Notification, Expectation> =
  | Expectation
  | ((notification: Notification) => Expectation | null | undefined | Promise<Expectation | null | undefined>);

/**
 * What a payment processor's notification must match. The state is not among them: a processor runs `onPaid`
 * only for a paid order (state 2, `PayOrderState.Succeeded`) and refuses every other state.
 *
 * @example
 * ```ts
 * const expected: PaymentExpectation = { mchOrderNo: 'order-1001', amount: 1999, currency: 'USD' };
 * ```
 */
export type PaymentExpectation = Omit<PayOrderExpectation, 'state'>;

/**
 * What both kinds of processor take besides the verification options and the handler.
 *
 * @example
 * ```ts
 * const shared: ProcessorOptions<PostgresContext> = { ...credentials, store: postgresStore({ pool }), busyWaitMs: 3_000 };
 * ```
 */
export interface ProcessorOptions<Context extends ProcessingContext> extends NotificationOptions {
  /**
   * Where processed notifications are recorded: `sqliteStore({ path })` (`payment-gateway-sdk/stores/sqlite`)
   * on one machine, `postgresStore({ pool })` or `redisStore({ client })` for a fleet, or {@link memoryStore}
   * to accept forgetting on every restart. **Required** outside tests: without it the processor throws unless
   * `process.env.NODE_ENV` is `'test'`, where it uses a new `memoryStore()`.
   */
  store?: NotificationStore<Context> | undefined;
  /**
   * How long a delivery waits, in milliseconds, for another delivery of the same event that is being processed
   * (asking the store again, more slowly each time) before answering 409 so that the gateway retries later.
   * Default `5000`; at most `15000` (the gateway waits 20 s for an answer). `0` answers 409 at once.
   */
  busyWaitMs?: number | undefined;
  /**
   * Traces and metrics of each delivery, with your handler in a span of its own ({@link Telemetry}):
   * `openTelemetry()` from `payment-gateway-sdk/opentelemetry`. Default none.
   */
  telemetry?: Telemetry | undefined;
}

/**
 * Options of a processor of payment notifications: {@link createNotificationProcessor} with `onPaid`.
 *
 * @example
 * ```ts
 * const options: PaymentProcessorOptions = {
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9',
 *   onPaid: async (notification) => markPaid(notification.mchOrderNo),
 * };
 * ```
 */
export interface PaymentProcessorOptions<Context extends ProcessingContext = ProcessingContext> extends ProcessorOptions<Context> {
  /**
   * What the notification must match; a mismatch is refused (400) and claims nothing. A paid order a sweep
   * found must match it too: a mismatch is reported, never fulfilled. (A function then gets a
   * {@link SweptPayOrder}, whose `reqTime` is `undefined`; its type stays `PayOrderNotification` so that
   * functions written before sweeps compile.)
   */
  expect?: ProcessorExpectation<PayOrderNotification, PaymentExpectation> | undefined;
  /**
   * Your effect for a paid order, run once per event (`idempotencyKey`): at most once at a time, and recorded
   * done when it returns. Throw to have the gateway deliver it again later. With the Postgres store, write
   * through `context.db`: those writes commit with the done mark, or not at all. It receives a verified
   * notification, or a paid order `processor.sweep` found ({@link SweptPayOrder}: the same fields from a signed
   * query, without `reqTime`), through the same claim: once per order either way.
   */
  // A method, so that a handler written for PayOrderNotification alone (before sweeps) still compiles.
  onPaid(notification: PaidOrder, context: Context): unknown;
  onSettlement?: undefined;
  /**
   * The `GatewayClient` of the same merchant application, for `processor.sweep` (its `query` and `close`).
   * Without it, `track` works and `sweep` refuses.
   */
  client?: SweepClient | undefined;
}

/**
 * Options of a processor of settlement notifications: {@link createNotificationProcessor} with `onSettlement`.
 *
 * @example
 * ```ts
 * const options: SettlementProcessorOptions = {
 *   ...credentials,
 *   onSettlement: async (settlement) => recordSettlement(settlement.requestId, settlement.status),
 * };
 * ```
 */
export interface SettlementProcessorOptions<Context extends ProcessingContext = ProcessingContext> extends ProcessorOptions<Context> {
  /** What the notification must match; a mismatch is refused (400) and claims nothing. */
  expect?: ProcessorExpectation<SettlementNotification, SettlementExpectation> | undefined;
  /** Your effect for a settlement event (`serverRequestId:status`), run once per event as `onPaid` is. */
  onSettlement: (notification: SettlementNotification, context: Context) => unknown;
  onPaid?: undefined;
  client?: undefined;
}

/**
 * Processes the gateway's notifications once each; see {@link createNotificationProcessor}.
 *
 * @example
 * ```ts
 * const processor: NotificationProcessor<PayOrderNotification> = createNotificationProcessor({ ...credentials, store, onPaid });
 * export const POST = processor.handleRequest; // Next.js route handler
 * ```
 */
export interface NotificationProcessor<Notification> {
  /** Verifies, claims, runs the handler once and resolves to the answer to send. Never rejects. */
  handle(input: NotificationInput): Promise<NotificationReply<Notification>>;
  /** {@link NotificationProcessor.handle} for a Web `Request`, answered as a Web `Response` (a bound function). */
  readonly handleRequest: (request: Request) => Promise<Response>;
}

/**
 * A processor of payment notifications, which also tracks orders and sweeps them (`track`, `untrack`, `sweep`),
 * so that a paid order whose notification is lost is still fulfilled, once.
 *
 * @example
 * ```ts
 * const processor: PaymentNotificationProcessor = createNotificationProcessor({ ...config, store, onPaid, client });
 * await processor.track(await client.unifiedOrder(params));
 * const report = await processor.sweep({ olderThanMs: 60_000 });
 * ```
 */
export interface PaymentNotificationProcessor extends NotificationProcessor<PayOrderNotification>, OrderSweeper {}

const MAX_BUSY_WAIT_MS = 15_000;
const DEFAULT_BUSY_WAIT_MS = 5_000;
const SWEPT_LABEL = 'paid order found by a sweep';
/** What a processor's `store` can be, as its errors name them. */
const STORE_CHOICES = 'sqliteStore({ path }) from payment-gateway-sdk/stores/sqlite on one machine, postgresStore({ pool }) or redisStore({ client }) for a fleet, or memoryStore() to accept forgetting every event on a restart';

/** The processor options that hold a kind's handler: `onPaid`, `onSettlement`. */
type HandlerOption = DeclaredKind['handler'];
const KINDS: readonly DeclaredKind[] = Object.values(notificationKinds);
/** The options a processor takes that verification does not. */
const PROCESSOR_ONLY_OPTIONS: ReadonlySet<string> = new Set(['store', 'busyWaitMs', 'expect', 'telemetry', 'client', ...KINDS.map((kind) => kind.handler)]);

// Built on first use (protocol/schemas/lazy.ts), not at import.
const processorSchema = lazySchema(() =>
  z.object({
    store: z.optional(z.custom<NotificationStore<ProcessingContext>>((v) => typeof (v as { runOnce?: unknown } | null)?.runOnce === 'function', {
      error: `must be a store: ${STORE_CHOICES}`,
    })),
    busyWaitMs: z.optional(timerDelayMs(0).check(z.maximum(MAX_BUSY_WAIT_MS, { error: `must be at most ${MAX_BUSY_WAIT_MS} ms: the gateway waits 20 s for an answer` }))),
    // One handler option per kind (onPaid, onSettlement): the processor's kind is the one whose handler it is given.
    ...(Object.fromEntries(KINDS.map((kind) => [kind.handler, z.optional(z.custom<() => unknown>((v) => typeof v === 'function', { error: 'must be a function' }))])) as {
      [Handler in HandlerOption]: z.ZodMiniOptional<z.ZodMiniCustom<() => unknown>>;
    }),
    telemetry: telemetryOption(),
    client: z.optional(z.custom<SweepClient>((v) => typeof (v as Partial<SweepClient> | null)?.query === 'function' && typeof (v as Partial<SweepClient>).close === 'function', {
      error: 'must be a GatewayClient (something with query and close)',
    })),
  }),
);

/** One kind of notification, as the processor handles it: its row, its verifier and the merchant's handler. */
interface ProcessedKind<Notification> extends Pick<DeclaredKind, 'label' | 'name' | 'handlerName' | 'recover' | 'eventTime'> {
  readonly verify: (input: NotificationInput) => Promise<Notification>;
  /** What an `expect` function may return: the kind's fixed `expect` schema. */
  readonly expectSchema: z.ZodMiniType;
  readonly handler: (notification: Notification, context: ProcessingContext) => unknown;
  /** Called once the event is processed (now or before): a payment's tracked order is forgotten, sweeps need not read it. */
  readonly settled?: ((notification: Notification) => Promise<void>) | undefined;
}

/**
 * Creates a processor that takes the gateway's notifications as they arrive (repeated, concurrent, on any of
 * your instances) and runs your handler **once per event**: `onPaid` for payment notifications of paid orders,
 * or `onSettlement` for settlement notifications.
 *
 * `processor.handle(input)` takes anything {@link verifyNotification} takes and resolves to
 * `{ status, headers, body, outcome }`, ready to send. For each delivery it:
 * 1. verifies the notification (signature, merchant, shape, a paid state for payments) and your `expect`; a
 *    refused notification answers 400 (413 when too large) and claims nothing;
 * 2. claims its `idempotencyKey` in the `store`: a key processed before answers `SUCCESS` without running the
 *    handler; a key another delivery is processing is asked again for up to `busyWaitMs`, then answers 409;
 * 3. runs the handler, records the key done and answers `SUCCESS`; a handler that throws releases the claim
 *    and answers 500, so that the gateway delivers the notification again.
 *
 * A payment processor also tracks the orders you create and sweeps them (`processor.track`, `processor.sweep`,
 * with the `client` option), so that a paid order whose notifications were all lost is still
 * fulfilled, once: see the guide "Never lose a paid order".
 *
 * Pass a `store`: `sqliteStore` from `payment-gateway-sdk/stores/sqlite` on one machine; with several
 * machines `postgresStore` from `payment-gateway-sdk/stores/postgres` (the claim, your writes and the done mark
 * commit in one transaction, so each event's effect happens exactly once) or `redisStore`. Without one the
 * processor throws, except in tests (`NODE_ENV=test`), where it uses a {@link memoryStore}. A store that
 * forgets (memory, Redis after `doneTtlMs`) refuses events older than what it remembers: outcome `stale`,
 * answered 400, `onPaid` not run. See the guide "Notifications in production".
 *
 * Pass `expect`: without it the handler runs for any genuine notification of your merchant application,
 * whatever its order, amount or currency, so a processor created without it warns once per process
 * (`process.emitWarning`, code `PGSDK_NO_EXPECT`).
 *
 * @throws {@link GatewayValidationError} for invalid options, or no `store` outside tests (when called, not
 * on the first notification)
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { createNotificationProcessor } from 'payment-gateway-sdk';
 * import { postgresStore } from 'payment-gateway-sdk/stores/postgres';
 *
 * const processor = createNotificationProcessor({
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9',
 *   store: postgresStore({ pool }),
 *   expect: async (n) => (await pool.query('SELECT total::int AS amount, currency FROM orders WHERE number = $1', [n.mchOrderNo])).rows[0],
 *   onPaid: async (notification, { db }) => {
 *     await db.query("UPDATE orders SET status = 'paid' WHERE number = $1", [notification.mchOrderNo]);
 *   },
 * });
 *
 * app.post('/pay/notify', express.urlencoded({ extended: false }), async (req, res) => {
 *   const { status, headers, body } = await processor.handle(req.body);
 *   res.status(status).set(headers).send(body);
 * });
 * ```
 */
export function createNotificationProcessor<Context extends ProcessingContext = ProcessingContext>(options: PaymentProcessorOptions<Context>): PaymentNotificationProcessor;
export function createNotificationProcessor<Context extends ProcessingContext = ProcessingContext>(options: SettlementProcessorOptions<Context>): NotificationProcessor<SettlementNotification>;
export function createNotificationProcessor(
  options: PaymentProcessorOptions | SettlementProcessorOptions,
): PaymentNotificationProcessor | NotificationProcessor<IdempotentNotification> {
  const checked = parseInput(processorSchema(), options ?? {}, 'Invalid createNotificationProcessor options', 'options');
  const given = KINDS.filter((row) => checked[row.handler] !== undefined);
  if (given.length !== 1) {
    throw new GatewayValidationError('Invalid createNotificationProcessor options', [
      { path: [], message: `pass exactly one handler: ${KINDS.map((row) => `${row.handler} for ${row.label}s`).join(', or ')} (one processor per notifyUrl)` },
    ]);
  }
  const row = given[0]!;
  const { store = defaultStore(), busyWaitMs = DEFAULT_BUSY_WAIT_MS, expect, telemetry, client } = options;
  // What verification takes: everything but the processor's own options and the handlers.
  const credentials = Object.fromEntries(Object.entries(options).filter(([name]) => !PROCESSOR_ONLY_OPTIONS.has(name))) as NotificationOptions;
  if (expect === undefined) warnWithoutExpect();
  const expectFunction = typeof expect === 'function' ? expect : undefined;
  const fixedExpect = typeof expect === 'function' ? undefined : expect;
  // Checked as given: the kind's default expectation is added below, which would make `{}` look like a check.
  if (fixedExpect !== undefined) assertExpectation(fixedExpect, 'Invalid createNotificationProcessor options');
  const settings = { store, busyWaitMs, expectFunction: expectFunction as ExpectFunction | undefined, telemetry };
  // The kind's default expectation is required, through verification's own check: onPaid is for paid orders only.
  const verify = receivedVerifier(row, { ...credentials, expect: row.defaultExpect === undefined ? fixedExpect : { ...fixedExpect, ...row.defaultExpect } });
  const handler = (options as unknown as Record<string, Handler<IdempotentNotification>>)[row.handler]!;
  const kind: ProcessedKind<IdempotentNotification> = { ...row, verify, expectSchema: kindOptionsSchemas[row.name].def.shape.expect, handler };
  if (row.name === 'payment') return withSweeper(kind as unknown as ProcessedKind<PayOrderNotification>, settings, options as PaymentProcessorOptions, fixedExpect as PaymentExpectation | undefined);
  if (client !== undefined) {
    throw new GatewayValidationError('Invalid createNotificationProcessor options', [{ path: ['client'], message: `is for payment processors (track and sweep): leave it out with ${row.handler}` }]);
  }
  return processorOf(kind, settings);
}

/**
 * The payment kind's extra: a processor that also tracks orders and sweeps them, running `onPaid` for a paid
 * order found by a sweep through the notification's claim, once either way.
 */
function withSweeper(kind: ProcessedKind<PayOrderNotification>, settings: ProcessorSettings, options: PaymentProcessorOptions, fixedExpect: PaymentExpectation | undefined): PaymentNotificationProcessor {
  const { store, telemetry } = settings;
  const { client, mchNo, appId } = options;
  const processed: ProcessedKind<PayOrderNotification> = { ...kind, settled: async (notification) => store.tracking?.forget(notification.payOrderId) };
  checkSweepClient(client, mchNo, appId);
  // A swept paid order meets the same expect as a notification: the fixed one, then the function's.
  const checkExpectation = async (paid: SweptPayOrder): Promise<SweptRefusal> => {
    try {
      checkExpected(SWEPT_LABEL, paid, fixedExpect ?? {});
    } catch (error) {
      return { kind: 'refused', error: error as GatewayValidationError };
    }
    const outcome = settings.expectFunction && (await checkAgainstRecord({ ...processed, label: SWEPT_LABEL }, settings.expectFunction, paid as unknown as PayOrderNotification));
    return outcome && (outcome.kind === 'refused' ? outcome : { kind: 'failed', error: outcome.kind === 'failed' ? outcome.error : undefined });
  };
  const { logger, logLevel } = options as { logger?: SweeperSettings['logger']; logLevel?: string };
  const handler = options.onPaid as Handler<SweptPayOrder>;
  const sweeper = orderSweeper({
    store, client, mchNo, appId, checkExpectation,
    // Asked once (busy is reported, not waited for), with the horizon judged as a notification's is.
    runOnce: (key, eventTime, effect) => runWaiting({ ...settings, busyWaitMs: 0 }, key, eventTime, effect),
    onPaid: telemetry ? (paid, context) => telemetry.handler(kind.handlerName, () => handler(paid, context)) : handler,
    now: options.now ?? Date.now, logger, logLevel: logLevel as SweeperSettings['logLevel'],
  });
  const sweep: OrderSweeper['sweep'] = telemetry ? (sweepOptions) => telemetry.sweep(() => sweeper.sweep(sweepOptions)) : sweeper.sweep;
  return Object.assign(processorOf(processed, settings), sweeper, { sweep });
}

/** The code of the warning a processor without `expect` gives, once per process (for `--disable-warning`). */
const NO_EXPECT_WARNING = 'PGSDK_NO_EXPECT';
// Once per process: a processor made per request (serverless handlers) must not flood the log.
let warnedWithoutExpect = false;

function warnWithoutExpect(): void {
  if (warnedWithoutExpect) return;
  warnedWithoutExpect = true;
  const message =
    'createNotificationProcessor was created without expect: its handler will run for any genuine notification of this merchant application, ' +
    'whatever its order, amount or currency. A signature proves the gateway sent it, not that it is the payment your order asks for ' +
    '(an order created with a price taken from the browser is paid genuinely too). Pass expect: a function that returns your order record\'s ' +
    '{ mchOrderNo, amount, currency } (docs/guides/notifications-in-production.md, "expect").';
  const { process } = globalThis as { process?: { emitWarning?: (message: string, options: { code: string }) => void } };
  if (typeof process?.emitWarning === 'function') process.emitWarning(message, { code: NO_EXPECT_WARNING });
  else console.warn(`Warning: ${message}`);
}

/** A memory store in tests; elsewhere the merchant must choose, since the memory store forgets on a restart. */
function defaultStore(): NotificationStore<ProcessingContext> {
  if ((globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.NODE_ENV === 'test') return memoryStore();
  throw new GatewayValidationError('Invalid createNotificationProcessor options', [
    { path: ['store'], message: `is required outside tests (NODE_ENV=test), so that a restart cannot forget which notifications ran onPaid: pass ${STORE_CHOICES}` },
  ]);
}

type Handler<Notification> = (notification: Notification, context: ProcessingContext) => unknown;
type ExpectFunction = (notification: unknown) => unknown;

interface ProcessorSettings {
  readonly store: NotificationStore<ProcessingContext>;
  readonly busyWaitMs: number;
  readonly expectFunction: ExpectFunction | undefined;
  readonly telemetry: Telemetry | undefined;
}

function processorOf<Notification extends { readonly idempotencyKey: string }>(kind: ProcessedKind<Notification>, settings: ProcessorSettings): NotificationProcessor<Notification> {
  const { telemetry } = settings;
  async function process(input: NotificationInput): Promise<NotificationOutcome<Notification>> {
    let notification: Notification;
    try {
      notification = await kind.verify(input);
    } catch (error) {
      return isGatewayError(error) ? { kind: 'refused', error } : { kind: 'failed', notification: undefined, error };
    }
    if (settings.expectFunction) {
      const refusal = await checkAgainstRecord(kind, settings.expectFunction, notification);
      if (refusal) return refusal;
    }
    try {
      const eventTime = kind.eventTime(notification);
      const result = await runWaiting(settings, notification.idempotencyKey, eventTime.time, async (context) => {
        await (telemetry ? telemetry.handler(kind.handlerName, () => kind.handler(notification, context)) : kind.handler(notification, context));
      });
      if (result.status === 'stale') return { kind: 'stale', notification, error: staleError(kind, eventTime, result.horizon) };
      // Best effort: a tracked order left behind is read by the next sweep, which finds it done.
      if (result.status !== 'busy') await kind.settled?.(notification).catch(() => undefined);
      if (result.status === 'ran') return { kind: 'processed', notification, warning: result.warning };
      return { kind: result.status === 'done' ? 'duplicate' : 'busy', notification };
    } catch (error) {
      return { kind: 'failed', notification, error };
    }
  }

  const handle = async (input: NotificationInput) => replyTo(await (telemetry ? telemetry.notification(kind.name, () => process(input)) : process(input)));
  return {
    handle,
    handleRequest: async (request) => {
      const { status, headers, body } = await handle(request);
      return new Response(body, { status, headers });
    },
  };
}

/**
 * Runs an `expect` function and checks the notification against its result as verification checks a fixed
 * `expect`. No record, a mismatch or a `GatewayError` it throws refuse the notification; any other error, or a
 * result that is not an expectation (a column of the wrong type, an unknown field), is a failure of ours: 500.
 */
async function checkAgainstRecord<Notification>(kind: ProcessedKind<Notification>, expectFunction: ExpectFunction, notification: Notification): Promise<NotificationOutcome<Notification> | undefined> {
  let expected: unknown;
  try {
    expected = await expectFunction(notification);
  } catch (error) {
    return isGatewayError(error) ? { kind: 'refused', error } : { kind: 'failed', notification, error };
  }
  if (expected === null || expected === undefined) {
    const issue = { path: [], message: 'expect returned no expectation (null or undefined); if the order exists, return what the notification must match' };
    return { kind: 'refused', error: new GatewayValidationError(`The ${kind.label} is genuine but your expect function found no record for it, so it was not processed`, [issue]) };
  }
  let parsed: ReturnType<typeof kind.expectSchema.safeParse>;
  let issues: ValidationIssue[];
  try {
    parsed = kind.expectSchema.safeParse(expected, REPORT_INPUT);
    // A field it names without a value, an amount without its currency, or nothing to check is no check: fail closed.
    issues = [...expectationIssues(expected, []), ...(parsed.success ? [] : toValidationIssues(parsed.error.issues))];
  } catch (error) {
    // Reading what it returned may throw (a getter of a lazy ORM record): a failure of ours, never a rejection.
    return { kind: 'failed', notification, error };
  }
  if (issues.length > 0 || !parsed.success) {
    const summary = 'Your expect function returned something that is not an expectation, so the notification was not processed (return the fields to match, each with a value, an amount as an integer with its currency)';
    return { kind: 'failed', notification, error: new GatewayValidationError(summary, issues) };
  }
  try {
    checkExpected(kind.label, notification as Record<string, unknown>, parsed.data as Parameters<typeof checkExpected>[2]);
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
async function runWaiting(
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
