/**
 * What `processor.track` and `processor.sweep` take: their options, and the schemas that check them.
 *
 * @module
 */
import * as z from 'zod/mini';
import { safeInteger } from '../protocol/schemas/fields.js';
import { lazySchema } from '../protocol/schemas/lazy.js';
import { expiredTimeSchema } from './sweep-kinds.js';

/**
 * Options of `processor.track`.
 *
 * @example
 * ```ts
 * const order = await client.unifiedOrder({ ...params, expiredTime: 900 });
 * await processor.track(order, { expiredTime: 900 }); // as sent to unifiedOrder: 15 minutes
 * ```
 */
export interface TrackOptions {
  /**
   * The order's validity in seconds, as sent to `unifiedOrder` (`expiredTime`): `closeExpired` closes it once
   * this has passed since `track`. Default: the `sentExpiredTime` a {@link CreatedOrder} carries; for a
   * {@link RecoveredOrder} or bare ids, none: the validity is unknown and the sweep never closes the order.
   * At most `315360000` (ten years).
   */
  expiredTime?: number | undefined;
}

/**
 * Options of `processor.sweep`.
 *
 * @example
 * ```ts
 * const report = await processor.sweep({ olderThanMs: 60_000, limit: 5_000, concurrency: 16, closeExpired: true });
 * ```
 */
export interface SweepOptions {
  /**
   * Check only orders tracked, or last checked by any sweep, at least this many milliseconds ago. It leaves the
   * notification its chance first, and spreads a fleet's sweeps: an order one sweep checked is not checked
   * again by another for this long. `0` checks every tracked order. Times are the processor's `now` option
   * (default `Date.now`), as `track` recorded them.
   */
  olderThanMs: number;
  /** The most records (orders and refunds) this sweep checks. Default: every due one. */
  limit?: number | undefined;
  /** How many orders or refunds are checked at once (each a query, with the client's retry rules). Default `8`, at most `64`. */
  concurrency?: number | undefined;
  /** Stops taking orders when aborted; the checks under way finish, then the sweep rejects with {@link GatewayAbortError}. */
  signal?: AbortSignal | undefined;
  /**
   * Close an order that is still open (state 0 or 1) past its expiry, with a confirmed close (`close` with
   * `confirm: true`): closed only when a signed read shows it closed; paid meanwhile, it is fulfilled. Default `false`.
   */
  closeExpired?: boolean | undefined;
  /**
   * How long, in milliseconds, the gateway may answer `order_not_found` for a tracked order before the sweep
   * reports it as `notFound` (until then it counts as `open`). Default `600000` (10 minutes). For a record tracked
   * by its key alone (`processor.track({ mchOrderNo, amount, currency })`, a refund by `mchRefundNo`), the time
   * between the first lookup that proved it absent and one that proves it absent again before it is reported
   * `neverMade` and no longer tracked: a record made a moment ago may not show at once.
   */
  notFoundGraceMs?: number | undefined;
}

/** How many records a sweep checks at once unless told. @internal */
export const DEFAULT_CONCURRENCY = 8;
const MAX_CONCURRENCY = 64;
/** How long a tracked record may be unknown to the gateway before a sweep reports it, unless told. @internal */
export const DEFAULT_NOT_FOUND_GRACE_MS = 600_000;

// Built on first use (protocol/schemas/lazy.ts): an import that never tracks or sweeps builds none.
export const trackOptionsSchema = lazySchema(() => z.strictObject({ expiredTime: expiredTimeSchema() }));
export const sweepOptionsSchema = lazySchema(() =>
  z.strictObject({
    olderThanMs: safeInteger(0),
    limit: z.optional(safeInteger(1)),
    concurrency: z.optional(safeInteger(1).check(z.refine((value: number) => value <= MAX_CONCURRENCY, { error: `must be at most ${MAX_CONCURRENCY}` }))),
    signal: z.optional(z.custom<AbortSignal>((v) => v instanceof AbortSignal, { error: 'must be an AbortSignal' })),
    closeExpired: z.optional(z.boolean({ error: 'must be true or false' })),
    notFoundGraceMs: z.optional(safeInteger(0)),
  }),
);

/** A sweep's options, checked. @internal */
export type ParsedSweepOptions = z.output<ReturnType<typeof sweepOptionsSchema>>;
