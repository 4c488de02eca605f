/**
 * `payment-gateway-sdk mock list`: what a running mock holds (its `GET /_mock/state`), one line a record. The answer
 * is read as hostile: every value is printed through `printable` by the caller, and a missing field prints as such.
 *
 * @module
 */
import { payOrderStateName } from '../kinds/payments/enums.js';
import { MOCK_KINDS } from '../testing/domain/kinds.js';
import type { MockListKit } from '../testing/domain/mock-part.js';
import { PART_VIEWS } from '../testing/domain/parts.js';
import { stateFieldOf, stateName, type MockKindView } from '../testing/domain/record-kind.js';

type Row = Readonly<Record<string, unknown>>;

const rows = (value: unknown): Row[] => (Array.isArray(value) ? value.filter((row): row is Row => typeof row === 'object' && row !== null) : []);
const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '-');
const named = (state: unknown, name: (code: never) => string | undefined) => (typeof state === 'number' ? `${state} (${name(state as never) ?? 'unknown'})` : text(state));
const money = (row: Row, field: string) => `${text(row[field])} ${text(row.currency)}`;
const section = (title: string, lines: readonly string[]) => [`${title} (${lines.length})`, ...lines.map((line) => `  ${line}`)];
/** What `mock list` lends each declared part's lines. */
const LIST_KIT: MockListKit = { rows, text, money, section };

const kindState = (kind: MockKindView, state: unknown) => (typeof state === 'number' ? `${state} (${stateName(kind, state)})` : text(state));
/** A record's amount: its kind's first amount column, with its currency. */
const amountOf = (kind: MockKindView, r: Row) => {
  const column = kind.columns.find((c) => c.as === 'amount');
  return column === undefined || !('currency' in column) ? '' : `${text(r[column.field])} ${text(r[column.currency])}`;
};

/** A declared kind's record: its id, key, order, amount, state (in its state field) and text columns (`reason "..."`). */
export function recordLine(kind: MockKindView, r: Row): string {
  const order = kind.ofOrder === undefined ? '' : `  of ${text(r[kind.ofOrder.field])}`;
  const texts = kind.columns.filter((c) => c.as === 'text').map((c) => `  ${c.title.toLowerCase()} ${JSON.stringify(text(r[c.field]))}`);
  return `${text(r[kind.id])}  ${kind.key} ${text(r[kind.key])}${order}  amount ${amountOf(kind, r)}  ${stateFieldOf(kind)} ${kindState(kind, r[stateFieldOf(kind)])}${texts.join('')}`;
}

/** An order's records of the kinds that belong to orders: `  refunds: refund-1 200 USD state 2 (Succeeded), ...`. */
function ofOrder(state: Row, order: Row): string {
  return MOCK_KINDS.map((kind) => {
    const field = kind.ofOrder?.field;
    const own = field === undefined ? [] : rows(state[kind.plural]).filter((r) => r[field] === order.payOrderId);
    return own.length === 0 ? '' : `  ${kind.plural}: ${own.map((r) => `${text(r[kind.key])} ${amountOf(kind, r)} ${stateFieldOf(kind)} ${kindState(kind, r[stateFieldOf(kind)])}`).join(', ')}`;
  }).join('');
}

/** A notification: the key and id of the record it notifies (a declared kind's), or of the order. */
function notificationLine(n: Row): string {
  const kind = MOCK_KINDS.find((k) => k.name === n.kind);
  const [key, id] = kind === undefined ? [n.mchOrderNo, n.payOrderId] : [n[kind.key], n[kind.id]];
  return `${text(n.id)}  ${text(n.kind)} ${text(key)} (${text(id)})  ${text(n.state)} after ${text(n.attempts)} attempt(s)  to ${text(n.url)}`;
}

/** The state's records, by kind, newest first as the mock lists them, one line each; amounts in minor units. */
export function listState(state: Row): string[] {
  const orders = rows(state.orders).map(
    (o) => `${text(o.payOrderId)}  mchOrderNo ${text(o.mchOrderNo)}  ${text(o.wayCode)}  amount ${money(o, 'amount')}  state ${named(o.state, payOrderStateName)}${ofOrder(state, o)}`,
  );
  const kinds = MOCK_KINDS.filter((kind) => kind.ownSection !== true).flatMap((kind) => section(`${kind.plural.charAt(0).toUpperCase()}${kind.plural.slice(1)}`, rows(state[kind.plural]).map((r) => recordLine(kind, r))));
  const notifications = rows(state.notifications).map(notificationLine);
  const parts = PART_VIEWS.flatMap((part) => part.list?.lines(state, LIST_KIT) ?? []);
  return [...section('Orders', orders), ...kinds, ...parts, ...section('Notifications', notifications)];
}
