/**
 * `payment-gateway-sdk mock pay|fail|expire <order>`: drives a running mock over its control API, as
 * Stripe CLI's `trigger` drives a test account: the channel reports the order paid (its notification goes
 * out) or failed, or the order expires.
 *
 * @module
 */
import { parseArgs } from 'node:util';
import { payOrderStateName, type PayOrderState } from '../protocol/schemas/enums.js';
import { printable } from '../util/printable.js';
import { readCappedStream } from '../util/read-capped-stream.js';
import { UsageError } from './usage-error.js';

/** The actions, each a control route `POST {url}/_mock/orders/{order}/{action}`. */
export const TRIGGERS = ['pay', 'fail', 'expire'] as const;
export type Trigger = (typeof TRIGGERS)[number];

/** Where the mock command listens by default. */
const DEFAULT_URL = 'http://127.0.0.1:4010';
/** The environment variable that names the running mock's URL when `--url` does not. */
export const MOCK_URL_ENV = 'PAYMENT_GATEWAY_MOCK_URL';
/** A control answer is one order: a few kilobytes. */
const MAX_ANSWER_BYTES = 1024 * 1024;
const TIMEOUT_MS = 10_000;

export const TRIGGER_USAGE = `Usage: payment-gateway-sdk mock pay|fail|expire ORDER [--url URL] [--err-code CODE] [--err-msg TEXT]

Drives a running mock (payment-gateway-sdk mock) over its control API. ORDER is the payOrderId or your mchOrderNo.
  pay      the channel reports the order paid (state 2); its notification goes out
  fail     the channel reports the payment failed (state 3; --err-code, --err-msg set errCode, errMsg); no notification
  expire   the order expires now (state 6, closed); no notification

Options:
      --url URL        the mock's base URL (default $${MOCK_URL_ENV}, else ${DEFAULT_URL})
      --err-code CODE  fail: the channel's errCode
      --err-msg TEXT   fail: the channel's errMsg
  -h, --help           this text

Prints the order's new state; exit code 0 done, 1 refused by the mock or the mock unreachable, 2 usage.
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
  let answer: { error?: unknown; payOrderId?: unknown; mchOrderNo?: unknown; state?: unknown; errCode?: unknown; errMsg?: unknown } | undefined;
  try {
    answer = read.complete ? JSON.parse(new TextDecoder().decode(read.bytes)) : undefined;
  } catch {
    answer = undefined;
  }
  if (answer === undefined || typeof answer !== 'object' || answer === null) {
    return failed(`${request.url.origin} answered HTTP ${response.status} without the mock's JSON: is it a payment-gateway-sdk mock? (check --url)`);
  }
  if (!response.ok) return failed(`the mock refused: ${String(answer.error ?? `HTTP ${response.status}`)}`);
  const state = typeof answer.state === 'number' ? `${answer.state} (${payOrderStateName(answer.state as PayOrderState) ?? 'unknown'})` : String(answer.state);
  const failure = trigger === 'fail' ? `  errCode ${String(answer.errCode)}  errMsg ${String(answer.errMsg)}` : '';
  const next = trigger === 'pay' ? '; its notification goes out now (real clock) or with POST /_mock/notifications/deliver (manual clock)' : '';
  io.out.write(`${printable(`payOrderId ${String(answer.payOrderId)}  mchOrderNo ${String(answer.mchOrderNo)}  state ${state}${failure}${next}`)}\n`);
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
  if (positionals.length !== 1 || positionals[0] === '') throw new UsageError(`give one order: its payOrderId or your mchOrderNo, e.g. payment-gateway-sdk mock ${trigger} order-1001`);
  if (trigger !== 'fail' && (values['err-code'] !== undefined || values['err-msg'] !== undefined)) throw new UsageError('--err-code and --err-msg are options of fail');
  const base = values.url ?? env[MOCK_URL_ENV] ?? DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new UsageError(`--url must be the mock's base URL, the first line the mock prints, e.g. ${DEFAULT_URL}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--url must be an http(s) URL, e.g. ${DEFAULT_URL}`);
  const target = new URL(`${url.pathname.replace(/\/$/, '')}/_mock/orders/${encodeURIComponent(positionals[0]!)}/${trigger}`, url);
  const failure = { ...(values['err-code'] === undefined ? {} : { errCode: values['err-code'] }), ...(values['err-msg'] === undefined ? {} : { errMsg: values['err-msg'] }) };
  return { url: target, body: trigger === 'fail' ? failure : undefined };
}
