// Every field name in an operation's declaration is checked against its schemas: each line marked as an
// expected error below holds one misspelled name that must not compile (checked by tsc through vitest).
import { describe, expectTypeOf, it } from 'vitest';
import * as z from 'zod/mini';
import { defineOperation, pick, type Keys } from '../../src/kinds/define-operation.js';
import { operations, type ConfirmedOf } from '../../src/operations/table.js';
import type { PayOrder } from '../../src/index.js';
import { defineNotificationKind, notificationKinds } from '../../src/notify/kinds.js';

const params = z.strictObject({ refundNo: z.string(), payOrderId: z.string(), amount: z.number(), notifyUrl: z.optional(z.string()) });
const result = z.looseObject({ refundNo: z.string(), refundId: z.string(), state: z.number(), payData: z.optional(z.string()) });
const record = z.looseObject({ refundNo: z.string(), refundId: z.string(), amount: z.number(), state: z.number() });
const base = { path: '/api/refund', params, result, retry: 'create', summary: 'Refunds.' } as const;

describe('defineOperation checks every field name against the schemas', () => {
  it('a declaration naming only declared fields compiles, and keeps its literal types', () => {
    const refund = defineOperation({
      ...base,
      key: 'refundNo',
      binds: ['refundNo'],
      refusals: { refund_not_found: { match: /refund not found/i, advice: 'check refundNo' } },
      notFound: ['refund_not_found'],
      reconcile: { lookup: 'refundQuery', by: ['refundNo'], toResult: (r: z.output<typeof record>) => pick(r, ['refundId', 'state']), decisive: ['amount'] },
      confirm: { lookup: 'refundQuery', by: ['refundNo'], answered: ['refundId'] },
    });
    expectTypeOf(refund.reconcile.lookup).toEqualTypeOf<'refundQuery'>();
    expectTypeOf<Keys<typeof result>>().toEqualTypeOf<'refundNo' | 'refundId' | 'state' | 'payData'>();
  });

  it('a misspelled name in any field does not compile', () => {
    // @ts-expect-error key: not a parameter
    defineOperation({ ...base, key: 'refundNoo', binds: [] });
    // @ts-expect-error binds: not a parameter
    defineOperation({ ...base, binds: ['refundN'] });
    // @ts-expect-error binds: a parameter the result does not have, so it cannot be echoed
    defineOperation({ ...base, binds: ['amount'] });
    // @ts-expect-error reconcile.by: not a parameter
    defineOperation({ ...base, binds: [], reconcile: { lookup: 'refundQuery', by: ['refundno'], toResult: (r) => r, decisive: [] } });
    // @ts-expect-error reconcile.decisive: not a parameter
    defineOperation({ ...base, binds: [], reconcile: { lookup: 'refundQuery', by: ['refundNo'], toResult: (r) => r, decisive: ['amout'] } });
    // @ts-expect-error confirm.answered: not a result field
    defineOperation({ ...base, binds: [], confirm: { lookup: 'refundQuery', by: ['refundNo'], answered: ['refundID'] } });
    // @ts-expect-error notFound: not a reason of the row's own refusals
    defineOperation({ ...base, binds: [], refusals: { refund_not_found: { match: /x/, advice: 'x' } }, notFound: ['refund_not_foundd'] });
    // @ts-expect-error refusedBeforeRecord: not a reason of the row's own refusals
    defineOperation({ ...base, binds: [], refusals: { refund_unsupported: { match: /x/, advice: 'x' } }, refusedBeforeRecord: ['refund_unsuported'] });
    defineOperation({ ...base, binds: [], refusals: { refund_unsupported: { match: /x/, advice: 'x' } }, refusedBeforeRecord: ['refund_unsupported'] });
    // @ts-expect-error a property operations do not have (a misspelled notFound)
    defineOperation({ ...base, binds: [], notfound: ['refund_not_found'] });
    // @ts-expect-error a property operations no longer have (removed: every URL parameter is checked by its schema)
    defineOperation({ ...base, binds: [], urlParams: ['notifyUrl'] });
    // @ts-expect-error reconcile: a property reconcile does not have
    defineOperation({ ...base, binds: [], reconcile: { lookup: 'refundQuery', by: ['refundNo'], toResult: (r) => r, decisive: [], decisiv: [] } });
    // @ts-expect-error binds: a number parameter compared with a text answer would never match
    defineOperation({ ...base, params: z.strictObject({ refundNo: z.string(), amount: z.number() }), result: z.looseObject({ refundNo: z.string(), amount: z.string() }), binds: ['amount'] });
  });

  it('pick takes only the declared fields of its record', () => {
    const found = { refundNo: 'r-1', refundId: 'R1', amount: 1, state: 2 } as z.output<typeof record>;
    expectTypeOf(pick(found, ['refundId', 'state'])).toEqualTypeOf<Pick<z.output<typeof record>, 'refundId' | 'state'>>();
    // @ts-expect-error not a field of the record (a loose object's index signature names no field)
    pick(found, ['refundid']);
  });

  it('the table keeps each lookup by name, so confirm resolves to the lookup record', () => {
    expectTypeOf(operations.close.confirm.lookup).toEqualTypeOf<'query'>();
    expectTypeOf<ConfirmedOf<'close'>>().toEqualTypeOf<PayOrder>();
  });
});

describe('a notification kind names only fields of its schema', () => {
  const schema = z.looseObject({ refundOrderId: z.string(), state: z.number(), refundAmount: z.number(), currency: z.string(), reqTime: z.number() });
  const expect = z.strictObject({ refundAmount: z.optional(z.number()), currency: z.optional(z.string()) });
  const row = {
    name: 'refund',
    label: 'refund notification',
    verifier: 'verifyRefundNotification',
    handlers: { onRefunded: { name: 'on_refunded', states: [2] } },
    expectOption: 'expectRefund',
    identifiedBy: ['refundOrderId'],
    stateField: 'state',
    amountField: 'refundAmount',
    schema,
    expect,
    merchantRequired: true,
    recover: 'Read the refund.',
    eventTime: (n: { reqTime: number }) => ({ field: 'reqTime' as const, time: n.reqTime, happened: 'was signed' }),
  } as const;

  it('a row naming only fields of its schema compiles, and keeps its literal names', () => {
    const kind = defineNotificationKind({ ...row, idempotencyKey: (n) => `${n.refundOrderId}:${n.state}`, defaultExpect: { state: 2 } });
    expectTypeOf(kind.handlers.onRefunded.name).toEqualTypeOf<'on_refunded'>();
    expectTypeOf(kind.name).toEqualTypeOf<'refund'>();
  });

  it('a misspelled name in any field does not compile', () => {
    // @ts-expect-error defaultExpect: not a field of the notification
    defineNotificationKind({ ...row, idempotencyKey: (n) => n.refundOrderId, defaultExpect: { stat: 2 } });
    // @ts-expect-error idempotencyKey: reads a field the notification does not have
    defineNotificationKind({ ...row, idempotencyKey: (n) => `${n.refundOrderID}:${n.state}` });
    // @ts-expect-error expect: pins a field the notification does not have
    defineNotificationKind({ ...row, expect: z.strictObject({ refundAmout: z.optional(z.number()) }), idempotencyKey: (n) => n.refundOrderId });
    // @ts-expect-error eventTime: names a field the notification does not have
    defineNotificationKind({ ...row, idempotencyKey: (n) => n.refundOrderId, eventTime: (n) => ({ field: 'reqtime', time: n.reqTime, happened: 'was signed' }) });
    // @ts-expect-error handlers: a processor option, named onSomething
    defineNotificationKind({ ...row, handlers: { refunded: { name: 'on_refunded' } }, idempotencyKey: (n) => n.refundOrderId });
    // @ts-expect-error identifiedBy: not a field of the notification
    defineNotificationKind({ ...row, identifiedBy: ['refundOrderID'], idempotencyKey: (n) => n.refundOrderId });
    // @ts-expect-error stateField: not a field of the notification
    defineNotificationKind({ ...row, stateField: 'status', idempotencyKey: (n) => n.refundOrderId });
    // @ts-expect-error amountField: not a field the expectation pins
    defineNotificationKind({ ...row, amountField: 'amount', idempotencyKey: (n) => n.refundOrderId });
  });

  it('the SDK\'s rows are declared so', () => {
    expectTypeOf(notificationKinds.payment.handlers.onPaid.name).toEqualTypeOf<'on_paid'>();
    expectTypeOf(notificationKinds.settlement.handlers.onSettlement.name).toEqualTypeOf<'on_settlement'>();
  });
});

describe("CONTRIBUTING.md's worked example of a notification kind: the refund row", () => {
  it('declares a row whose types verification and the processor derive', () => {
    const { refund } = notificationKinds;
    expectTypeOf(refund.handlers.onRefundFailed.name).toEqualTypeOf<'on_refund_failed'>();
    expectTypeOf(refund.expectOption).toEqualTypeOf<'expectRefund'>();
    expectTypeOf<Keys<typeof refund.expect>>().toEqualTypeOf<'mchRefundNo' | 'refundAmount' | 'currency' | 'state'>();
    expectTypeOf(refund.idempotencyKey).parameter(0).toHaveProperty('mchRefundNo').toEqualTypeOf<string>();
  });
});
