// The processor's types: the handler's notification and context follow the kind and the store.
import type { Redis } from 'ioredis';
import type { Pool, PoolClient } from 'pg';
import { describe, expectTypeOf, it } from 'vitest';
import {
  createNotificationProcessor,
  memoryStore,
  type NotificationReply,
  type PaidOrder,
  type PayOrderNotification,
  type PaymentNotificationProcessor,
  type ProcessingContext,
  type NotificationProcessor,
  type NotificationProcessorOptions,
  type SweepReport,
  type Payments,
  Refunds,
  type Settlements,
} from '../../src/index.js';
import { postgresStore } from '../../src/stores/postgres.js';
import { redisStore } from '../../src/stores/redis.js';

declare const pool: Pool;
declare const redis: Redis;
const merchant = { secret: 's', mchNo: 'M', appId: 'A' };

describe('createNotificationProcessor types', () => {
  it('onPaid gets a payment notification, onSettlement a settlement one, and handle answers with that kind', () => {
    const payments = createNotificationProcessor({ ...merchant, onPaid: (n) => expectTypeOf(n).toEqualTypeOf<PaidOrder>() });
    expectTypeOf(payments).toEqualTypeOf<PaymentNotificationProcessor>();
    expectTypeOf(payments.handle).returns.resolves.toEqualTypeOf<NotificationReply<PayOrderNotification>>();
    const settlements = createNotificationProcessor({ ...merchant, onSettlement: (s) => expectTypeOf(s).toEqualTypeOf<Settlements.Notification>() });
    expectTypeOf(settlements.handle).returns.resolves.toEqualTypeOf<NotificationReply<Settlements.Notification>>();
    expectTypeOf(payments.handleRequest).toEqualTypeOf<(request: Request) => Promise<Response>>();
  });

  it('one processor takes several kinds: each handler gets its own kind, and handle answers with any of them', () => {
    const both = createNotificationProcessor({
      ...merchant,
      expect: async (n) => ({ mchOrderNo: n.mchOrderNo }),
      expectRefund: async (r) => ({ mchRefundNo: r.mchRefundNo, refundAmount: r.refundAmount, currency: r.currency }),
      onPaid: (n) => expectTypeOf(n).toEqualTypeOf<PaidOrder>(),
      // A refund processor tracks refunds too: a sweep hands its handlers the signed record read (no reqTime).
      onRefunded: (r) => expectTypeOf(r).toEqualTypeOf<Refunds.Notification | Refunds.Swept>(),
      onRefundFailed: (r) => expectTypeOf(r).toEqualTypeOf<Refunds.Notification | Refunds.Swept>(),
    });
    expectTypeOf(both).toEqualTypeOf<PaymentNotificationProcessor<PayOrderNotification | Refunds.Notification>>();
    expectTypeOf(both.sweep).toBeFunction();
    const refunds = createNotificationProcessor({ ...merchant, expectRefund: { mchRefundNo: 'r-1' }, onRefunded: () => {} });
    expectTypeOf(refunds).toEqualTypeOf<PaymentNotificationProcessor<Refunds.Notification>>();
    expectTypeOf(refunds.track).parameter(0).toEqualTypeOf<Parameters<typeof both.track>[0]>();
    const options: NotificationProcessorOptions = { ...merchant, onRefundFailed: async () => {} };
    createNotificationProcessor(options);
  });

  it('the context is the store\'s: db with Postgres, none with memory or Redis', () => {
    createNotificationProcessor({
      ...merchant,
      store: postgresStore({ pool }),
      onPaid: (_n, { db, signal }) => {
        expectTypeOf(db).toEqualTypeOf<PoolClient>();
        expectTypeOf(signal).toEqualTypeOf<AbortSignal>();
      },
    });
    createNotificationProcessor({ ...merchant, store: redisStore({ client: redis }), onPaid: (_n, context) => expectTypeOf(context).toEqualTypeOf<ProcessingContext>() });
    // @ts-expect-error the memory store has no db
    createNotificationProcessor({ ...merchant, store: memoryStore(), onPaid: (_n, { db }) => db });
  });

  it('wrong calls fail to compile', () => {
    // @ts-expect-error a refund's expectation under the payment's option
    createNotificationProcessor({ ...merchant, expect: { mchRefundNo: 'r-1' }, onPaid: () => {} });
    // @ts-expect-error expectRefund cannot name a state: each refund handler takes its own
    createNotificationProcessor({ ...merchant, expectRefund: { state: 2 }, onRefunded: () => {} });
    // @ts-expect-error a settlement's expectation is expectSettlement
    createNotificationProcessor({ ...merchant, expect: { requestId: 'r' }, onSettlement: () => {} });
    // @ts-expect-error a handler is required
    createNotificationProcessor({ ...merchant });
    // @ts-expect-error onPaid is for paid orders: its expect cannot name a state
    createNotificationProcessor({ ...merchant, expect: { state: 3 }, onPaid: () => {} });
    // @ts-expect-error a settlement's expectation for a payment processor
    createNotificationProcessor({ ...merchant, expect: { requestId: 'r' }, onPaid: () => {} });
    createNotificationProcessor({ ...merchant, expect: async (n) => ({ amount: n.amount }), onPaid: () => {} });
    // @ts-expect-error an expect function returns what to match, not a boolean
    createNotificationProcessor({ ...merchant, expect: async () => true, onPaid: () => {} });
    // @ts-expect-error the credentials are required
    createNotificationProcessor({ onPaid: () => {} });
    // @ts-expect-error redisStore takes an ioredis client
    redisStore({ client: 'redis://127.0.0.1:6379' });
    // @ts-expect-error postgresStore takes a pool
    postgresStore({ pool: 'postgres://127.0.0.1/shop' });
    createNotificationProcessor({ ...merchant, onRefunded: () => {}, leaveUnhandled: ['onRefundFailed'] });
    // @ts-expect-error leaveUnhandled names handler options only
    createNotificationProcessor({ ...merchant, onRefunded: () => {}, leaveUnhandled: ['onRefundFaild'] });
    // @ts-expect-error leaving a handler unhandled is no handler: one is still required
    createNotificationProcessor({ ...merchant, leaveUnhandled: ['onRefundFailed'] });
  });

  it('a sweep hands onPaid a Payments.Swept, told apart by reqTime; handlers written for notifications alone still compile', () => {
    createNotificationProcessor({
      ...merchant,
      onPaid: (paid) => {
        if (paid.reqTime === undefined) expectTypeOf(paid).toEqualTypeOf<Payments.Swept>();
        else expectTypeOf(paid).toEqualTypeOf<PayOrderNotification>();
      },
    });
    const older = async (notification: PayOrderNotification) => notification.mchOrderNo;
    createNotificationProcessor({ ...merchant, onPaid: older });
    // @ts-expect-error a settlement processor neither tracks nor sweeps
    createNotificationProcessor({ ...merchant, onSettlement: () => {} }).sweep;
    // A refund processor tracks and sweeps refunds (track refuses one unless both refund handlers are given).
    expectTypeOf(createNotificationProcessor({ ...merchant, onRefunded: () => {} }).sweep).toBeFunction();
    const olderRefund = async (refund: Refunds.Notification) => refund.mchRefundNo;
    createNotificationProcessor({ ...merchant, onRefunded: olderRefund, onRefundFailed: olderRefund });
  });
});
