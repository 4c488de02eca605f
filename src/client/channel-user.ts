/**
 * The payer's channel user id: the signed jump URL the payer's browser is sent to, and the reading of the
 * unsigned way back (spec channel-user.md). Nothing is sent by the SDK: the browser follows the URL.
 *
 * @module
 */
import * as z from 'zod/mini';
import { GatewayValidationError, type ValidationIssue } from '../errors/index.js';
import {
  appendedParams,
  CHANNEL_USER_JUMP_PATH,
  CHANNEL_USER_RETURN_FIELDS,
  channelUserUrlParamsSchema,
  type UnsignedChannelUser,
} from '../protocol/schemas/channel-user.js';
import { requiredText } from '../protocol/schemas/fields.js';
import { parseInput } from '../protocol/schemas/parse.js';
import { equalInConstantTime } from '../util/constant-time.js';
import { signRequest, type ValidParams } from './encode-request.js';

/** The longest return URL read: the merchant's `redirectUrl` (2048 at most) and what the gateway appends fit well within. */
export const MAX_CHANNEL_USER_RETURN_LENGTH = 8192;

// A WeChat openid is 28 characters, an Alipay user id 16 digits (an open_id some 60): anything longer is no id.
const CHANNEL_USER_ID = /^[\x21-\x7e]{1,128}$/;

const UNUSABLE = 'Cannot use this channel user redirect';
const NOT_GATEWAYS = "not a return of the gateway's jump; discard it, send the payer to a fresh channelUserUrl";

// Where a path-only URL (Express's req.url, /pay/openid?...) is read against: only its query and fragment are used.
const PATH_BASE = 'http://return.invalid';

/**
 * Options of `GatewayClient.readChannelUserRedirect`: the payer's session state to compare, or the explicit choice
 * to read a return bound to no session. One of the two is required: the check fails closed.
 *
 * @example
 * ```ts
 * const options: GatewayClient.ReadChannelUserRedirectOptions = { expectExtParam: 'kX9m2PqR7vT1wYz3bC5dEg' }; // the state from the payer's session
 * ```
 */
export type ReadChannelUserRedirectOptions =
  | {
      /**
       * The `extParam` you gave `channelUserUrl` for this payer's session (a random state): the return must bring
       * exactly it back, compared in constant time, or it is refused (a missing one too).
       */
      readonly expectExtParam: string;
      readonly acceptAnySession?: undefined;
    }
  | {
      /**
       * `true`: read the return without comparing a session state. Then any link to your `redirectUrl` with any
       * `channelUserId` is read as this payer's: only for a page that names no payer by it (a test, a demo).
       */
      readonly acceptAnySession: true;
      readonly expectExtParam?: undefined;
    };

// One object and one rule rather than a union of two (zod's union costs 0.2 KB gzipped in the bundle): exactly one
// of the two is given.
const readOptionsSchema = () =>
  z
    .strictObject({
      expectExtParam: z.optional(requiredText()),
      acceptAnySession: z.optional(z.literal(true, { error: 'must be true, or give expectExtParam instead' })),
    })
    .check(
      z.refine((options) => (options.expectExtParam === undefined) !== (options.acceptAnySession === undefined), {
        error: 'give expectExtParam (the state this session sent) or acceptAnySession: true, one of them',
      }),
    );

/** What the links are made with: the client's checked options, the secret among them (never logged or shown). */
export interface ChannelUserContext {
  readonly baseUrl: string;
  readonly mchNo: string;
  readonly appId: string;
  readonly version: string;
  readonly secret: string;
  readonly now: () => number;
}

/** Builds the signed jump URL of {@link ChannelUserContext}'s application, and reads the way back. */
export class ChannelUserLinks {
  readonly #context: ChannelUserContext;

  constructor(context: ChannelUserContext) {
    this.#context = context;
  }

  /** The signed jump URL: the nine names, the raw values signed, then each key and value percent-encoded. */
  url(params: unknown): string {
    const { ifCode, redirectUrl, extParam } = parseInput(channelUserUrlParamsSchema(), params, 'Invalid channelUserUrl parameters, no URL was built', 'request', 'channelUserUrl');
    const fields: ValidParams = extParam === undefined ? { ifCode, redirectUrl } : { ifCode, redirectUrl, extParam };
    // A fresh reqTime per URL: the gateway never checks it, but a URL per attempt is what the reference's SDK builds.
    const signed = signRequest('channelUserUrl', fields, { ...this.#context, reqTime: this.#context.now() });
    const query = Object.entries(signed).map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
    return `${this.#context.baseUrl.replace(/\/+$/, '')}${CHANNEL_USER_JUMP_PATH}?${query.join('&')}`;
  }

  /** The unsigned record of a return URL, checked against this application and the caller's state. */
  read(url: unknown, options: unknown): UnsignedChannelUser {
    if (options === undefined) throw missingSessionCheck();
    const { expectExtParam } = parseInput(readOptionsSchema(), options, 'Invalid readChannelUserRedirect options', 'options', 'readChannelUserRedirect');
    const params = appendedParams(parseReturnUrl(url));
    const issues: ValidationIssue[] = [];
    const one = (name: (typeof CHANNEL_USER_RETURN_FIELDS)[number]): string | undefined => {
      const values = params.get(name) ?? [];
      if (values.length > 1) issues.push({ path: [name], message: `appears ${values.length} times: ${NOT_GATEWAYS}` });
      return values.length === 1 && values[0] !== '' ? values[0] : undefined;
    };
    const [appId, channelUserId, extParam] = CHANNEL_USER_RETURN_FIELDS.map(one);
    // Absent or empty; a repeated one is reported above.
    const missing = (name: string, value: string | undefined) => value === undefined && (params.get(name)?.length ?? 0) <= 1;
    if (missing('appId', appId)) issues.push({ path: ['appId'], message: `is missing: ${NOT_GATEWAYS}` });
    else if (appId !== undefined && appId !== this.#context.appId) issues.push({ path: ['appId'], message: "is another application's: read it with that application's client" });
    if (missing('channelUserId', channelUserId)) {
      issues.push({ path: ['channelUserId'], message: "is missing: the channel did not give the payer's id (its exchange failed); send the payer to a fresh channelUserUrl, do not create the order" });
    } else if (channelUserId !== undefined && !CHANNEL_USER_ID.test(channelUserId)) {
      issues.push({ path: ['channelUserId'], message: `is no channel user id: ${NOT_GATEWAYS}` });
    }
    if (expectExtParam !== undefined && (extParam === undefined || !equalInConstantTime(extParam, expectExtParam))) {
      issues.push({
        path: ['extParam'],
        message: "does not match expectExtParam: not this session's return (forged or replayed); discard it, send the payer to a fresh channelUserUrl",
      });
    }
    if (issues.length > 0) throw new GatewayValidationError(UNUSABLE, issues, { operation: 'readChannelUserRedirect' });
    return extParam === undefined ? { channelUserId: channelUserId!, appId: appId! } : { channelUserId: channelUserId!, appId: appId!, extParam };
  }
}

// Fails closed: a return compared with nothing would be any session's.
function missingSessionCheck(): GatewayValidationError {
  return new GatewayValidationError(UNUSABLE, [{ path: ['options'], message: "are missing: give { expectExtParam } (the state of this payer's session), or { acceptAnySession: true } to read it bound to no session" }], {
    operation: 'readChannelUserRedirect',
  });
}

/** The return URL, absolute or path-only, bounded before it is parsed. */
function parseReturnUrl(url: unknown): URL {
  const text = url instanceof URL ? url.href : url;
  const refuse = (message: string) => new GatewayValidationError(UNUSABLE, [{ path: [], message }], { operation: 'readChannelUserRedirect' });
  if (typeof text !== 'string') throw refuse('must be the URL the payer came back to (request.url)');
  if (text.length > MAX_CHANNEL_USER_RETURN_LENGTH) throw refuse(`is longer than ${MAX_CHANNEL_USER_RETURN_LENGTH} characters: ${NOT_GATEWAYS}`);
  const parsed = text.startsWith('/') && !text.startsWith('//') ? new URL(text, PATH_BASE) : URL.canParse(text) ? new URL(text) : undefined;
  if (parsed === undefined) throw refuse('is not a URL: give the URL the payer came back to, absolute or its path and query (request.url)');
  return parsed;
}
