// Issue 31: onRefunded runs once per refund through the stores a fleet shares, as onPaid does. Two processors
// (two machines: a pool or a client each) on one real PostgreSQL or Redis on 127.0.0.1, six concurrent deliveries
// of one refund notification, and a payment to the same notify URL alongside: one refund effect, one payment effect.
import { describe, expect, it } from 'vitest';
import { createNotificationProcessor, type NotificationStore, type ProcessingContext, Refunds } from '../../src/index.js';
import { postgresStore, type PostgresContext } from '../../src/stores/postgres.js';
import { redisStore } from '../../src/stores/redis.js';
import { MERCHANT, REFUND_FIELDS } from '../support/notification.js';
import { deliverSixAndAPayment, twoMachines } from '../support/servers/two-machines.js';

const EXPECTED_REFUND = { mchRefundNo: 'refund-1001-1', refundAmount: 500, currency: 'USD' };
const { pools, clients } = twoMachines();

describe('one refund notification, six concurrent deliveries, two processors on one store', () => {
  it('PostgreSQL: one onRefunded effect, committed with its done mark; the payment runs onPaid, never onRefunded', async () => {
    const processors = [0, 1].map((machine) => {
      const effect = (key: string) => async (_notification: unknown, { db }: PostgresContext) => void (await db.query('INSERT INTO effects (key, machine) VALUES ($1, $2)', [key, machine]));
      return createNotificationProcessor({ ...MERCHANT, store: postgresStore({ pool: pools[machine]! }), expectRefund: EXPECTED_REFUND, onRefunded: effect('refunded'), leaveUnhandled: ['onRefundFailed'], onPaid: effect('paid') });
    });
    const answers = await deliverSixAndAPayment(processors, REFUND_FIELDS);
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
    const answers = await deliverSixAndAPayment(processors, REFUND_FIELDS);
    expect(answers.every(([body]) => body === 'SUCCESS')).toBe(true);
    expect(runs.filter((run) => run.startsWith('refund:'))).toHaveLength(1);
    expect(runs.filter((run) => run === 'paid')).toHaveLength(1);
  });
});
