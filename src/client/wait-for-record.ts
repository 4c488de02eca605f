import * as z from 'zod/mini';
import { GatewayAbortError, GatewayTimeoutError, type GatewayError, type GatewayErrorOptions } from '../errors/index.js';
import { timerDelayMs } from '../protocol/schemas/fields.js';
import { lazySchema } from '../protocol/schemas/lazy.js';
import { parseInput } from '../protocol/schemas/parse.js';
import type { PayOrderState } from '../kinds/payments/enums.js';
import type { PayOrder } from '../kinds/payments/schemas.js';
import type { KindTracking } from '../kinds/kind-tracking.js';
import { notificationKinds, type TableTracking } from '../notify/kinds.js';
import { definitionOf, type OperationName, type ParamsOf, type ResultOf } from '../operations/table.js';
import { maskPersonalFields } from '../protocol/schemas/free-text.js';
import { objectFields } from '../protocol/schemas/introspect.js';
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

  constructor(message: string, lastOrder: PayOrder | undefined, options: GatewayErrorOptions & Omit<LastRecords, 'lastOrder'> = {}) {
    // The base class reads its own options alone.
    super(message, options);
    const records: Readonly<Record<string, unknown>> = { ...options, lastOrder };
    // Every kind's field, in the kinds' order, `undefined` but the one the wait read.
    for (const field of lastFields) (this as unknown as Record<string, unknown>)[field] = records[field];
  }

  /** The state last seen, or `undefined` when no query succeeded. */
  get lastState(): PayOrderState | undefined {
    return this.lastOrder?.state;
  }
}

/**
 * Each tracked kind's record as the wait's timeout last read it, or `undefined` when no query succeeded (always, for
 * another kind's wait): `lastOrder` for `waitForOrder`, `lastRefund` for `waitForRefund`, `lastTransfer` for `waitForTransfer`
 * (its payee's account and name masked, `***6789`: the error's fields reach logs).
 */
export interface GatewayWaitTimeoutError extends LastRecordFields {}

type Kinds = typeof notificationKinds;

/** The kinds a client waits for: those a processor tracks, whose row names the read and the open states. */
export type WaitedKind = { [Name in keyof Kinds]: Kinds[Name]['tracking'] extends KindTracking ? Name : never }[keyof Kinds];
type TrackingOf<Name extends WaitedKind> = NonNullable<Kinds[Name]['tracking']>;

/** The record a wait for a kind resolves to: its tracking read's result (`PayOrder`, `Refunds.Refund`). */
export type WaitedRecord<Name extends WaitedKind> = Extract<ResultOf<TrackingOf<Name>['read']>, StatefulRecord>;

/** The timeout error's field that holds a kind's record: `last` and the kind's noun, `lastOrder`, `lastRefund`. */
type LastField<Name extends WaitedKind> = `last${Capitalize<TrackingOf<Name>['noun']>}`;

/** The record each wait's timeout error carries, under the name of its kind: `lastOrder`, `lastRefund`, `lastTransfer`. */
export type LastRecordFields = { readonly [Name in WaitedKind as LastField<Name>]: WaitedRecord<Name> | undefined };

/** The records a timeout error is made with, each optional. */
export type LastRecords = Partial<LastRecordFields>;

const capital = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);
const lastField = (tracking: KindTracking): string => `last${capital(tracking.noun)}`;
const lastFields = Object.values(notificationKinds as Readonly<Record<string, { readonly tracking?: KindTracking | undefined }>>).flatMap(({ tracking }) => (tracking ? [lastField(tracking)] : []));

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
  /** The timeout error's field that holds the record last read. */
  readonly last: string;
}

/**
 * A kind's wait, from its row's tracking (notify/kinds.ts): `waitFor` and its noun (`waitForRefund`), its read, decided
 * once it left the open states, named by your number when given (else the gateway's id), with its `waited` advice.
 */
export function recordWait<Name extends WaitedKind>(name: Name): RecordWait<ParamsOf<TrackingOf<Name>['read']>, WaitedRecord<Name>> {
  const tracking = notificationKinds[name].tracking as TableTracking;
  const { by, open, noun } = tracking;
  return {
    method: `waitFor${capital(noun)}`,
    read: tracking.read,
    final: (record) => !open.includes(record.state),
    named: (ids: Readonly<Record<string, unknown>>) => (ids[by[1]] !== undefined ? `${noun} ${by[1]} '${ids[by[1]]}'` : `${noun} ${by[0]} '${ids[by[0]]}'`),
    advice: tracking.waited,
    last: lastField(tracking),
  };
}

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
  // The payee of a transfer read last is masked: the error's fields reach logs.
  const records: LastRecords = { [wait.last]: last && maskPersonalFields(last, objectFields(definitionOf(wait.read).result).personal) };
  return new GatewayWaitTimeoutError(`The ${wait.named(ids)} ${seen} after waiting ${timeout} ms (${wait.method}'s timeout): ${wait.advice}.`, records.lastOrder, {
    operation: wait.read,
    cause: lastFailure,
    ...records,
  });
}
