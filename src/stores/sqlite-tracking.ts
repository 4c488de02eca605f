/**
 * The SQLite store's tracked orders (`processor.track`, `processor.sweep`): a table next to the processed
 * notifications, `<table>_tracked`, created when the store opens the file.
 *
 * @module
 */
import type { DatabaseSync } from 'node:sqlite';
import { readExpiry, storedExpiry, type OrderTracking, type TrackedOrder } from '../notify/tracking.js';

/** The tracking table of a notification table (`name` → `name_tracked`), quoted, and its index's name. */
function trackingNames(table: string): { readonly table: string; readonly index: string } {
  return { table: `"${table}_tracked"`, index: `"${table}_tracked_due"` };
}

/** The statements the store runs for tracking when it opens the file. */
export function trackingMigration(table: string): string {
  const names = trackingNames(table);
  return `CREATE TABLE IF NOT EXISTS ${names.table} (
      pay_order_id TEXT PRIMARY KEY,
      mch_order_no TEXT NOT NULL,
      tracked_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      checked_at INTEGER NOT NULL,
      not_found_since INTEGER
    ) STRICT;
    CREATE INDEX IF NOT EXISTS ${names.index} ON ${names.table} (checked_at);`;
}

interface TrackedRow {
  pay_order_id: string;
  mch_order_no: string;
  tracked_at: number;
  expires_at: number;
  not_found_since: number | null;
}

/**
 * Tracked orders in `<table>_tracked`, each method one statement. A check-out is one `UPDATE … RETURNING`, which
 * takes SQLite's write lock before it reads: sweeps on processes sharing the file never take one order twice.
 */
export function sqliteTracking(db: DatabaseSync, table: string): OrderTracking {
  const name = trackingNames(table).table;
  const sql = {
    // The update that changes nothing makes RETURNING give the record kept, in the same statement as the insert.
    track: db.prepare(`INSERT INTO ${name} (pay_order_id, mch_order_no, tracked_at, expires_at, checked_at) VALUES ($id, $orderNo, $trackedAt, $expiresAt, $trackedAt)
      ON CONFLICT (pay_order_id) DO UPDATE SET mch_order_no = mch_order_no RETURNING mch_order_no`),
    // The index on checked_at bounds the read to `limit` rows, however large the table.
    checkOut: db.prepare(`UPDATE ${name} SET checked_at = $checkedAt WHERE pay_order_id IN (
        SELECT pay_order_id FROM ${name} WHERE checked_at <= $dueBy ORDER BY checked_at LIMIT $limit)
      RETURNING pay_order_id, mch_order_no, tracked_at, expires_at, not_found_since`),
    notFound: db.prepare(`UPDATE ${name} SET not_found_since = COALESCE(not_found_since, $since) WHERE pay_order_id = $id`),
    tracked: db.prepare(`SELECT 1 FROM ${name} WHERE pay_order_id = $id`),
    forget: db.prepare(`DELETE FROM ${name} WHERE pay_order_id = $id`),
  };
  // node:sqlite is synchronous; the methods are async so that a failure is a rejection, as with the other stores.
  return {
    async track(order) {
      const kept = sql.track.get({ id: order.payOrderId, orderNo: order.mchOrderNo, trackedAt: order.trackedAt, expiresAt: storedExpiry(order.expiresAt) }) as { mch_order_no: string };
      return kept.mch_order_no;
    },
    async checkOut(dueBy, checkedAt, limit) {
      const rows = sql.checkOut.all({ dueBy, checkedAt, limit }) as unknown as TrackedRow[];
      return rows.map(
        (row): TrackedOrder => ({
          payOrderId: row.pay_order_id,
          mchOrderNo: row.mch_order_no,
          trackedAt: row.tracked_at,
          expiresAt: readExpiry(row.expires_at),
          notFoundSince: row.not_found_since ?? undefined,
        }),
      );
    },
    async notFound(payOrderId, since) {
      sql.notFound.run({ id: payOrderId, since });
    },
    async forget(payOrderId) {
      // Read first: a notification's forget of an order never tracked, or forgotten already, then takes no write
      // lock, whose wait (busy_timeout) would block this process's event loop while another process writes.
      if (sql.tracked.get({ id: payOrderId }) !== undefined) sql.forget.run({ id: payOrderId });
    },
  };
}
