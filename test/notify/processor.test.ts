// The notification processor on the memory store: verify, claim, run once, answer; refusals claim nothing.
import { describe, expect, it, vi } from 'vitest';
import {
  createNotificationProcessor,
  GatewayPayloadTooLargeError,
  GatewaySignatureError,
  GatewayValidationError,
  memoryStore,
  type NotificationStore,
  type PayOrderNotification,
  PayOrderState,
  type Settlements,
} from '../../src/index.js';
import { notificationKinds } from '../../src/notify/kinds.js';
import { formBody, formRequest, freshFields, MERCHANT, SETTLEMENT_FIELDS } from '../support/notification.js';

type OnPaid = (notification: PayOrderNotification) => Promise<void>;

describe('createNotificationProcessor: payment notifications', () => {
  it('verifies, runs onPaid once with the typed notification and answers exactly SUCCESS', async () => {
    const onPaid = vi.fn<OnPaid>(async () => {});
    const processor = createNotificationProcessor({ ...MERCHANT, onPaid });
    const reply = await processor.handle(formBody(freshFields()));
    expect(reply).toMatchObject({ status: 200, body: 'SUCCESS', headers: { 'content-type': 'text/plain; charset=utf-8' }, outcome: { kind: 'processed' } });
    expect(onPaid).toHaveBeenCalledTimes(1);
    expect(onPaid.mock.calls[0]?.[0]).toMatchObject({ mchOrderNo: 'mho1623985457320', amount: 58, state: 2, idempotencyKey: 'P202106181104177050002:2' });
  });

  it('answers a re-delivery SUCCESS without running onPaid again', async () => {
    const onPaid = vi.fn<OnPaid>(async () => {});
    const processor = createNotificationProcessor({ ...MERCHANT, onPaid });
    const kinds = [];
    for (let delivery = 0; delivery < 3; delivery++) {
      const reply = await processor.handle(formBody(freshFields()));
      expect(reply.body).toBe('SUCCESS');
      kinds.push(reply.outcome.kind);
    }
    expect(kinds).toEqual(['processed', 'duplicate', 'duplicate']);
    expect(onPaid).toHaveBeenCalledTimes(1);
  });

  it('runs onPaid once for concurrent deliveries; the others wait for it and answer SUCCESS', async () => {
    const gate = Promise.withResolvers<void>();
    const onPaid = vi.fn<OnPaid>(() => gate.promise);
    const processor = createNotificationProcessor({ ...MERCHANT, onPaid });
    const replies = Array.from({ length: 5 }, () => processor.handle(formBody(freshFields())));
    await vi.waitFor(() => expect(onPaid).toHaveBeenCalled());
    gate.resolve();
    const settled = await Promise.all(replies);
    expect(settled.map((r) => r.body)).toEqual(Array(5).fill('SUCCESS'));
    expect(settled.map((r) => r.outcome.kind).sort()).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'processed']);
    expect(onPaid).toHaveBeenCalledTimes(1);
  });

  it('answers 409 to a concurrent delivery when the wait ends first, without running onPaid', async () => {
    const gate = Promise.withResolvers<void>();
    const onPaid = vi.fn<OnPaid>(() => gate.promise);
    const processor = createNotificationProcessor({ ...MERCHANT, onPaid, busyWaitMs: 50 });
    const first = processor.handle(formBody(freshFields()));
    await vi.waitFor(() => expect(onPaid).toHaveBeenCalled());
    const second = await processor.handle(formBody(freshFields()));
    expect(second).toMatchObject({ status: 409, body: 'FAIL: in progress', outcome: { kind: 'busy' } });
    gate.resolve();
    expect((await first).body).toBe('SUCCESS');
    expect(onPaid).toHaveBeenCalledTimes(1);
  });

  it('a failing onPaid answers 500 and releases the claim: the retry runs onPaid again', async () => {
    const onPaid = vi.fn<OnPaid>().mockRejectedValueOnce(new Error('database down')).mockResolvedValue(undefined);
    const processor = createNotificationProcessor({ ...MERCHANT, onPaid });
    const failed = await processor.handle(formBody(freshFields()));
    expect(failed).toMatchObject({ status: 500, body: 'FAIL: processing failed', outcome: { kind: 'failed', error: new Error('database down') } });
    expect(failed.body).not.toContain('database');
    const retried = await processor.handle(formBody(freshFields()));
    expect(retried).toMatchObject({ status: 200, body: 'SUCCESS', outcome: { kind: 'processed' } });
    expect(onPaid).toHaveBeenCalledTimes(2);
  });

  it('refuses a tampered notification with 400 and claims nothing: the genuine one is processed after it', async () => {
    const onPaid = vi.fn<OnPaid>(async () => {});
    const processor = createNotificationProcessor({ ...MERCHANT, onPaid });
    const refused = await processor.handle(formBody({ ...freshFields(), amount: '1' }));
    expect(refused).toMatchObject({ status: 400, body: 'FAIL: refused' });
    expect(refused.outcome.kind === 'refused' && refused.outcome.error).toBeInstanceOf(GatewaySignatureError);
    expect(onPaid).not.toHaveBeenCalled();
    expect((await processor.handle(formBody(freshFields()))).outcome.kind).toBe('processed');
  });

  it('refuses an oversized body with 413 and claims nothing', async () => {
    const onPaid = vi.fn<OnPaid>(async () => {});
    const processor = createNotificationProcessor({ ...MERCHANT, onPaid, maxBodyBytes: 1024 });
    const refused = await processor.handle(formBody(freshFields({ body: 'x'.repeat(2048) })));
    expect(refused).toMatchObject({ status: 413, body: 'FAIL: too large' });
    expect(refused.outcome.kind === 'refused' && refused.outcome.error).toBeInstanceOf(GatewayPayloadTooLargeError);
    expect((await processor.handle(formBody(freshFields()))).outcome.kind).toBe('processed');
    expect(onPaid).toHaveBeenCalledTimes(1);
  });

  it.each([PayOrderState.Paying, PayOrderState.Failed, PayOrderState.Closed])('refuses a genuine notification of state %i: onPaid is for paid orders only', async (state) => {
    const onPaid = vi.fn<OnPaid>(async () => {});
    const processor = createNotificationProcessor({ ...MERCHANT, onPaid });
    const reply = await processor.handle(formBody(freshFields({ state: String(state) })));
    expect(reply.status).toBe(400);
    expect(reply.outcome.kind === 'refused' && (reply.outcome.error as GatewayValidationError).issues).toEqual([{ path: ['state'], message: expect.stringContaining('2') }]);
    expect(onPaid).not.toHaveBeenCalled();
  });

  it('refuses a notification that differs from a fixed expect', async () => {
    const onPaid = vi.fn<OnPaid>(async () => {});
    const processor = createNotificationProcessor({ ...MERCHANT, onPaid, expect: { amount: 59, currency: 'USD' } });
    const reply = await processor.handle(formBody(freshFields()));
    expect(reply.status).toBe(400);
    expect(onPaid).not.toHaveBeenCalled();
  });
});

describe('an expect function (reading the order record)', () => {
  const orders = new Map([['mho1623985457320', { total: 58, currency: 'cny' }]]);
  const fromOrderRecord = async (n: PayOrderNotification) => {
    const order = orders.get(n.mchOrderNo);
    return order && { amount: order.total, currency: order.currency };
  };

  it('gets the verified notification, and its result is compared as a fixed expect is (currency in any case)', async () => {
    const expectFn = vi.fn(fromOrderRecord);
    const onPaid = vi.fn<OnPaid>(async () => {});
    const processor = createNotificationProcessor({ ...MERCHANT, onPaid, expect: expectFn });
    expect((await processor.handle(formBody(freshFields()))).outcome.kind).toBe('processed');
    expect(expectFn).toHaveBeenCalledWith(expect.objectContaining({ mchOrderNo: 'mho1623985457320', idempotencyKey: 'P202106181104177050002:2' }));
  });

  it('refuses a mismatch with the record, and a notification with no record, claiming nothing', async () => {
    const onPaid = vi.fn<OnPaid>(async () => {});
    const processor = createNotificationProcessor({ ...MERCHANT, onPaid, expect: fromOrderRecord });
    const cheaper = await processor.handle(formBody(freshFields({ payOrderId: 'P-other', amount: '1' })));
    expect(cheaper.status).toBe(400);
    expect(cheaper.outcome.kind === 'refused' && (cheaper.outcome.error as GatewayValidationError).issues).toEqual([{ path: ['amount'], message: 'is 1, but 58 was expected' }]);
    const unknown = await processor.handle(formBody(freshFields({ mchOrderNo: 'not-ours' })));
    expect(unknown).toMatchObject({ status: 400, outcome: { kind: 'refused', error: expect.any(GatewayValidationError) } });
    expect(onPaid).not.toHaveBeenCalled();
    expect((await processor.handle(formBody(freshFields()))).outcome.kind).toBe('processed');
  });

  it('that throws answers 500 (the gateway retries) and claims nothing', async () => {
    const onPaid = vi.fn<OnPaid>(async () => {});
    let down = true;
    const processor = createNotificationProcessor({
      ...MERCHANT,
      onPaid,
      expect: async (n) => {
        if (down) throw new Error('orders database unreachable');
        return fromOrderRecord(n);
      },
    });
    expect(await processor.handle(formBody(freshFields()))).toMatchObject({ status: 500, outcome: { kind: 'failed', error: new Error('orders database unreachable') } });
    down = false;
    expect((await processor.handle(formBody(freshFields()))).outcome.kind).toBe('processed');
    expect(onPaid).toHaveBeenCalledTimes(1);
  });
});

describe('an expect function that returns what is not an expectation', () => {
  it.each([
    ['an amount as text (a bigint column, as pg returns it)', { amount: '58', currency: 'CNY' }, ['amount']],
    ['a whole row, with fields that are not expectations', { id: 7, amount: 58, currency: 'USD' }, ['id']],
  ])('answers 500 (ours to fix) and runs nothing: %s', async (_name, returned, path) => {
    const onPaid = vi.fn<OnPaid>(async () => {});
    const processor = createNotificationProcessor({ ...MERCHANT, onPaid, expect: async () => returned as never });
    const reply = await processor.handle(formBody(freshFields()));
    expect(reply).toMatchObject({ status: 500, outcome: { kind: 'failed', notification: { mchOrderNo: 'mho1623985457320' } } });
    const error = reply.outcome.kind === 'failed' ? (reply.outcome.error as GatewayValidationError) : undefined;
    expect(error).toBeInstanceOf(GatewayValidationError);
    expect(error?.issues.map((i) => i.path)).toEqual([path]);
    expect(onPaid).not.toHaveBeenCalled();
  });

  it('a GatewayError it throws refuses the notification', async () => {
    const processor = createNotificationProcessor({
      ...MERCHANT,
      onPaid: async () => {},
      expect: () => {
        throw new GatewayValidationError('order archived', [{ path: ['mchOrderNo'], message: 'is archived' }]);
      },
    });
    expect((await processor.handle(formBody(freshFields()))).status).toBe(400);
  });
});

describe('createNotificationProcessor: settlement notifications', () => {
  it('runs onSettlement once per settlement event (serverRequestId:status)', async () => {
    const onSettlement = vi.fn<(s: Settlements.Notification) => Promise<void>>(async () => {});
    const processor = createNotificationProcessor({ ...MERCHANT, onSettlement, expectSettlement: { requestId: 'settle-2024-07' } });
    const processing = formBody(freshFields({}, SETTLEMENT_FIELDS));
    const settled = formBody(freshFields({ status: '2' }, SETTLEMENT_FIELDS));
    const kinds = [];
    for (const body of [processing, processing, settled, settled]) kinds.push((await processor.handle(body)).outcome.kind);
    expect(kinds).toEqual(['processed', 'duplicate', 'processed', 'duplicate']);
    expect(onSettlement.mock.calls.map(([s]) => s.idempotencyKey)).toEqual(['SRV-SETTLE-1:1', 'SRV-SETTLE-1:2']);
    expect((await processor.handle(formBody(freshFields({ requestId: 'settle-other' }, SETTLEMENT_FIELDS)))).status).toBe(400);
  });
});

describe('handleRequest: a Web Request in, a Web Response out', () => {
  it('answers SUCCESS once processed and 400 to a forgery', async () => {
    const onPaid = vi.fn<OnPaid>(async () => {});
    const { handleRequest } = createNotificationProcessor({ ...MERCHANT, onPaid });
    const response = await handleRequest(formRequest(freshFields()));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toBe('SUCCESS');
    const forged = await handleRequest(formRequest(freshFields({}, undefined, 'not-the-secret')));
    expect([forged.status, await forged.text()]).toEqual([400, 'FAIL: refused']);
    expect(onPaid).toHaveBeenCalledTimes(1);
  });
});

describe('options are checked when the processor is created', () => {
  const onPaid = async () => {};
  it.each([
    ['no handler', { ...MERCHANT }, /pass a handler at least: onPaid for payment notifications of state 2, onRefunded for refund notifications of state 2, onRefundFailed/],
    ['an expectation without a handler of its kind', { ...MERCHANT, onPaid, expectRefund: { mchRefundNo: 'r-1' } }, /expectRefund: is what refund notifications must match, but no handler of theirs is given \(onRefunded, onRefundFailed\)/],
    ['a payment expectation for settlements', { ...MERCHANT, onSettlement: onPaid, expect: { amount: 1, currency: 'USD' } }, /expect: is what payment notifications must match/],
    ['an expectation that checks nothing', { ...MERCHANT, onRefunded: onPaid, onRefundFailed: onPaid, expectRefund: { refundAmount: 500 } }, /expectRefund.currency: is missing: an amount is checked only with its currency/],
    ['a handler that is no function', { ...MERCHANT, onRefunded: 'yes' }, /onRefunded: must be a function/],
    ['a store that is not one', { ...MERCHANT, onPaid, store: {} }, /store: must be a store/],
    ['a wait past the gateway\'s patience', { ...MERCHANT, onPaid, busyWaitMs: 20_000 }, /busyWaitMs: must be at most 15000/],
    ['a missing secret', { mchNo: MERCHANT.mchNo, appId: MERCHANT.appId, onPaid }, /secret/],
    ['a misspelt option', { ...MERCHANT, onPaid, maxBodybytes: 10 }, /maxBodybytes/],
    ['an expect field that does not exist', { ...MERCHANT, onPaid, expect: { amout: 1 } }, /amout/],
    ['an expectRefund field of the payment, under its own option', { ...MERCHANT, onRefunded: onPaid, onRefundFailed: onPaid, expectRefund: { amount: 5, currency: 'USD' } }, /: expectRefund\.amount: unknown option 'amount'\. The options are: mchRefundNo, refundAmount, currency/],
    ['leaveUnhandled naming a handler that is given', { ...MERCHANT, onRefunded: onPaid, onRefundFailed: onPaid, leaveUnhandled: ['onRefundFailed'] }, /leaveUnhandled: names onRefundFailed, which is given too/],
    ['leaveUnhandled naming no handler', { ...MERCHANT, onRefunded: onPaid, leaveUnhandled: ['onRefundFaild'] }, /leaveUnhandled\.0: must name handler options: onPaid, onRefunded, onRefundFailed, onTransferred, onTransferFailed, onSettlement/],
  ])('%s', (_name, options, message) => {
    expect(() => createNotificationProcessor(options as never)).toThrow(GatewayValidationError);
    expect(() => createNotificationProcessor(options as never)).toThrow(message);
  });

  // Issue 35: an expectation option's mistakes are reported under its own name, never verification's `expect`.
  it.each(Object.values(notificationKinds).map((row) => [row.expectOption, row] as const))('%s: a mistake is named by the option given', (_name, row) => {
    const handlers = Object.fromEntries(Object.keys(row.handlers).map((option) => [option, onPaid]));
    const error = (() => {
      try {
        return createNotificationProcessor({ ...MERCHANT, ...handlers, [row.expectOption]: { [row.amountField]: '5', currency: 'USD' } } as never);
      } catch (e) {
        return e;
      }
    })() as GatewayValidationError;
    expect(error).toBeInstanceOf(GatewayValidationError);
    expect(error.message).toMatch(/^Invalid createNotificationProcessor options: /);
    expect(error.issues.map((issue) => issue.path.join('.'))).toEqual([`${row.expectOption}.${row.amountField}`]);
  });
});

describe('memoryStore', () => {
  it('forgets the oldest done keys past maxKeys, never a running one', async () => {
    const store = memoryStore({ maxKeys: 2 });
    const ran: string[] = [];
    const effect = (key: string) => async () => void ran.push(key);
    const gate = Promise.withResolvers<void>();
    const running = store.runOnce('a', () => gate.promise);
    for (const key of ['b', 'c', 'd']) expect((await store.runOnce(key, effect(key))).status).toBe('ran');
    expect((await store.runOnce('a', effect('a'))).status).toBe('busy');
    gate.resolve();
    await running;
    expect((await store.runOnce('d', effect('d'))).status).toBe('done');
    expect((await store.runOnce('b', effect('b'))).status).toBe('ran'); // forgotten: runs again
    expect(ran).toEqual(['b', 'c', 'd', 'b']);
  });

  it('is the default store, and each processor has its own', async () => {
    const onPaid = vi.fn<OnPaid>(async () => {});
    const one = createNotificationProcessor({ ...MERCHANT, onPaid });
    const other = createNotificationProcessor({ ...MERCHANT, onPaid });
    await one.handle(formBody(freshFields()));
    await other.handle(formBody(freshFields()));
    expect(onPaid).toHaveBeenCalledTimes(2); // two processes' worth of memory: why a fleet needs postgresStore
  });

  it('refuses invalid options', () => {
    expect(() => memoryStore({ maxKeys: 0 })).toThrow(/maxKeys: must be at least 1/);
  });
});

describe('a custom store sees only verified keys', () => {
  it('is never called for a refused notification', async () => {
    const runOnce = vi.fn<NotificationStore['runOnce']>(async (_key, effect) => {
      await effect({ signal: new AbortController().signal });
      return { status: 'ran' };
    });
    const processor = createNotificationProcessor({ ...MERCHANT, onPaid: async () => {}, store: { runOnce } });
    await processor.handle(formBody({ ...freshFields(), sign: 'F'.repeat(32) }));
    await processor.handle('not a form at all');
    expect(runOnce).not.toHaveBeenCalled();
    await processor.handle(formBody(freshFields()));
    expect(runOnce).toHaveBeenCalledWith('P202106181104177050002:2', expect.any(Function), { eventTime: expect.any(Number) });
  });
});
