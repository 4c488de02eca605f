/**
 * `payment-gateway-sdk mock pay|fail|expire <order>` and `mock refund-succeed|refund-fail|refund-close <refund>`,
 * `mock refund-mode hold|succeed|fail`: drive a running mock over its control API, as Stripe CLI's `trigger` drives
 * a test account: the channel reports the order paid (its notification goes out) or failed, or the order expires; a
 * held refund is decided; the coming refunds are held, succeed or fail.
 *
 * @module
 */
import { parseArgs } from 'node:util';
import { payOrderStateName, type PayOrderState } from '../protocol/schemas/enums.js';
import { refundOrderStateName, type RefundOrderState } from '../protocol/schemas/refund.js';
import { printable } from '../util/printable.js';
import { readCappedStream } from '../util/read-capped-stream.js';
import { UsageError } from './usage-error.js';

/** The control answer's fields the command prints. */
type Answer = Readonly<Record<string, unknown>>;
/** `--err-code` and `--err-msg`, as given. */
type Failure = { errCode?: string; errMsg?: string };

/** One action: the control route it posts to and how it prints the answer. */
interface TriggerSpec {
  /** The route below `{url}/_mock/`, for the positional argument (already URL-encoded). */
  readonly route: (ref: string) => string;
  /** The body it posts: the positional argument and the channel's failure (`--err-code`, `--err-msg`) when it takes one. */
  readonly body?: (ref: string, failure: Failure) => Readonly<Record<string, string>>;
  /** Takes `--err-code` and `--err-msg`. */
  readonly failure?: true;
  /** The positional values it takes, when not an id. */
  readonly choices?: readonly string[];
  readonly print: (answer: Answer) => string;
}

const NOTIFIED = '; its notification goes out now (real clock) or with POST /_mock/notifications/deliver (manual clock)';
const stateOf = (state: unknown, name: (code: never) => string | undefined) => (typeof state === 'number' ? `${state} (${name(state as never) ?? 'unknown'})` : String(state));
const failureOf = (answer: Answer) => `  errCode ${String(answer.errCode)}  errMsg ${String(answer.errMsg)}`;
const order = (answer: Answer) => `payOrderId ${String(answer.payOrderId)}  mchOrderNo ${String(answer.mchOrderNo)}  state ${stateOf(answer.state, payOrderStateName)}`;
const refund = (answer: Answer) => `refundOrderId ${String(answer.refundOrderId)}  mchRefundNo ${String(answer.mchRefundNo)}  state ${stateOf(answer.state, refundOrderStateName)}`;
const settle = (ref: string) => `refunds/${ref}/settle`;

/** The actions, each a control route: `POST {url}/_mock/orders/{order}/{action}`, `.../refunds/{refund}/settle`, `.../refunds/mode`. */
const TRIGGER_SPECS = {
  pay: { route: (ref) => `orders/${ref}/pay`, print: (a) => `${order(a)}${NOTIFIED}` },
  fail: { route: (ref) => `orders/${ref}/fail`, failure: true, body: (_ref, failure) => failure, print: (a) => `${order(a)}${failureOf(a)}` },
  expire: { route: (ref) => `orders/${ref}/expire`, print: order },
  'refund-succeed': { route: settle, body: () => ({ to: 'succeed' }), print: (a) => `${refund(a)}${a.notifyUrl === undefined ? '' : NOTIFIED}` },
  'refund-fail': { route: settle, failure: true, body: (_ref, failure) => ({ to: 'fail', ...failure }), print: (a) => `${refund(a)}${failureOf(a)}${a.notifyUrl === undefined ? '' : NOTIFIED}` },
  'refund-close': { route: settle, body: () => ({ to: 'close' }), print: (a) => `${refund(a)}; no notification` },
  'refund-mode': {
    route: () => 'refunds/mode',
    body: (mode) => ({ mode }),
    choices: ['hold', 'succeed', 'fail'],
    print: (a) => `refund mode ${String(a.mode)}: ${a.mode === 'hold' ? 'coming refunds wait in state 1 (Refunding) until mock refund-succeed|refund-fail|refund-close REFUND' : `coming refunds are ${a.mode === 'fail' ? 'failed (state 3)' : 'refunded (state 2)'} at once`}`,
  },
} as const satisfies Record<string, TriggerSpec>;

/** The actions the command takes after `mock`. */
export const TRIGGERS = Object.keys(TRIGGER_SPECS) as readonly Trigger[];
export type Trigger = keyof typeof TRIGGER_SPECS;

/** Where the mock command listens by default. */
const DEFAULT_URL = 'http://127.0.0.1:4010';
/** The environment variable that names the running mock's URL when `--url` does not. */
export const MOCK_URL_ENV = 'PAYMENT_GATEWAY_MOCK_URL';
/** A control answer is one order or refund: a few kilobytes. */
const MAX_ANSWER_BYTES = 1024 * 1024;
const TIMEOUT_MS = 10_000;

export const TRIGGER_USAGE = `Usage: payment-gateway-sdk mock pay|fail|expire ORDER [--url URL] [--err-code CODE] [--err-msg TEXT]
       payment-gateway-sdk mock refund-succeed|refund-fail|refund-close REFUND [--url URL] [--err-code CODE] [--err-msg TEXT]
       payment-gateway-sdk mock refund-mode hold|succeed|fail [--url URL]

Drives a running mock (payment-gateway-sdk mock) over its control API. ORDER is the payOrderId or your mchOrderNo;
REFUND is the refundOrderId or your mchRefundNo.
  pay             the channel reports the order paid (state 2); its notification goes out
  fail            the channel reports the payment failed (state 3; --err-code, --err-msg set errCode, errMsg); no notification
  expire          the order expires now (state 6, closed); no notification
  refund-succeed  a held refund succeeds (state 2; the order's refunded sum grows, state 5 once in full); it is notified
  refund-fail     a held refund fails (state 3; --err-code, --err-msg set errCode, errMsg); it is notified
  refund-close    a held refund closes (state 4), as the gateway's two-hour job does; no notification
  refund-mode     how the coming refunds go: hold (wait in state 1 until decided), succeed (the default) or fail

Options:
      --url URL        the mock's base URL (default $${MOCK_URL_ENV}, else ${DEFAULT_URL})
      --err-code CODE  fail, refund-fail: the channel's errCode
      --err-msg TEXT   fail, refund-fail: the channel's errMsg
  -h, --help           this text

Prints the new state by name; exit code 0 done, 1 refused by the mock or the mock unreachable, 2 usage.
`;

/** Where the command writes and what it reads the default URL from. */
export interface TriggerIo {
  readonly out: NodeJS.WritableStream;
  readonly err: NodeJS.WritableStream;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Runs `mock <trigger> ...args`; resolves to the exit code. */
export async function runTrigger(trigger: Trigger, args: readonly string[], io: TriggerIo): Promise<number> {
  let request: { url: URL; body: Record<string, string> | undefined };
  try {
    const options = readTriggerOptions(trigger, args, io.env);
    if (options === 'help') {
      io.out.write(TRIGGER_USAGE);
      return 0;
    }
    request = options;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err.write(`payment-gateway-sdk mock ${trigger}: ${printable(error.message)}\nRun payment-gateway-sdk mock ${trigger} --help for its options.\n`);
    return 2;
  }
  const failed = (why: string) => {
    io.err.write(`payment-gateway-sdk mock ${trigger}: ${printable(why)}\n`);
    return 1;
  };
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request.body ?? {}),
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const { cause } = error as { cause?: { code?: string; message?: string } };
    if (cause?.message?.includes('redirect')) return failed(`${request.url.origin} answered with a redirect, which is not followed: is it a payment-gateway-sdk mock? (check --url)`);
    return failed(`cannot reach a mock at ${request.url.origin} (${cause?.code ?? (error as Error).name}): start one with payment-gateway-sdk mock, or give its URL with --url or ${MOCK_URL_ENV}`);
  }
  const read = response.body ? await readCappedStream(response.body, MAX_ANSWER_BYTES) : { bytes: new Uint8Array(), complete: true };
  let answer: Answer | undefined;
  try {
    answer = read.complete ? JSON.parse(new TextDecoder().decode(read.bytes)) : undefined;
  } catch {
    answer = undefined;
  }
  if (answer === undefined || typeof answer !== 'object' || answer === null) {
    return failed(`${request.url.origin} answered HTTP ${response.status} without the mock's JSON: is it a payment-gateway-sdk mock? (check --url)`);
  }
  if (!response.ok) return failed(`the mock refused: ${String(answer.error ?? `HTTP ${response.status}`)}`);
  io.out.write(`${printable(TRIGGER_SPECS[trigger].print(answer))}\n`);
  return 0;
}

function readTriggerOptions(trigger: Trigger, args: readonly string[], env: TriggerIo['env']): { url: URL; body: Record<string, string> | undefined } | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { url: { type: 'string' }, 'err-code': { type: 'string' }, 'err-msg': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  const spec: TriggerSpec = TRIGGER_SPECS[trigger];
  const [ref] = positionals;
  if (positionals.length !== 1 || ref === undefined || ref === '') throw new UsageError(`give one ${example(trigger)}`);
  if (spec.choices && !spec.choices.includes(ref)) throw new UsageError(`give one ${example(trigger)}, not ${JSON.stringify(ref)}`);
  if (!spec.failure && (values['err-code'] !== undefined || values['err-msg'] !== undefined)) throw new UsageError('--err-code and --err-msg are options of fail and refund-fail');
  const base = values.url ?? env[MOCK_URL_ENV] ?? DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new UsageError(`--url must be the mock's base URL, the first line the mock prints, e.g. ${DEFAULT_URL}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--url must be an http(s) URL, e.g. ${DEFAULT_URL}`);
  const target = new URL(`${url.pathname.replace(/\/$/, '')}/_mock/${spec.route(encodeURIComponent(ref))}`, url);
  const failure = { ...(values['err-code'] === undefined ? {} : { errCode: values['err-code'] }), ...(values['err-msg'] === undefined ? {} : { errMsg: values['err-msg'] }) };
  return { url: target, body: spec.body?.(ref, failure) };
}

/** What the positional argument of `trigger` is, with an example. */
function example(trigger: Trigger): string {
  if (trigger === 'refund-mode') return 'mode: hold, succeed or fail, e.g. payment-gateway-sdk mock refund-mode hold';
  if (trigger.startsWith('refund-')) return `refund: its refundOrderId or your mchRefundNo, e.g. payment-gateway-sdk mock ${trigger} refund-1001`;
  return `order: its payOrderId or your mchOrderNo, e.g. payment-gateway-sdk mock ${trigger} order-1001`;
}
