/**
 * The mock's log: one line per request answered and per notification attempt (a signature refusal adds
 * why), like `stripe listen`. The `mock` command prints them; `createMockGateway({ log })` receives them.
 *
 * @module
 */
import { describeFields } from './domain/diagnose.js';
import { MOCK_KINDS } from './domain/kinds.js';
import { printable } from '../util/printable.js';
import type { NotificationAttempt } from './domain/notifier.js';
import type { MockRequestRecord, MockSignatureRefusal } from './domain/request-log.js';

/**
 * What the mock tells its `log` option: each request once answered, and each notification delivery
 * attempt, with `line`, the text the `mock` command prints for it (several lines for a signature refusal).
 * Received values in `line` are printed with control characters escaped, so a request cannot drive your
 * terminal.
 *
 * @example
 * ```ts
 * const gateway = createMockGateway({
 *   merchants: [{ mchNo: 'M1', appId: 'app-1', secret: 'test-secret' }],
 *   log: (event: MockGatewayEvent) => console.log(event.line),
 * });
 * // 06:50:43.512Z  unifiedOrder   mchOrderNo=order-1  SUCCESS payOrderId=P17953…0001 orderState=0 (Generated)  3 ms
 * ```
 */
export type MockGatewayEvent =
  | { readonly type: 'request'; readonly request: MockRequestRecord; readonly line: string }
  | { readonly type: 'notification'; readonly attempt: NotificationAttempt; readonly line: string };

const INDENT = ' '.repeat(15);

export function requestEvent(request: MockRequestRecord): MockGatewayEvent {
  const keys = Object.entries(request.keys).map(([name, value]) => `${name}=${value}`).join(' ');
  const lines = [`${time(request.at)}  ${request.operation.padEnd(18)} ${keys === '' ? '' : `${keys}  `}${request.outcome}  ${request.ms} ms`];
  if (request.signature) lines.push(...signatureLines(request.signature));
  if (request.contractBreak !== undefined) lines.push(`${INDENT}the mock's answer breaks ${request.operation}'s declared result: fix the mock or the declaration; the client raised GatewayResponseContractError`);
  return { type: 'request', request, line: lines.map(printable).join('\n') };
}

export function notificationEvent(attempt: NotificationAttempt): MockGatewayEvent {
  const label = `notify ${attempt.notificationId} #${attempt.attempt}${attempt.resend ? ' resend' : ''}`;
  // A declared kind's notification (a refund's) is named by its key first, as its requests are; its kind is told by
  // its id, since a key may be another kind's too (a transfer's and a payment's mchOrderNo); a payment's record is the
  // order itself, named by its payOrderId below.
  const key = MOCK_KINDS.find((kind) => attempt.fields[kind.id] !== undefined && attempt.fields[kind.id] !== attempt.payOrderId)?.key;
  const named = key === undefined ? '' : `${key}=${String(attempt.fields[key]).slice(0, 64)} `;
  // A transfer or a settlement is of no order.
  const order = attempt.payOrderId === '' ? '' : `payOrderId=${attempt.payOrderId}  `;
  const line = `${time(attempt.at)}  ${label.padEnd(18)} ${named}${order}POST ${attempt.url} -> ${attempt.reason}  ${attempt.ms} ms`;
  return { type: 'notification', attempt, line: printable(line) };
}

function signatureLines(refusal: MockSignatureRefusal): string[] {
  return [
    refusal.mistake ? `${INDENT}likely mistake: ${refusal.mistake.summary}; fix: ${refusal.mistake.fix}` : `${INDENT}why: ${refusal.hint}`,
    `${INDENT}expected:   ${refusal.expected}`,
    ...(refusal.mistake ? [`${INDENT}you hashed: ${refusal.mistake.signedString}`] : []),
    `${INDENT}fields:     ${describeFields(refusal.fields)}`,
  ];
}

/** `06:50:43.512Z`: the time of day (UTC) on the mock's clock. */
function time(at: number): string {
  return `${new Date(at).toISOString().slice(11, 23)}Z`;
}
