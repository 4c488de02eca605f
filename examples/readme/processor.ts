// The README's "Notifications" block: the lines between the readme markers are the README's, written by npm run docs:readme.
import express from 'express';
import type { Pool } from 'pg';

declare const secret: string, mchNo: string, appId: string;
declare const pool: Pool;
/** Your order table. */
declare const orders: { findByNumber(number: string): Promise<{ number: string; totalMinor: number; currency: string } | undefined> };
const app = express();

// #region readme
import { createNotificationProcessor } from 'payment-gateway-sdk';
import { postgresStore } from 'payment-gateway-sdk/stores/postgres';

const store = postgresStore({ pool });
await store.migrate();                         // creates its table (idempotent): without it, every notification fails
const processor = createNotificationProcessor({
  secret, mchNo, appId,                        // or the client's own options object: the rest is ignored
  store,                                       // required outside tests; one machine: sqliteStore({ path })
  // The payment must be the one YOUR order record asks for (and, by default, a paid one: state 2).
  expect: async (n) => {
    const order = await orders.findByNumber(n.mchOrderNo);
    return order && { mchOrderNo: order.number, amount: order.totalMinor, currency: order.currency };
  },
  onPaid: async (n, { db }) => {               // once per paid order; db is the store's transaction
    await db.query("UPDATE orders SET status = 'paid' WHERE number = $1", [n.mchOrderNo]);
  },
});

app.post('/pay/notify', express.urlencoded({ extended: false }), async (req, res) => {
  const { status, headers, body } = await processor.handle(req.body); // 200 SUCCESS, 400/413, 409 or 500
  res.status(status).set(headers).send(body);
});
export const POST = processor.handleRequest;  // Next.js, Hono, Workers: a Request in, a Response out
// #endregion readme
