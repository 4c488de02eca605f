import { GatewayValidationError } from '../../errors/index.js';
import { findAmbiguity } from './one-reading.js';
import { md5Hex } from './md5.js';
import { signedTexts, signingStringOrTwins, type CaseTwins, type SignableParams, type SignableValue } from './sign.js';

/**
 * Compares two signatures in time that depends only on their length, case-insensitively (the gateway
 * accepts either case). Never short-circuits on the first differing character.
 */
export function signaturesEqual(received: string, expected: string): boolean {
  if (received.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) {
    diff |= foldCase(received.charCodeAt(i)) ^ foldCase(expected.charCodeAt(i));
  }
  return diff === 0;
}

// ASCII upper-casing without a branch, so the comparison takes the same time whatever the sign holds:
// a-z (97-122) become A-Z, every other unit stays.
function foldCase(c: number): number {
  const isLower = ((96 - c) >>> 31) & ((c - 123) >>> 31);
  return c - (isLower << 5);
}

/**
 * Whether `received` is the signature of `params` under `secret`, compared in constant time: the
 * signature alone, for callers that check the signed text's one reading themselves.
 * @internal
 */
export function signatureMatches(params: SignableParams | ReadonlyMap<string, SignableValue>, secret: string, received: unknown): boolean {
  return signatureVerdict(params, secret, received) === true;
}

/**
 * {@link signatureMatches}, or the case twins that leave the message without one signature (two fields
 * whose names differ only by case: see {@link sign}), for verifiers that say why they refuse it.
 * @internal
 */
export function signatureVerdict(params: SignableParams | ReadonlyMap<string, SignableValue>, secret: string, received: unknown): boolean | CaseTwins {
  if (typeof received !== 'string' || received === '') return false;
  let text: string | CaseTwins;
  try {
    text = signingStringOrTwins(params, secret);
  } catch (error) {
    if (error instanceof GatewayValidationError) return false;
    throw error;
  }
  return typeof text === 'string' ? signaturesEqual(received, md5Hex(text)) : text;
}

/**
 * Options of {@link verifySign}.
 *
 * @example
 * ```ts
 * const options: VerifySignOptions = { urlField: 'notifyUrl' }; // a settlement notification's own URL
 * ```
 */
export interface VerifySignOptions {
  /**
   * The one field of the message that may hold a URL with a query string (`payData` of a `unifiedOrder`
   * answer, `notifyUrl` of a settlement notification): its `&name=` is allowed where no re-split of the
   * sorted text is possible. Every other value holding `&name=` makes the result `false`.
   */
  readonly urlField?: string;
}

/**
 * Whether `received` is the signature of `params` under `secret` (constant time) **and** the signed text
 * has one reading: every name is an identifier and no value holds `&name=` (but `options.urlField`'s, as
 * far as the gateway's sort allows), since the signature covers the fields joined as `name=value&` and
 * cannot tell `subject=Gift&state=2` from two fields. Parameters that cannot be signed are `false`, and so
 * are two fields whose names differ only by case (`b`, `B`: their signature depends on their order). Prefer
 * {@link verifyNotification}, which also refuses repeated fields and checks the merchant, shape and amounts.
 *
 * @example
 * ```ts
 * verifySign({ amount: 100, mchOrderNo: 'order-1001' }, 'SECRET', receivedSign); // true or false
 * verifySign({ mchOrderNo: 'Gift&state=2' }, 'SECRET', receivedSign); // false: two readings
 * verifySign({ b: '0', B: '0' }, 'SECRET', receivedSign); // false: names that differ only by case
 * ```
 */
export function verifySign(params: SignableParams | ReadonlyMap<string, SignableValue>, secret: string, received: unknown, options: VerifySignOptions = {}): boolean {
  return signatureMatches(params, secret, received) && findAmbiguity(signedTexts(params), options.urlField) === undefined;
}
