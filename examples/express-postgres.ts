/**
 * Express + PostgreSQL: each payment notification processed exactly once, however many instances run and
 * however often the gateway delivers it. The order update, an outbox message and the processor's done mark
 * commit in one transaction.
 *
 * ```ts
 * import pg from 'pg';
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * await pool.query(SHOP_SCHEMA); // your own migrations, in a real shop
 * const app = await createApp({ pool, merchant: { secret: process.env.GATEWAY_SECRET!, mchNo, appId } });
 * app.listen(3000);
 * ```
 */
import express from 'express';
import { createNotificationProcessor, type NotificationOptions } from 'payment-gateway-sdk';
import { postgresStore } from 'payment-gateway-sdk/stores/postgres';
import type { Pool } from 'pg';

/** The shop's own tables, for this example: its orders, and an outbox that a separate worker ships from. */
export const SHOP_SCHEMA = `
  CREATE TABLE IF NOT EXISTS orders (
    number text PRIMARY KEY,
    total_minor integer NOT NULL,
    currency text NOT NULL,
    status text NOT NULL DEFAULT 'pending', -- pending, paid, cancelled, paid_after_cancel
    pay_order_id text
  );
  CREATE TABLE IF NOT EXISTS outbox (
    id bigserial PRIMARY KEY,
    topic text NOT NULL,
    order_number text NOT NULL
  );`;

export interface ShopOptions {
  pool: Pool;
  /** The merchant application's credentials (and any other verification option). */
  merchant: NotificationOptions;
}

export async function createApp({ pool, merchant }: ShopOptions): Promise<express.Express> {
  const store = postgresStore({ pool });
  await store.migrate(); // idempotent: safe on every start of every instance

  const processor = createNotificationProcessor({
    ...merchant,
    store,
    // A genuine notification must still be for one of our orders, for its amount and currency.
    expect: async (notification) => {
      const { rows } = await pool.query('SELECT total_minor AS amount, currency FROM orders WHERE number = $1', [notification.mchOrderNo]);
      return rows[0]; // no such order: refused (400)
    },
    // Runs once per paid order, inside the store's transaction: write through db, never through the pool.
    onPaid: async (notification, { db }) => {
      const { rows } = await db.query('SELECT status FROM orders WHERE number = $1 FOR UPDATE', [notification.mchOrderNo]);
      if (rows[0].status === 'cancelled') {
        // The payer paid an order we had cancelled: the money is ours now. Record it and refund it; refusing the
        // notification would only make the gateway retry, and then stop, with the payment still taken.
        await db.query("UPDATE orders SET status = 'paid_after_cancel', pay_order_id = $2 WHERE number = $1", [notification.mchOrderNo, notification.payOrderId]);
        await db.query("INSERT INTO outbox (topic, order_number) VALUES ('refund', $1)", [notification.mchOrderNo]);
        return;
      }
      await db.query("UPDATE orders SET status = 'paid', pay_order_id = $2 WHERE number = $1", [notification.mchOrderNo, notification.payOrderId]);
      // Shipping calls another system: enqueue it here, in the transaction, and ship from the outbox after commit.
      await db.query("INSERT INTO outbox (topic, order_number) VALUES ('ship', $1)", [notification.mchOrderNo]);
    },
  });

  const app = express();
  // A flat form parser (extended: false) keeps every value the text the gateway signed.
  app.post('/pay/notify', express.urlencoded({ extended: false }), async (req, res) => {
    const { status, headers, body, outcome } = await processor.handle(req.body);
    if (outcome.kind === 'refused') console.warn('payment notification refused:', outcome.error.message); // never contains the secret
    if (outcome.kind === 'failed') console.error('payment notification failed; the gateway will retry:', outcome.error);
    res.status(status).set(headers).send(body);
  });
  return app;
}
