// Issue 23 finding 6: an expectation that names a field without a value, an amount without its currency, or
// nothing at all checked nothing, so a 1,000 payment passed for a 10,000 order. Every such expectation now
// fails closed: a configuration error for a fixed expect, a `failed` outcome (500, the gateway retries) for
// an expect function. Attacked through the public API with signed notifications.
import { describe, expect, it, vi } from 'vitest';
import {
  createNotificationProcessor,
  GatewayClient,
  GatewayValidationError,
  PayOrderState,
  verifyNotification,
  verifySettlementNotification,
  type PayOrderNotification,
} from '../../src/index.js';
import { formBody, freshFields, MERCHANT, SETTLEMENT_FIELDS, signedFields } from '../support/notification.js';
import { validationError } from '../support/rejection.js';

/** A genuine notification of a 1,000 payment (10.00 USD) for order-1: the order record says 10,000. */
const underpaid = () => formBody(freshFields({ mchOrderNo: 'order-1', amount: '1000', currency: 'USD', state: '2' }));
/** The merchant's order record, as a snake_case database row. */
const ROW = { number: 'order-1', total_minor: 10_000, currency: 'USD' } as const;

const thrown = validationError;

describe('an expect function that checks nothing fails closed', () => {
  it('{ amount: undefined, currency } from a snake_case row: failed (500) naming amount, onPaid never runs', async () => {
    const onPaid = vi.fn<(n: PayOrderNotification) => void>();
    const row = ROW as unknown as { totalMinor: number; currency: string }; // the documented pattern meeting a snake_case row
    const processor = createNotificationProcessor({ ...MERCHANT, expect: () => ({ amount: row.totalMinor, currency: row.currency }), onPaid });
    const reply = await processor.handle(underpaid());
    expect(reply.status).toBe(500);
    expect(reply.outcome.kind).toBe('failed');
    const error = (reply.outcome as { error: GatewayValidationError }).error;
    expect(error).toBeInstanceOf(GatewayValidationError);
    expect(error.issues).toEqual([{ path: ['amount'], message: expect.stringMatching(/^is undefined, so it would check nothing: give the value to compare/) }]);
    expect(onPaid).not.toHaveBeenCalled();
  });

  it.each([
    ['{}', {}, [[], /^checks nothing/]],
    ['an amount without its currency', { amount: 10_000 }, [['currency'], /^is missing: an amount is checked only with its currency/]],
    ['a null field', { mchOrderNo: null, amount: 10_000, currency: 'USD' }, [['mchOrderNo'], /^is null, so it would check nothing/]],
    ['an amount that is not an integer', { amount: 100.5, currency: 'USD' }, [['amount'], /integer/]],
  ] as const)('%s: failed, naming the field; onPaid never runs', async (_label, expectation, [path, message]) => {
    const onPaid = vi.fn();
    const processor = createNotificationProcessor({ ...MERCHANT, expect: () => expectation as never, onPaid });
    const reply = await processor.handle(underpaid());
    expect(reply.outcome.kind).toBe('failed');
    const { issues } = (reply.outcome as { error: GatewayValidationError }).error;
    expect(issues).toContainEqual({ path, message: expect.stringMatching(message) });
    expect(onPaid).not.toHaveBeenCalled();
  });

  it.each([
    ['a getter that throws (a lazy ORM field whose connection dropped)', () => ({ currency: 'USD', get amount(): number { throw new Error('connection terminated'); } })],
    ['a proxy whose keys cannot be read', () => new Proxy({}, { ownKeys: () => { throw new Error('connection terminated'); } })],
  ])('an expectation that throws when read, %s: failed (500), handle never rejects, onPaid never runs', async (_label, expectation) => {
    const onPaid = vi.fn();
    const processor = createNotificationProcessor({ ...MERCHANT, expect: () => expectation() as never, onPaid });
    const reply = await processor.handle(underpaid());
    expect(reply).toMatchObject({ status: 500, outcome: { kind: 'failed', error: expect.objectContaining({ message: 'connection terminated' }) } });
    const response = await processor.handleRequest(new Request('https://shop.test/notify', { method: 'POST', body: underpaid(), headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
    expect(response.status).toBe(500);
    expect(onPaid).not.toHaveBeenCalled();
  });

  it('a 1,000 payment for a 10,000 order is never processed; with the right column it is refused as a mismatch', async () => {
    const onPaid = vi.fn();
    const wrongColumn = createNotificationProcessor({ ...MERCHANT, expect: () => ({ amount: (ROW as Record<string, unknown>).totalMinor as number, currency: ROW.currency }), onPaid });
    const rightColumn = createNotificationProcessor({ ...MERCHANT, expect: () => ({ amount: ROW.total_minor, currency: ROW.currency }), onPaid });
    for (let delivery = 0; delivery < 3; delivery++) expect((await wrongColumn.handle(underpaid())).outcome.kind).toBe('failed');
    const refused = await rightColumn.handle(underpaid());
    expect(refused.status).toBe(400);
    expect(refused.outcome.kind).toBe('refused');
    expect(onPaid).not.toHaveBeenCalled();
    // The full payment passes the same check.
    const paid = await rightColumn.handle(formBody(freshFields({ mchOrderNo: 'order-1', amount: '10000', currency: 'USD', state: '2' })));
    expect(paid.outcome.kind).toBe('processed');
    expect(onPaid).toHaveBeenCalledTimes(1);
  });
});

describe('a fixed expect that checks nothing is refused at construction', () => {
  it.each([
    ['{ amount: undefined }', { amount: undefined }, ['expect', 'amount']],
    ['{ amount: undefined, currency }', { amount: undefined, currency: 'USD' }, ['expect', 'amount']],
    ['{}', {}, ['expect']],
    ['an amount without its currency', { amount: 10_000 }, ['expect', 'currency']],
    ['a null field', { mchOrderNo: null }, ['expect', 'mchOrderNo']],
  ] as const)('%s: verifyNotification, the client and createNotificationProcessor refuse it, naming the field', async (_label, expectation, path) => {
    const options = { ...MERCHANT, expect: expectation as never };
    const verifying = await verifyNotification(underpaid(), options).catch((e: unknown) => e);
    expect(verifying).toBeInstanceOf(GatewayValidationError);
    expect((verifying as GatewayValidationError).issues.map((i) => i.path)).toContainEqual(path);
    const client = new GatewayClient({ baseUrl: 'https://pay.example.com', ...MERCHANT });
    await expect(client.verifyNotification(underpaid(), { expect: expectation as never })).rejects.toBeInstanceOf(GatewayValidationError);
    const error = thrown(() => createNotificationProcessor({ ...options, onPaid: () => undefined }));
    expect(error.message).toMatch(/^Invalid createNotificationProcessor options/);
    expect(error.issues.map((i) => i.path)).toContainEqual(path);
  });

  it('settlement: verifySettlementNotification and an onSettlement processor refuse { amount: undefined } and {}', async () => {
    const body = formBody(signedFields({}, SETTLEMENT_FIELDS));
    for (const expectation of [{ amount: undefined }, {}]) {
      await expect(verifySettlementNotification(body, { ...MERCHANT, expect: expectation })).rejects.toBeInstanceOf(GatewayValidationError);
      thrown(() => createNotificationProcessor({ ...MERCHANT, expect: expectation, onSettlement: () => undefined }));
    }
  });

  it('{ state } alone, { amount, currency } and { mchOrderNo } remain valid expectations', async () => {
    const paid = formBody(freshFields({ mchOrderNo: 'order-1', amount: '10000', currency: 'USD', state: '2' }));
    await expect(verifyNotification(paid, { ...MERCHANT, expect: { state: PayOrderState.Succeeded } })).resolves.toMatchObject({ amount: 10_000 });
    await expect(verifyNotification(paid, { ...MERCHANT, expect: { amount: 10_000, currency: 'USD' } })).resolves.toMatchObject({ amount: 10_000 });
    await expect(verifyNotification(underpaid(), { ...MERCHANT, expect: { amount: 10_000, currency: 'USD' } })).rejects.toThrow(/amount: is 1000, but 10000 was expected/);
    const processor = createNotificationProcessor({ ...MERCHANT, expect: { mchOrderNo: 'order-1' }, onPaid: () => undefined });
    // Signed after the processor's memory store began: an event older than the store is refused as stale.
    const fresh = formBody(freshFields({ mchOrderNo: 'order-1', amount: '10000', currency: 'USD', state: '2' }));
    expect((await processor.handle(fresh)).outcome.kind).toBe('processed');
  });
});
