// Every field name in an operation's declaration is checked against its schemas: each line marked as an
// expected error below holds one misspelled name that must not compile (checked by tsc through vitest).
import { describe, expectTypeOf, it } from 'vitest';
import * as z from 'zod/mini';
import { defineOperation, pick, type Keys } from '../../src/operations/define.js';
import { operations, type ConfirmedOf } from '../../src/operations/table.js';
import type { PayOrder } from '../../src/index.js';
import { refundRows } from '../fixtures/refund/refund-operation.js';
import { verifyNotificationOptionsSchema } from '../../src/notify/options.js';
import type { NotificationKind } from '../../src/notify/verify-received.js';
import { payOrderNotificationSchema } from '../../src/protocol/schemas/notification.js';

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
      urlParams: ['notifyUrl'],
      resultUrlField: 'payData',
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
    // @ts-expect-error notFound: not a reason the gateway gives
    defineOperation({ ...base, binds: [], notFound: ['refund_not_foundd'] });
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

describe("CONTRIBUTING.md's worked example (test/fixtures/refund/refund-operation.ts)", () => {
  it('declares rows whose types the client would derive', () => {
    expectTypeOf(refundRows.refundOrder.reconcile.lookup).toEqualTypeOf<'refundQuery'>();
    expectTypeOf(refundRows.refundOrder.key).toEqualTypeOf<'mchRefundNo'>();
    expectTypeOf<Keys<typeof refundRows.refundQuery.result>>().toEqualTypeOf<'refundOrderId' | 'mchRefundNo' | 'payOrderId' | 'refundAmount' | 'currency' | 'state' | 'errCode' | 'errMsg'>();
  });
});

describe('a notification kind names only fields of its schema', () => {
  const kind = { label: 'payment notification', schema: payOrderNotificationSchema, optionsSchema: verifyNotificationOptionsSchema, merchantRequired: true, idempotencyKey: () => 'k' } as const;

  it('its default expectation is checked', () => {
    const valid: NotificationKind<typeof payOrderNotificationSchema> = { ...kind, defaultExpect: { state: 2 } };
    // @ts-expect-error defaultExpect: not a field of the notification
    const expected: NotificationKind<typeof payOrderNotificationSchema> = { ...kind, defaultExpect: { stat: 2 } };
    void [valid, expected];
  });
});
