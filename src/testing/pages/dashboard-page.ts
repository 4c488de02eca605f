/**
 * The dashboard, `{base}/`: the gateway's state (the orders first, in a section of their own with each order's refunds) with buttons that call the control routes; it polls
 * `/_mock/state` once a second and reloads when the state changes.
 *
 * @module
 */
import { payOrderStateName } from '../../kinds/payments/enums.js';
import { paymentKind } from '../../kinds/payments/mock.js';
import { describeFields } from '../domain/diagnose.js';
import type { MockGatewayState } from '../domain/controls.js';
import { MOCK_KINDS } from '../domain/kinds.js';
import type { MockNotification, NotificationAttempt } from '../domain/notifier.js';
import { aliasOf, stateFieldOf, stateName, stateOf, sumOfOrder, type MockColumn, type MockKindView } from '../domain/record-kind.js';
import type { MockRequestRecord } from '../domain/request-log.js';
import type { MockPageKit } from '../domain/mock-part.js';
import { PART_VIEWS } from '../domain/parts.js';
import { formatAmount, formatTime, html, layout, section, type Html } from './html.js';

const STATE_BADGES: Readonly<Record<number, string>> = { 0: 'wait', 1: 'wait', 2: 'ok', 3: 'bad', 4: 'bad', 5: '', 6: '' };

/** A declared kind's record, read by the field names its declaration gives. */
type Row = Readonly<Record<string, unknown>>;
const capitalized = (word: string) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`;

/**
 * A button that POSTs to a control route, then reloads the page. `path` is the gateway's base path: the
 * page calls its own origin, whichever of the mock's accepted hosts the browser used (a call to another
 * would be cross-origin, its answer unreadable).
 */
function control(path: string, route: string, label: string, kind = '', body?: object): Html {
  return html`<button class="${kind}" data-post="${path}/_mock/${route}"${body === undefined ? '' : html` data-body="${JSON.stringify(body)}"`}>${label}</button>`;
}

function attemptLine(a: NotificationAttempt): Html {
  return html`<div class="attempt"><span class="badge ${a.delivered ? 'ok' : 'bad'}">#${a.attempt}${a.resend ? ' resend' : ''}</span>
    ${formatTime(a.at)} · ${a.status === undefined ? 'no answer' : html`HTTP ${a.status}, answered <code>${JSON.stringify(a.response ?? '')}</code>`}
    <div class="muted">${a.reason}</div></div>`;
}

function notificationRow(path: string, n: MockNotification & { attemptLog: readonly NotificationAttempt[] }): Html {
  const badge = n.state === 'delivered' ? 'ok' : n.state === 'failed' ? 'bad' : 'wait';
  return html`<tr data-notification="${n.id}"><td><code>${n.id}</code></td><td>${notifiedRecord(n)}<div class="muted">${n.url}</div></td>
    <td><span class="badge ${badge}">${n.state}</span>${n.nextAttemptAt === undefined ? '' : html`<div class="muted">next ${formatTime(n.nextAttemptAt)}</div>`}</td>
    <td>${n.attemptLog.length === 0 ? html`<span class="empty">not sent yet</span>` : n.attemptLog.map(attemptLine)}</td>
    <td>${control(path, `notifications/${encodeURIComponent(n.id)}/resend`, 'Resend')}</td></tr>`;
}

/** The order notified; a declared kind's record by key first, then its order if it has one: `refund <code>refund-1</code> of <code>P1</code>`. */
function notifiedRecord(n: MockNotification): Html {
  const kind = MOCK_KINDS.find((k) => k.name === n.kind);
  const order = html`<code>${n.payOrderId}</code>`;
  // A payment's record is the order itself.
  if (!kind || (n as unknown as Row)[kind.id] === n.payOrderId) return order;
  const record = html`${kind.name} <code>${(n as unknown as Row)[kind.key]}</code>`;
  // A transfer or a settlement is of no order.
  return n.payOrderId === '' ? record : html`${record} of ${order}`;
}

const rowsOf = (state: MockGatewayState, kind: MockKindView) => (state as unknown as Readonly<Record<string, readonly Row[]>>)[kind.plural] ?? [];

/** A state's badge: open states wait, a failure's state is bad, the primary decision's is ok. */
function kindBadge(kind: MockKindView, state: number): Html {
  const decision = Object.values(kind.decisions).find((d) => d.to === state);
  const badge = kind.states.open.includes(state) ? 'wait' : decision?.failure ? 'bad' : decision?.button === 'primary' ? 'ok' : '';
  return html`<span class="badge ${badge}">${state} ${stateName(kind, state)}</span>`;
}

function cell(kind: MockKindView, column: MockColumn<never>, r: Row): Html {
  const value = r[column.field];
  if (column.as === 'code') return html`<td><code>${value}</code></td>`;
  if (column.as === 'time') return html`<td>${formatTime(Number(value))}</td>`;
  if (column.as === 'amount') return html`<td>${formatAmount(Number(value), String(r[column.currency]))}</td>`;
  if (column.as === 'state') return html`<td>${kindBadge(kind, Number(value))}${r.errCode === undefined ? '' : html`<div class="muted">${r.errCode}: ${r.errMsg}</div>`}</td>`;
  return 'cell' in column && column.cell !== undefined ? html`<td class="${column.cell}">${value}</td>` : html`<td>${value}</td>`;
}

/** While a record is open, its step's button (if its kind declares steps), else one for each decision (its alias's route, or settle). */
export function recordButtons(path: string, kind: MockKindView, r: Row): Html | '' {
  const id = encodeURIComponent(String(r[kind.id]));
  const decision = (to: string, button: string) => {
    const alias = aliasOf(kind, to);
    return alias === undefined ? control(path, `${kind.plural}/${id}/settle`, capitalized(to), button, { to }) : control(path, `${kind.plural}/${id}/${alias.path}`, capitalized(to), button);
  };
  const decisions = () => Object.entries(kind.decisions).flatMap(([to, d], i) => [...(i === 0 ? [] : [html` `]), decision(to, d.button ?? '')]);
  const step = kind.steps && control(path, `${kind.plural}/${id}/progress`, kind.steps.button);
  return kind.states.open.includes(stateOf(kind, r)) ? (step ?? html`${decisions()}`) : '';
}

/** A record's row: its declared columns, then its buttons. */
function kindRow(path: string, kind: MockKindView, r: Row): Html {
  return html`<tr data-${kind.name}="${String(r[kind.id])}">${kind.columns.map((column) => cell(kind, column, r))}<td>${recordButtons(path, kind, r)}</td></tr>`;
}

/** A declared kind's section: its table, newest first as the state lists it. */
export function kindSection(path: string, kind: MockKindView, records: readonly Row[]): Html {
  return section(capitalized(kind.plural), records.length, html`<table id="${kind.plural}"><tr>${kind.columns.map((c) => html`<th>${c.title}</th>`)}<th></th></tr>
      ${records.map((r) => kindRow(path, kind, r))}</table>`);
}

/** The kinds whose records belong to orders (refunds), each with its records by order, oldest first. */
function recordsByOrder(state: MockGatewayState): { kind: MockKindView; byOrder: Map<string, Row[]> }[] {
  return MOCK_KINDS.flatMap((kind) => {
    if (kind.ofOrder === undefined) return [];
    const byOrder = new Map<string, Row[]>();
    for (const r of [...rowsOf(state, kind)].reverse()) {
      const order = String(r[kind.ofOrder.field]);
      byOrder.set(order, [...(byOrder.get(order) ?? []), r]);
    }
    return [{ kind, byOrder }];
  });
}

/** An order's records of a kind under its row: each one's key, amount and state, after the sum of those in the counted state. */
function orderRecords(kind: MockKindView, records: readonly Row[] | undefined, currency: string): Html | string {
  const of = kind.ofOrder;
  if (records === undefined || of === undefined) return '';
  const sum = sumOfOrder(of, records, stateFieldOf(kind));
  return html`${sum === 0 ? '' : formatAmount(sum, currency)}${records.map(
    (r) => html`<div class="${kind.name}" data-order-${kind.name}="${r[kind.id]}"><code>${r[kind.key]}</code> ${formatAmount(Number(r[of.amount]), String(r[of.currency]))} ${kindBadge(kind, stateOf(kind, r))}</div>`,
  )}`;
}

function requestRows(r: Omit<MockRequestRecord, 'body'>): Html {
  const keys = Object.entries(r.keys).map(([name, value]) => html`<div><span class="muted">${name}</span> <code>${value}</code></div>`);
  const why = r.signature
    ? html`<tr class="why"><td></td><td colspan="4"><div class="refusal">
        <div><b>Why the signature was refused:</b> ${r.signature.mistake ? html`${r.signature.mistake.summary}. Fix: ${r.signature.mistake.fix}.` : r.signature.hint}</div>
        <div class="muted">Expected (the secret as ***)</div><code class="canonical">${r.signature.expected}</code>
        ${r.signature.mistake ? html`<div class="muted">What the signer hashed</div><code class="canonical">${r.signature.mistake.signedString}</code>` : ''}
        <div class="muted">Fields: ${describeFields(r.signature.fields)}</div></div></td></tr>`
    : '';
  return html`<tr data-request="${r.at}"><td>${formatTime(r.at)}</td><td>${r.operation}</td><td>${keys}</td>
    <td><span class="badge ${r.msg === 'SUCCESS' && r.fault === undefined ? 'ok' : 'bad'}">${r.code ?? r.fault ?? '—'}</span> ${r.outcome}</td><td>${r.ms} ms</td></tr>${why}`;
}

/** What the dashboard lends each declared part's sections; its buttons call the routes below the base path. */
const pageKit = (path: string): MockPageKit<Html> => ({ html, section, formatAmount, formatTime, button: (route, label, kind) => control(path, route, label, kind) });

function renderDashboard(state: MockGatewayState, base: string, path: string): Html {
  const { merchants, orders, notifications } = state;
  const ofOrders = recordsByOrder(state);
  const kit = pageKit(path);
  return html`
    <div class="card"><h2>Merchants</h2><table><tr><th>mchNo</th><th>appId</th></tr>
      ${merchants.map((m) => html`<tr><td><code>${m.mchNo}</code></td><td><code>${m.appId}</code></td></tr>`)}</table>
      <p class="muted">Clock: ${state.clock}, ${formatTime(state.now)} · Control API: <code>${base}/_mock/state</code></p></div>
    ${section('Orders', orders.length, html`<table><tr><th>Order</th><th>Merchant order</th><th>Subject</th><th>Amount</th>${ofOrders.map(({ kind }) => html`<th>${capitalized(kind.plural)}</th>`)}<th>State</th><th>Created</th><th></th></tr>
      ${orders.map((o) => html`<tr data-order="${o.payOrderId}"><td><a href="${base}/cashier/${encodeURIComponent(o.payOrderId)}"><code>${o.payOrderId}</code></a></td>
        <td><code>${o.mchOrderNo}</code></td><td>${o.subject}</td><td>${formatAmount(o.amount, o.currency)}</td>${ofOrders.map(({ kind, byOrder }) => html`<td>${orderRecords(kind, byOrder.get(o.payOrderId), o.currency)}</td>`)}
        <td><span class="badge ${STATE_BADGES[o.state] ?? ''}">${o.state} ${payOrderStateName(o.state)}</span></td><td>${formatTime(o.createdAt)}</td>
        <td>${recordButtons(path, paymentKind, o as unknown as Row)}</td></tr>`)}</table>`)}
    ${MOCK_KINDS.filter((kind) => kind.ownSection !== true).map((kind) => kindSection(path, kind, rowsOf(state, kind)))}
    ${PART_VIEWS.map((part) => part.sections?.(state as never, kit) ?? '')}
    ${section('Notifications', notifications.length, html`<table><tr><th>Id</th><th>Order / URL</th><th>State</th><th>Attempts and answers</th><th></th></tr>
      ${notifications.map((n) => notificationRow(path, n))}</table>`)}
    ${section('Latest requests', state.requests.length, html`<table id="requests"><tr><th>Time</th><th>Operation</th><th>Keys</th><th>Outcome</th><th>Took</th></tr>
      ${state.requests.map(requestRows)}</table>`)}`;
}

// Buttons post to the control API; the page reloads when the state (less the ticking clock) changes.
// The page starts from the state it was rendered with, so a change made right after rendering still shows.
const script = (stateUrl: string, rendered: string) => `
const stateUrl = ${scriptString(stateUrl)};
let last = ${scriptString(rendered)}, busy = false;
const key = (s) => JSON.stringify({ ...s, now: 0 });
document.addEventListener('click', async (event) => {
  const button = event.target.closest('button[data-post]');
  if (!button) return;
  busy = true; button.disabled = true;
  const answer = await fetch(button.dataset.post, { method: 'POST', body: button.dataset.body });
  if (!answer.ok) alert((await answer.json()).error);
  location.reload();
});
setInterval(async () => {
  if (busy) return;
  try {
    const state = key(await (await fetch(stateUrl)).json());
    if (state !== last) location.reload();
  } catch {}
}, 1000);
`;

/** A JavaScript string literal that cannot end the script element. */
function scriptString(text: string): string {
  return JSON.stringify(text).replace(/</g, '\\u003c');
}

/** Answers `GET /`, or `undefined` for other paths. */
export function handleDashboard(state: () => MockGatewayState, request: Request, path: string, base: string): Response | undefined {
  if (path !== '/' || request.method !== 'GET') return undefined;
  const current = state();
  const basePath = new URL(base).pathname.replace(/\/$/, '');
  return layout('Mock gateway dashboard', base, renderDashboard(current, base, basePath), script(`${basePath}/_mock/state`, JSON.stringify({ ...current, now: 0 })));
}
