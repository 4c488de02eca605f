/**
 * What a store needs to remember tracked orders for `processor.sweep`: the part of {@link NotificationStore}
 * that `processor.track` writes and the sweep reads. Every SDK store has it (`tracking`); a custom store
 * without it can still process notifications, but `track` and `sweep` refuse it.
 *
 * @module
 */
import { GatewayError } from '../errors/index.js';

/**
 * One order a processor tracks until it is final: the ids it is queried and bound by, and the times the
 * sweep needs (milliseconds since the epoch, by the processor's `now`).
 *
 * @example
 * ```ts
 * import type { NotificationStore } from 'payment-gateway-sdk';
 *
 * // Named through the store whose tracking keeps it (the type is not exported).
 * type TrackedOrder = Parameters<NonNullable<NotificationStore['tracking']>['track']>[0];
 * const tracked: TrackedOrder = { payOrderId: 'P202406180001', mchOrderNo: 'order-1001', trackedAt: Date.now(), expiresAt: Date.now() + 7_200_000 };
 * ```
 */
export interface TrackedOrder {
  /** The gateway's order id: the key the order is tracked by. */
  readonly payOrderId: string;
  /** Your order number; the record a sweep reads must carry it. */
  readonly mchOrderNo: string;
  /** When `track` first recorded it. */
  readonly trackedAt: number;
  /**
   * When the order stops being payable (`track`'s time plus its `expiredTime`): `closeExpired` closes it after this.
   * `undefined` when its validity is not known (a {@link RecoveredOrder} or bare ids tracked without `expiredTime`):
   * the sweep never closes it.
   */
  readonly expiresAt: number | undefined;
  /** When a sweep first found the gateway answering `order_not_found` for it, if one did. */
  readonly notFoundSince?: number | undefined;
}

/**
 * Where a store keeps tracked orders. Implement it to give a custom store `track` and `sweep`; the memory,
 * SQLite, Postgres and Redis stores have one. Every method is safe to call from any number of processes at once.
 * Tracked refunds come as records of the same shape: `payOrderId` is `refund:<refundOrderId>`, `mchOrderNo` the
 * `mchRefundNo`; a store keeps them as it keeps orders. So do records tracked by their key alone (a create whose
 * outcome is unknown): `payOrderId` is `order-key:<mchOrderNo>` or `refund-key:<mchRefundNo>`, `mchOrderNo` a text
 * of what was sent; a store keeps it as given, and returns it from `track` to have a conflicting one refused.
 *
 * @example
 * ```ts
 * // A store of your own gains track and sweep by adding its tracking:
 * const store: NotificationStore = { runOnce: myRunOnce, tracking: myTracking };
 * ```
 */
export interface OrderTracking {
  /**
   * Records `order` unless its `payOrderId` is tracked already (then it keeps the first record, unchanged), in one
   * atomic step, and resolves to the `mchOrderNo` of the record it keeps: `processor.track` refuses the order
   * when that is not the one it was given.
   */
  track(order: TrackedOrder): Promise<string>;
  /**
   * Takes up to `limit` tracked orders last checked (or tracked, if never checked) at or before `dueBy`, oldest
   * first, and marks them checked at `checkedAt` (always later than `dueBy`), atomically: two sweeps running at
   * once never take the same order, so a fleet shares the work instead of repeating it.
   */
  checkOut(dueBy: number, checkedAt: number, limit: number): Promise<TrackedOrder[]>;
  /** Records that the gateway did not know the order at `since`, unless an earlier time is recorded. */
  notFound(payOrderId: string, since: number): Promise<void>;
  /** Stops tracking the order (it is final). Forgetting an order that is not tracked does nothing. */
  forget(payOrderId: string): Promise<void>;
}

/**
 * What a store whose columns cannot be empty writes for an unknown expiry: later than any known one (at most ten
 * years ahead), so that even an earlier SDK version reading the record never closes the order. @internal
 */
// Number.MAX_SAFE_INTEGER written out: a constant a bundler drops when unused (a property read it keeps).
export const EXPIRY_UNKNOWN = 9_007_199_254_740_991;

/** A tracked order's expiry as a store writes it: {@link EXPIRY_UNKNOWN} for an unknown one. @internal */
export const storedExpiry = (expiresAt: number | undefined): number => expiresAt ?? EXPIRY_UNKNOWN;

/** A stored expiry read back: `undefined` for {@link EXPIRY_UNKNOWN}. @internal */
export const readExpiry = (stored: number): number | undefined => (stored === EXPIRY_UNKNOWN ? undefined : stored);

/** An in-memory `OrderTracking`, bounded: past `maxOrders` tracked orders, `track` refuses rather than forget one. */
export function memoryTracking(maxOrders: number): OrderTracking {
  const orders = new Map<string, { order: TrackedOrder; checkedAt: number }>();
  return {
    async track(order) {
      const kept = orders.get(order.payOrderId);
      if (kept !== undefined) return kept.order.mchOrderNo;
      if (orders.size >= maxOrders) {
        throw new GatewayError(`The memory store tracks at most ${maxOrders} orders (its maxKeys) and is full: sweep more often so that final orders are forgotten, or use a durable store.`);
      }
      orders.set(order.payOrderId, { order, checkedAt: order.trackedAt });
      return order.mchOrderNo;
    },
    async checkOut(dueBy, checkedAt, limit) {
      // The map is in the order of the last check (a checked order moves to the end): the due ones come first.
      const due: { order: TrackedOrder; checkedAt: number }[] = [];
      for (const entry of orders.values()) {
        if (due.length >= limit) break;
        if (entry.checkedAt <= dueBy) due.push(entry);
      }
      for (const entry of due) {
        orders.delete(entry.order.payOrderId);
        orders.set(entry.order.payOrderId, { order: entry.order, checkedAt });
      }
      return due.map((entry) => entry.order);
    },
    async notFound(payOrderId, since) {
      const entry = orders.get(payOrderId);
      if (entry && entry.order.notFoundSince === undefined) orders.set(payOrderId, { ...entry, order: { ...entry.order, notFoundSince: since } });
    },
    async forget(payOrderId) {
      orders.delete(payOrderId);
    },
  };
}
