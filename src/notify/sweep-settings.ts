/**
 * What a sweep works with: the client it reads through, what it hands `onPaid`, and what the processor gives it.
 *
 * @module
 */
import { GatewayValidationError, type GatewayError } from '../errors/index.js';
import type { PayOrder } from '../protocol/schemas/order.js';
import type { Refund } from '../protocol/schemas/refund.js';
import type { NotificationStore, ProcessingContext, RunOnceResult } from './store.js';
import type { IdempotentNotification } from './verify-received.js';
import type { PayOrderNotification } from './verify.js';
import type { LogLevel } from '../util/log-levels.js';

/**
 * A paid order as a sweep hands it to `onPaid`: the {@link PayOrder} of a **signed query** (verified by the
 * client, bound to the ids asked for, checked against the tracked order and the processor's `mchNo` and `appId`),
 * with the `idempotencyKey` a notification of that payment has (`${payOrderId}:2`), so the two never both run.
 * It differs from a {@link PayOrderNotification} only in having no `reqTime`: tell them apart by
 * `reqTime === undefined`. Everything `onPaid` acts on is as trustworthy as a notification's.
 *
 * @interface
 * @example
 * ```ts
 * const onPaid = async (paid: PaidOrder) => {
 *   const via = paid.reqTime === undefined ? 'sweep' : 'notification'; // paid is a Payments.Swept in the first case
 *   await orders.markPaid(paid.mchOrderNo, paid.amount, via);
 * };
 * ```
 */
export type SweptPayOrder = PayOrder & IdempotentNotification & { readonly reqTime?: undefined };

/**
 * What `onPaid` receives: a verified notification ({@link PayOrderNotification}), or a paid order found by
 * `processor.sweep` ({@link Payments.Swept}, without `reqTime`). Both are state 2 and passed your `expect`.
 *
 * @example
 * ```ts
 * const onPaid = async (paid: PaidOrder, { signal }: ProcessingContext) => {
 *   signal.throwIfAborted();
 *   await ship(paid.mchOrderNo, paid.amount, paid.currency);
 * };
 * ```
 */
export type PaidOrder = PayOrderNotification | SweptPayOrder;

/**
 * What a sweep needs of a `GatewayClient`: `query`, and `close` with `confirm: true` for `closeExpired`. A
 * `GatewayClient` is one; pass the client of the same merchant application as the processor.
 *
 * @example
 * ```ts
 * const client = new GatewayClient(config); // a GatewayClient is a SweepClient
 * const processor = createNotificationProcessor({ ...config, store, onPaid, client });
 * ```
 */
export interface SweepClient {
  /**
   * Reads an order with a signed query ({@link GatewayClient.query}), by both ids so that the answer is bound to both;
   * by `mchOrderNo` alone for an order tracked by its key (or the order of a refund tracked by its key).
   */
  query(params: TrackableOrder | { readonly mchOrderNo: string }, options?: { signal?: AbortSignal | undefined }): Promise<PayOrder>;
  /** Reads a refund with a signed query ({@link GatewayClient.refundQuery}), by both ids (by `mchRefundNo` alone for one tracked by its key): what sweeping tracked refunds needs. */
  refundQuery?(params: TrackableRefund | { readonly mchRefundNo: string }, options?: { signal?: AbortSignal | undefined }): Promise<Refund>;
  /** Closes an order and reads it back ({@link GatewayClient.close} with `confirm: true`). */
  close(params: TrackableOrder, options: { confirm: true; signal?: AbortSignal | undefined }): Promise<PayOrder>;
  /** The client's merchant number: when present, it must be the processor's. */
  readonly mchNo?: string | undefined;
  /** The client's application id: when present, it must be the processor's. */
  readonly appId?: string | undefined;
  /** `false` when the client does not verify answers' signatures: a sweep never acts on unverified records, so it is refused. */
  readonly verifyResponses?: boolean | undefined;
}

/**
 * An order `processor.track` takes: a {@link CreatedOrder} or {@link RecoveredOrder} as `unifiedOrder`
 * resolves to it, or the two ids of an order you created before (to track orders created elsewhere).
 *
 * @example
 * ```ts
 * await processor.track(await client.unifiedOrder(params));
 * await processor.track({ payOrderId: row.gatewayId, mchOrderNo: row.number }); // an older order, from your table
 * ```
 */
export interface TrackableOrder {
  /** The gateway's order id. */
  readonly payOrderId: string;
  /** Your order number. */
  readonly mchOrderNo: string;
  /** The validity its `unifiedOrder` sent, in seconds (a {@link CreatedOrder} carries it): when `closeExpired` may close it. */
  readonly sentExpiredTime?: number | undefined;
  /** Never given: a record with a `mchRefundNo` is a refund (an `UnconfirmedRefund` names one order id only). */
  readonly mchRefundNo?: undefined;
}

/**
 * A refund `processor.track` takes: the {@link Refunds.CreateResult} `refundOrder` resolves to, a {@link Refunds.Refund}, or
 * the two ids of a refund made before. A record with a `refundOrderId` is a refund.
 *
 * @example
 * ```ts
 * await processor.track(await client.refundOrder({ payOrderId, mchRefundNo: 'refund-1001', refundAmount: 400, currency: 'USD', refundReason: 'Returned' }));
 * await processor.track({ refundOrderId: 'R1623985459000001', mchRefundNo: 'refund-1000' }); // an older refund, from your table
 * ```
 */
export interface TrackableRefund {
  /** The gateway's refund id. */
  readonly refundOrderId: string;
  /** Your refund number, as sent to `refundOrder`. */
  readonly mchRefundNo: string;
}

/**
 * A final refund as a sweep hands it to `onRefunded` (state 2) or `onRefundFailed` (3 or 4): the {@link Refunds.Refund}
 * of a **signed `refundQuery`**, checked against the tracked refund's `refundOrderId` and `mchRefundNo` and the
 * processor's `mchNo` and `appId`, with the `idempotencyKey` its notification has (`refund:${refundOrderId}:${state}`),
 * so that the two never both run. Unlike a {@link Refunds.Notification} it has no `reqTime` (nothing was notified);
 * a closed refund (4) is only ever found this way.
 *
 * @interface
 * @example
 * ```ts
 * const onRefunded = async (refund: Refunds.Notification | Refunds.Swept) => {
 *   log.info(`refund ${refund.mchRefundNo} ended in state ${refund.state}`, { via: refund.reqTime === undefined ? 'sweep' : 'notification' });
 * };
 * ```
 */
export type SweptRefund = Refund & IdempotentNotification & { readonly reqTime?: undefined };

/** What a swept paid order's `expect` check found: nothing (it matches), or why it must not be fulfilled. */
export type SweptRefusal = { readonly kind: 'refused'; readonly error: GatewayError } | { readonly kind: 'failed'; readonly error: unknown } | undefined;

/** A logger of the processor's options (a `GatewayLogger`, pino, the console): what a sweep logs to. */
export interface SweepLogger {
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

/** How a sweep settles a final record of one tracked kind: the handler its state picks, and the kind's expectation. @internal */
export interface SweptKind {
  /** The row's handler options this processor lacks: it settles the kind only when it lacks none. */
  readonly lacking: readonly string[];
  /** The handler the swept record's state picks (its option, its report field, its run), or `undefined` when none takes it. */
  handlerOf(record: IdempotentNotification): { readonly option: string; readonly ran: string; run(record: IdempotentNotification, context: ProcessingContext): unknown } | undefined;
  /** The kind's expectation (fixed and function), applied to a swept record as to a notification. */
  checkExpectation(record: IdempotentNotification): Promise<SweptRefusal>;
}

/** What the processor hands the sweeper. @internal */
export interface SweeperSettings {
  readonly store: NotificationStore<ProcessingContext>;
  readonly client: SweepClient | undefined;
  readonly mchNo: string;
  readonly appId: string;
  /** Every tracked kind's, by its name. */
  readonly kinds: Readonly<Record<string, SweptKind>>;
  /** The notification's claim, asked once: `stale` when the event is older than the store's horizon, judged as the claim is asked. */
  readonly runOnce: (key: string, eventTime: number, effect: (context: ProcessingContext) => Promise<void>) => Promise<RunOnceResult | { readonly status: 'stale'; readonly horizon: number }>;
  readonly now: () => number;
  /** Where the sweep's line goes: the processor's `logger`, or the console. */
  readonly logger: SweepLogger | undefined;
  /** The processor's `logLevel`: the line is `info` (`warn` when something needs you), left out below that; always logged when not set. */
  readonly logLevel: LogLevel | undefined;
}

/** Checks that a sweep's client is the processor's merchant application (when it says which) and verifies answers. @internal */
export function checkSweepClient(client: SweepClient | undefined, mchNo: string, appId: string): void {
  if (client === undefined) return;
  const issues = (['mchNo', 'appId'] as const)
    .filter((key) => typeof client[key] === 'string' && client[key] !== { mchNo, appId }[key])
    .map((key) => ({ path: ['client', key], message: `is ${JSON.stringify(client[key])}, not the processor's ${JSON.stringify({ mchNo, appId }[key])}: pass the client of the same merchant application` }));
  if (client.verifyResponses === false) {
    issues.push({ path: ['client', 'verifyResponses'], message: 'is false: a sweep fulfils orders from what the gateway answers, so it needs a client that verifies the answers\' signatures' });
  }
  if (issues.length > 0) throw new GatewayValidationError('Invalid createNotificationProcessor options', issues);
}
