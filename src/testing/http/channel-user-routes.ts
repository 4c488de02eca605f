/**
 * The payer's browser at the gateway: `GET {base}/api/channelUserId/jump?...` (signed, refused as the reference
 * refuses it, else a 302 to the channel's login) and the stand-in channel login, `GET {base}/channel-login/{ifCode}`,
 * which answers as WeChat's silent `snsapi_base` login does: at once, a 302 back to `redirectUrl` with the id.
 *
 * @module
 */
import { apiErrorReason } from '../../operations/api-error.js';
import { CHANNEL_USER_JUMP_PATH } from '../../protocol/schemas/channel-user.js';
import { bindJump, type ChannelUserDesk } from '../domain/channel-users.js';
import type { SimulatedClock } from '../domain/clock.js';
import { Refusal } from '../domain/refusals.js';
import { bounded, type MockRequestRecord, type RequestLog } from '../domain/request-log.js';
import { frameworkError, render, type Outcome } from './respond.js';

/** What the jump's routes work with. */
export interface ChannelUserSetup {
  readonly channelUsers: ChannelUserDesk;
  readonly clock: SimulatedClock;
  readonly requests: RequestLog;
  readonly successCode: number;
  readonly onRequest: (record: MockRequestRecord) => void;
}

/** The stand-in channel login's path below the base. */
export const CHANNEL_LOGIN_PATH = '/channel-login';

type Recording = { -readonly [K in keyof MockRequestRecord]: MockRequestRecord[K] };

/** Answers the jump or the stand-in login (`path`: below the base), or `undefined` for any other path. */
export function handleChannelUser(setup: ChannelUserSetup, request: Request, path: string, url: URL, base: string): Outcome | undefined {
  const jump = path === CHANNEL_USER_JUMP_PATH;
  if (!jump && !path.startsWith(`${CHANNEL_LOGIN_PATH}/`)) return undefined;
  // The reference maps any method; a browser's navigation is a GET, the one the mock answers.
  if (request.method !== 'GET') return frameworkError(405, url.pathname, setup.clock.now());
  return jump ? answerJump(setup, request, url, base) : answerLogin(setup, url);
}

function answerJump(setup: ChannelUserSetup, request: Request, url: URL, base: string): Outcome {
  const started = performance.now();
  const record: Recording = { operation: 'channelUserJump', at: setup.clock.now(), keys: {}, outcome: 'in progress', ms: 0 };
  setup.requests.add(record);
  const bound = bindJump(url.searchParams);
  record.body = bound;
  if (bound.ifCode !== undefined) record.keys = { ifCode: bounded(bound.ifCode, 64) };
  let outcome: Outcome;
  try {
    const context = setup.channelUsers.jump(bound, request.headers.get('user-agent') ?? '');
    const login = `${base}${CHANNEL_LOGIN_PATH}/${context.ifCode}?${setup.channelUsers.loginQuery(context)}`;
    record.outcome = `302 to the ${context.ifCode} login (the mock's stand-in), then back to redirectUrl${setup.channelUsers.mode === 'fail' ? ' without channelUserId (mode fail)' : ''}`;
    outcome = { kind: 'response', response: new Response(null, { status: 302, headers: { location: login } }) };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    record.code = error.code;
    record.msg = bounded(error.msg, 200);
    record.reason = apiErrorReason(error.code, error.msg, 'channelUserJump');
    record.outcome = `${error.code} ${record.msg} (${record.reason})`;
    outcome = render({ kind: 'refusal', code: error.code, msg: error.msg }, setup.successCode);
  }
  record.ms = Math.round(performance.now() - started);
  setup.onRequest(record);
  return outcome;
}

function answerLogin(setup: ChannelUserSetup, url: URL): Outcome {
  try {
    const { back } = setup.channelUsers.login(url.searchParams);
    return { kind: 'response', response: new Response(null, { status: 302, headers: { location: back } }) };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return render({ kind: 'refusal', code: error.code, msg: error.msg }, setup.successCode);
  }
}
