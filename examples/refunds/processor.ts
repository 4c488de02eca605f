// docs/guides/refunds.md, "One notify URL for payments and refunds": the lines between the readme markers are the guide's, written by npm run docs:readme.
import type { Pool } from 'pg';
import { postgresStore } from 'payment-gateway-sdk/stores/postgres';

declare const secret: string, mchNo: string, appId: string;
declare const pool: Pool;
const store = postgresStore({ pool });

// #region readme
import { createNotificationProcessor } from 'payment-gateway-sdk';

const processor = createNotificationProcessor({
  secret, mchNo, appId, store,
  // Each kind must match YOUR record: the order for a payment, the refund you stored for a refund.
  expect: async (n) => (await pool.query('SELECT number AS "mchOrderNo", total::int AS amount, currency FROM orders WHERE number = $1', [n.mchOrderNo])).rows[0],
  expectRefund: async (r) => (await pool.query('SELECT number AS "mchRefundNo", amount::int AS "refundAmount", currency FROM refunds WHERE number = $1', [r.mchRefundNo])).rows[0],
  onPaid: async (paid, { db }) => void (await db.query("UPDATE orders SET status = 'paid' WHERE number = $1", [paid.mchOrderNo])),
  onRefunded: async (refund, { db }) => void (await db.query("UPDATE refunds SET status = 'refunded' WHERE number = $1", [refund.mchRefundNo])),
  onRefundFailed: async (refund, { db }) => void (await db.query("UPDATE refunds SET status = 'failed', error = $2 WHERE number = $1", [refund.mchRefundNo, refund.errMsg ?? null])),
});
// #endregion readme

export { processor };
