/**
 * The dashboard's division sections: receiver groups, bound receivers (accounts masked), and each division with its
 * records. The reference shows these in its merchant portal only; the API has no query for them.
 *
 * @module
 */
import type { MockGatewayState } from '../domain/controls.js';
import { formatAmount, formatTime, html, section, type Html } from './html.js';

const OUTCOMES: Readonly<Record<number, [string, string]>> = { 0: ['waiting', 'wait'], 1: ['succeeded', 'ok'], 2: ['failed', 'bad'], 3: ['accepted', 'wait'] };

/** A division or record state as a badge: 0 waiting, 1 succeeded, 2 failed, 3 accepted by the channel. */
function outcome(state: number, errCode?: string, errMsg?: string): Html {
  const [name, badge] = OUTCOMES[state] ?? ['unknown', ''];
  return html`<span class="badge ${badge}">${state} ${name}</span>${errCode === undefined ? '' : html`<div class="muted">${errCode}: ${errMsg}</div>`}`;
}

/** The three division sections, newest first as the state lists them. */
export function divisionSections({ divisionGroups: groups, divisionReceivers: receivers, divisionBatches: batches, divisionRecords: records }: MockGatewayState): Html {
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
