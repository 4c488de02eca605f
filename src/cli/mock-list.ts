/**
 * `payment-gateway-sdk mock list`: what a running mock holds (its `GET /_mock/state`), one line a record. The answer
 * is read as hostile: every value is printed through `printable` by the caller, and a missing field prints as such.
 *
 * @module
 */
import { payOrderStateName } from '../protocol/schemas/enums.js';
import { refundOrderStateName } from '../protocol/schemas/refund.js';

type Row = Readonly<Record<string, unknown>>;

const rows = (value: unknown): Row[] => (Array.isArray(value) ? value.filter((row): row is Row => typeof row === 'object' && row !== null) : []);
const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '-');
const named = (state: unknown, name: (code: never) => string | undefined) => (typeof state === 'number' ? `${state} (${name(state as never) ?? 'unknown'})` : text(state));
const money = (row: Row, field: string) => `${text(row[field])} ${text(row.currency)}`;
const section = (title: string, lines: readonly string[]) => [`${title} (${lines.length})`, ...lines.map((line) => `  ${line}`)];

/** The state's records, by kind, newest first as the mock lists them, one line each; amounts in minor units. */
export function listState(state: Row): string[] {
  const refunds = rows(state.refunds);
  const refundLine = (r: Row) => `${text(r.mchRefundNo)} ${money(r, 'refundAmount')} state ${named(r.state, refundOrderStateName)}`;
  const orders = rows(state.orders).map((o) => {
    const own = refunds.filter((r) => r.payOrderId === o.payOrderId).map(refundLine);
    return `${text(o.payOrderId)}  mchOrderNo ${text(o.mchOrderNo)}  ${text(o.wayCode)}  amount ${money(o, 'amount')}  state ${named(o.state, payOrderStateName)}${own.length === 0 ? '' : `  refunds: ${own.join(', ')}`}`;
  });
  const refundLines = refunds.map(
    (r) => `${text(r.refundOrderId)}  mchRefundNo ${text(r.mchRefundNo)}  of ${text(r.payOrderId)}  amount ${money(r, 'refundAmount')}  state ${named(r.state, refundOrderStateName)}  reason ${JSON.stringify(text(r.refundReason))}`,
  );
  const addresses = rows(state.addresses).map((a) => `${text(a.serverRequestId)}  requestId ${text(a.requestId)}  ${text(a.tokenId)} ${text(a.address)}  status ${text(a.status)}`);
  const settlements = rows(state.settlements).map((s) => `${text(s.serverRequestId)}  requestId ${text(s.requestId)}  amount ${money(s, 'amount')}  ${text(s.tokenId)}  status ${text(s.status)}`);
  const notifications = rows(state.notifications).map(
    (n) => `${text(n.id)}  ${text(n.kind)} ${n.kind === 'refund' ? text(n.mchRefundNo) : text(n.mchOrderNo)} (${n.kind === 'refund' ? text(n.refundOrderId) : text(n.payOrderId)})  ${text(n.state)} after ${text(n.attempts)} attempt(s)  to ${text(n.url)}`,
  );
  return [...section('Orders', orders), ...section('Refunds', refundLines), ...section('Declared addresses', addresses), ...section('Settlements', settlements), ...section('Notifications', notifications)];
}
