/**
 * `payment-gateway-sdk mock pay|fail|expire <order>` and `mock order-fee`, each declared kind's verbs (`kind-verbs.ts`: payments' from their aliases and controls on one record, `mock
 * refund-succeed|refund-fail|refund-close <refund>`, `mock refund-mode hold|succeed|fail [--refund REFUND]`),
 * `mock refund-unsupported ORDER|--if-code|--way-code [--allow]`, `mock resend REF...` and `mock list`: drive a running
 * mock over its control API, as Stripe CLI's `trigger` drives a test account: the channel reports the order paid (its
 * notification goes out) or failed, or the order expires; a held record is decided; the coming records are held,
 * decided or failed; a channel cannot refund; a notification is sent again; what the mock holds is listed.
 *
 * @module
 */
import { parseArgs } from 'node:util';
import { MOCK_KINDS, NOTIFICATION_REFS_TEXT } from '../testing/domain/kinds.js';
import { nounOf } from '../testing/domain/record-kind.js';
import { PART_VIEWS } from '../testing/domain/parts.js';
import { printable } from '../util/printable.js';
import { readCappedStream } from '../util/read-capped-stream.js';
import { FAILURE_VERBS, KIND_OPTION_TYPES, KIND_OPTIONS, KIND_PLACEHOLDERS, KIND_VERBS, controlUsage, kindHelp, kindUsage } from './kind-verbs.js';
import { listState } from './mock-list.js';
import { PART_FAILURE_VERBS, PART_OPTION_TYPES, PART_OPTIONS, PART_VERBS, partHelp, partUsage } from './part-verbs.js';
import { helpRow, listed, wrapped, type Answer, type TriggerSpec, type Values } from './trigger-spec.js';
import { UsageError } from './usage-error.js';

/** The verbs that take `--err-code` and `--err-msg`. */
const FAILURE_TAKERS = [...FAILURE_VERBS, ...PART_FAILURE_VERBS];

/**
 * The actions, each a control route: each kind's (`POST {url}/_mock/orders/{order}/pay`, `.../{plural}/{id}/settle`,
 * `.../{plural}/mode` and own controls, `.../refunds/unsupported`), `.../notifications/{ref}/resend`, `GET .../state`.
 */
const TRIGGER_SPECS = {
  ...KIND_VERBS,
  ...PART_VERBS,
  resend: {
    route: (ref) => `notifications/${ref}/resend`,
    positionals: 'many',
    argument: `notification: its id (N1...), or the ${NOTIFICATION_REFS_TEXT} it notifies, e.g. payment-gateway-sdk mock resend ${MOCK_KINDS.slice(0, 2).map((kind) => `${nounOf(kind)}-1001`).join(' ')}`,
    print: (a) =>
      `${String(a.notificationId)} resent to ${String(a.url)} (attempt ${String(a.attempt)}, its original reqTime and sign): ${a.delivered === true ? 'delivered' : 'not delivered'}, ${String(a.reason)}`,
  },
  list: { route: () => 'state', method: () => 'GET', positionals: 'none', maxBytes: 64 * 1024 * 1024, print: listState },
} satisfies Record<string, TriggerSpec>;

/** The actions the command takes after `mock`. */
export const TRIGGERS = Object.keys(TRIGGER_SPECS) as readonly Trigger[];
/** An action: a fixed one, or a declared kind's. */
export type Trigger = keyof typeof TRIGGER_SPECS | (string & {});

/** A help row: the verb, then its text in lines of at most 100 characters, each under the first. */
const helpRows = (name: string, text: string) => wrapped(text, 78).split('\n').map((line, i) => helpRow(i === 0 ? name : '', line)).join('\n');

/** Where the mock command listens by default. */
const DEFAULT_URL = 'http://127.0.0.1:4010';
/** The environment variable that names the running mock's URL when `--url` does not. */
export const MOCK_URL_ENV = 'PAYMENT_GATEWAY_MOCK_URL';
/** A control answer is one order or refund: a few kilobytes. */
const MAX_ANSWER_BYTES = 1024 * 1024;
const TIMEOUT_MS = 10_000;

export const TRIGGER_USAGE = `Usage: ${[...kindUsage(true), ...controlUsage()].join('\n       ')}
${partUsage().map((line) => `       ${line}\n`).join('')}       payment-gateway-sdk mock resend REF... [--url URL]
       payment-gateway-sdk mock list [--url URL]

Drives a running mock (payment-gateway-sdk mock) over its control API.
${KIND_PLACEHOLDERS.join('\n')}
${kindHelp().verbs.join('\n')}
${partHelp().verbs.join('\n')}
  resend              sends each notification again now, with its original reqTime and sign; REF is its id (N1...),
                      or the ${NOTIFICATION_REFS_TEXT} it notifies
${helpRows('list', `what the mock holds: ${[...MOCK_KINDS.map((kind) => kind.plural), ...PART_VIEWS.flatMap((part) => (part.list ? [part.list.holds] : [])), 'notifications'].join(', ')}`)}

Options:
      --url URL        the mock's base URL (default $${MOCK_URL_ENV}, else ${DEFAULT_URL})
      --err-code CODE  ${FAILURE_TAKERS.join(', ')}: the channel's errCode
      --err-msg TEXT   ${FAILURE_TAKERS.join(', ')}: the channel's errMsg
${kindHelp().options.join('\n')}
${partHelp().options.join('\n')}
  -h, --help           this text

Prints the new state by name; exit code 0 done, 1 refused by the mock or the mock unreachable, 2 usage.
`;

/** Where the command writes and what it reads the default URL from. */
export interface TriggerIo {
  readonly out: NodeJS.WritableStream;
  readonly err: NodeJS.WritableStream;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** One control request the command makes. */
interface ControlCall {
  readonly url: URL;
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly body: Readonly<Record<string, string | number | boolean>> | undefined;
  /** What it was made of: the options and its target, for the print. */
  readonly values: Values;
  readonly ref: string | undefined;
}

/** Runs `mock <trigger> ...args`, one request per target in turn; resolves to the exit code (1 at the first refusal). */
export async function runTrigger(trigger: Trigger, args: readonly string[], io: TriggerIo): Promise<number> {
  let calls: readonly ControlCall[];
  try {
    const options = readTriggerOptions(trigger, args, io.env);
    if (options === 'help') {
      io.out.write(TRIGGER_USAGE);
      return 0;
    }
    calls = options;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err.write(`payment-gateway-sdk mock ${trigger}: ${printable(error.message)}\nRun payment-gateway-sdk mock ${trigger} --help for its options.\n`);
    return 2;
  }
  const spec = specOf(trigger);
  for (const call of calls) {
    const answer = await control(call, spec.maxBytes ?? MAX_ANSWER_BYTES);
    if (typeof answer === 'string') {
      io.err.write(`payment-gateway-sdk mock ${trigger}: ${printable(answer)}\n`);
      return 1;
    }
    for (const line of [spec.print(answer, call.values, call.ref)].flat()) io.out.write(`${printable(line)}\n`);
  }
  return 0;
}

/** The mock's JSON answer to one control request, or why there is none. */
async function control(call: ControlCall, maxBytes: number): Promise<Answer | string> {
  let response: Response;
  try {
    response = await fetch(call.url, {
      method: call.method,
      ...(call.method === 'GET' ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(call.body ?? {}) }),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const { cause } = error as { cause?: { code?: string; message?: string } };
    if (cause?.message?.includes('redirect')) return `${call.url.origin} answered with a redirect, which is not followed: is it a payment-gateway-sdk mock? (check --url)`;
    return `cannot reach a mock at ${call.url.origin} (${cause?.code ?? (error as Error).name}): start one with payment-gateway-sdk mock, or give its URL with --url or ${MOCK_URL_ENV}`;
  }
  const read = response.body ? await readCappedStream(response.body, maxBytes) : { bytes: new Uint8Array(), complete: true };
  let answer: Answer | undefined;
  try {
    answer = read.complete ? JSON.parse(new TextDecoder().decode(read.bytes)) : undefined;
  } catch {
    answer = undefined;
  }
  if (answer === undefined || typeof answer !== 'object' || answer === null) {
    return `${call.url.origin} answered HTTP ${response.status} without the mock's JSON: is it a payment-gateway-sdk mock? (check --url)`;
  }
  if (!response.ok) return `the mock refused: ${String(answer.error ?? `HTTP ${response.status}`)}`;
  return answer;
}

function readTriggerOptions(trigger: Trigger, args: readonly string[], env: TriggerIo['env']): ControlCall[] | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: {
        url: { type: 'string' }, 'err-code': { type: 'string' }, 'err-msg': { type: 'string' }, ...KIND_OPTION_TYPES, help: { type: 'boolean', short: 'h' },
        fee: { type: 'string' }, ...PART_OPTION_TYPES,
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  const spec = specOf(trigger);
  const taken = spec.options ?? [];
  for (const [name, message] of Object.entries(OPTION_OF)) {
    if ((values as Values)[name] !== undefined && !taken.includes(name)) throw new UsageError(message);
  }
  const refs = targets(spec, trigger, positionals, values);
  const base = values.url ?? env[MOCK_URL_ENV] ?? DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new UsageError(`--url must be the mock's base URL, the first line the mock prints, e.g. ${DEFAULT_URL}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--url must be an http(s) URL, e.g. ${DEFAULT_URL}`);
  return refs.map((ref) => ({
    url: new URL(`${url.pathname.replace(/\/$/, '')}/_mock/${spec.route(encodeURIComponent(ref ?? ''))}`, url),
    method: spec.method?.(values) ?? 'POST',
    body: spec.body?.(ref, values),
    values,
    ref,
  }));
}

const FAILURE_OPTION = `--err-code and --err-msg are options of ${listed(FAILURE_TAKERS)}`;

/** Which triggers take an option, for the message when another is given it. */
const OPTION_OF: Readonly<Record<string, string>> = {
  'err-code': FAILURE_OPTION,
  'err-msg': FAILURE_OPTION,
  ...KIND_OPTIONS,
  fee: '--fee is an option of order-fee',
  ...PART_OPTIONS,
};

/** The targets the positional arguments (or the options) name: one request each. */
function targets(spec: TriggerSpec, trigger: Trigger, positionals: readonly string[], values: Values): (string | undefined)[] {
  const kind = spec.positionals ?? 'one';
  if (kind === 'none') {
    if (positionals.length > 0) throw new UsageError(`takes no argument, not ${JSON.stringify(positionals[0])}`);
    return [undefined];
  }
  if (kind === 'optional') {
    // The target is the argument, or one option naming it (a string option of the verb's: `--way-code`, not `--allow`).
    const named = [positionals.length > 0, ...(spec.options ?? []).map((option) => typeof values[option] === 'string')].filter(Boolean).length;
    if (named !== 1 || positionals.length > 1 || positionals[0] === '') throw new UsageError(`give one ${example(spec, trigger)}`);
    return [positionals[0]];
  }
  if (positionals.length === 0 || (kind === 'one' && positionals.length !== 1) || positionals.includes('')) throw new UsageError(`give ${kind === 'many' ? 'one or more' : 'one'} ${example(spec, trigger)}`);
  const [ref] = positionals;
  if (spec.choices && !spec.choices.includes(ref ?? '')) throw new UsageError(`give one ${example(spec, trigger)}, not ${JSON.stringify(ref)}`);
  return [...positionals];
}

/** What the positional argument of `trigger` is, with an example: an order's unless its spec says. */
function example(spec: TriggerSpec, trigger: Trigger): string {
  return spec.argument ?? `order: its payOrderId or your mchOrderNo, e.g. payment-gateway-sdk mock ${trigger} order-1001`;
}

/** The spec of a trigger the command was given (main checks it is one). */
function specOf(trigger: Trigger): TriggerSpec {
  return (TRIGGER_SPECS as Readonly<Record<string, TriggerSpec>>)[trigger] as TriggerSpec;
}
