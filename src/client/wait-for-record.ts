import * as z from 'zod/mini';
import { GatewayAbortError, GatewayTimeoutError, type GatewayError, type GatewayErrorOptions } from '../errors/index.js';
import { timerDelayMs } from '../protocol/schemas/fields.js';
import { lazySchema } from '../protocol/schemas/lazy.js';
import { parseInput } from '../protocol/schemas/parse.js';
import { PayOrderState } from '../protocol/schemas/enums.js';
import type { PayOrder } from '../protocol/schemas/order.js';
import { RefundOrderState, type Refund } from '../protocol/schemas/refund.js';
import { TransferOrderState, type Transfer } from '../protocol/schemas/transfer.js';
import type { OperationName, ParamsOf, ResultOf } from '../operations/table.js';
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
  /** For `waitForTransfer`: the transfer as last read, or `undefined` when no query succeeded. */
  readonly lastTransfer: Transfer | undefined;

  constructor(message: string, lastOrder: PayOrder | undefined, options: GatewayErrorOptions & Omit<LastRecords, 'lastOrder'> = {}) {
    const { lastRefund, lastTransfer, ...rest } = options;
    super(message, rest);
    this.lastOrder = lastOrder;
    this.lastRefund = lastRefund;
    this.lastTransfer = lastTransfer;
  }

  /** The state last seen, or `undefined` when no query succeeded. */
  get lastState(): PayOrderState | undefined {
    return this.lastOrder?.state;
  }
}

/** The record each wait's timeout error carries, under the name of its kind. */
export interface LastRecords {
  readonly lastOrder?: PayOrder | undefined;
  readonly lastRefund?: Refund | undefined;
  readonly lastTransfer?: Transfer | undefined;
}

/** A record a wait reads: it has a state. */
export interface StatefulRecord {
  readonly state: number;
}

/** One kind's wait, as data: the method, the read it repeats, its final states and what its timeout says. */
export interface RecordWait<Ids, R extends StatefulRecord> {
  readonly method: string;
  readonly read: OperationName;
  /** Whether the record is decided: the default `until`. */
  final(record: R): boolean;
  /** The record as its timeout names it, e.g. `order mchOrderNo 'order-1001'`. */
  named(ids: Ids): string;
  /** What to do after the timeout. */
  readonly advice: string;
  /** The timeout error's field that holds the record last read: one of the record's type. */
  readonly last: { [K in keyof LastRecords]-?: R extends NonNullable<LastRecords[K]> ? K : never }[keyof LastRecords];
}

/** A kind's wait, typed by its read's row: the ids it takes and the record it returns. */
const defineWait = <Op extends OperationName>(wait: RecordWait<ParamsOf<Op>, Extract<ResultOf<Op>, StatefulRecord>> & { readonly read: Op }) => wait;

/** `waitForOrder`: the payment attempt is decided once the order left 0 (generated) and 1 (paying). */
export const orderWait = defineWait({
  method: 'waitForOrder',
  read: 'query',
  final: (order) => order.state >= PayOrderState.Succeeded,
  named: (ids) => (ids.mchOrderNo !== undefined ? `order mchOrderNo '${ids.mchOrderNo}'` : `order payOrderId '${ids.payOrderId}'`),
  advice: 'show the payment as pending, and rely on the notification or a later query',
  last: 'lastOrder',
});

/** `waitForRefund`: a refund is decided once it left 0 (created) and 1 (refunding): 2, 3 or 4. */
export const refundWait = defineWait({
  method: 'waitForRefund',
  read: 'refundQuery',
  final: (refund) => refund.state >= RefundOrderState.Succeeded,
  named: (ids) => (ids.mchRefundNo !== undefined ? `refund mchRefundNo '${ids.mchRefundNo}'` : `refund refundOrderId '${ids.refundOrderId}'`),
  advice: "show the refund as in progress, and rely on the refund notification, a processor's sweep or a later refundQuery",
  last: 'lastRefund',
});

/** `waitForTransfer`: a transfer is decided once it left 0 (created) and 1 (transferring): 2, 3 or 4. */
export const transferWait = defineWait({
  method: 'waitForTransfer',
  read: 'transferQuery',
  final: (transfer) => transfer.state >= TransferOrderState.Succeeded,
  named: (ids) => (ids.transferId !== undefined ? `transfer transferId '${ids.transferId}'` : `transfer mchOrderNo '${ids.mchOrderNo}'`),
  advice: 'show the transfer as in progress; its notification, a sweep or a later transferQuery will tell',
  last: 'lastTransfer',
});

/** The options of a wait for a record of type `R`. */
export type WaitOptions<R> = Omit<WaitForOrderOptions, 'until'> & { until?: ((record: R) => boolean) | undefined };

/**
 * Reads a record until `until` holds (by default: its kind's `final`), pausing `intervalMs`, then half as long
 * again each time up to `maxIntervalMs`, within `timeout`. A failure a retry can cure (`endsWait` says which)
 * does not end the wait; any other does, as asking again would not change it.
 */
export async function waitFor<Ids, R extends StatefulRecord>(
  wait: RecordWait<Ids, R>,
  read: (ids: Ids, options: RequestOptions) => Promise<R>,
  ids: Ids,
  options: WaitOptions<R> = {},
): Promise<R> {
  const checked = parseInput(optionsSchema(), options ?? {}, `Invalid ${wait.method} options, nothing was sent`, 'options', 'query');
  const { signal } = checked;
  const until = (checked.until as ((record: R) => boolean) | undefined) ?? ((record: R) => wait.final(record));
  const intervalMs = checked.intervalMs ?? WAIT_FOR_ORDER_DEFAULTS.intervalMs;
  const maxIntervalMs = Math.max(intervalMs, checked.maxIntervalMs ?? WAIT_FOR_ORDER_DEFAULTS.maxIntervalMs);
  const timeout = checked.timeout ?? WAIT_FOR_ORDER_DEFAULTS.timeout;
  const deadline = performance.now() + timeout;
  let last: R | undefined;
  let lastFailure: GatewayError | undefined;
  for (let pause = intervalMs; ; pause = Math.min(pause * 1.5, maxIntervalMs)) {
    if (signal?.aborted) throw GatewayAbortError.of(wait.method, signal.reason);
    const remaining = Math.ceil(deadline - performance.now());
    if (remaining <= 0) throw timedOut(wait, ids, timeout, last, lastFailure);
    try {
      last = await read(ids, { signal, totalTimeout: remaining });
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
      throw GatewayAbortError.of(wait.method, reason);
    }
  }
}

function timedOut<Ids, R extends StatefulRecord>(wait: RecordWait<Ids, R>, ids: Ids, timeout: number, last: R | undefined, lastFailure: GatewayError | undefined): GatewayWaitTimeoutError {
  const seen = last ? `was still in state ${last.state}` : `could not be read (last failure: ${lastFailure?.name ?? 'none'})`;
  const { lastOrder, ...records } = { [wait.last]: last } as LastRecords;
  return new GatewayWaitTimeoutError(
    `The ${wait.named(ids)} ${seen} after waiting ${timeout} ms (${wait.method}'s timeout): ${wait.advice}.`,
    lastOrder,
    { operation: wait.read, cause: lastFailure, ...records },
  );
}
