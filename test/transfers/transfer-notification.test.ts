// Issue 37, the notification half of transfers: verifyTransferNotification, and onTransferred / onTransferFailed in
// the same processor as onPaid and the refund handlers. A transfer's state 2 is money leaving the merchant: it never
// runs onPaid or a refund handler, and a payment or a refund never runs a transfer handler.
import { describe, expect, it, vi } from 'vitest';
import { createNotificationProcessor, GatewayValidationError, memoryStore, verifyNotification, verifyRefundNotification, verifyTransferNotification } from '../../src/index.js';
import { formBody, freshFields, MERCHANT, REFUND_FIELDS, signedFields, TRANSFER_FIELDS } from '../support/notification.js';


const EXPECTED = { mchOrderNo: 'payout-1001', amount: 1500, currency: 'CNY' };

describe('verifyTransferNotification', () => {
  it('returns a genuine transfer typed as transferQuery returns it, keyed by kind, transfer id and state', async () => {
    const transfer = await verifyTransferNotification(formBody(signedFields({}, TRANSFER_FIELDS)), { ...MERCHANT, expect: EXPECTED });
    expect(transfer).toMatchObject({ transferId: 'T1623985459000001', amount: 1500, state: 2, accountNo: 'o8xYz0123456789', idempotencyKey: 'transfer:T1623985459000001:2' });
    await expect(verifyTransferNotification(signedFields({ state: '1' }, TRANSFER_FIELDS), MERCHANT)).rejects.toThrow(/state: is 1, but one of 2, 3 was expected/);
    await expect(verifyTransferNotification(signedFields({}, TRANSFER_FIELDS), { ...MERCHANT, expect: { ...EXPECTED, amount: 15 } })).rejects.toThrow(/amount: is 1500, but 15 was expected/);
  });

  it('is refused by the payment and refund verifiers, and refuses theirs, whatever fields it shares with a payment', async () => {
    const transfer = signedFields({}, TRANSFER_FIELDS);
    await expect(verifyNotification(transfer, MERCHANT)).rejects.toBeInstanceOf(GatewayValidationError);
    await expect(verifyRefundNotification(transfer, MERCHANT)).rejects.toBeInstanceOf(GatewayValidationError);
    await expect(verifyTransferNotification(signedFields(), MERCHANT)).rejects.toThrow(/shaped as a payment notification/);
    await expect(verifyTransferNotification(signedFields({}, REFUND_FIELDS), MERCHANT)).rejects.toBeInstanceOf(GatewayValidationError);
    // A transfer that also carries a payment's payOrderId is two-shaped: refused by both.
    const both = signedFields({ payOrderId: 'P202106181104177050002' }, TRANSFER_FIELDS);
    await expect(verifyTransferNotification(both, MERCHANT)).rejects.toBeInstanceOf(GatewayValidationError);
    await expect(verifyNotification(both, MERCHANT)).rejects.toBeInstanceOf(GatewayValidationError);
  });
});

describe('a processor with onPaid, refund and transfer handlers on one notify URL', () => {
  const make = (extra: Record<string, unknown> = {}) => {
    const handlers = {
      onPaid: vi.fn(async () => {}),
      onRefunded: vi.fn(async () => {}),
      onRefundFailed: vi.fn(async () => {}),
      onTransferred: vi.fn(async () => {}),
      onTransferFailed: vi.fn(async () => {}),
    };
    const processor = createNotificationProcessor({ ...MERCHANT, store: memoryStore(), expectTransfer: EXPECTED, expectRefund: { mchRefundNo: 'refund-1001-1', refundAmount: 500, currency: 'USD' }, ...handlers, logLevel: 'off', ...extra } as never);
    return { processor: processor as unknown as { handleRequest(request: Request): Promise<Response>; handle(input: unknown): Promise<{ outcome: string }> }, ...handlers };
  };
  const post = (fields: Record<string, string>) => new Request('http://127.0.0.1/pay/notify', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: formBody(fields) });

  it('a transfer runs onTransferred once, never onPaid or a refund handler; a payment never runs a transfer handler', async () => {
    const { processor, onPaid, onRefunded, onRefundFailed, onTransferred, onTransferFailed } = make();
    const fields = freshFields({ successTime: String(Date.now()), createdAt: String(Date.now()) }, TRANSFER_FIELDS);
    expect(await (await processor.handleRequest(post(fields))).text()).toBe('SUCCESS');
    expect(await (await processor.handleRequest(post(fields))).text()).toBe('SUCCESS');
    expect(onTransferred).toHaveBeenCalledTimes(1);
    expect([onPaid, onRefunded, onRefundFailed, onTransferFailed].map((h) => h.mock.calls.length)).toEqual([0, 0, 0, 0]);

    const failed = freshFields({ state: '3', successTime: undefined, createdAt: String(Date.now()), errCode: 'FAIL', errMsg: 'no balance' }, TRANSFER_FIELDS);
    expect(await (await processor.handleRequest(post(failed))).text()).toBe('SUCCESS');
    expect(onTransferFailed).toHaveBeenCalledTimes(1);

    expect(await (await processor.handleRequest(post(freshFields()))).text()).toBe('SUCCESS');
    expect(onPaid).toHaveBeenCalledTimes(1);
    expect(await (await processor.handleRequest(post(freshFields({}, REFUND_FIELDS)))).text()).toBe('SUCCESS');
    expect(onRefunded).toHaveBeenCalledTimes(1);
    expect([onTransferred, onTransferFailed].map((h) => h.mock.calls.length)).toEqual([1, 1]);
  });

  it('expectTransfer fails closed: a transfer of another amount runs nothing and is not acknowledged', async () => {
    const { processor, onTransferred } = make({ expectTransfer: { ...EXPECTED, amount: 999 } });
    const answer = await (await processor.handleRequest(post(freshFields({ createdAt: String(Date.now()), successTime: String(Date.now()) }, TRANSFER_FIELDS)))).text();
    expect(answer).not.toBe('SUCCESS');
    expect(onTransferred).not.toHaveBeenCalled();
  });

  it('a processor without transfer handlers never acknowledges a transfer notification, and never runs onPaid for it', async () => {
    const onPaid = vi.fn(async () => {});
    const processor = createNotificationProcessor({ ...MERCHANT, store: memoryStore(), onPaid, logLevel: 'off' });
    const answer = await (await processor.handleRequest(post(freshFields({ createdAt: String(Date.now()), successTime: String(Date.now()) }, TRANSFER_FIELDS)))).text();
    expect(answer).not.toBe('SUCCESS');
    expect(onPaid).not.toHaveBeenCalled();
  });
});
