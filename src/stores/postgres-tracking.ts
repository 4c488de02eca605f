/**
 * The Postgres store's tracked orders (`processor.track`, `processor.sweep`): a table next to the processed
 * notifications, `<table>_tracked`, created by the store's `migrate()`.
 *
 * @module
 */
import type { Pool } from 'pg';
import { readExpiry, storedExpiry, type OrderTracking, type TrackedOrder } from '../notify/tracking.js';

/** The longest table name whose tracking table and index names still fit PostgreSQL's 63 characters. */
export const MAX_TRACKED_BASE_NAME = 63 - '_tracked_due'.length;

/** The tracking table of a notification table (`schema.name` → `schema.name_tracked`), quoted, and its index's name. */
export function trackingNames(table: string): { readonly table: string; readonly index: string } {
  const parts = table.split('.');
  const last = `${parts.pop()}_tracked`;
  return { table: [...parts, last].map((part) => `"${part}"`).join('.'), index: `"${last}_due"` };
}

/** The statements `migrate()` runs for tracking, inside its transaction. */
export function trackingMigration(table: string): string[] {
  const names = trackingNames(table);
  return [
    `CREATE TABLE IF NOT EXISTS ${names.table} (
      pay_order_id text PRIMARY KEY,
      mch_order_no text NOT NULL,
      tracked_at bigint NOT NULL,
      expires_at bigint NOT NULL,
      checked_at bigint NOT NULL,
      not_found_since bigint
    )`,
    `CREATE INDEX IF NOT EXISTS ${names.index} ON ${names.table} (checked_at)`,
  ];
}

interface TrackedRow {
  pay_order_id: string;
  mch_order_no: string;
  tracked_at: string;
  expires_at: string;
  not_found_since: string | null;
}

/** Tracked orders in `<table>_tracked`, each statement on its own (autocommit), so that a check-out holds no lock. */
export function postgresTracking(pool: Pool, table: string): OrderTracking {
  const name = trackingNames(table).table;
  const sql = {
    // The update that changes nothing makes RETURNING give the record kept, atomically, even against a concurrent insert.
    track: `INSERT INTO ${name} AS t (pay_order_id, mch_order_no, tracked_at, expires_at, checked_at) VALUES ($1, $2, $3, $4, $3)
      ON CONFLICT (pay_order_id) DO UPDATE SET mch_order_no = t.mch_order_no RETURNING t.mch_order_no`,
    // SKIP LOCKED: two sweeps checking out at once take different orders, neither waits for the other.
    checkOut: `UPDATE ${name} SET checked_at = $2 WHERE pay_order_id IN (
        SELECT pay_order_id FROM ${name} WHERE checked_at <= $1 ORDER BY checked_at LIMIT $3 FOR UPDATE SKIP LOCKED)
      RETURNING pay_order_id, mch_order_no, tracked_at::text, expires_at::text, not_found_since::text`,
    notFound: `UPDATE ${name} SET not_found_since = COALESCE(not_found_since, $2) WHERE pay_order_id = $1`,
    forget: `DELETE FROM ${name} WHERE pay_order_id = $1`,
  };
  return {
    async track(order) {
      const { rows } = await pool.query<{ mch_order_no: string }>(sql.track, [order.payOrderId, order.mchOrderNo, order.trackedAt, storedExpiry(order.expiresAt)]);
      return rows[0]!.mch_order_no;
    },
    async checkOut(dueBy, checkedAt, limit) {
      const { rows } = await pool.query<TrackedRow>(sql.checkOut, [dueBy, checkedAt, limit]);
      return rows.map(
        (row): TrackedOrder => ({
          payOrderId: row.pay_order_id,
          mchOrderNo: row.mch_order_no,
          trackedAt: Number(row.tracked_at),
          expiresAt: readExpiry(Number(row.expires_at)),
          notFoundSince: row.not_found_since === null ? undefined : Number(row.not_found_since),
        }),
      );
    },
    async notFound(payOrderId, since) {
      await pool.query(sql.notFound, [payOrderId, since]);
    },
    async forget(payOrderId) {
      await pool.query(sql.forget, [payOrderId]);
    },
  };
}
