// A record kind of the mock is a declaration: the generic desk runs it (create with its refusals in the declared order,
// modes, settle, expiry, notified states), and its control routes, CLI verbs, list line and dashboard table exist
// because it is declared. The scratch kind below is declared here and nowhere in src/: operations are a closed
// table, so it borrows refunds' rows (refundOrder, refundQuery), and its answers carry those rows' fields.
import { describe, expect, it, vi } from 'vitest';
import { kindUsage, verbsOf } from '../../src/cli/kind-verbs.js';
import { recordLine } from '../../src/cli/mock-list.js';
import { GatewayValidationError } from '../../src/errors/index.js';
import { definitionOf } from '../../src/operations/table.js';
import { SimulatedClock } from '../../src/testing/domain/clock.js';
import type { GatewayControls } from '../../src/testing/domain/controls.js';
import { MOCK_KINDS } from '../../src/testing/domain/kinds.js';
import { Notifier } from '../../src/testing/domain/notifier.js';
import { fieldsOf, RecordDesk } from '../../src/testing/domain/record-desk.js';
import * as z from 'zod/mini';
import { createDesks } from '../../src/testing/domain/kinds.js';
import { declaredBy, defineMockRecordKind, type MockParts, type MockRecord, type MockRecordReader } from '../../src/testing/domain/record-kind.js';
import { Refusal } from '../../src/testing/domain/refusals.js';
import { kindRoutes } from '../../src/testing/http/control-routes.js';
import { kindSection, recordButtons } from '../../src/testing/pages/dashboard-page.js';
import { MERCHANT, START } from '../support/raw-gateway.js';

const PayoutState = { Pending: 0, Sending: 1, Paid: 2, Rejected: 3, Expired: 4 } as const;

interface Payout extends MockRecord {
  refundOrderId: string;
  mchRefundNo: string;
  refundAmount: number;
  currency: string;
  note: string;
  successTime?: number;
}

const payoutKind = defineMockRecordKind<Payout, { readonly blocked: Set<string> }>()({
  name: 'payout',
  plural: 'payouts',
  label: 'Payout',
  operations: { create: 'refundOrder', query: 'refundQuery' },
  states: { names: PayoutState, open: [PayoutState.Pending, PayoutState.Sending], notified: [PayoutState.Paid, PayoutState.Expired], held: PayoutState.Sending },
  id: 'refundOrderId',
  key: 'mchRefundNo',
  notFound: 'no such payout',
  refusals: [
    (call) => (Number(call.request.params.refundAmount) > 1000 ? 'too much' : undefined),
    (call) => (call.world.blocked.has(String(call.request.params.mchRefundNo)) ? 'blocked' : undefined),
    (call) => (call.records.some((r) => r.mchRefundNo === call.request.params.mchRefundNo) ? 'duplicate' : undefined),
  ],
  create: ({ request: { app, params }, now }, sequence, interrupted) => ({
    refundOrderId: `P${sequence}`, mchRefundNo: String(params.mchRefundNo), mchNo: app.mchNo, appId: app.appId, refundAmount: Number(params.refundAmount),
    currency: 'USD', note: String(params.note ?? ''), notifyUrl: 'http://127.0.0.1:9/payout', createdAt: now,
    state: interrupted === 'created' ? PayoutState.Pending : PayoutState.Sending,
  }),
  modes: { approve: 'approve', wait: undefined, reject: 'reject' },
  decisions: {
    approve: { to: PayoutState.Paid, stamp: 'successTime', button: 'primary', past: 'paid', does: 'a held payout is paid (state 2)' },
    reject: { to: PayoutState.Rejected, failure: { errCode: 'NO', errMsg: 'rejected (mock)' }, button: 'danger', past: 'rejected', does: 'a held payout is rejected (state 3)' },
  },
  expiry: { afterMs: 60_000, to: PayoutState.Expired },
  world: () => ({ blocked: new Set<string>() }),
  controls: [],
  columns: [
    { title: 'mchRefundNo', field: 'mchRefundNo', as: 'code' },
    { title: 'Amount', field: 'refundAmount', as: 'amount', currency: 'currency' },
    { title: 'Note', field: 'note', as: 'text', cell: 'note' },
    { title: 'State', field: 'state', as: 'state' },
  ],
  modeDoes: "how the coming payouts go: 'approve' (the default), 'wait' or 'reject'",
  settleDoes: "decides a held payout: 'approve' (2) or 'reject' (3)",
});

/** The parts of a desk that reads no other kind's. */
const noOtherDesks = (clock: SimulatedClock): MockParts => ({
  clock,
  // Stands in for the notifier's signing: the record's state and key, and a mark.
  signed: (kind, record) => ({ state: String((record as unknown as MockRecord).state), key: String((record as unknown as Record<string, unknown>)[kind.key]), sign: 'SIGNED' }),
  desk: (name) => {
    throw new Error(`no desk ${name}`);
  },
});

function newDesk() {
  const clock = new SimulatedClock(START);
  const notified: Payout[] = [];
  const desk = new RecordDesk(payoutKind, noOtherDesks(clock), (record) => notified.push({ ...record }));
  const create = (mchRefundNo: string, refundAmount = 100, interrupted?: 'created') =>
    desk.create({ app: { ...MERCHANT }, params: { mchRefundNo, refundAmount, note: 'n' }, blank: new Set() }, interrupted);
  return { clock, desk, notified, create };
}

const refusalOf = (run: () => unknown): string | undefined => {
  try {
    run();
  } catch (error) {
    if (error instanceof Refusal) return error.msg;
    throw error;
  }
  return undefined;
};

describe('the generic desk runs a kind declared in a test', () => {
  it('refuses in the declared order, stores nothing refused, then answers the fields of the declared create result', () => {
    const { desk, create } = newDesk();
    desk.world.blocked.add('p-1');
    expect(refusalOf(() => create('p-1', 5000))).toBe('too much'); // both apply: the first declared wins
    expect(refusalOf(() => create('p-1'))).toBe('blocked');
    expect(desk.list()).toEqual([]);
    const answer = create('p-2');
    expect(Object.keys(answer)).toEqual(fieldsOf('refundOrder'));
    expect(answer).toMatchObject({ mchRefundNo: 'p-2', state: PayoutState.Paid }); // the first mode (approve) is the default
    expect(refusalOf(() => create('p-2'))).toBe('duplicate');
  });

  it('modes: of all, of one record by its key (which wins), checked', () => {
    const { desk, create, notified } = newDesk();
    desk.setMode('wait');
    desk.setMode('reject', { mchRefundNo: 'p-2' });
    expect(create('p-1').state).toBe(PayoutState.Sending);
    expect(create('p-2')).toMatchObject({ state: PayoutState.Rejected, errCode: 'NO', errMsg: 'rejected (mock)' });
    expect(notified.map((p) => p.mchRefundNo)).toEqual([]); // Rejected is not a notified state
    expect(() => desk.setMode('later' as never)).toThrow(GatewayValidationError);
    expect(() => desk.setMode('later' as never)).toThrow(/Invalid setPayoutMode options[\s\S]*must be 'approve', 'wait' or 'reject'/);
    expect(() => desk.setMode('wait', { mchPayoutNo: 'x' })).toThrow(GatewayValidationError);
  });

  it('settle: an open record takes the decision (its stamp, its failure texts), a final one is refused, notified states are notified', () => {
    const { clock, desk, create, notified } = newDesk();
    desk.setMode('wait');
    create('p-1');
    create('p-2');
    clock.advance(1_000);
    expect(desk.settle('p-1', { to: 'approve' })).toMatchObject({ state: PayoutState.Paid, successTime: START + 1_000 });
    expect(desk.settle('p-2', { to: 'reject', errCode: 'LIMIT' })).toMatchObject({ state: PayoutState.Rejected, errCode: 'LIMIT', errMsg: 'rejected (mock)' });
    expect(notified.map((p) => [p.mchRefundNo, p.state])).toEqual([['p-1', PayoutState.Paid]]);
    expect(() => desk.settle('p-1', { to: 'reject' })).toThrow('settlePayout: payout P');
    expect(() => desk.settle('p-1', { to: 'reject' })).toThrow(/is Paid \(state 2\); only payouts in state 0 or 1 can change/);
    expect(() => desk.settle('p-9', { to: 'approve' })).toThrow('settlePayout: no payout with refundOrderId or mchRefundNo "p-9"');
    expect(() => desk.settle('p-1', { to: 'close' as never })).toThrow(GatewayValidationError);
  });

  it('expiry on the simulated clock: open records past it move to its state, notified when that state is', () => {
    const { clock, desk, create, notified } = newDesk();
    desk.setMode('wait');
    create('p-1', 100, 'created');
    clock.advance(59_999);
    expect(desk.snapshot('p-1')?.state).toBe(PayoutState.Pending);
    clock.advance(1);
    expect(desk.snapshot('p-1')?.state).toBe(PayoutState.Expired);
    expect(notified.map((p) => [p.mchRefundNo, p.state])).toEqual([['p-1', PayoutState.Expired]]);
  });

  it('the query finds the merchant record by id or key and answers the fields of the declared query result', () => {
    const { desk, create } = newDesk();
    const { refundOrderId } = create('p-1');
    const app = { ...MERCHANT };
    expect(desk.find(app, { refundOrderId: String(refundOrderId) }).mchRefundNo).toBe('p-1');
    expect(Object.keys(desk.queryData(desk.find(app, { mchRefundNo: 'p-1' })))).toEqual(fieldsOf('refundQuery'));
    expect(refusalOf(() => desk.find({ ...app, mchNo: 'M-OTHER' }, { mchRefundNo: 'p-1' }))).toBe('no such payout');
  });

  it("its notification carries the fields of the query's declared result (read from the schema), signed", async () => {
    const { clock, desk, create } = newDesk();
    create('p-1');
    const notifier = new Notifier({ clock, secretOf: () => MERCHANT.secret, fetch: () => fetch, timeoutMs: 1_000, routing: {}, onAttempt: () => {} });
    notifier.enqueueRecord(payoutKind as never, desk.list()[0]!);
    const [notification] = notifier.notifications;
    const declared = Object.keys((definitionOf('refundQuery').result as unknown as { def: { shape: object } }).def.shape);
    const present = declared.filter((name) => (desk.list()[0] as unknown as Record<string, unknown>)[name] !== undefined);
    expect(Object.keys(notification!.fields).sort()).toEqual([...present, 'reqTime', 'sign'].sort());
    expect(notification).toMatchObject({ kind: 'payout', refundOrderId: desk.list()[0]!.refundOrderId, mchRefundNo: 'p-1' });
  });
});

describe("a declared kind's routes, CLI verbs, list line and dashboard table exist because it is declared", () => {
  it('control routes: its mode and its settle, calling the generic controls with its name', async () => {
    const routes = kindRoutes(payoutKind);
    expect(routes.map((r) => [r.method, r.path, r.body, r.calls])).toEqual([
      ['POST', '/_mock/payouts/mode', '{ mode, mchRefundNo? }', 'setPayoutMode(mode, target)'],
      ['POST', '/_mock/payouts/{refundOrderId}/settle', '{ to, errCode?, errMsg? }', 'settlePayout(ref, decision)'],
    ]);
    const controls = { setMode: vi.fn(), settle: vi.fn(() => ({ state: 2 })) } as unknown as GatewayControls;
    expect(routes[0]!.run(controls, '', { mode: 'wait', mchRefundNo: 'p-1' } as never)).toEqual({ mode: 'wait', mchRefundNo: 'p-1' });
    expect(controls.setMode).toHaveBeenCalledWith('payout', 'wait', { mchRefundNo: 'p-1' });
    routes[1]!.run(controls, 'p-1', { to: 'approve' } as never);
    expect(controls.settle).toHaveBeenCalledWith('payout', 'p-1', { to: 'approve' });
    expect(routes[0]!.bodySchema?.safeParse({ mode: 'later' }).success).toBe(false);
  });

  it('CLI verbs: one per decision and the mode, with their options, targets and lines', () => {
    const verbs = verbsOf(payoutKind);
    expect(verbs.map(([verb, spec]) => [verb, spec.options ?? []])).toEqual([['payout-approve', []], ['payout-reject', ['err-code', 'err-msg']], ['payout-mode', ['payout']]]);
    const [approve, reject, mode] = verbs.map(([, spec]) => spec);
    expect(approve!.route('p-1')).toBe('payouts/p-1/settle');
    expect(reject!.body?.('p-1', { 'err-code': 'LIMIT' })).toEqual({ to: 'reject', errCode: 'LIMIT' });
    expect(mode!.choices).toEqual(['wait', 'approve', 'reject']);
    expect(mode!.print({ mode: 'wait' })).toBe('payout mode wait: coming payouts wait in state 1 (Sending) until mock payout-approve|payout-reject PAYOUT');
    expect(mode!.print({ mode: 'reject', mchRefundNo: 'p-1' })).toBe('payout mode reject for payout p-1: it is rejected (state 3) at once');
    expect(reject!.print({ refundOrderId: 'P1', mchRefundNo: 'p-1', state: 3, errCode: 'LIMIT', errMsg: 'x' })).toBe('refundOrderId P1  mchRefundNo p-1  state 3 (Rejected)  errCode LIMIT  errMsg x; no notification');
    expect(recordLine(payoutKind, { refundOrderId: 'P1', mchRefundNo: 'p-1', refundAmount: 500, currency: 'USD', state: 2, note: 'hi' })).toBe('P1  mchRefundNo p-1  amount 500 USD  state 2 (Paid)  note "hi"');
  });

  it('dashboard: its table of declared columns, a row per record, a button per decision while open', () => {
    const page = kindSection('/base', payoutKind, [
      { refundOrderId: 'P2', mchRefundNo: 'p-2', refundAmount: 250, currency: 'USD', note: '<b>x</b>', state: PayoutState.Paid },
      { refundOrderId: 'P1', mchRefundNo: 'p-1', refundAmount: 100, currency: 'USD', note: 'n', state: PayoutState.Sending },
    ]).text;
    expect(page).toContain('<h2>Payouts <span class="muted">(2)</span></h2>');
    expect(page).toContain('<table id="payouts"><tr><th>mchRefundNo</th><th>Amount</th><th>Note</th><th>State</th><th></th></tr>');
    expect(page).toContain('<tr data-payout="P2"><td><code>p-2</code></td><td>2.50 USD</td><td class="note">&#60;b&#62;x&#60;/b&#62;</td><td><span class="badge ok">2 Paid</span></td><td></td></tr>');
    expect(page).toContain('data-post="/base/_mock/payouts/P1/settle" data-body="{&#34;to&#34;:&#34;approve&#34;}">Approve</button>');
    expect(page).toContain('>Reject</button>');
  });

  it("each declared kind's key is its create row's key, and its id and key are fields of its query's result", () => {
    for (const kind of MOCK_KINDS) {
      expect(kind.key).toBe(definitionOf(kind.operations.create).key);
      expect(fieldsOf(kind.operations.query)).toEqual(expect.arrayContaining([kind.id, kind.key]));
    }
  });

  it('the declared kinds of the mock are exactly those its usage lists', () => {
    const lines = kindUsage(false);
    const verbs = MOCK_KINDS.flatMap((kind) => verbsOf(kind).map(([verb]) => verb));
    // Every verb of every declared kind is in a line, and every line is of a declared kind's verbs.
    expect(verbs.filter((verb) => !lines.some((line) => new RegExp(`^payment-gateway-sdk mock ([\\w-]+\\|)*${verb}[| ]`).test(line)))).toEqual([]);
    expect(lines.filter((line) => !verbs.some((verb) => line.includes(` ${verb}`)))).toEqual([]);
    expect(lines).toContain('payment-gateway-sdk mock pay|fail|expire ORDER [--url URL]');
  });
});

// A second scratch kind, decided by its world rather than a mode, with everything a payment needs of the desk:
// answers apart from its fields, its own notified fields, an expiry per record, decisions under names of their
// own, controls on one record, a third operation, a query refused with neither id, a noun and plural of its own,
// and a world that reads a desk built before it (the payouts').
const VoucherState = { Created: 0, Waiting: 1, Redeemed: 2, Void: 3, Lapsed: 4 } as const;

interface Voucher extends MockRecord {
  refundOrderId: string;
  mchRefundNo: string;
  refundAmount: number;
  currency: string;
  validUntil: number;
  fee: number;
  payout?: string | undefined;
  successTime?: number;
}

interface VoucherWorld {
  readonly payouts: ReturnType<MockParts['desk']>;
  readonly voids: string[];
  readonly effects: string[];
}

const voucherNotification = {
  name: 'voucher',
  schema: { def: { shape: { refundOrderId: 1, mchRefundNo: 1, state: 1, refundAmount: 1, payout: 1, reqTime: 1 } } },
  tracking: { read: 'refundQuery', by: ['refundOrderId', 'mchRefundNo'], states: VoucherState, open: [VoucherState.Created, VoucherState.Waiting] },
  defaultExpect: { state: VoucherState.Redeemed },
} as const;

const voucherKind = defineMockRecordKind<Voucher, VoucherWorld>()({
  ...declaredBy(voucherNotification, { create: 'refundOrder', held: VoucherState.Waiting, plural: 'coupons', noun: 'coupon' }),
  label: 'Coupon',
  notFound: 'no such coupon',
  missingRefs: 'give refundOrderId or mchRefundNo',
  refusals: [],
  create: ({ request: { app, params }, now, origin }, sequence, interrupted) => ({
    refundOrderId: `V${sequence}`, mchRefundNo: String(params.mchRefundNo), mchNo: app.mchNo, appId: app.appId, refundAmount: Number(params.refundAmount), currency: 'USD',
    state: interrupted === 'created' ? VoucherState.Created : VoucherState.Waiting, createdAt: now, notifyUrl: `${origin}/voucher`,
    validUntil: now + Number(params.validMs ?? 60_000), fee: 0,
  }),
  // The world decides: a voided key fails at once, a small amount is redeemed at once, the rest wait.
  decide: (record, { world }) =>
    world.voids.includes(record.mchRefundNo) ? { to: 'void', errCode: 'VOIDED' } : record.refundAmount < 10 ? { to: 'redeem' } : undefined,
  modes: {},
  decisions: {
    redeem: { to: VoucherState.Redeemed, stamp: 'successTime', button: 'primary', past: 'redeemed', does: 'the coupon is redeemed (state 2); it is notified' },
    void: { to: VoucherState.Void, failure: { errCode: 'VOID', errMsg: 'void (mock)' }, button: 'danger', past: 'void', does: 'the coupon is void (state 3)' },
  },
  aliases: [
    { name: 'redeemCoupon', decision: 'redeem', path: 'redeem', does: 'redeems the coupon', verb: 'redeem' },
    {
      name: 'voidCoupon', decision: 'void', path: 'void', argument: 'failure', body: '{ errCode? }', does: 'voids the coupon', verb: 'void',
      bodySchema: z.optional(z.strictObject({ errCode: z.optional(z.string()) })),
      texts: (failure: { readonly errCode?: string | undefined } | undefined) => ({ errCode: failure?.errCode }),
    },
  ],
  recordControls: [
    {
      name: 'setCouponFee', path: 'fee', argument: 'fee', bodySchema: z.number({ error: 'must be a number' }), does: 'the fee on the coupon', route: { member: 'fee' },
      verb: { name: 'coupon-fee', help: 'the fee on the coupon (--fee N)', summary: 'sets the fee', option: { name: 'fee', value: 'N', help: 'the fee' }, said: (a: Readonly<Record<string, unknown>>) => `  fee ${String(a.fee)}` },
      run: (voucher: Voucher, fee: number) => {
        voucher.fee = fee;
        return voucher;
      },
    },
    {
      name: 'lapseCoupon', path: 'lapse', open: true, does: 'the coupon lapses now', route: {}, verb: { name: 'lapse', help: 'the coupon lapses now', summary: 'lapses a coupon' },
      run: (voucher: Voucher, _none: undefined, { now }: { readonly now: number }) => {
        voucher.validUntil = now;
        return voucher;
      },
    },
    { name: 'couponPayoutKey', path: 'payout', does: 'the payout the coupon names', run: (voucher: Voucher) => voucher.payout },
    {
      name: 'couponLink', path: 'link', does: "a link carrying the coupon's signed fields",
      run: (_voucher: Voucher, _none: undefined, { signed }: { readonly signed: () => Record<string, string> }) => `https://shop.test/back?${new URLSearchParams(signed()).toString()}`,
    },
  ],
  actions: {
    close: (voucher, { payerFirst }) => {
      if (!payerFirst) voucher.state = VoucherState.Void;
      return { closed: !payerFirst };
    },
  },
  answers: {
    create: (voucher) => ({ refundOrderId: voucher.refundOrderId, couponState: voucher.state }),
    query: (voucher) => ({ refundOrderId: voucher.refundOrderId, state: voucher.state, fee: String(voucher.fee) }),
  },
  notifiedFields: ['refundOrderId', 'mchRefundNo', 'state', 'fee'],
  expiry: { at: (voucher) => voucher.validUntil, to: VoucherState.Lapsed },
  world: (parts) => ({ payouts: parts.desk('payout'), voids: [], effects: [] }),
  effect: (voucher, world) => {
    // A redeemed coupon names the payout of its key, read from the payouts' desk.
    if (voucher.state === VoucherState.Redeemed) voucher.payout = (world.payouts.lookup(voucher.mchRefundNo) as Payout | undefined)?.refundOrderId;
    world.effects.push(`${voucher.mchRefundNo}:${voucher.state}`);
  },
  columns: [{ title: 'State', field: 'state', as: 'state' }],
  modeDoes: '',
  settleDoes: "decides a coupon: 'redeem' (2) or 'void' (3)",
});

function newVoucherDesk() {
  const { clock, desk: payouts, create: createPayout } = newDesk();
  const notified: Voucher[] = [];
  const parts: MockParts = { ...noOtherDesks(clock), desk: <R,>(name: string) => (name === 'payout' ? payouts : noOtherDesks(clock).desk(name)) as unknown as MockRecordReader<R> };
  const desk = new RecordDesk(voucherKind, parts, (record) => notified.push({ ...record }));
  const create = (mchRefundNo: string, refundAmount = 100, interrupted?: 'created', validMs?: number) =>
    desk.create({ app: { ...MERCHANT }, params: { mchRefundNo, refundAmount, ...(validMs === undefined ? {} : { validMs }) }, blank: new Set() }, interrupted, 'http://gw.test');
  return { clock, desk, payouts, createPayout, notified, create };
}

describe('the generic desk runs a kind decided by its world, as payments are', () => {
  it('declaredBy: a plural and a noun of its own where the tracking reports in no field', () => {
    expect([voucherKind.name, voucherKind.plural, voucherKind.noun]).toEqual(['voucher', 'coupons', 'coupon']);
    expect(() => declaredBy(voucherNotification, { create: 'refundOrder', held: 1 })).toThrow('the voucher kind names no plural');
  });

  it('a create decided by the world: its decision with texts, or as create made it; none when interrupted; no modes to set', () => {
    const { desk, create } = newVoucherDesk();
    desk.world.voids.push('c-void', 'c-cut');
    expect(create('c-void')).toEqual({ refundOrderId: expect.stringMatching(/^V/), couponState: VoucherState.Void });
    expect(desk.snapshot('c-void')).toMatchObject({ errCode: 'VOIDED', errMsg: 'void (mock)' });
    expect(create('c-small', 5).couponState).toBe(VoucherState.Redeemed);
    expect(create('c-big', 500).couponState).toBe(VoucherState.Waiting);
    expect(create('c-cut', 5, 'created').couponState).toBe(VoucherState.Created);
    expect(() => desk.setMode('any' as never)).toThrow('coupons have no modes');
  });

  it("answers of its own for create and query, the query refused with neither id, and its own notified fields", async () => {
    const { desk, create, notified, clock } = newVoucherDesk();
    create('c-1', 5);
    const app = { ...MERCHANT };
    expect(desk.queryData(desk.find(app, { mchRefundNo: 'c-1' }))).toEqual({ refundOrderId: expect.any(String), state: VoucherState.Redeemed, fee: '0' });
    expect(refusalOf(() => desk.find(app, {}))).toBe('give refundOrderId or mchRefundNo');
    expect(refusalOf(() => desk.find(app, { mchRefundNo: 'c-9' }))).toBe('no such coupon');
    const notifier = new Notifier({ clock, secretOf: () => MERCHANT.secret, fetch: () => fetch, timeoutMs: 1_000, routing: {}, onAttempt: () => {} });
    notifier.enqueueRecord(voucherKind as never, notified[0]!);
    expect(Object.keys(notifier.notifications[0]!.fields)).toEqual(['refundOrderId', 'mchRefundNo', 'state', 'fee', 'reqTime', 'sign']);
  });

  it('an expiry per record: each open record at its own time', () => {
    const { clock, desk, create } = newVoucherDesk();
    create('c-short', 100, undefined, 1_000);
    create('c-long', 100, undefined, 5_000);
    clock.advance(1_000);
    expect(desk.list().map((v) => v.state)).toEqual([VoucherState.Lapsed, VoucherState.Waiting]);
    clock.advance(4_000);
    expect(desk.snapshot('c-long')?.state).toBe(VoucherState.Lapsed);
  });

  it('decisions under their aliases: texts from the argument, checked; messages name the noun; effects run', () => {
    const { desk, create, createPayout } = newVoucherDesk();
    createPayout('c-1');
    create('c-1');
    create('c-2');
    expect(desk.alias('redeemCoupon', 'c-1')).toMatchObject({ state: VoucherState.Redeemed, payout: expect.stringMatching(/^P/) });
    expect(desk.alias('voidCoupon', 'c-2', { errCode: 'MINE' })).toMatchObject({ state: VoucherState.Void, errCode: 'MINE', errMsg: 'void (mock)' });
    expect(desk.world.effects).toEqual(['c-1:2', 'c-2:3']);
    expect(() => desk.alias('redeemCoupon', 'c-1')).toThrow(/^redeemCoupon: coupon V\d+ is Redeemed \(state 2\); only coupons in state 0 or 1 can change$/);
    expect(() => desk.alias('redeemCoupon', 'c-9')).toThrow('redeemCoupon: no coupon with refundOrderId or mchRefundNo "c-9"');
    expect(() => desk.alias('voidCoupon', 'c-2', { errCode: 7 })).toThrow(/Invalid voidCoupon failure/);
  });

  it('controls on one record: the argument checked, a copy answered (or what it answers), open ones only when so declared, expiry after', () => {
    const { desk, create } = newVoucherDesk();
    create('c-1');
    const copy = desk.recordControl('setCouponFee', 'c-1', 30) as Voucher;
    copy.fee = 99;
    expect(desk.snapshot('c-1')?.fee).toBe(30);
    expect(() => desk.recordControl('setCouponFee', 'c-1', '30')).toThrow(GatewayValidationError);
    expect(desk.recordControl('lapseCoupon', 'c-1')).toMatchObject({ state: VoucherState.Lapsed });
    expect(() => desk.recordControl('lapseCoupon', 'c-1')).toThrow(/^lapseCoupon: coupon V\d+ is Lapsed \(state 4\); only coupons in state 0 or 1 can change$/);
    expect(desk.recordControl('setCouponFee', 'c-1', 5)).toMatchObject({ fee: 5 }); // not an open-only control
    expect(desk.recordControl('couponPayoutKey', 'c-1')).toBeUndefined();
    // A control may sign the record's fields (as a payer's returnUrl redirect carries them), with the gateway's signing.
    expect(desk.recordControl('couponLink', 'c-1')).toBe(`https://shop.test/back?state=${VoucherState.Lapsed}&key=c-1&sign=SIGNED`);
  });

  it('a third operation on the record the query finds, told of the closeRacesPayer fault', () => {
    const { desk, create } = newVoucherDesk();
    create('c-1');
    const app = { ...MERCHANT };
    expect(desk.act('close', app, { mchRefundNo: 'c-1' }, true)).toEqual({ closed: false });
    expect(desk.snapshot('c-1')?.state).toBe(VoucherState.Waiting);
    expect(desk.act('close', app, { mchRefundNo: 'c-1' })).toEqual({ closed: true });
    expect(desk.snapshot('c-1')?.state).toBe(VoucherState.Void);
    expect(refusalOf(() => desk.act('close', app, {}))).toBe('give refundOrderId or mchRefundNo');
    expect(() => desk.act('query', app, { mchRefundNo: 'c-1' })).toThrow('coupons declare no operation query');
  });

  it("desks are built in order: refunds' world reads the orders' desk, built before it", () => {
    const desks = createDesks(new SimulatedClock(START), () => {}, () => ({}));
    expect(desks.refund.world.orders).toBe(desks.payment);
    expect(MOCK_KINDS.map((kind) => kind.name).indexOf('payment')).toBeLessThan(MOCK_KINDS.map((kind) => kind.name).indexOf('refund'));
  });

  it('its routes, verbs and buttons: no mode; the aliases and the controls on one record that declare them', () => {
    expect(kindRoutes(voucherKind).map((r) => [r.method, r.path, r.body, r.calls])).toEqual([
      ['POST', '/_mock/coupons/{refundOrderId}/settle', '{ to, errCode?, errMsg? }', 'settleCoupon(ref, decision)'],
      ['POST', '/_mock/coupons/{refundOrderId}/redeem', undefined, 'redeemCoupon(ref)'],
      ['POST', '/_mock/coupons/{refundOrderId}/void', '{ errCode? }', 'voidCoupon(ref, failure)'],
      ['POST', '/_mock/coupons/{refundOrderId}/fee', '{ fee }', 'setCouponFee(ref, fee)'],
      ['POST', '/_mock/coupons/{refundOrderId}/lapse', undefined, 'lapseCoupon(ref)'],
    ]);
    const controls = { alias: vi.fn(), recordControl: vi.fn() } as unknown as GatewayControls;
    const routes = kindRoutes(voucherKind);
    routes[2]!.run(controls, 'c-1', { errCode: 'X' } as never);
    routes[3]!.run(controls, 'c-1', { fee: 7 } as never);
    expect(controls.alias).toHaveBeenCalledWith('voucher', 'voidCoupon', 'c-1', { errCode: 'X' });
    expect(controls.recordControl).toHaveBeenCalledWith('voucher', 'setCouponFee', 'c-1', 7);
    const verbs = verbsOf(voucherKind);
    expect(verbs.map(([verb, spec]) => [verb, spec.route('c-1'), spec.options ?? []])).toEqual([
      ['redeem', 'coupons/c-1/redeem', []],
      ['void', 'coupons/c-1/void', ['err-code', 'err-msg']],
      ['coupon-fee', 'coupons/c-1/fee', ['fee']],
      ['lapse', 'coupons/c-1/lapse', []],
    ]);
    const [redeem, , fee] = verbs.map(([, spec]) => spec);
    expect(redeem!.body?.('c-1', {})).toEqual({});
    expect(redeem!.print({ refundOrderId: 'V1', mchRefundNo: 'c-1', state: 2 })).toMatch(/^refundOrderId V1  mchRefundNo c-1  state 2 \(Redeemed\); its notification goes out/);
    expect(fee!.body?.('c-1', { fee: '12' })).toEqual({ fee: 12 });
    expect(fee!.print({ refundOrderId: 'V1', mchRefundNo: 'c-1', state: 1, fee: 12 })).toBe('refundOrderId V1  mchRefundNo c-1  state 1 (Waiting)  fee 12');
    const buttons = recordButtons('/base', voucherKind, { refundOrderId: 'V1', state: VoucherState.Waiting });
    expect(typeof buttons === 'string' ? buttons : buttons.text).toBe(
      '<button class="primary" data-post="/base/_mock/coupons/V1/redeem">Redeem</button> <button class="danger" data-post="/base/_mock/coupons/V1/void">Void</button>',
    );
  });
});
