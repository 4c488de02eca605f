import * as z from 'zod/mini';
import { GatewayAbortError, GatewayTimeoutError, type GatewayError, type GatewayErrorOptions } from '../errors/index.js';
import { timerDelayMs } from '../protocol/schemas/fields.js';
import { lazySchema } from '../protocol/schemas/lazy.js';
import { parseInput } from '../protocol/schemas/parse.js';
import { PayOrderState } from '../protocol/schemas/enums.js';
import type { PayOrder, QueryParams } from '../protocol/schemas/order.js';
import { RefundOrderState, type Refund, type RefundQueryParams } from '../protocol/schemas/refund.js';
import type { RequestOptions } from './options.js';
import { endsWait, sleep } from './policy.js';

// Built on first use (protocol/schemas/lazy.ts), not at import.
const optionsSchema = lazySchema(() =>
  z.strictObject({
    /** Milliseconds before the second query; each pause after that is half as long again. Default `1000`. */
    intervalMs: z.optional(timerDelayMs(1)),
    /** The longest pause between two queries, in milliseconds. Default `10000` (or `intervalMs`, when larger). */
    maxIntervalMs: z.optional(timerDelayMs(1)),
    /** Milliseconds to wait in all before rejecting with {@link GatewayWaitTimeoutError}. Default `300000` (5 minutes). */
    timeout: z.optional(timerDelayMs(1)),
    /** Stops the wait: it then rejects with {@link GatewayAbortError}. */
    signal: z.optional(z.custom<AbortSignal>((v) => v instanceof AbortSignal, { error: 'must be an AbortSignal' })),
    /**
     * When the wait is over, instead of the default: the order has left states 0 and 1 (it is paid,
     * failed, revoked, refunded or closed, states 2 to 6); for `waitForRefund`, the refund has (2 refunded,
     * 3 failed, 4 closed).
     */
    until: z.optional(z.custom<(order: PayOrder) => boolean>((v) => typeof v === 'function', { error: 'must be a function of the record' })),
  }),
);

/**
 * Options of {@link GatewayClient.waitForOrder}. All are optional.
 *
 * @interface
 * @example
 * ```ts
 * import type { GatewayClient } from 'payment-gateway-sdk';
 *
 * // The payer is back from the redirect: wait a little for the result, then show "pending".
 * const atReturnPage: GatewayClient.WaitForOrderOptions = { intervalMs: 500, timeout: 8_000 };
 * const order = await client.waitForOrder({ mchOrderNo: 'order-1001' }, atReturnPage);
 * ```
 */
export type WaitForOrderOptions = z.input<ReturnType<typeof optionsSchema>>;

/**
 * Options of {@link GatewayClient.waitForRefund}: those of {@link WaitForOrderOptions}, with `until` a function of the refund.
 *
 * @example
 * ```ts
 * const options: GatewayClient.WaitForRefundOptions = { intervalMs: 2_000, timeout: 60_000 };
 * const refund = await client.waitForRefund({ mchRefundNo: 'refund-1001' }, options);
 * ```
 */
export interface WaitForRefundOptions extends Omit<WaitForOrderOptions, 'until'> {
  /** When the wait is over, instead of the default: the refund has left states 0 and 1 (2 refunded, 3 failed, 4 closed). */
  until?: ((refund: Refund) => boolean) | undefined;
}

/**
 * The defaults of {@link WaitForOrderOptions}.
 *
 * @example
 * ```ts
 * import { WAIT_FOR_ORDER_DEFAULTS } from 'payment-gateway-sdk';
 *
 * // A background job may wait for twice as long as the default.
 * await client.waitForOrder({ payOrderId }, { timeout: 2 * WAIT_FOR_ORDER_DEFAULTS.timeout });
 * ```
 */
export const WAIT_FOR_ORDER_DEFAULTS = {
  /** Milliseconds before the second query. */
  intervalMs: 1_000,
  /** The longest pause between two queries. */
  maxIntervalMs: 10_000,
  /** Milliseconds to wait in all. */
  timeout: 300_000,
} as const;


/**
 * {@link GatewayClient.waitForOrder} ran out of its `timeout` before the order reached the state it waited
 * for. `lastOrder` is the order as last read (`undefined` when no query succeeded; `cause` is then the last
 * failure). Nothing is wrong with the order: show the payment as pending.
 *
 * @example
 * ```ts
 * try {
 *   return await client.waitForOrder({ mchOrderNo }, { timeout: 10_000 });
 * } catch (error) {
 *   if (error instanceof GatewayWaitTimeoutError) return showPending(mchOrderNo, error.lastOrder?.state);
 *   throw error;
 * }
 * ```
 */
export class GatewayWaitTimeoutError extends GatewayTimeoutError {
  static override readonly kind: string = 'GatewayWaitTimeoutError';
  /** The order as last read, or `undefined` when no query succeeded (always, for `waitForRefund`: see `lastRefund`). */
  readonly lastOrder: PayOrder | undefined;
  /** For `waitForRefund`: the refund as last read, or `undefined` when no query succeeded. */
  readonly lastRefund: Refund | undefined;

  constructor(message: string, lastOrder: PayOrder | undefined, options: GatewayErrorOptions & { readonly lastRefund?: Refund | undefined } = {}) {
    const { lastRefund, ...rest } = options;
    super(message, rest);
    this.lastOrder = lastOrder;
    this.lastRefund = lastRefund;
  }

  /** The state last seen, or `undefined` when no query succeeded. */
  get lastState(): PayOrderState | undefined {
    return this.lastOrder?.state;
  }
}

/** The query the wait repeats: the client's own. */
export type QueryOrder = (ids: QueryParams, options: RequestOptions) => Promise<PayOrder>;
/** The refund query `waitForRefund` repeats: the client's own. */
export type QueryRefund = (ids: RefundQueryParams, options: RequestOptions) => Promise<Refund>;

/** What a wait waits for: its name, when a record is decided, and its timeout error. */
interface Waited<Ids, Record> {
  readonly method: 'waitForOrder' | 'waitForRefund';
  decided(record: Record): boolean;
  timedOut(ids: Ids, timeout: number, last: Record | undefined, lastFailure: GatewayError | undefined): GatewayWaitTimeoutError;
}

// The payment attempt is decided once the order has left 0 (generated) and 1 (paying).
const ORDER: Waited<QueryParams, PayOrder> = { method: 'waitForOrder', decided: (order) => order.state >= PayOrderState.Succeeded, timedOut };
// A refund is decided once it has left 0 (created) and 1 (refunding): 2, 3 or 4.
const REFUND: Waited<RefundQueryParams, Refund> = { method: 'waitForRefund', decided: (refund) => refund.state >= RefundOrderState.Succeeded, timedOut: refundTimedOut };

/**
 * Queries an order until `until` holds (by default: it left states 0 and 1), pausing `intervalMs`, then
 * half as long again each time up to `maxIntervalMs`, within `timeout`.
 *
 * A query that fails the way a retry can cure (connection, timeout, 5xx, a broken body, a gateway system
 * or database error) does not end the wait; any other failure does, as it would not change by asking
 * again: invalid ids, a refusal such as `order_not_found` or `signature_invalid`, an untrusted response.
 */
export function waitForOrder(query: QueryOrder, ids: QueryParams, options: WaitForOrderOptions = {}): Promise<PayOrder> {
  return waitFor(ORDER, query, ids, options);
}

/** Queries a refund as {@link waitForOrder} queries an order, until it leaves 0 and 1 (or `until` holds). */
export function waitForRefund(query: QueryRefund, ids: RefundQueryParams, options: WaitForRefundOptions = {}): Promise<Refund> {
  return waitFor(REFUND, query, ids, options);
}

async function waitFor<Ids, Record>(
  waited: Waited<Ids, Record>,
  query: (ids: Ids, options: RequestOptions) => Promise<Record>,
  ids: Ids,
  options: { readonly until?: ((record: Record) => boolean) | undefined },
): Promise<Record> {
  const checked = parseInput(optionsSchema(), options ?? {}, `Invalid ${waited.method} options, nothing was sent`, 'options', 'query');
  const { signal } = checked;
  const until = (checked.until as ((record: Record) => boolean) | undefined) ?? waited.decided;
  const intervalMs = checked.intervalMs ?? WAIT_FOR_ORDER_DEFAULTS.intervalMs;
  const maxIntervalMs = Math.max(intervalMs, checked.maxIntervalMs ?? WAIT_FOR_ORDER_DEFAULTS.maxIntervalMs);
  const timeout = checked.timeout ?? WAIT_FOR_ORDER_DEFAULTS.timeout;
  const deadline = performance.now() + timeout;
  let last: Record | undefined;
  let lastFailure: GatewayError | undefined;
  for (let pause = intervalMs; ; pause = Math.min(pause * 1.5, maxIntervalMs)) {
    if (signal?.aborted) throw GatewayAbortError.of(waited.method, signal.reason);
    const remaining = Math.ceil(deadline - performance.now());
    if (remaining <= 0) throw waited.timedOut(ids, timeout, last, lastFailure);
    try {
      last = await query(ids, { signal, totalTimeout: remaining });
      lastFailure = undefined;
      if (until(last)) return last;
    } catch (error) {
      if (endsWait(error)) throw error;
      // A query cut short by the wait's own deadline (its budget is what was left, in whole ms) says nothing new
      // about the gateway: keep the earlier failure.
      const cutByDeadline = error instanceof GatewayTimeoutError && deadline - performance.now() < 1;
      if (!(cutByDeadline && lastFailure)) lastFailure = error as GatewayError;
    }
    try {
      await sleep(Math.max(0, Math.min(pause, deadline - performance.now())), signal);
    } catch (reason) {
      throw GatewayAbortError.of(waited.method, reason);
    }
  }
}

/** What a wait saw last: the record's state, or why it could not be read. */
const lastSeen = (last: { readonly state: number } | undefined, lastFailure: GatewayError | undefined): string =>
  last ? `was still in state ${last.state}` : `could not be read (last failure: ${lastFailure?.name ?? 'none'})`;

function refundTimedOut(ids: RefundQueryParams, timeout: number, lastRefund: Refund | undefined, lastFailure: GatewayError | undefined): GatewayWaitTimeoutError {
  const refund = ids.mchRefundNo !== undefined ? `refund mchRefundNo '${ids.mchRefundNo}'` : `refund refundOrderId '${ids.refundOrderId}'`;
  return new GatewayWaitTimeoutError(
    `The ${refund} ${lastSeen(lastRefund, lastFailure)} after waiting ${timeout} ms (waitForRefund's timeout): show the refund as in progress, and rely on the refund notification, a processor's sweep or a later refundQuery.`,
    undefined,
    { operation: 'refundQuery', cause: lastFailure, lastRefund },
  );
}

function timedOut(ids: QueryParams, timeout: number, lastOrder: PayOrder | undefined, lastFailure: GatewayError | undefined): GatewayWaitTimeoutError {
  const order = ids.mchOrderNo !== undefined ? `order mchOrderNo '${ids.mchOrderNo}'` : `order payOrderId '${ids.payOrderId}'`;
  return new GatewayWaitTimeoutError(
    `The ${order} ${lastSeen(lastOrder, lastFailure)} after waiting ${timeout} ms (waitForOrder's timeout): show the payment as pending, and rely on the notification or a later query.`,
    lastOrder,
    { operation: 'query', cause: lastFailure },
  );
}
