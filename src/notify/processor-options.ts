/**
 * The types of `createNotificationProcessor`'s options and of the processor it returns, derived from the rows of
 * `kinds.ts`: a handler option per handler a row declares, an expectation option per row.
 *
 * @module
 */
import type * as z from 'zod/mini';
import type { Telemetry } from '../telemetry/telemetry.js';
import type { memoryStore } from './memory-store.js';
import type { NotificationStore, ProcessingContext } from './store.js';
import type { notificationKinds, NotificationKindName } from './kinds.js';
import type { NotificationOptions } from './options.js';
import type { NotificationInput } from './input.js';
import type { NotificationReply } from './reply.js';
import type { OrderSweeper } from './sweep.js';
import type { PaidOrder, SweepClient, SweepLogger } from './sweep-settings.js';
import type { Swept, TrackedKindName as TrackedKind } from './tracked-types.js';
import type { LogLevel } from '../util/log-levels.js';
import type { KindNotification, PayOrderExpectation, PayOrderNotification } from './verify.js';

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
 * // A payment processor's `expect` is one: PaymentProcessorOptions['expect'].
 * const expectFromOrder: PaymentProcessorOptions['expect'] = async (notification) => {
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
 * const shared = { ...credentials, store: postgresStore({ pool }), busyWaitMs: 3_000 } satisfies Partial<PaymentProcessorOptions<PostgresContext>>;
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
  /** Where a sweep's one line goes (a `GatewayLogger`, pino, the console); default the console. A client's `logger` serves. */
  logger?: SweepLogger | undefined;
  /** Which sweep lines are written: `info` (every sweep), `warn` (only one that needs you), `off`; default every line. */
  logLevel?: LogLevel | undefined;
  /**
   * The `GatewayClient` of the same merchant application, for `processor.sweep` (its `query` and `close`), with
   * `onPaid`. Without it, `track` works and `sweep` refuses.
   */
  client?: SweepClient | undefined;
  /**
   * The handlers of a kind you handle that you leave out on purpose, e.g. `['onRefundFailed']` with `onRefunded`.
   * A kind's handlers are given all or not at all: `onRefunded` alone is refused when the processor is created,
   * since a failed refund's notification would be answered `FAIL: unhandled` on each of the gateway's six attempts
   * and then never sent again. Named here, such notifications keep that outcome (`unhandled`, 400, nothing claimed):
   * the gateway retries each six times in all, and a handler added later runs the next attempt. Default none.
   */
  leaveUnhandled?: readonly HandlerOption[] | undefined;
}

type Kinds = typeof notificationKinds;
/**
 * The processor options that hold a handler, one or more per notification kind (`onPaid`, `onRefunded`,
 * `onRefundFailed`...: the README's table of notification kinds lists them all); what `leaveUnhandled` names.
 *
 * @example
 * ```ts
 * const declined: NonNullable<NotificationProcessorOptions['leaveUnhandled']> = ['onRefundFailed'];
 * ```
 */
export type HandlerOption = { [Name in NotificationKindName]: keyof Kinds[Name]['handlers'] & `on${string}` }[NotificationKindName];
/** The kind whose row declares a handler option. */
type KindOfHandler<Handler extends HandlerOption> = { [Name in NotificationKindName]: Handler extends keyof Kinds[Name]['handlers'] ? Name : never }[NotificationKindName];
/** What a handler of a kind receives: a verified notification, or (a tracked kind's) a record a sweep found. */
type HandlerArgument<Name extends NotificationKindName> = Name extends TrackedKind ? KindNotification<Name> | Swept<Name> : KindNotification<Name>;
// A method's type, so that a handler written for the notification alone (before sweeps) still compiles.
/** A handler option's function, of its argument and the store's context. */
export type Handler<Argument, Context> = { handler(notification: Argument, context: Context): unknown }['handler'];

/** Each handler option, optional, typed by its kind. */
type HandlerOptions<Context extends ProcessingContext> = { readonly [Option in HandlerOption]?: Handler<HandlerArgument<KindOfHandler<Option>>, Context> | undefined };
/** One handler at least: a processor with none could only refuse. */
type SomeHandler<Context extends ProcessingContext> = { [Option in HandlerOption]: HandlerOptions<Context> & { readonly [Given in Option]-?: Handler<HandlerArgument<KindOfHandler<Option>>, Context> } }[HandlerOption];
/** Each kind's expectation option (`expect`, `expectRefund`...), of its own fields but the state. */
type ExpectationOptions = {
  readonly [Name in NotificationKindName as Kinds[Name]['expectOption']]?: ProcessorExpectation<KindNotification<Name>, Omit<z.input<Kinds[Name]['expect']>, 'state'>> | undefined;
};

/**
 * Options of {@link createNotificationProcessor}: the credentials and checks of verification
 * ({@link NotificationOptions}), where processed events are recorded, the handlers you have (at least one) and
 * what each kind's notifications must match: `expect` ({@link PaymentExpectation}), `expectRefund`
 * ({@link Refunds.Expectation}) and one such option per kind. The README's table of notification kinds, generated
 * from their declarations, gives each kind's handlers, the states each runs for, and its expectation option.
 *
 * Each message runs the handler of its own kind and state; one no handler takes is answered `FAIL: unhandled`.
 * A kind's handlers are given all or none (`onRefunded` without `onRefundFailed` is refused) unless
 * `leaveUnhandled` names the one you leave out on purpose.
 *
 * @example
 * ```ts
 * const options: NotificationProcessorOptions = {
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9',
 *   onPaid: async (paid) => markPaid(paid.mchOrderNo),
 *   onRefunded: async (refund) => markRefunded(refund.mchRefundNo),
 *   // Failed refunds are answered FAIL: unhandled, so the gateway retries each (six attempts), then stops.
 *   leaveUnhandled: ['onRefundFailed'],
 * };
 * ```
 */
export type NotificationProcessorOptions<Context extends ProcessingContext = ProcessingContext> = ProcessorOptions<Context> & ExpectationOptions & SomeHandler<Context>;

/**
 * Options of a processor with `onPaid` (see {@link NotificationProcessorOptions}).
 *
 * @example
 * ```ts
 * const options: PaymentProcessorOptions = {
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9',
 *   onPaid: async (notification) => markPaid(notification.mchOrderNo),
 * };
 * ```
 */
export type PaymentProcessorOptions<Context extends ProcessingContext = ProcessingContext> = NotificationProcessorOptions<Context> & { readonly onPaid: Handler<PaidOrder, Context> };

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
 * A processor with `onPaid` (or refund handlers), which also tracks orders and refunds and sweeps them (`track`,
 * `untrack`, `sweep`), so that a paid order or an ended refund whose notification is lost still runs its handler,
 * once. `Notification` is what its handlers take (a {@link Refunds.Notification} with `onRefunded`).
 *
 * @example
 * ```ts
 * const processor: PaymentNotificationProcessor = createNotificationProcessor({ ...config, store, onPaid, client });
 * await processor.track(await client.unifiedOrder(params));
 * const report = await processor.sweep({ olderThanMs: 60_000 });
 * ```
 */
export interface PaymentNotificationProcessor<Notification = PayOrderNotification> extends NotificationProcessor<Notification>, OrderSweeper {}

/** The kinds whose handlers the options give. */
type HandledKind<Options> = { [Option in HandlerOption]: Options extends { readonly [Given in Option]: (...args: never) => unknown } ? KindOfHandler<Option> : never }[HandlerOption];

/**
 * The processor {@link createNotificationProcessor} returns for its options: of the notifications of the kinds
 * whose handlers they give, with `track` and `sweep` when one of them is tracked (payments, refunds).
 *
 * @example
 * ```ts
 * // onPaid and the refund handlers: a PaymentNotificationProcessor<PayOrderNotification | Refunds.Notification>, with sweep.
 * const both = createNotificationProcessor({
 *   ...credentials, store, onPaid,
 *   onRefunded: async (refund) => markRefunded(refund.mchRefundNo),
 *   onRefundFailed: async (refund) => keepForSupport(refund.mchRefundNo, refund.errMsg), // no money moved
 * });
 * await both.sweep({ olderThanMs: 60_000 });
 * ```
 */
export type NotificationProcessorFor<Options> = [Extract<HandledKind<Options>, TrackedKind>] extends [never]
  ? NotificationProcessor<KindNotification<HandledKind<Options>>>
  : PaymentNotificationProcessor<KindNotification<HandledKind<Options>>>;
