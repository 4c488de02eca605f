// A notification kind's states and tracking are checked where its row is declared (issue 36, "mistakes caught"):
// each line marked as an expected error below holds one mistake that must not compile (checked by tsc through vitest).
import { describe, expectTypeOf, it } from 'vitest';
import { PayOrderState, Refunds, Transfers } from '../../src/index.js';
import { defineNotificationKind, notificationKinds } from '../../src/notify/kinds.js';
import { settledBy } from '../../src/kinds/define-notification.js';
import type { SettlingRead } from '../../src/notify/kinds.js';
import { refundNotificationSchema, type operations as refundOperations } from '../../src/kinds/refunds/declaration.js';
import type { operations as paymentOperations } from '../../src/kinds/payments/declaration.js';

// The refund row's own declarations, but for what each case changes.
const refund = {
  name: 'refund',
  label: 'refund notification',
  verifier: 'verifyRefundNotification',
  handlers: { onRefunded: { name: 'on_refunded', states: [Refunds.State.Succeeded] } },
  expectOption: 'expectRefund',
  identifiedBy: ['refundOrderId', 'mchRefundNo'],
  stateField: 'state',
  amountField: 'refundAmount',
  schema: refundNotificationSchema(),
  expect: notificationKinds.refund.expect,
  merchantRequired: true,
  recover: 'Read the refund.',
  idempotencyKey: (n: { refundOrderId: string; state: number }) => `refund:${n.refundOrderId}:${n.state}`,
  eventTime: (n: { createdAt: number }) => ({ field: 'createdAt' as const, time: n.createdAt, happened: 'is of a refund created' }),
} as const;
// The refund row's tracking (its keys, words and report field, which the sweep reads), with what the cases change spelt out.
const tracking = { ...notificationKinds.refund.tracking, read: 'refundQuery', by: ['refundOrderId', 'mchRefundNo'], open: [Refunds.State.Created, Refunds.State.Refunding] } as const;

describe("a handler's states are the kind's state enum", () => {
  it('a row whose handlers take states of its enum compiles', () => {
    const kind = defineNotificationKind({ ...refund, handlers: { onRefundFailed: { name: 'on_refund_failed', states: [Refunds.State.Failed, Refunds.State.Closed] } } });
    expectTypeOf(kind.handlers.onRefundFailed.states).toEqualTypeOf<readonly [3, 4]>();
  });

  it('a state outside the enum, or of another kind whose numbers differ, does not compile', () => {
    // @ts-expect-error a refund has no state 5
    defineNotificationKind({ ...refund, handlers: { onRefunded: { name: 'on_refunded', states: [5] } } });
    // @ts-expect-error a pay-order state (5, refunded) that is no refund state
    defineNotificationKind({ ...refund, handlers: { onRefunded: { name: 'on_refunded', states: [PayOrderState.Refunded] } } });
    // @ts-expect-error one wrong state among right ones
    defineNotificationKind({ ...refund, handlers: { onRefundFailed: { name: 'on_refund_failed', states: [Refunds.State.Failed, 7] } } });
  });

  it("the SDK's rows keep their states typed", () => {
    expectTypeOf(notificationKinds.payment.handlers.onPaid.states).toEqualTypeOf<readonly [2]>();
    expectTypeOf(notificationKinds.refund.handlers.onRefundFailed.states).toEqualTypeOf<readonly [3, 4]>();
  });
});

describe('a tracked kind declares the read that settles it', () => {
  it('a row with a read of its own operations, by its parameters, with open states of its enum, compiles', () => {
    const kind = defineNotificationKind({ ...refund, tracking }, settledBy<typeof refundOperations>());
    expectTypeOf(kind.tracking.read).toEqualTypeOf<'refundQuery'>();
    // Untracked: no tracking at all.
    expectTypeOf(defineNotificationKind(refund).tracking).toEqualTypeOf<undefined>();
  });

  it('a tracking without a settling read, or with a read that is none, does not compile', () => {
    // @ts-expect-error tracked without a settling read
    defineNotificationKind({ ...refund, tracking: { by: ['refundOrderId', 'mchRefundNo'], open: [Refunds.State.Created] } }, settledBy<typeof refundOperations>());
    // @ts-expect-error the boolean it replaced: says tracked, names no read
    defineNotificationKind({ ...refund, tracked: true });
    // @ts-expect-error tracked, but given no operations of its own to be settled by
    defineNotificationKind({ ...refund, tracking });
    // @ts-expect-error another kind's read (the payment's query), not one of its own operations
    defineNotificationKind({ ...refund, tracking: { ...tracking, read: 'query' } }, settledBy<typeof refundOperations>());
    // @ts-expect-error a read its operations do not have
    defineNotificationKind({ ...refund, tracking: { ...tracking, read: 'refundGet' } }, settledBy<typeof refundOperations>());
    // @ts-expect-error an operation that is not a read (a create)
    defineNotificationKind({ ...refund, tracking: { ...tracking, read: 'refundOrder' } }, settledBy<typeof refundOperations>());
    // @ts-expect-error an operation that is not a read (idempotent)
    defineNotificationKind({ ...refund, tracking: { ...tracking, read: 'close' } }, settledBy<typeof paymentOperations>());
  });

  it("ids that are not the read's parameters, or open states outside the enum, do not compile", () => {
    // @ts-expect-error by: mchOrderNo is no parameter of refundQuery
    defineNotificationKind({ ...refund, tracking: { ...tracking, by: ['refundOrderId', 'mchOrderNo'] } }, settledBy<typeof refundOperations>());
    // @ts-expect-error by: the refund's ids are no parameters of the order's query
    defineNotificationKind({ ...refund, tracking: { ...tracking, read: 'query' } }, settledBy<typeof paymentOperations>());
    // @ts-expect-error open: a refund has no state 5
    defineNotificationKind({ ...refund, tracking: { ...tracking, open: [Refunds.State.Created, PayOrderState.Refunded] } }, settledBy<typeof refundOperations>());
    // @ts-expect-error notFound: not a reason refundQuery's row says proves a refund absent
    defineNotificationKind({ ...refund, tracking: { ...tracking, notFound: 'order_not_found' } }, settledBy<typeof refundOperations>());
    // @ts-expect-error states: another kind's enum, whose numbers differ
    defineNotificationKind({ ...refund, tracking: { ...tracking, states: PayOrderState } }, settledBy<typeof refundOperations>());
    // @ts-expect-error byKey.matched: a field the read's record does not have
    defineNotificationKind({ ...refund, tracking: { ...tracking, byKey: { ...tracking.byKey, matched: ['accountNo'] } } }, settledBy<typeof refundOperations>());
    // A field the record has compiles.
    defineNotificationKind({ ...refund, tracking: { ...tracking, byKey: { ...tracking.byKey, matched: ['payOrderId'] } } }, settledBy<typeof refundOperations>());
  });

  it("what track takes of a transfer known by its number: the payee sent, which the record found must carry", () => {
    expectTypeOf<{ mchOrderNo: string; amount: number; currency: string; entryType: string; ifCode: string; accountNo: string }>().toExtend<Transfers.Unconfirmed>();
    expectTypeOf<{ mchOrderNo: string; amount: number; currency: string; entryType: string; ifCode: string }>().not.toExtend<Transfers.Unconfirmed>();
  });

  it("the SDK's tracked rows name their reads; the reads are the table's", () => {
    expectTypeOf<SettlingRead>().toEqualTypeOf<'query' | 'settleRequestGet' | 'refundQuery' | 'transferQuery'>();
    expectTypeOf(notificationKinds.payment.tracking.read).toEqualTypeOf<'query'>();
    expectTypeOf(notificationKinds.refund.tracking.by).toEqualTypeOf<readonly ['refundOrderId', 'mchRefundNo']>();
    expectTypeOf(notificationKinds.settlement.tracking).toEqualTypeOf<undefined>();
  });
});
