import { GatewayValidationError } from '../errors/index.js';
import type { ProcessingContext } from './store.js';
import { checkAgainstRecord, handlerFor, processorOf, runWaiting } from './delivery.js';
import type { NotificationProcessorFor, NotificationProcessorOptions, PaymentNotificationProcessor } from './processor-options.js';
import { parseProcessorOptions, type ParsedProcessorOptions, type ProcessedKind, type ProcessorSettings } from './processor-settings.js';
import { idKey, trackedKind, trackedKinds, type TrackedKind } from './sweep-kinds.js';
import { ranField } from './sweep-report.js';
import { orderSweeper, type OrderSweeper } from './sweep.js';
import { checkSweepClient, type SweeperSettings, type SweptKind, type SweptRefusal } from './sweep-settings.js';
import { checkExpected, type IdempotentNotification } from './verify-received.js';
import { keyedDigest } from '../util/keyed-digest.js';

/**
 * Creates a processor that takes the gateway's notifications as they arrive (repeated, concurrent, on any of
 * your instances) and runs your handler **once per event**: `onPaid`, `onRefunded` and the others of each kind
 * ({@link NotificationProcessorOptions}). `processor.handle(input)` takes anything
 * {@link verifyNotification} takes and resolves to `{ status, headers, body, outcome }`, ready to send: it
 * verifies the message as its kind and your `expect`, claims its `idempotencyKey` in the `store`, runs the
 * handler of its kind and state, and answers `SUCCESS` (or 400, 409, 500 so that the gateway sends it again).
 * With handlers of a tracked kind (the README's table of notification kinds says which) and the `client` option
 * it also tracks and sweeps what you create (`processor.track`, `processor.sweep`). Pass a `store`
 * (`sqliteStore`, `postgresStore`, `redisStore`; a {@link memoryStore} only under `NODE_ENV=test`) and an
 * expectation per handled kind (`expect`, `expectRefund`...; without one it warns `PGSDK_NO_EXPECT`). The guide
 * "Notifications in production" says each step.
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
  readonly secret: string;
  readonly mchNo: string;
  readonly appId: string;
  readonly now?: (() => number) | undefined;
  readonly logger?: SweeperSettings['logger'];
  readonly logLevel?: string | undefined;
}

/**
 * The tracked kinds' extra: a processor that also tracks their records and sweeps them, running the handler of a
 * final record found by a sweep through its notification's claim, once either way.
 */
function withSweeper(parsed: ParsedProcessorOptions, tracked: readonly ProcessedKind[], options: SweeperOptions): PaymentNotificationProcessor<IdempotentNotification> {
  const { settings, client } = parsed;
  const { store, telemetry } = settings;
  const { mchNo, appId } = options;
  checkSweepClient(client, mchNo, appId);
  // A processed notification of a tracked kind settles its tracked record (best effort: a sweep would find it done).
  const processed = new Map(
    tracked.map((kind) => {
      const row = trackedKind(kind.row.name);
      return [kind, { ...kind, settled: async (n: IdempotentNotification) => store.tracking?.forget(idKey(row, (n as unknown as Readonly<Record<string, string>>)[row.tracking.by[0]]!)) }] as const;
    }),
  );
  const kinds = Object.fromEntries(trackedKinds.map((row) => [row.name, sweptKind(parsed.kinds.find((kind) => kind.row.name === row.name), row, telemetry)]));
  const { logger, logLevel } = options;
  const sweeper = orderSweeper({
    store, client, mchNo, appId, kinds,
    digest: keyedDigest(options.secret),
    // Asked once (busy is reported, not waited for), with the horizon judged as a notification's is.
    runOnce: (key, eventTime, effect) => runWaiting({ ...settings, busyWaitMs: 0 }, key, eventTime, effect),
    now: options.now ?? Date.now, logger, logLevel: logLevel as SweeperSettings['logLevel'],
  });
  const sweep: OrderSweeper['sweep'] = telemetry ? (sweepOptions) => telemetry.sweep(() => sweeper.sweep(sweepOptions)) : sweeper.sweep;
  return Object.assign(processorOf({ ...parsed, kinds: parsed.kinds.map((kind) => processed.get(kind) ?? kind) }), sweeper, { sweep });
}

/**
 * How a sweep settles a tracked kind in this processor: a swept record's handler is the one its state picks, as a
 * notification's is, traced by its name alike; it meets the kind's expectation. A kind whose handlers are given in
 * part is never settled by a sweep: a record of a state no handler takes would be tracked for ever.
 */
function sweptKind(kind: ProcessedKind | undefined, row: TrackedKind, telemetry: ProcessorSettings['telemetry']): SweptKind {
  const lacking = Object.keys(row.handlers).filter((option) => !kind?.handlers.some((given) => given.option === option));
  return {
    lacking,
    handlerOf(record) {
      const handler = kind && handlerFor(kind, record);
      if (handler === undefined) return undefined;
      const run = (found: IdempotentNotification, context: ProcessingContext) => (telemetry ? telemetry.handler(handler.name, () => handler.run(found, context)) : handler.run(found, context));
      return { option: handler.option, ran: ranField(handler.option), run };
    },
    checkExpectation: async (record) => (kind === undefined ? undefined : sweptExpectation(kind, row.tracking.found, record)),
  };
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
