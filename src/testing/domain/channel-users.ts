/**
 * The payer's channel user id, as the reference's `GET /api/channelUserId/jump` gives it (spec channel-user.md):
 * the jump's query read and refused in the reference's order, the context handed to the stand-in channel login,
 * and the way back to `redirectUrl` appended as the reference appends it. Nothing received is kept: the context
 * travels in the login URL, signed with the mock's own key.
 *
 * @module
 */
import * as z from 'zod/mini';
import { md5Hex } from '../../protocol/signing/md5.js';
import { sign } from '../../protocol/signing/sign.js';
import { signaturesEqual, signatureMatches } from '../../protocol/signing/verify.js';
import type { MerchantRegistry } from './merchants.js';
import { MESSAGES, Refusal, refuse } from './refusals.js';

/**
 * What the stand-in channel does with the coming logins: `succeed` (the payer's fake id comes back, the default) or
 * `fail` (the code exchange fails: the browser comes back without `channelUserId`, as from the reference).
 *
 * @example
 * ```ts
 * gateway.setChannelUserMode('fail'); // the next returns carry appId and extParam only
 * ```
 */
export type ChannelUserMode = 'succeed' | 'fail';

/** Checks a {@link ChannelUserMode}. */
export const channelUserModeSchema = z.enum(['succeed', 'fail'], { error: "must be 'succeed' or 'fail'" });

/** The nine names the reference binds from the jump's query (`ChannelUserIdRQ` and its parents); any other is dropped. */
const JUMP_FIELDS = ['mchNo', 'appId', 'ifCode', 'redirectUrl', 'extParam', 'reqTime', 'version', 'signType', 'sign'] as const;

/** The reference's `@NotBlank` texts, in the order the mock checks them. */
const REQUIRED: readonly (readonly [(typeof JUMP_FIELDS)[number], string])[] = [
  ['mchNo', '商户号不能为空'],
  ['appId', '商户应用ID不能为空'],
  ['ifCode', '接口代码不能为空'],
  ['redirectUrl', '回调地址不能为空'],
  ['version', '版本号不能为空'],
  ['signType', '签名类型不能为空'],
  ['sign', '签名值不能为空'],
  ['reqTime', '时间戳不能为空'],
];

/** The reference's system-error code and a text, for a changed login context (the reference's tampered `{aes}`). */
const SYSTEM_ERROR = 10;
const CONTEXT_CHANGED = '系统异常 (the channel login context was changed)';

/** What the gateway hands the channel's login (the reference AES-encrypts it into its callback URL). */
export interface ChannelUserContext {
  readonly mchNo: string;
  readonly appId: string;
  /** The resolved channel: `wxpay` or `alipay`. */
  readonly ifCode: 'wxpay' | 'alipay';
  readonly redirectUrl: string;
  readonly extParam?: string | undefined;
}

/** The jump's query bound as the reference binds it: the nine names, each its last value. */
export function bindJump(query: URLSearchParams): Record<string, string> {
  const bound: Record<string, string> = {};
  for (const name of JUMP_FIELDS) {
    const value = query.getAll(name).at(-1);
    if (value !== undefined) bound[name] = value;
  }
  return bound;
}

export class ChannelUserDesk {
  #mode: ChannelUserMode = 'succeed';
  // The mock's own key for the login context, never a merchant's: made per gateway, never shown.
  readonly #key = Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');

  constructor(readonly merchants: MerchantRegistry) {}

  setMode(mode: ChannelUserMode): void {
    this.#mode = mode;
  }

  get mode(): ChannelUserMode {
    return this.#mode;
  }

  /**
   * Checks a bound jump in the reference's order and gives the context for the channel's login.
   *
   * @throws {@link Refusal} with the reference's text
   */
  jump(bound: Readonly<Record<string, string>>, userAgent: string): ChannelUserContext {
    for (const [name, text] of REQUIRED) if ((bound[name] ?? '').trim() === '') throw refuse(text);
    if (bound.signType !== 'MD5') throw refuse(MESSAGES.signTypeUnsupported);
    if (!/^\d{13}$/.test(bound.reqTime!)) throw refuse(MESSAGES.reqTimeFormat);
    const app = this.merchants.authenticate(bound.mchNo!, bound.appId!);
    if (!signatureMatches(bound, app.secret, bound.sign)) throw refuse(MESSAGES.signatureMismatch);
    const ifCode = resolveIfCode(bound.ifCode!, userAgent);
    if (ifCode === undefined) throw refuse(MESSAGES.unsupportedClient);
    const redirectUrl = bound.redirectUrl!;
    if (!redirectUrl.startsWith('http://') && !redirectUrl.startsWith('https://')) throw refuse(MESSAGES.badRedirectUrl);
    return { mchNo: app.mchNo, appId: app.appId, ifCode, redirectUrl, extParam: bound.extParam === '' ? undefined : bound.extParam };
  }

  /** The context as the query of the stand-in login's URL, signed with the mock's key. */
  loginQuery(context: ChannelUserContext): string {
    const ctx = toBase64Url(JSON.stringify(context));
    return `ctx=${ctx}&sig=${sign({ ctx }, this.#key)}`;
  }

  /**
   * The stand-in channel's answer to a login: the URL the browser goes back to, with `channelUserId` unless the
   * mode is `fail`.
   *
   * @throws {@link Refusal} (system error) when the context was changed
   */
  login(query: URLSearchParams): { readonly back: string; readonly context: ChannelUserContext; readonly channelUserId: string | undefined } {
    const ctx = query.get('ctx') ?? '';
    if (!signaturesEqual(query.get('sig') ?? '', sign({ ctx }, this.#key))) throw new Refusal(SYSTEM_ERROR, CONTEXT_CHANGED);
    const context = JSON.parse(fromBase64Url(ctx)) as ChannelUserContext;
    const channelUserId = this.#mode === 'fail' ? undefined : fakeChannelUserId(context);
    return { back: appendReturn(context.redirectUrl, { appId: context.appId, channelUserId, extParam: context.extParam }), context, channelUserId };
  }
}

/** `AUTO` (any case) by the browser; otherwise the bean's exact name. */
function resolveIfCode(ifCode: string, userAgent: string): 'wxpay' | 'alipay' | undefined {
  if (ifCode.toUpperCase() === 'AUTO') return userAgent.includes('Alipay') ? 'alipay' : userAgent.includes('MicroMessenger') ? 'wxpay' : undefined;
  return ifCode === 'wxpay' || ifCode === 'alipay' ? ifCode : undefined;
}

/**
 * The payer's fake id at the channel, the same for a merchant application and channel every time: a WeChat-like
 * openid (`oMock…`, 28 characters) or an Alipay-like user id (`2088` and 12 digits).
 *
 * @example
 * ```ts
 * fakeChannelUserId({ mchNo: 'M1', appId: 'app-1', ifCode: 'wxpay' }); // 'oMock' + 23 hex digits
 * ```
 */
export function fakeChannelUserId({ mchNo, appId, ifCode }: Pick<ChannelUserContext, 'mchNo' | 'appId' | 'ifCode'>): string {
  const hash = md5Hex(`${mchNo}\u0000${appId}\u0000${ifCode}`).toLowerCase();
  if (ifCode === 'wxpay') return `oMock${hash.slice(0, 23)}`;
  return `2088${(BigInt(`0x${hash}`) % 10n ** 12n).toString().padStart(12, '0')}`;
}

/**
 * `redirectUrl` with the parameters appended as the reference's `StringKit.appendUrlQuery` does: `?` when it has
 * none, `&` before each once it holds a `=`, at the very end (after a `#fragment`), each value through Hutool's
 * query encoding (`&`, `=`, `+`, `/`, `?` and the other query characters left as they are).
 */
export function appendReturn(redirectUrl: string, params: Readonly<Record<string, string | undefined>>): string {
  let url = redirectUrl.includes('?') ? redirectUrl : `${redirectUrl}?`;
  let hasCondition = redirectUrl.includes('=');
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    url += `${hasCondition ? '&' : ''}${name}=${encodeQuery(value)}`;
    hasCondition = true;
  }
  // A Location header is ASCII: what the merchant's URL holds beyond it travels percent-encoded.
  return url.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
}

// RFC 3986's query characters, which encodeURIComponent escapes but Hutool's encodeQuery leaves as they are.
const QUERY_KEPT = /%(?:24|26|2B|2C|2F|3A|3B|3D|3F|40)/g;

function encodeQuery(value: string): string {
  return encodeURIComponent(value).replace(QUERY_KEPT, (escape) => decodeURIComponent(escape));
}

// The login context in a URL, without Buffer: the mock also runs in a browser (msw).
function toBase64Url(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string {
  return new TextDecoder().decode(Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)));
}
