// examples/express-postgres.ts on a real PostgreSQL server, as two instances (two Express servers, two pools) on
// 127.0.0.1 receiving the gateway's form POSTs.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp, SHOP_SCHEMA } from '../../examples/express-postgres.js';
import { formBody, MERCHANT, signedFields } from '../support/notification.js';
import { startPostgres, type TestPostgres } from '../support/servers/postgres.js';

let database: TestPostgres;
let admin: pg.Pool;
const instances: { url: string; pool: pg.Pool; server: Server }[] = [];

beforeAll(async () => {
  database = await startPostgres();
  admin = new pg.Pool({ connectionString: database.url, max: 2 });
  await admin.query(SHOP_SCHEMA);
  for (let i = 0; i < 2; i++) {
    const pool = new pg.Pool({ connectionString: database.url, max: 5 });
    const server = createServer(await createApp({ pool, merchant: MERCHANT }));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    instances.push({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/pay/notify`, pool, server });
  }
});

afterAll(async () => {
  for (const { server, pool } of instances) {
    server.closeAllConnections();
    server.close();
    await pool.end();
  }
  await admin?.end();
  await database?.stop();
});

beforeEach(async () => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  await admin.query('TRUNCATE orders, outbox, payment_gateway_notifications');
  await admin.query("INSERT INTO orders (number, total_minor, currency) VALUES ('order-1', 1999, 'USD'), ('order-2', 500, 'USD')");
});

const paid = (order: string, amount: number, payOrderId = `P-${order}`) => formBody(signedFields({ mchOrderNo: order, amount: String(amount), currency: 'USD', payOrderId }));

function post(instance: number, body: string): Promise<Response> {
  return fetch(instances[instance]!.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
}

async function table(sql: string): Promise<unknown[]> {
  return (await admin.query(sql)).rows;
}

describe('the Express + Postgres example', () => {
  it('marks an order paid and enqueues its shipment once, for 8 deliveries spread over two instances at the same time', async () => {
    const responses = await Promise.all(Array.from({ length: 8 }, (_, i) => post(i % 2, paid('order-1', 1999))));
    expect(await Promise.all(responses.map((r) => r.text()))).toEqual(Array(8).fill('SUCCESS'));
    expect(await table("SELECT status, pay_order_id FROM orders WHERE number = 'order-1'")).toEqual([{ status: 'paid', pay_order_id: 'P-order-1' }]);
    expect(await table('SELECT topic, order_number FROM outbox')).toEqual([{ topic: 'ship', order_number: 'order-1' }]);
    const again = await post(1, paid('order-1', 1999));
    expect(await again.text()).toBe('SUCCESS');
    expect(await table('SELECT count(*)::int AS n FROM outbox')).toEqual([{ n: 1 }]);
  });

  it('refuses a genuine notification for another amount or an unknown order, and changes nothing', async () => {
    const cheaper = await post(0, paid('order-1', 58));
    const unknown = await post(1, paid('order-9', 1999));
    expect([cheaper.status, unknown.status]).toEqual([400, 400]);
    expect(await table("SELECT status FROM orders WHERE number = 'order-1'")).toEqual([{ status: 'pending' }]);
    expect(await table('SELECT count(*)::int AS n FROM outbox')).toEqual([{ n: 0 }]);
    expect(await table('SELECT count(*)::int AS n FROM payment_gateway_notifications')).toEqual([{ n: 0 }]);
  });

  it('records a payment for an order cancelled meanwhile for a refund, and answers SUCCESS', async () => {
    await admin.query("UPDATE orders SET status = 'cancelled' WHERE number = 'order-2'");
    const response = await post(0, paid('order-2', 500));
    expect(await response.text()).toBe('SUCCESS');
    expect(await table("SELECT status FROM orders WHERE number = 'order-2'")).toEqual([{ status: 'paid_after_cancel' }]);
    expect(await table('SELECT topic, order_number FROM outbox')).toEqual([{ topic: 'refund', order_number: 'order-2' }]);
  });
});
