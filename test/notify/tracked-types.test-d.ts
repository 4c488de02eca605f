// The sweep's public types are derived from the tracked rows of kinds.ts (src/notify/tracked-types.ts): each
// kind's group names them, and they keep the shapes merchants wrote against.
import { describe, expectTypeOf, it } from 'vitest';
import type { GatewayClient, NotificationProcessorOptions, PayOrder, Payments, Refunds } from '../../src/index.js';
import type { IdempotentNotification } from '../../src/notify/verify-received.js';
import type { SweepClient } from '../../src/notify/sweep-settings.js';
import type { TrackedKindName } from '../../src/notify/tracked-types.js';

describe('the sweep types derived from the tracked kinds', () => {
  it('cover every tracked kind, and only those', () => {
    expectTypeOf<TrackedKindName>().toEqualTypeOf<'payment' | 'refund' | 'transfer'>();
  });

  it('hand a handler the record of its kind\'s signed read, without reqTime', () => {
    expectTypeOf<Payments.Swept>().toEqualTypeOf<PayOrder & IdempotentNotification & { readonly reqTime?: undefined }>();
    expectTypeOf<Refunds.Swept>().toEqualTypeOf<Refunds.Refund & IdempotentNotification & { readonly reqTime?: undefined }>();
  });

  it('ask a client for each tracked kind\'s read (an expiring kind\'s read and close required)', () => {
    expectTypeOf<keyof SweepClient>().toEqualTypeOf<'query' | 'refundQuery' | 'transferQuery' | 'close' | 'mchNo' | 'appId' | 'verifyResponses'>();
    expectTypeOf<GatewayClient>().toMatchTypeOf<SweepClient>();
    expectTypeOf<GatewayClient>().toMatchTypeOf<NonNullable<NotificationProcessorOptions['client']>>();
    // @ts-expect-error a client without close cannot serve a processor (it is refused when created)
    const noClose: SweepClient = { query: async () => ({}) as PayOrder };
    void noClose;
  });

  it('take what track took before, and refuse a record of two kinds or an unconfirmed refund without one order id', () => {
    const byIds: Payments.Trackable = { payOrderId: 'P1', mchOrderNo: 'order-1', sentExpiredTime: 900 };
    const refund: Refunds.Trackable = { refundOrderId: 'R1', mchRefundNo: 'refund-1' };
    const order: Payments.Unconfirmed = { mchOrderNo: 'order-2', amount: 1999, currency: 'USD' };
    const unconfirmed: Refunds.Unconfirmed = { mchRefundNo: 'refund-2', refundAmount: 400, currency: 'USD', payOrderId: 'P1' };
    // @ts-expect-error an order carrying a refund's number is a refund's record
    const twoKinds: Payments.Trackable = { payOrderId: 'P1', mchOrderNo: 'order-1', mchRefundNo: 'refund-1' };
    // @ts-expect-error an unconfirmed refund names exactly one id of its order
    const bothIds: Refunds.Unconfirmed = { mchRefundNo: 'refund-2', refundAmount: 400, currency: 'USD', payOrderId: 'P1', mchOrderNo: 'order-1' };
    // @ts-expect-error the amount sent is the kind's amount field (refundAmount)
    const wrongAmount: Refunds.Unconfirmed = { mchRefundNo: 'refund-2', amount: 400, currency: 'USD', payOrderId: 'P1' };
    void [byIds, refund, order, unconfirmed, twoKinds, bothIds, wrongAmount];
  });

  it('report a tracked kind in its own field, read as before', () => {
    expectTypeOf<Refunds.SweepReport['refunded']>().toEqualTypeOf<number>();
  });
});
