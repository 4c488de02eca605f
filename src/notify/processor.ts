import { GatewayValidationError } from '../errors/index.js';
import { PayOrderState } from '../protocol/schemas/enums.js';
import type { ProcessingContext } from './store.js';
import { checkAgainstRecord, handlerFor, processorOf, runWaiting } from './delivery.js';
import type { NotificationProcessorFor, NotificationProcessorOptions, PaymentNotificationProcessor } from './processor-options.js';
import { parseProcessorOptions, type Handler, type ParsedProcessorOptions, type ProcessedKind } from './processor-settings.js';
import { checkSweepClient, orderSweeper, type OrderSweeper, type SweeperSettings, type SweptPayOrder, type SweptRefusal } from './sweep.js';
import { checkExpected, type IdempotentNotification } from './verify-received.js';
import type { PayOrderNotification } from './verify.js';

const SWEPT_LABEL = 'paid order found by a sweep';

/**
 * Creates a processor that takes the gateway's notifications as they arrive (repeated, concurrent, on any of
 * your instances) and runs your handler **once per event**: `onPaid` for payment notifications of paid orders,
 * `onRefunded` for refunds that succeeded, `onRefundFailed` for refunds that failed, `onSettlement` for
 * settlement notifications ({@link NotificationProcessorOptions}). One processor takes every kind your notify
 * URL receives: it tells a message's kind by its shape, runs only a handler of that kind and state (a refund's
 * state 2 never runs `onPaid`), refuses a message shaped as two kinds or none (400, `refused`), and answers a
 * genuine message no handler of yours takes `FAIL: unhandled` (400, outcome `unhandled`, nothing claimed), so
 * that the gateway keeps it.
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
 * Pass `expect` (and `expectRefund` with refund handlers, `expectSettlement` with `onSettlement`): without
 * it a handler runs for any genuine notification of your merchant application, whatever its order, amount or
 * currency, so a processor created without a handled kind's expectation warns once per process
 * (`process.emitWarning`, code `PGSDK_NO_EXPECT`).
 *
 * @throws {@link GatewayValidationError} for invalid options (no handler, an expectation without a handler of
 * its kind), or no `store` outside tests (when called, not on the first notification)
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
  const tracked = parsed.kinds.find((kind) => kind.row.tracked && kind.handlers.length > 0);
  const processor = tracked ? withSweeper(parsed, tracked, options as unknown as SweeperOptions) : processorOf(parsed);
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

/**
 * The tracked kind's extra (payments): a processor that also tracks orders and sweeps them, running `onPaid`
 * for a paid order found by a sweep through the notification's claim, once either way.
 */
function withSweeper(parsed: ParsedProcessorOptions, tracked: ProcessedKind, options: SweeperOptions): PaymentNotificationProcessor<IdempotentNotification> {
  const { settings, client } = parsed;
  const { store, telemetry } = settings;
  const { mchNo, appId } = options;
  const processed: ProcessedKind = { ...tracked, settled: async (notification) => store.tracking?.forget((notification as PayOrderNotification).payOrderId) };
  const { fixedExpect } = processed;
  checkSweepClient(client, mchNo, appId);
  // A swept paid order meets the same expect as a notification: the fixed one, then the function's.
  const checkExpectation = async (paid: SweptPayOrder): Promise<SweptRefusal> => {
    try {
      checkExpected(SWEPT_LABEL, paid, fixedExpect ?? {});
    } catch (error) {
      return { kind: 'refused', error: error as GatewayValidationError };
    }
    const outcome = processed.expectFunction && (await checkAgainstRecord({ ...processed, row: { ...processed.row, label: SWEPT_LABEL } }, processed.expectFunction, paid));
    return outcome && (outcome.kind === 'refused' ? outcome : { kind: 'failed', error: outcome.kind === 'failed' ? outcome.error : undefined });
  };
  const { logger, logLevel } = options;
  // A sweep finds paid orders: the tracked kind's handler for that state.
  const handler = handlerFor(processed, { state: PayOrderState.Succeeded } as unknown as IdempotentNotification)!;
  const onPaid: Handler<SweptPayOrder> = (paid, context) => handler.run(paid, context);
  const sweeper = orderSweeper({
    store, client, mchNo, appId, checkExpectation,
    // Asked once (busy is reported, not waited for), with the horizon judged as a notification's is.
    runOnce: (key, eventTime, effect) => runWaiting({ ...settings, busyWaitMs: 0 }, key, eventTime, effect),
    onPaid: telemetry ? (paid, context) => telemetry.handler(handler.name, () => onPaid(paid, context)) : onPaid,
    now: options.now ?? Date.now, logger, logLevel: logLevel as SweeperSettings['logLevel'],
  });
  const sweep: OrderSweeper['sweep'] = telemetry ? (sweepOptions) => telemetry.sweep(() => sweeper.sweep(sweepOptions)) : sweeper.sweep;
  return Object.assign(processorOf({ ...parsed, kinds: parsed.kinds.map((kind) => (kind === tracked ? processed : kind)) }), sweeper, { sweep });
}

