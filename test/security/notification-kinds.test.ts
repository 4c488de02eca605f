// Issue 30 and 31: one notify URL receives payments and refunds, and both use state 2 for their success. A refund
// must never run onPaid, a payment never a refund handler, and a message no handler takes is never acknowledged
// (SUCCESS would lose it) nor claimed. Every attack goes through the public processor.
import { describe, expect, it, vi } from 'vitest';
import * as sdk from '../../src/index.js';
import { createNotificationProcessor, GatewayClient, GatewaySignatureError, GatewayValidationError, memoryStore, type NotificationStore, type ProcessingContext } from '../../src/index.js';
import { notificationKinds, type NotificationKindName } from '../../src/notify/kinds.js';
import { FAILED_REFUND_FIELDS, formBody, freshFields, MERCHANT, PAY_FIELDS, REFUND_FIELDS, SETTLEMENT_FIELDS, signedFields, TRANSFER_FIELDS } from '../support/notification.js';
import { fieldsOf, form, readingsOf, signedText } from '../support/resplit.js';

const handlers = () => ({ onPaid: vi.fn(async () => {}), onRefunded: vi.fn(async () => {}), onRefundFailed: vi.fn(async () => {}), onSettlement: vi.fn(async () => {}), onTransferred: vi.fn(async () => {}), onTransferFailed: vi.fn(async () => {}) });
const calls = (spies: ReturnType<typeof handlers>) => Object.fromEntries(Object.entries(spies).map(([name, spy]) => [name, spy.mock.calls.length]));
const NONE = { onPaid: 0, onRefunded: 0, onRefundFailed: 0, onSettlement: 0, onTransferred: 0, onTransferFailed: 0 };

describe('a message of a kind or state the processor has no handler for', () => {
  it('a genuine refund to an onPaid-only processor: unhandled, FAIL (the gateway keeps it), nothing claimed', async () => {
    const store = memoryStore();
    const spies = handlers();
    const payments = createNotificationProcessor({ ...MERCHANT, store, onPaid: spies.onPaid });
    const refund = formBody(freshFields({}, REFUND_FIELDS));
    const reply = await payments.handle(refund);
    expect(reply).toMatchObject({ status: 400, body: 'FAIL: unhandled', outcome: { kind: 'unhandled', notification: { idempotencyKey: 'refund:R1623985459000001:2' } } });
    expect(reply.outcome.kind === 'unhandled' && reply.outcome.error.message).toMatch(/A genuine refund notification of state 2 arrived, but this processor has no handler for it \(onRefunded\)/);
    expect(calls(spies)).toEqual(NONE);
    // Not claimed: once the merchant adds onRefunded, the gateway's next attempt runs it.
    const both = createNotificationProcessor({ ...MERCHANT, store, onPaid: spies.onPaid, onRefunded: spies.onRefunded, leaveUnhandled: ['onRefundFailed'] });
    expect((await both.handle(refund)).outcome.kind).toBe('processed');
    expect(calls(spies)).toEqual({ ...NONE, onRefunded: 1 });
  });

  it('a genuine payment to an onRefunded-only processor: unhandled, onRefunded not run', async () => {
    const spies = handlers();
    const refunds = createNotificationProcessor({ ...MERCHANT, onRefunded: spies.onRefunded, onRefundFailed: spies.onRefundFailed });
    const reply = await refunds.handle(formBody(freshFields()));
    expect(reply).toMatchObject({ status: 400, body: 'FAIL: unhandled', outcome: { kind: 'unhandled' } });
    expect(reply.outcome.kind === 'unhandled' && reply.outcome.error.message).toMatch(/payment notification of state 2 .*\(onPaid\)/);
    expect(calls(spies)).toEqual(NONE);
  });

  it('a failed refund (state 3) to a processor that leaves onRefundFailed unhandled: unhandled, never onRefunded, nothing claimed', async () => {
    const store = memoryStore();
    const spies = handlers();
    const failed = formBody(freshFields({}, FAILED_REFUND_FIELDS));
    const reply = await createNotificationProcessor({ ...MERCHANT, store, onPaid: spies.onPaid, onRefunded: spies.onRefunded, leaveUnhandled: ['onRefundFailed'] }).handle(failed);
    expect(reply).toMatchObject({ status: 400, body: 'FAIL: unhandled', outcome: { kind: 'unhandled' } });
    expect(reply.outcome.kind === 'unhandled' && reply.outcome.error.message).toMatch(/of state 3 arrived, but this processor leaves it unhandled \(leaveUnhandled: onRefundFailed\), so nothing ran .* \(six attempts in all\)/);
    expect(calls(spies)).toEqual(NONE);
    expect((await createNotificationProcessor({ ...MERCHANT, store, onRefundFailed: spies.onRefundFailed, leaveUnhandled: ['onRefunded'] }).handle(failed)).outcome.kind).toBe('processed');
  });

  it('a settlement to a payment and refund processor: unhandled; a forged refund to an onPaid-only one: refused, not unhandled', async () => {
    const spies = handlers();
    const processor = createNotificationProcessor({ ...MERCHANT, onPaid: spies.onPaid, onRefunded: spies.onRefunded, onRefundFailed: spies.onRefundFailed });
    const settlement = { serverRequestId: 'SRV-1', requestId: 'settle-1', tokenId: 'TRON_USDT', currency: 'USD', amount: '150000', status: '1', address: 'TXYZ', mchNo: MERCHANT.mchNo, appId: MERCHANT.appId };
    expect((await processor.handle(formBody(freshFields({}, settlement)))).outcome.kind).toBe('unhandled');
    const forged = await createNotificationProcessor({ ...MERCHANT, onPaid: spies.onPaid }).handle(formBody(freshFields({}, REFUND_FIELDS, 'not-the-secret')));
    expect(forged).toMatchObject({ status: 400, body: 'FAIL: refused', outcome: { kind: 'refused' } });
    expect(calls(spies)).toEqual(NONE);
  });
});

// Issue 35, item 5: a kind handled in part would answer FAIL to the rest of its states on all six attempts, and
// the gateway then stops: refused when the processor is created, unless leaveUnhandled says it is meant.
describe('a kind whose handlers are given only in part', () => {
  const partial = Object.values(notificationKinds).flatMap((row) => {
    const options = Object.keys(row.handlers);
    return options.length < 2 ? [] : options.map((given) => [given, options.filter((other) => other !== given), row.label] as const);
  });

  it('is declared: refunds have two handlers', () => expect(partial.map(([given]) => given)).toEqual(expect.arrayContaining(['onRefunded', 'onRefundFailed'])));

  it.each(partial)('%s alone is refused at creation, naming %s and how to leave it unhandled', (given, missing) => {
    const spies = handlers();
    const error = (() => {
      try {
        return createNotificationProcessor({ ...MERCHANT, onPaid: spies.onPaid, [given]: spies[given as keyof typeof spies] } as never);
      } catch (e) {
        return e;
      }
    })() as GatewayValidationError;
    expect(error).toBeInstanceOf(GatewayValidationError);
    expect(error.issues.map((issue) => issue.path)).toEqual(missing.map((option) => [option]));
    for (const [i, option] of missing.entries()) {
      expect(error.issues[i]!.message).toMatch(new RegExp(`^is missing, but ${given} is given: .* on each of the gateway's six attempts, then never sent again\\. Give ${option}, or .* leaveUnhandled: \\['${option}'\\]$`));
    }
    // Declined in so many words, it is created; the declined states stay unhandled (FAIL, nothing claimed).
    expect(() => createNotificationProcessor({ ...MERCHANT, [given]: spies[given as keyof typeof spies], leaveUnhandled: missing } as never)).not.toThrow();
  });
});

describe('a message shaped as two kinds, or as none, is refused before any handler', () => {
  const processorWithAll = (store: NotificationStore<ProcessingContext> = memoryStore()) => {
    const spies = handlers();
    return { spies, processor: createNotificationProcessor({ ...MERCHANT, store, ...spies }) };
  };

  it.each([
    ['a payment carrying a refund id and number', freshFields({ refundOrderId: 'R1', mchRefundNo: 'refund-1001-1', refundAmount: '1999', payAmount: '1999' })],
    ['a payment carrying a refund id only', freshFields({ refundOrderId: 'R1' })],
    ['a refund carrying a payment order number', freshFields({ mchOrderNo: 'order-1001' }, REFUND_FIELDS)],
    ['a refund carrying a settlement id', freshFields({ serverRequestId: 'SRV-1' }, REFUND_FIELDS)],
    ['a message of no kind', freshFields({ payOrderId: undefined }, Object.fromEntries(Object.entries(PAY_FIELDS).filter(([name]) => name !== 'mchOrderNo')))],
  ])('%s, signed with the right key: 400 refused, no handler runs', async (_name, fields) => {
    const { processor, spies } = processorWithAll();
    const reply = await processor.handle(formBody(fields));
    expect(reply).toMatchObject({ status: 400, body: 'FAIL: refused', outcome: { kind: 'refused' } });
    expect(calls(spies)).toEqual(NONE);
  });

  it('no reading of a genuine refund or payment whose free text holds the other kind\'s fields runs the other kind\'s handler', async () => {
    const hostile = '&mchOrderNo=order-1&amount=500&wayCode=WX_NATIVE&refundOrderId=R9&mchRefundNo=x&refundAmount=1&payAmount=1';
    const refund = signedFields({ errMsg: `declined${hostile}`, extParam: `note${hostile}` }, FAILED_REFUND_FIELDS);
    const payment = signedFields({ state: '2', body: `Size=M${hostile}`, subject: `Gift${hostile}`, extParam: `x${hostile}` });
    for (const [genuine, own] of [[refund, 'onRefundFailed'], [payment, 'onPaid']] as const) {
      const readings = readingsOf(signedText(fieldsOf(genuine)), 400, 31);
      expect(readings.length).toBeGreaterThan(20);
      const { processor, spies } = processorWithAll(memoryStore({ since: 0 }));
      expect((await processor.handle(formBody(genuine))).outcome.kind).toBe('processed');
      for (const reading of readings) expect((await processor.handle(form(reading, genuine.sign!))).body).toMatch(/^SUCCESS$|^FAIL: refused$/);
      // Every reading is the same event of the message's own kind: run once, by its own handler.
      expect(calls(spies)).toEqual({ ...NONE, [own]: 1 });
    }
  });
});

describe('refund notifications through a processor with every handler', () => {
  const EXPECTED_REFUND = { mchRefundNo: 'refund-1001-1', refundAmount: 500, currency: 'USD' };
  const setup = () => {
    const spies = handlers();
    return { spies, processor: createNotificationProcessor({ ...MERCHANT, expectRefund: EXPECTED_REFUND, ...spies }) };
  };

  it.each([
    ['for another merchant', () => freshFields({ mchNo: 'M-OTHER' }, REFUND_FIELDS)],
    ['for another application', () => freshFields({ appId: 'app-other' }, REFUND_FIELDS)],
    ['forged (a wrong key)', () => freshFields({}, REFUND_FIELDS, 'not-the-secret')],
    ['altered after signing (a larger refund)', () => ({ ...freshFields({}, REFUND_FIELDS), refundAmount: '5000' })],
    ['a state the gateway never notifies (1, refunding)', () => freshFields({ state: '1' }, REFUND_FIELDS)],
    ['not what expectRefund says (another amount)', () => freshFields({ refundAmount: '400' }, REFUND_FIELDS)],
    ['not what expectRefund says (another refund number)', () => freshFields({ mchRefundNo: 'refund-other' }, REFUND_FIELDS)],
  ])('a refund %s: 400 refused, no handler runs', async (_name, fields) => {
    const { processor, spies } = setup();
    expect(await processor.handle(formBody(fields()))).toMatchObject({ status: 400, body: 'FAIL: refused', outcome: { kind: 'refused' } });
    expect(calls(spies)).toEqual(NONE);
  });

  it('a replay after done, and the same event re-signed with a new reqTime: SUCCESS without a second run', async () => {
    const { processor, spies } = setup();
    const genuine = freshFields({}, REFUND_FIELDS);
    expect((await processor.handle(formBody(genuine))).outcome.kind).toBe('processed');
    expect((await processor.handle(formBody(genuine))).outcome.kind).toBe('duplicate');
    const resent = signedFields({ ...genuine, sign: undefined, reqTime: String(Date.now() + 60_000) }, REFUND_FIELDS);
    expect(await processor.handle(formBody(resent))).toMatchObject({ body: 'SUCCESS', outcome: { kind: 'duplicate' } });
    expect(calls(spies)).toEqual({ ...NONE, onRefunded: 1 });
  });

  it("a refund's key can be no payment's: a payment whose payOrderId is the refund's id runs onPaid too", async () => {
    const { processor, spies } = setup();
    expect((await processor.handle(formBody(freshFields({}, REFUND_FIELDS)))).outcome.kind).toBe('processed');
    expect((await processor.handle(formBody(freshFields({ payOrderId: 'R1623985459000001' })))).outcome.kind).toBe('processed');
    expect(calls(spies)).toEqual({ ...NONE, onRefunded: 1, onPaid: 1 });
  });
});

// Issue 35, item 4: a plain verifier reads a message as the processor does. A signed refund carrying a payment's
// fields was verifyNotification's paid order (expect and all) while the processor refused the same bytes.
describe('every plain verifier refuses a message shaped as another kind, as the processor does', () => {
  const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT });
  const ROWS = Object.values(notificationKinds);
  // A genuine message of each kind: a kind declared later asks for its own here (the record is keyed by kind).
  const GENUINE: Readonly<Record<NotificationKindName, Readonly<Record<string, string>>>> = { payment: PAY_FIELDS, refund: REFUND_FIELDS, transfer: TRANSFER_FIELDS, settlement: SETTLEMENT_FIELDS };
  type Verify = (input: unknown, options?: object) => Promise<unknown>;
  /** Every verifier a merchant can call, plain and the client's, by the kind it verifies. */
  const verifiers = ROWS.flatMap((row) => [
    { row, name: row.verifier, verify: (input: unknown) => (sdk[row.verifier as keyof typeof sdk] as Verify)(input, MERCHANT) },
    { row, name: `client.${row.verifier}`, verify: (input: unknown) => (client[row.verifier as keyof GatewayClient] as Verify).call(client, input) },
  ]);
  const refusal = async (verify: (input: unknown) => Promise<unknown>, fields: Readonly<Record<string, string>>) => verify(formBody(fields)).then(() => undefined, (error: unknown) => error);

  it('each kind names a verifier the package exports and the client has', () => {
    for (const row of ROWS) {
      expect(typeof sdk[row.verifier as keyof typeof sdk], row.verifier).toBe('function');
      expect(typeof client[row.verifier as keyof GatewayClient], `client.${row.verifier}`).toBe('function');
    }
  });

  it('a signed refund (state 2) carrying mchOrderNo, amount, wayCode and ifCode is no paid order: every verifier refuses it, expect or not', async () => {
    const refund = signedFields({ mchOrderNo: 'order-1001', amount: '1999', wayCode: 'WX_NATIVE', ifCode: 'wxpay' }, REFUND_FIELDS);
    const expected = { mchOrderNo: 'order-1001', amount: 1999, currency: 'USD' };
    for (const attempt of [sdk.verifyNotification(formBody(refund), { ...MERCHANT, expect: expected }), client.verifyNotification(formBody(refund), { expect: expected }), ...verifiers.map(({ verify }) => verify(formBody(refund)))]) {
      const error = await attempt.then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayValidationError);
      expect((error as Error).message).toMatch(/^The message is shaped as a payment notification and as a refund notification, so it was not processed as either: .*The gateway sends no message of two kinds \(a payment notification is taken by verifyNotification or a processor's onPaid; a refund notification is taken by verifyRefundNotification or a processor's onRefunded and onRefundFailed\): do not act on this message$/);
    }
    const processed = await createNotificationProcessor({ ...MERCHANT, ...handlers() }).handle(formBody(refund));
    expect(processed.outcome.kind).toBe('refused');
  });

  it('a signed payment carrying a refund id and number is no refund: verifyRefundNotification and client.verifyRefundNotification refuse it, expect or not', async () => {
    const payment = signedFields({ refundOrderId: 'R1', mchRefundNo: 'refund-1001-1', refundAmount: '1999', payAmount: '1999' });
    const expected = { mchRefundNo: 'refund-1001-1', refundAmount: 1999, currency: 'USD' };
    for (const attempt of [sdk.verifyRefundNotification(formBody(payment), { ...MERCHANT, expect: expected }), client.verifyRefundNotification(formBody(payment), { expect: expected })]) {
      await expect(attempt).rejects.toThrow(/^The message is shaped as a payment notification and as a refund notification, so it was not processed as either/);
    }
    // A refund number alone, or a settlement's id on a payment: still another kind's field.
    const carrying = signedFields({ refundOrderId: 'R1' });
    await expect(sdk.verifyNotification(formBody(carrying), MERCHANT)).rejects.toThrow(/refundOrderId: is not a field of a payment notification but of a refund notification \(verifyRefundNotification or a processor's onRefunded and onRefundFailed\)/);
  });

  it.each(ROWS.flatMap((kind) => ROWS.filter((other) => other !== kind).flatMap((other) => other.identifiedBy.filter((field) => !Object.hasOwn(kind.schema.def.shape, field)).map((field) => [kind.name, field, other.name] as const))))(
    'a genuine %s carrying %s (a %s field its schema does not declare) is refused by every verifier, and by the processor',
    async (kind, field, other) => {
      const fields = signedFields({ ...GENUINE[kind], [field]: GENUINE[other][field] ?? 'x' }, {});
      for (const { name, verify } of verifiers) {
        const error = await refusal(verify, fields);
        expect(error, name).toBeInstanceOf(GatewayValidationError);
        expect(error, name).not.toBeInstanceOf(GatewaySignatureError);
        expect((error as Error).message, name).toMatch(/^The message is shaped as/);
      }
      expect((await createNotificationProcessor({ ...MERCHANT, ...handlers() }).handle(formBody(fields))).outcome.kind).toBe('refused');
    },
  );

  it.each(ROWS.map((row) => [row.name, row] as const))('a genuine %s is taken by its own verifiers only; the others name them', async (_name, kind) => {
    const fields = signedFields({}, GENUINE[kind.name]);
    for (const { row, name, verify } of verifiers) {
      const error = await refusal(verify, fields);
      if (row === kind) expect(error, name).toBeUndefined();
      else expect((error as Error).message, name).toMatch(new RegExp(`^The message is shaped as a ${kind.label}, not a ${row.label}, so ${row.verifier} refused it: .*take it with ${kind.verifier} or a processor's ${Object.keys(kind.handlers).join(' and ')}, never as a ${row.label}$`));
    }
  });
});
