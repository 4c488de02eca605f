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
import { OrderBook } from '../../src/kinds/payments/mock.js';
import { fieldsOf, RecordDesk } from '../../src/testing/domain/record-desk.js';
import { defineMockRecordKind, type MockRecord } from '../../src/testing/domain/record-kind.js';
import { Refusal } from '../../src/testing/domain/refusals.js';
import { kindRoutes } from '../../src/testing/http/control-routes.js';
import { kindSection } from '../../src/testing/pages/dashboard-page.js';
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

function newDesk() {
  const clock = new SimulatedClock(START);
  const notified: Payout[] = [];
  const desk = new RecordDesk(payoutKind, { clock, orders: new OrderBook(clock, () => {}) }, (record) => notified.push({ ...record }));
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
    expect(kindUsage(false)).toEqual(MOCK_KINDS.flatMap((kind) => [expect.stringContaining(`mock ${kind.name}-`), expect.stringContaining(`mock ${kind.name}-mode `)]));
  });
});
