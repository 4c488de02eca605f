// Issue 37: onTransferred runs once per transfer through the stores a fleet shares, as onPaid and onRefunded do.
// Two processors (two machines: a pool or a client each) on one real PostgreSQL or Redis on 127.0.0.1, six concurrent
// deliveries of one transfer notification, and a payment to the same notify URL alongside: one payout effect, one
// payment effect, never one for the other.
import { describe, expect, it } from 'vitest';
import { createNotificationProcessor, type NotificationStore, type ProcessingContext, type Transfers } from '../../src/index.js';
import { postgresStore, type PostgresContext } from '../../src/stores/postgres.js';
import { redisStore } from '../../src/stores/redis.js';
import { MERCHANT, TRANSFER_FIELDS } from '../support/notification.js';
import { deliverSixAndAPayment, twoMachines } from '../support/servers/two-machines.js';

const EXPECTED_TRANSFER = { mchOrderNo: 'payout-1001', amount: 1500, currency: 'CNY' };
const { pools, clients } = twoMachines();

describe('one transfer notification, six concurrent deliveries, two processors on one store', () => {
  it('PostgreSQL: one onTransferred effect, committed with its done mark; the payment runs onPaid, never onTransferred', async () => {
    const processors = [0, 1].map((machine) => {
      const effect = (key: string) => async (_notification: unknown, { db }: PostgresContext) => void (await db.query('INSERT INTO effects (key, machine) VALUES ($1, $2)', [key, machine]));
      return createNotificationProcessor({ ...MERCHANT, store: postgresStore({ pool: pools[machine]! }), expectTransfer: EXPECTED_TRANSFER, onTransferred: effect('transferred'), onTransferFailed: effect('transfer failed'), onPaid: effect('paid') });
    });
    const answers = await deliverSixAndAPayment(processors, TRANSFER_FIELDS);
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
    const answers = await deliverSixAndAPayment(processors, TRANSFER_FIELDS);
    expect(answers.every(([body]) => body === 'SUCCESS')).toBe(true);
    expect(runs.filter((run) => run.startsWith('transfer:'))).toHaveLength(1);
    expect(runs.filter((run) => run === 'paid' || run === 'transfer failed')).toEqual(['paid']);
  });
});
