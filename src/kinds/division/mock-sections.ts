/**
 * How the mock shows its divisions: the dashboard's sections (receiver groups, bound receivers with their accounts
 * masked, each division with its records) and `mock list`'s lines. The reference shows these in its merchant portal
 * only; the API has no query for them. Both are functions of the state, drawn with the kit the page or the CLI lends.
 *
 * @module
 */
import type { MockListKit, MockPageKit, MockVerbAnswer } from '../../testing/domain/mock-part.js';
import type { MockDivisionGroup, MockDivisionReceiver } from './mock-receivers.js';
import type { MockDivisionBatch, MockDivisionRecord } from './mock.js';

/**
 * The state's division members, newest first: of {@link MockGateway.state} and `GET /_mock/state`.
 *
 * @example
 * ```ts
 * const { divisionGroups, divisionBatches }: MockDivisionState = gateway.state();
 * ```
 */
export interface MockDivisionState {
  /** Division receiver groups, newest first (made by a control, as the merchant portal makes them). */
  readonly divisionGroups: readonly MockDivisionGroup[];
  /** Bound division receivers, newest first, their accounts masked. */
  readonly divisionReceivers: readonly MockDivisionReceiver[];
  /** Divisions (batches `D…`), newest first, with the exec answer's state. */
  readonly divisionBatches: readonly MockDivisionBatch[];
  /** Division records, one per receiver of a batch, newest first. */
  readonly divisionRecords: readonly MockDivisionRecord[];
}

const OUTCOMES: Readonly<Record<number, [string, string]>> = { 0: ['waiting', 'wait'], 1: ['succeeded', 'ok'], 2: ['failed', 'bad'], 3: ['accepted', 'wait'] };

/** The three division sections, newest first as the state lists them. */
export function divisionSections<Markup>({ divisionGroups: groups, divisionReceivers: receivers, divisionBatches: batches, divisionRecords: records }: MockDivisionState, kit: MockPageKit<Markup>): Markup {
  const { html, section, formatAmount, formatTime } = kit;
  /** A division or record state as a badge: 0 waiting, 1 succeeded, 2 failed, 3 accepted by the channel. */
  const outcome = (state: number, errCode?: string, errMsg?: string): Markup => {
    const [name, badge] = OUTCOMES[state] ?? ['unknown', ''];
    return html`<span class="badge ${badge}">${state} ${name}</span>${errCode === undefined ? '' : html`<div class="muted">${errCode}: ${errMsg}</div>`}`;
  };
  return html`
    ${section('Division groups', groups.length, html`<table id="division-groups"><tr><th>receiverGroupId</th><th>Name</th><th>Merchant</th><th>Auto</th><th>Created</th></tr>
      ${groups.map((g) => html`<tr data-division-group="${g.receiverGroupId}"><td><code>${g.receiverGroupId}</code></td><td>${g.receiverGroupName}</td><td><code>${g.mchNo}</code></td>
        <td>${g.autoDivisionFlag === 1 ? 'auto division' : ''}</td><td>${formatTime(g.createdAt)}</td></tr>`)}</table>`)}
    ${section('Division receivers', receivers.length, html`<table id="division-receivers"><tr><th>receiverId</th><th>Group</th><th>Channel</th><th>Account</th><th>Relation</th><th>Share</th><th>State</th><th>Bound</th></tr>
      ${receivers.map((r) => html`<tr data-division-receiver="${r.receiverId}"><td><code>${r.receiverId}</code></td><td><code>${r.receiverGroupId}</code></td><td>${r.ifCode}</td>
        <td><code>${r.account}</code>${r.accountName === undefined ? '' : html` <span class="muted">${r.accountName}</span>`}</td><td>${r.relationTypeName}</td>
        <td>${r.divisionProfit}</td><td>${r.state === 1 ? 'active' : 'paused'}</td><td>${formatTime(r.bindSuccessTime)}</td></tr>`)}</table>`)}
    ${section('Divisions', batches.length, html`<table id="divisions"><tr><th>batchOrderId</th><th>Order</th><th>Divisible</th><th>Records</th><th>Answer</th><th>Created</th></tr>
      ${batches.map((b) => html`<tr data-division="${b.batchOrderId}"><td><code>${b.batchOrderId}</code>${b.auto ? html`<div class="muted">auto group</div>` : ''}</td>
        <td><code>${b.mchOrderNo}</code></td><td>${formatAmount(b.divisibleAmount, b.currency)}<div class="muted">cap ${formatAmount(b.capAmount, b.currency)}</div></td>
        <td>${records.filter((r) => r.batchOrderId === b.batchOrderId).reverse().map((r) => html`<div data-division-record="${r.recordId}"><code>${r.receiverId}</code> <code>${r.account}</code> ${r.divisionProfit} ${formatAmount(r.calDivisionAmount, r.currency)} ${outcome(r.state)}</div>`)}</td>
        <td>${outcome(b.state, b.errCode, b.errMsg)}</td><td>${formatTime(b.createdAt)}</td></tr>`)}</table>`)}`;
}

/** `mock list`'s division groups, receivers (accounts masked by the mock) and divisions with their records, of the state as received. */
export function divisionLines(state: MockVerbAnswer, { rows, text, money, section }: MockListKit): string[] {
  const groups = rows(state.divisionGroups).map((g) => `${text(g.receiverGroupId)}  ${JSON.stringify(text(g.receiverGroupName))}  of ${text(g.mchNo)}${g.autoDivisionFlag === 1 ? '  auto' : ''}`);
  const receivers = rows(state.divisionReceivers).map(
    (r) => `${text(r.receiverId)}  group ${text(r.receiverGroupId)}  ${text(r.ifCode)} ${text(r.account)}  share ${text(r.divisionProfit)}  state ${text(r.state)}`,
  );
  const records = rows(state.divisionRecords);
  const divisions = rows(state.divisionBatches).map((b) => {
    const own = records.filter((r) => r.batchOrderId === b.batchOrderId).map((r) => `${text(r.receiverId)} ${text(r.calDivisionAmount)} state ${text(r.state)}`);
    return `${text(b.batchOrderId)}  of ${text(b.payOrderId)}  divisible ${money(b, 'divisibleAmount')}  state ${text(b.state)}${own.length === 0 ? '' : `  records: ${own.join(', ')}`}`;
  });
  return [...section('Division groups', groups), ...section('Division receivers', receivers), ...section('Divisions', divisions)];
}
