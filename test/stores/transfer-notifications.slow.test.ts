// Issue 37: onTransferred runs once per transfer through the stores a fleet shares, as onPaid and onRefunded do.
// Two processors (two machines: a pool or a client each) on one real PostgreSQL or Redis on 127.0.0.1, six concurrent
// deliveries of one transfer notification, and a payment to the same notify URL alongside: one payout effect, one
// payment effect, never one for the other.
import pg from 'pg';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotificationProcessor, type NotificationStore, type ProcessingContext, type Transfers } from '../../src/index.js';
import { postgresStore, type PostgresContext } from '../../src/stores/postgres.js';
import { redisStore } from '../../src/stores/redis.js';
import { formBody, freshFields, MERCHANT, TRANSFER_FIELDS } from '../support/notification.js';
import { startPostgres, type TestPostgres } from '../support/servers/postgres.js';
import { startRedis, type TestRedis } from '../support/servers/redis.js';

const EXPECTED_TRANSFER = { mchOrderNo: 'payout-1001', amount: 1500, currency: 'CNY' };
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

/** Six deliveries of one transfer, alternating between two processors, and one payment; resolves to the answers. */
async function deliverConcurrently(processors: readonly { handle(body: string): Promise<{ body: string; outcome: { kind: string } }> }[]) {
  const transfer = formBody(freshFields({}, TRANSFER_FIELDS));
  const payment = formBody(freshFields());
  const replies = await Promise.all([...Array.from({ length: DELIVERIES }, (_, i) => processors[i % 2]!.handle(transfer)), processors[1]!.handle(payment)]);
  return replies.map((reply) => [reply.body, reply.outcome.kind]);
}

describe('one transfer notification, six concurrent deliveries, two processors on one store', () => {
  it('PostgreSQL: one onTransferred effect, committed with its done mark; the payment runs onPaid, never onTransferred', async () => {
    const processors = [0, 1].map((machine) => {
      const effect = (key: string) => async (_notification: unknown, { db }: PostgresContext) => void (await db.query('INSERT INTO effects (key, machine) VALUES ($1, $2)', [key, machine]));
      return createNotificationProcessor({ ...MERCHANT, store: postgresStore({ pool: pools[machine]! }), expectTransfer: EXPECTED_TRANSFER, onTransferred: effect('transferred'), onTransferFailed: effect('transfer failed'), onPaid: effect('paid') });
    });
    const answers = await deliverConcurrently(processors);
    expect(answers.every(([body]) => body === 'SUCCESS')).toBe(true);
    expect(answers.filter(([, kind]) => kind === 'processed')).toHaveLength(2);
    const { rows } = await pools[0]!.query('SELECT key, count(*)::int AS n FROM effects GROUP BY key ORDER BY key');
    expect(rows).toEqual([{ key: 'paid', n: 1 }, { key: 'transferred', n: 1 }]);
    const done = await pools[0]!.query("SELECT idempotency_key FROM payment_gateway_notifications WHERE idempotency_key LIKE 'transfer:%' AND processed_at IS NOT NULL");
    expect(done.rows).toEqual([{ idempotency_key: 'transfer:T1623985459000001:2' }]);
  });

  it('Redis: one onTransferred run; the payment runs onPaid, never onTransferred', async () => {
    const runs: string[] = [];
    const processors = [0, 1].map((machine) => {
      const store: NotificationStore<ProcessingContext> = redisStore({ client: clients[machine]!, prefix: 'transfers-test:' });
      const onTransferred = async (transfer: Transfers.Notification) => void runs.push(`${transfer.idempotencyKey}@${machine}`);
      return createNotificationProcessor({ ...MERCHANT, store, expectTransfer: EXPECTED_TRANSFER, onTransferred, onTransferFailed: async () => void runs.push('transfer failed'), onPaid: async () => void runs.push('paid') });
    });
    const answers = await deliverConcurrently(processors);
    expect(answers.every(([body]) => body === 'SUCCESS')).toBe(true);
    expect(runs.filter((run) => run.startsWith('transfer:'))).toHaveLength(1);
    expect(runs.filter((run) => run === 'paid' || run === 'transfer failed')).toEqual(['paid']);
  });
});
