// Issue 31: onRefunded runs once per refund through the stores a fleet shares, as onPaid does. Two processors
// (two machines: a pool or a client each) on one real PostgreSQL or Redis on 127.0.0.1, six concurrent deliveries
// of one refund notification, and a payment to the same notify URL alongside: one refund effect, one payment effect.
import pg from 'pg';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotificationProcessor, type NotificationStore, type ProcessingContext, Refunds } from '../../src/index.js';
import { postgresStore, type PostgresContext } from '../../src/stores/postgres.js';
import { redisStore } from '../../src/stores/redis.js';
import { formBody, freshFields, MERCHANT, REFUND_FIELDS } from '../support/notification.js';
import { startPostgres, type TestPostgres } from '../support/servers/postgres.js';
import { startRedis, type TestRedis } from '../support/servers/redis.js';

const EXPECTED_REFUND = { mchRefundNo: 'refund-1001-1', refundAmount: 500, currency: 'USD' };
const DELIVERIES = 6;

let postgres: TestPostgres;
let redis: TestRedis;
const pools: pg.Pool[] = [];
const clients: Redis[] = [];

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  for (let i = 0; i < 2; i++) {
    pools.push(new pg.Pool({ connectionString: postgres.url, max: 4 }));
    clients.push(new Redis(redis.url));
  }
  await postgresStore({ pool: pools[0]! }).migrate();
  // No unique constraint: a second effect must show up as a second row, not be stopped by the database.
  await pools[0]!.query('CREATE TABLE effects (key text NOT NULL, machine int NOT NULL)');
});

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  for (const client of clients) client.disconnect();
  await Promise.all([postgres?.stop(), redis?.stop()]);
});

/** Six deliveries of one refund, alternating between two processors, and one payment; resolves to the answers. */
async function deliverConcurrently(processors: readonly { handle(body: string): Promise<{ body: string; outcome: { kind: string } }> }[]) {
  const refund = formBody(freshFields({}, REFUND_FIELDS));
  const payment = formBody(freshFields());
  const replies = await Promise.all([...Array.from({ length: DELIVERIES }, (_, i) => processors[i % 2]!.handle(refund)), processors[1]!.handle(payment)]);
  return replies.map((reply) => [reply.body, reply.outcome.kind]);
}

describe('one refund notification, six concurrent deliveries, two processors on one store', () => {
  it('PostgreSQL: one onRefunded effect, committed with its done mark; the payment runs onPaid, never onRefunded', async () => {
    const processors = [0, 1].map((machine) => {
      const effect = (key: string) => async (_notification: unknown, { db }: PostgresContext) => void (await db.query('INSERT INTO effects (key, machine) VALUES ($1, $2)', [key, machine]));
      return createNotificationProcessor({ ...MERCHANT, store: postgresStore({ pool: pools[machine]! }), expectRefund: EXPECTED_REFUND, onRefunded: effect('refunded'), leaveUnhandled: ['onRefundFailed'], onPaid: effect('paid') });
    });
    const answers = await deliverConcurrently(processors);
    expect(answers.every(([body]) => body === 'SUCCESS')).toBe(true);
    expect(answers.filter(([, kind]) => kind === 'processed')).toHaveLength(2);
    const { rows } = await pools[0]!.query('SELECT key, count(*)::int AS n FROM effects GROUP BY key ORDER BY key');
    expect(rows).toEqual([{ key: 'paid', n: 1 }, { key: 'refunded', n: 1 }]);
    const done = await pools[0]!.query("SELECT idempotency_key FROM payment_gateway_notifications WHERE idempotency_key LIKE 'refund:%' AND processed_at IS NOT NULL");
    expect(done.rows).toEqual([{ idempotency_key: 'refund:R1623985459000001:2' }]);
  });

  it('Redis: one onRefunded run', async () => {
    const runs: string[] = [];
    const processors = [0, 1].map((machine) => {
      const store: NotificationStore<ProcessingContext> = redisStore({ client: clients[machine]!, prefix: 'refunds-test:' });
      const onRefunded = async (refund: Refunds.Notification) => void runs.push(`${refund.idempotencyKey}@${machine}`);
      return createNotificationProcessor({ ...MERCHANT, store, expectRefund: EXPECTED_REFUND, onRefunded, leaveUnhandled: ['onRefundFailed'], onPaid: async () => void runs.push('paid') });
    });
    const answers = await deliverConcurrently(processors);
    expect(answers.every(([body]) => body === 'SUCCESS')).toBe(true);
    expect(runs.filter((run) => run.startsWith('refund:'))).toHaveLength(1);
    expect(runs.filter((run) => run === 'paid')).toHaveLength(1);
  });
});
