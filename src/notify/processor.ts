import { GatewayValidationError } from '../errors/index.js';
import type { ProcessingContext } from './store.js';
import { checkAgainstRecord, handlerFor, processorOf, runWaiting } from './delivery.js';
import type { NotificationProcessorFor, NotificationProcessorOptions, PaymentNotificationProcessor } from './processor-options.js';
import { parseProcessorOptions, type ParsedProcessorOptions, type ProcessedKind } from './processor-settings.js';
import type { NotificationKindName } from './kinds.js';
import { refundTrackingKey } from './sweep-refunds.js';
import { orderSweeper, type OrderSweeper } from './sweep.js';
import { checkSweepClient, type SweeperSettings, type SweptRefusal } from './sweep-settings.js';
import { checkExpected, type IdempotentNotification } from './verify-received.js';
import type { PayOrderNotification, RefundNotification } from './verify.js';

/**
 * Creates a processor that takes the gateway's notifications as they arrive (repeated, concurrent, on any of
 * your instances) and runs your handler **once per event**: `onPaid`, `onRefunded`, `onRefundFailed`,
 * `onSettlement` ({@link NotificationProcessorOptions}). `processor.handle(input)` takes anything
 * {@link verifyNotification} takes and resolves to `{ status, headers, body, outcome }`, ready to send: it
 * verifies the message as its kind and your `expect`, claims its `idempotencyKey` in the `store`, runs the
 * handler of its kind and state, and answers `SUCCESS` (or 400, 409, 500 so that the gateway sends it again).
 * With payment or refund handlers and the `client` option it also tracks and sweeps what you create
 * (`processor.track`, `processor.sweep`). Pass a `store` (`sqliteStore`, `postgresStore`, `redisStore`; a
 * {@link memoryStore} only under `NODE_ENV=test`) and an expectation per handled kind (`expect`, `expectRefund`,
 * `expectSettlement`; without one it warns `PGSDK_NO_EXPECT`). The guides "Notifications in production" says each step.
 *
 * @throws {@link GatewayValidationError} for invalid options (no handler, an expectation without a handler of
 * its kind, a kind's handlers given in part that `leaveUnhandled` does not name), or no `store` outside tests
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
export function createNotificationProcessor<const Options extends NotificationProcessorOptions<Context>, Context extends ProcessingContext = ProcessingContext>(
  options: Options & NotificationProcessorOptions<Context>,
): NotificationProcessorFor<Options> {
  const parsed = parseProcessorOptions(options);
  const tracked = parsed.kinds.filter((kind) => kind.row.tracking !== undefined && kind.handlers.length > 0);
  const processor = tracked.length > 0 ? withSweeper(parsed, tracked, options as unknown as SweeperOptions) : processorOf(parsed);
  return processor as unknown as NotificationProcessorFor<Options>;
}

/** What a sweeper takes of the processor's options besides the parsed ones. */
interface SweeperOptions {
  readonly mchNo: string;
  readonly appId: string;
  readonly now?: (() => number) | undefined;
  readonly logger?: SweeperSettings['logger'];
  readonly logLevel?: string | undefined;
}

/** Per tracked kind: the label of its swept record, and the tracked record a processed notification settles. */
const SWEPT = {
  payment: { label: 'paid order found by a sweep', trackingKey: (n: IdempotentNotification) => (n as PayOrderNotification).payOrderId },
  refund: { label: 'refund found by a sweep', trackingKey: (n: IdempotentNotification) => refundTrackingKey((n as RefundNotification).refundOrderId) },
} as const satisfies { readonly [Name in NotificationKindName]?: { readonly label: string; readonly trackingKey: (n: IdempotentNotification) => string } };

/**
 * The tracked kinds' extra (payments, refunds): a processor that also tracks their records and sweeps them, running
 * the handler of a final record found by a sweep through its notification's claim, once either way.
 */
function withSweeper(parsed: ParsedProcessorOptions, tracked: readonly ProcessedKind[], options: SweeperOptions): PaymentNotificationProcessor<IdempotentNotification> {
  const { settings, client } = parsed;
  const { store, telemetry } = settings;
  const { mchNo, appId } = options;
  checkSweepClient(client, mchNo, appId);
  // A processed notification of a tracked kind settles its tracked record (best effort: a sweep would find it done).
  const processed = new Map(
    tracked.map((kind) => [kind, { ...kind, settled: async (n: IdempotentNotification) => store.tracking?.forget(SWEPT[kind.row.name as keyof typeof SWEPT].trackingKey(n)) }] as const),
  );
  const sweptOf = (name: keyof typeof SWEPT) => {
    const kind = [...processed.values()].find((k) => k.row.name === name);
    if (kind === undefined) return undefined;
    const checkExpectation = async (record: IdempotentNotification) => sweptExpectation(kind, SWEPT[name].label, record);
    // A swept record's handler is the one its state picks, as a notification's is; traced by its name alike.
    const run = (record: IdempotentNotification, context: ProcessingContext) => {
      const handler = handlerFor(kind, record)!;
      return telemetry ? telemetry.handler(handler.name, () => handler.run(record, context)) : handler.run(record, context);
    };
    return { kind, checkExpectation, run };
  };
  const payments = sweptOf('payment');
  const refunds = sweptOf('refund');
  // A swept refund of a state no handler takes would be tracked for ever: track refuses refunds unless both are given.
  const refundsHandled = refunds !== undefined && Object.keys(refunds.kind.row.handlers).every((option) => refunds.kind.handlers.some((given) => given.option === option));
  const { logger, logLevel } = options;
  const sweeper = orderSweeper({
    store, client, mchNo, appId,
    // Called only for a paid order, which a processor without onPaid never reads (its sweep reports such orders failed).
    checkExpectation: async (paid) => (payments ? payments.checkExpectation(paid) : undefined),
    // Asked once (busy is reported, not waited for), with the horizon judged as a notification's is.
    runOnce: (key, eventTime, effect) => runWaiting({ ...settings, busyWaitMs: 0 }, key, eventTime, effect),
    onPaid: payments && ((paid, context) => payments.run(paid, context)),
    refunds: refundsHandled ? { run: (refund, context) => refunds.run(refund, context), checkExpectation: async (refund) => refunds.checkExpectation(refund) } : undefined,
    now: options.now ?? Date.now, logger, logLevel: logLevel as SweeperSettings['logLevel'],
  });
  const sweep: OrderSweeper['sweep'] = telemetry ? (sweepOptions) => telemetry.sweep(() => sweeper.sweep(sweepOptions)) : sweeper.sweep;
  return Object.assign(processorOf({ ...parsed, kinds: parsed.kinds.map((kind) => processed.get(kind) ?? kind) }), sweeper, { sweep });
}

/** A swept record meets the same expectation as a notification of its kind: the fixed one, then the function's. */
async function sweptExpectation(kind: ProcessedKind, label: string, record: IdempotentNotification): Promise<SweptRefusal> {
  try {
    checkExpected(label, record as unknown as Record<string, unknown>, kind.fixedExpect ?? {});
  } catch (error) {
    return { kind: 'refused', error: error as GatewayValidationError };
  }
  const outcome = kind.expectFunction && (await checkAgainstRecord({ ...kind, row: { ...kind.row, label } }, kind.expectFunction, record));
  return outcome && (outcome.kind === 'refused' ? outcome : { kind: 'failed', error: outcome.kind === 'failed' ? outcome.error : undefined });
}
