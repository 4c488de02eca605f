// Issue 31, the notification half of refunds: verifyRefundNotification, and onRefunded / onRefundFailed run
// once per refund through the same stores and claims as onPaid, in the same processor as onPaid.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  createNotificationProcessor,
  GatewayValidationError,
  memoryStore,
  verifyRefundNotification,
  type NotificationStore,
  type ProcessingContext,
  Refunds,
} from '../../src/index.js';
import { sqliteStore } from '../../src/stores/sqlite.js';
import { FAILED_REFUND_FIELDS, formBody, freshFields, MERCHANT, REFUND_FIELDS, signedFields } from '../support/notification.js';
import { removeDir } from '../support/servers/process.js';

type OnRefund = (refund: Refunds.Notification, context: ProcessingContext) => Promise<void>;

const EXPECTED_REFUND = { mchRefundNo: 'refund-1001-1', refundAmount: 500, currency: 'USD' };

describe('verifyRefundNotification', () => {
  it('returns a genuine refund typed as refundQuery returns it, keyed by kind, refund id and state', async () => {
    const refund = await verifyRefundNotification(formBody(signedFields({}, REFUND_FIELDS)), { ...MERCHANT, expect: EXPECTED_REFUND });
    expect(refund).toMatchObject({ refundOrderId: 'R1623985459000001', refundAmount: 500, payAmount: 1999, state: 2, successTime: 1623985459000, idempotencyKey: 'refund:R1623985459000001:2' });
    const failed = await verifyRefundNotification(signedFields({}, FAILED_REFUND_FIELDS), MERCHANT);
    expect(failed).toMatchObject({ state: 3, errMsg: 'insufficient merchant balance', idempotencyKey: 'refund:R1623985459000001:3' });
    expect(failed.successTime).toBeUndefined();
  });

  it('refuses what the gateway does not notify: a refund still in progress, a payment, a signed refundQuery answer', async () => {
    await expect(verifyRefundNotification(signedFields({ state: '1' }, REFUND_FIELDS), MERCHANT)).rejects.toThrow(/state: is 1, but one of 2, 3 was expected/);
    await expect(verifyRefundNotification(signedFields(), MERCHANT)).rejects.toThrow(/The message is shaped as a payment notification, not a refund notification, so verifyRefundNotification refused it: mchOrderNo: is a field of a payment notification: take it with verifyNotification/);
    const answer = signedFields({ mchNo: undefined, appId: undefined, reqTime: undefined }, REFUND_FIELDS);
    const error = (await verifyRefundNotification(answer, MERCHANT).catch((e: unknown) => e)) as GatewayValidationError;
    expect(error).toBeInstanceOf(GatewayValidationError);
    expect(error.issues.map((issue) => issue.path)).toEqual([['mchNo'], ['appId']]);
  });

  it('checks expect, and refuses an expectation that checks nothing: an amount without its currency', async () => {
    await expect(verifyRefundNotification(signedFields({}, REFUND_FIELDS), { ...MERCHANT, expect: { ...EXPECTED_REFUND, refundAmount: 5000 } })).rejects.toThrow(/refundAmount: is 500, but 5000 was expected/);
    await expect(verifyRefundNotification(signedFields({}, REFUND_FIELDS), { ...MERCHANT, expect: { refundAmount: 500 } })).rejects.toThrow(/expect.currency: is missing: an amount is checked only with its currency/);
    await expect(verifyRefundNotification(signedFields({}, REFUND_FIELDS), { ...MERCHANT, expect: { state: 5 as never } })).rejects.toThrow(/must be a refund state \(0 to 4\)/);
  });
});

describe('a processor with onPaid, onRefunded and onRefundFailed, on one notify URL', () => {
  const both = (store: NotificationStore<ProcessingContext>) => {
    const onPaid = vi.fn(async () => {});
    const onRefunded = vi.fn<OnRefund>(async () => {});
    const onRefundFailed = vi.fn<OnRefund>(async () => {});
    const processor = createNotificationProcessor({ ...MERCHANT, store, expectRefund: EXPECTED_REFUND, onPaid, onRefunded, onRefundFailed });
    return { processor, onPaid, onRefunded, onRefundFailed };
  };

  it('runs each handler for its own kind and state, once per event, and SUCCESS for each', async () => {
    const { processor, onPaid, onRefunded, onRefundFailed } = both(memoryStore());
    const refunded = formBody(freshFields({}, REFUND_FIELDS));
    const failed = formBody(freshFields({ refundOrderId: 'R2' }, FAILED_REFUND_FIELDS));
    const paid = formBody(freshFields());
    const replies = [];
    for (const body of [refunded, paid, failed, refunded, paid, failed]) replies.push(await processor.handle(body));
    expect(replies.map((reply) => [reply.body, reply.outcome.kind])).toEqual([
      ['SUCCESS', 'processed'], ['SUCCESS', 'processed'], ['SUCCESS', 'processed'],
      ['SUCCESS', 'duplicate'], ['SUCCESS', 'duplicate'], ['SUCCESS', 'duplicate'],
    ]);
    expect(onRefunded.mock.calls.map(([refund]) => refund.idempotencyKey)).toEqual(['refund:R1623985459000001:2']);
    expect(onRefundFailed.mock.calls.map(([refund]) => refund.idempotencyKey)).toEqual(['refund:R2:3']);
    expect(onPaid).toHaveBeenCalledTimes(1);
  });

  it('checks expectRefund as expect is checked: a function reading the refund record, failing closed', async () => {
    const onRefunded = vi.fn<OnRefund>(async () => {});
    const records = new Map([['refund-1001-1', { mchRefundNo: 'refund-1001-1', refundAmount: 500, currency: 'USD' }]]);
    const processor = createNotificationProcessor({ ...MERCHANT, onRefunded, leaveUnhandled: ['onRefundFailed'], expectRefund: async (refund) => records.get(refund.mchRefundNo) });
    const other = await processor.handle(formBody(freshFields({ mchRefundNo: 'refund-unknown' }, REFUND_FIELDS)));
    expect(other).toMatchObject({ status: 400, outcome: { kind: 'refused' } });
    expect(other.outcome.kind === 'refused' && other.outcome.error.message).toMatch(/The refund notification is genuine but your expectRefund function found no record for it/);
    records.set('refund-1001-1', { mchRefundNo: 'refund-1001-1', refundAmount: 400, currency: 'USD' });
    expect(await processor.handle(formBody(freshFields({}, REFUND_FIELDS)))).toMatchObject({ status: 400, outcome: { kind: 'refused' } });
    // A column read under another name is undefined: no check, so no run (500, the gateway retries).
    records.set('refund-1001-1', { mchRefundNo: 'refund-1001-1', refundAmount: undefined as never, currency: 'USD' });
    expect(await processor.handle(formBody(freshFields({}, REFUND_FIELDS)))).toMatchObject({ status: 500, outcome: { kind: 'failed' } });
    expect(onRefunded).not.toHaveBeenCalled();
    records.set('refund-1001-1', { mchRefundNo: 'refund-1001-1', refundAmount: 500, currency: 'usd' });
    expect(await processor.handle(formBody(freshFields({}, REFUND_FIELDS)))).toMatchObject({ status: 200, outcome: { kind: 'processed' } });
  });

  it("judges a refund's age by successTime, or createdAt when it failed, never by reqTime", async () => {
    const { processor, onRefunded, onRefundFailed } = both(memoryStore()); // its horizon: now
    const now = String(Date.now());
    const oldRefund = await processor.handle(formBody(signedFields({ reqTime: now, createdAt: now, successTime: '1623985459000' }, REFUND_FIELDS)));
    expect(oldRefund).toMatchObject({ status: 400, body: 'FAIL: stale' });
    expect(oldRefund.outcome.kind === 'stale' && oldRefund.outcome.error.message).toMatch(/was refunded at 2021-06-18T.*\(successTime 1623985459000\).*Read the refund \(client.refundQuery\)/);
    const oldFailure = await processor.handle(formBody(signedFields({ reqTime: now }, FAILED_REFUND_FIELDS)));
    expect(oldFailure.outcome.kind === 'stale' && oldFailure.outcome.error.message).toMatch(/is of a refund created at .*\(createdAt 1623985400000\)/);
    expect(await processor.handle(formBody(signedFields({ reqTime: now, createdAt: now }, FAILED_REFUND_FIELDS)))).toMatchObject({ status: 200, outcome: { kind: 'processed' } });
    expect(onRefunded).not.toHaveBeenCalled();
    expect(onRefundFailed).toHaveBeenCalledTimes(1);
  });

  it('six concurrent deliveries of one refund to two processors on one memory store run onRefunded once', async () => {
    const store = memoryStore();
    const [a, b] = [both(store), both(store)];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    a.onRefunded.mockImplementation(() => held);
    b.onRefunded.mockImplementation(() => held);
    const body = formBody(freshFields({}, REFUND_FIELDS));
    const replies = Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? a : b).processor.handle(body));
    await new Promise((resolve) => setTimeout(resolve, 30));
    release();
    const settled = await Promise.all(replies);
    expect(settled.map((reply) => reply.body)).toEqual(Array(6).fill('SUCCESS'));
    expect(settled.filter((reply) => reply.outcome.kind === 'processed')).toHaveLength(1);
    expect(a.onRefunded.mock.calls.length + b.onRefunded.mock.calls.length).toBe(1);
    expect(a.onPaid.mock.calls.length + b.onPaid.mock.calls.length).toBe(0);
  });
});

describe('refunds through the SQLite store', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'pgsdk-refund-'));
  afterAll(() => removeDir(scratch));

  it('two processors on one database file run onRefunded once for six concurrent deliveries, and the done mark outlives a restart', async () => {
    const path = join(scratch, 'refunds.sqlite');
    const stores = [sqliteStore({ path }), sqliteStore({ path })];
    const onRefunded = vi.fn<OnRefund>(async () => {});
    const processors = stores.map((store) => createNotificationProcessor({ ...MERCHANT, store, expectRefund: EXPECTED_REFUND, onRefunded, leaveUnhandled: ['onRefundFailed'] }));
    const body = formBody(freshFields({}, REFUND_FIELDS));
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => processors[i % 2]!.handle(body)));
    expect(replies.map((reply) => reply.body)).toEqual(Array(6).fill('SUCCESS'));
    expect(onRefunded).toHaveBeenCalledTimes(1);
    for (const store of stores) store.close();
    const reopened = sqliteStore({ path });
    const later = createNotificationProcessor({ ...MERCHANT, store: reopened, expectRefund: EXPECTED_REFUND, onRefunded, leaveUnhandled: ['onRefundFailed'] });
    expect((await later.handle(body)).outcome.kind).toBe('duplicate');
    reopened.close();
    expect(onRefunded).toHaveBeenCalledTimes(1);
  });
});
