/**
 * The payer's channel user id (the reference's `GET /api/channelUserId/jump`, spec channel-user.md): the
 * parameters of the signed jump URL, what the gateway appends to `redirectUrl` on the way back, and the
 * unsigned record read from it.
 *
 * @module
 */
import * as z from 'zod/mini';
import { named } from './fields.js';
import { lazySchema } from './lazy.js';

/** The jump's path below the gateway's base URL. */
export const CHANNEL_USER_JUMP_PATH = '/api/channelUserId/jump';

/** What the gateway appends to `redirectUrl` on the way back, each only when it has a value. */
export const CHANNEL_USER_RETURN_FIELDS = ['appId', 'channelUserId', 'extParam'] as const;

/** The longest `redirectUrl` taken: the jump URL carries it percent-encoded, and the way back adds the id. */
export const MAX_REDIRECT_URL_LENGTH = 2048;

/** The longest `extParam` taken: it travels through two redirects in the payer's address bar. */
export const MAX_CHANNEL_USER_EXT_PARAM_LENGTH = 512;

/** The channels the jump can ask: `AUTO` (the payer's app decides), `wxpay` or `alipay`, spelled so. */
export const CHANNEL_USER_IF_CODES = ['AUTO', 'wxpay', 'alipay'] as const;

const IF_CODE_MESSAGE = "must be 'AUTO' (by the payer's browser), 'wxpay' or 'alipay', spelled so";

const channelUserUrlParamsObject = () =>
  z.strictObject({
    /**
     * The channel whose id is wanted: `wxpay` (the WeChat openid), `alipay` (the Alipay user id), or `AUTO`, which
     * the gateway resolves by the payer's browser (WeChat or Alipay; any other browser is refused with
     * `不支持的客户端`). The gateway takes `AUTO` in any case; this SDK takes that one spelling.
     */
    ifCode: z.enum(CHANNEL_USER_IF_CODES, { error: IF_CODE_MESSAGE }),
    /**
     * Where the gateway sends the payer's browser back, with `channelUserId`, `appId` and `extParam` appended: an
     * absolute `http://` or `https://` URL (lower case, as the gateway compares), without whitespace, at most 2048
     * characters, whose way back can be read (not already holding one of the appended names, no query without `=`).
     */
    redirectUrl: z.string({ error: 'must be a string' }).check(z.superRefine((value, ctx) => reportProblem(redirectUrlProblem(value), value, ctx.issues))),
    /**
     * Your text, handed back unchanged on the way back: put a random state bound to the payer's session here and
     * compare it on return (`expectExtParam`). Without `&`, `=` and `+`, which the way back does not escape (encode
     * other text as base64url); at most 512 characters.
     */
    extParam: z.optional(z.string({ error: 'must be a string' }).check(z.superRefine((value, ctx) => reportProblem(extParamProblem(value), value, ctx.issues)))),
  });

/** Checks {@link ChannelUserUrlParams}. */
export const channelUserUrlParamsSchema = lazySchema(() => named<ChannelUserUrlParams, ChannelUserUrlParams>()(channelUserUrlParamsObject()));

/**
 * Parameters of `GatewayClient.channelUserUrl`: the channel, where the payer comes back, and your state.
 *
 * @example
 * ```ts
 * import type { GatewayClient } from 'payment-gateway-sdk';
 *
 * const params: GatewayClient.ChannelUserUrlParams = { ifCode: 'wxpay', redirectUrl: 'https://shop.example.com/pay/openid', extParam: crypto.randomUUID() };
 * ```
 */
export interface ChannelUserUrlParams extends z.output<ReturnType<typeof channelUserUrlParamsObject>> {}

/**
 * What the payer's browser brought back from the jump: **not signed**. The gateway appends these to `redirectUrl`
 * without a signature, a time or anything of the request, so anyone can open your `redirectUrl` with any
 * `channelUserId`. Use it only to name who pays (`channelExtra.openid`, `buyerUserId` of a JSAPI or mini-program
 * order, where the channel checks it against the payer), for the session that started the jump (the state in
 * `extParam`); never to credit, refund or transfer money, nor to identify a customer account.
 *
 * @example
 * ```ts
 * const expectExtParam = 'kX9m2PqR7vT1wYz3bC5dEg'; // the state given to channelUserUrl, from this payer's session
 * const payer: GatewayClient.UnsignedChannelUser = client.readChannelUserRedirect(request.url, { expectExtParam });
 * await client.unifiedOrder({ ...order, wayCode: 'WX_JSAPI', channelExtra: { openid: payer.channelUserId } });
 * ```
 */
export interface UnsignedChannelUser {
  /** The payer's id at the channel (WeChat `openid`, Alipay `user_id`), as the browser brought it: unsigned. */
  readonly channelUserId: string;
  /** The merchant application the way back names: this client's (checked), unsigned. */
  readonly appId: string;
  /** Your `extParam` as it came back, unsigned: compared with `expectExtParam` when you gave it. */
  readonly extParam?: string | undefined;
}

/**
 * The parameters the gateway appended to a return URL, as the browser brought them: the query's pairs and the
 * fragment's (the gateway appends after a `#fragment`, for hash-routed pages), each name with every value it
 * has, `+` read as a space and `%XX` as UTF-8, as a server reads a query.
 */
export function appendedParams(url: URL): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const add = (query: string) => {
    for (const [name, value] of new URLSearchParams(query)) found.set(name, [...(found.get(name) ?? []), value]);
  };
  add(url.search);
  const fragment = url.hash.slice(1);
  if (fragment !== '') {
    // The first segment is the page's route (`/pay`), or the route with the first pair after its `?`.
    const [route = '', ...pairs] = fragment.split('&');
    const question = route.indexOf('?');
    add([question === -1 ? '' : route.slice(question + 1), ...pairs].join('&'));
  }
  return found;
}

function reportProblem(problem: string | undefined, input: string, issues: { push(issue: { code: 'custom'; message: string; input: string }): void }): void {
  if (problem !== undefined) issues.push({ code: 'custom', message: problem, input });
}

function redirectUrlProblem(value: string): string | undefined {
  // Lower-case scheme, as the gateway compares (it refuses anything else with 跳转地址有误！); no whitespace a browser would drop.
  if (!/^https?:\/\/[^\s\p{Cc}]+$/u.test(value) || !URL.canParse(value) || new URL(value).hostname === '') {
    return 'must be an absolute http:// or https:// URL without whitespace, e.g. https://shop.example.com/pay/openid';
  }
  if (value.length > MAX_REDIRECT_URL_LENGTH) return `must be at most ${MAX_REDIRECT_URL_LENGTH} characters: keep your state in extParam`;
  if (!readableReturn(value)) {
    return "would come back unreadable: it holds appId, channelUserId or extParam, or a query without '=' (?flag), to which the gateway appends them as text; rename it or give it a value";
  }
  return undefined;
}

/** Whether the way back to `redirectUrl` can be read: the gateway's appending (spec section 2) tried, each name found once. */
function readableReturn(redirectUrl: string): boolean {
  const appended = `${redirectUrl}${redirectUrl.includes('?') ? '' : '?'}${redirectUrl.includes('=') ? '&' : ''}appId=a&channelUserId=c&extParam=e`;
  const found = appendedParams(new URL(appended));
  return CHANNEL_USER_RETURN_FIELDS.every((name) => found.get(name)?.length === 1);
}

function extParamProblem(value: string): string | undefined {
  if (value.length > MAX_CHANNEL_USER_EXT_PARAM_LENGTH) return `must be at most ${MAX_CHANNEL_USER_EXT_PARAM_LENGTH} characters: keep a random state here, the rest in your session`;
  if (value === '' || /[&=+\p{Cc}]/u.test(value) || !value.isWellFormed()) {
    return "must be text without '&', '=', '+' or control characters: the gateway appends it to redirectUrl unescaped, so it would come back split or changed; encode it as base64url";
  }
  return undefined;
}
