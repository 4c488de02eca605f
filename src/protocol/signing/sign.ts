import { GatewayValidationError } from '../../errors/index.js';
import { compareCaseInsensitive, foldUnit } from './case-fold.js';
import { md5Hex } from './md5.js';

/**
 * A value the gateway can sign: every signed field is a scalar (objects travel as JSON strings).
 * `null`, `undefined` and `""` are left out of the signature, so an absent optional field needs no filtering.
 *
 * @example
 * ```ts
 * import { sign } from 'payment-gateway-sdk';
 *
 * const clientIp = request.headers.get('x-real-ip'); // null when absent: not signed
 * const signature = sign({ mchOrderNo: 'order-1001', amount: 1999, clientIp }, process.env.GATEWAY_SECRET!);
 * ```
 */
export type SignableValue = string | number | boolean | bigint | null | undefined;

/**
 * Parameters to sign: field name to scalar value. A `sign` member is ignored, so a received message can
 * be checked as it is.
 *
 * @example
 * ```ts
 * import { sign } from 'payment-gateway-sdk';
 *
 * // A request of an operation this SDK has no method for, signed by the gateway's rule.
 * const params: Parameters<typeof sign>[0] = { mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9', mchOrderNo: 'order-1001', reqTime: Date.now(), version: '1.0', signType: 'MD5' };
 * const body = { ...params, sign: sign(params, process.env.GATEWAY_SECRET!) };
 * ```
 */
export type SignableParams = Readonly<Record<string, SignableValue>>;

/**
 * Signs parameters with the gateway's MD5 rule: every field but `sign`, without `null`, `undefined` and
 * `""`, as `key=value&` fragments sorted case-insensitively (Java's order), then `key=SECRET`, MD5 over
 * UTF-8, upper-case hex. `0`, `false` and whitespace are kept; nothing is trimmed or URL-encoded.
 *
 * Two signed fields whose names differ only by case (`b` and `B`) are refused: Java's order cannot tell them
 * apart, so the gateway's signature would depend on the order they arrived in.
 *
 * @param params - the fields to sign (an object or a `Map`); values must be scalars (serialize objects with `JSON.stringify` first)
 * @param secret - the merchant application's secret
 * @returns the 32-character upper-case hex signature
 * @throws {@link GatewayValidationError} when a value is an object, a function or a non-finite number, a key or
 *   value is not well-formed UTF-16 (a lone surrogate), or two signed keys are the same but for case (it names
 *   both keys, never a value)
 *
 * @example
 * ```ts
 * import { sign } from 'payment-gateway-sdk';
 *
 * sign({ mchNo: 'M1621873433953', appId: '60cc09bce4b0f1c0b83761c9', amount: 100 }, 'test-api-key');
 * // => '9717AAF3E5A9D564ED93559644E8D620'
 * sign({ b: 0, B: 0 }, 'test-api-key'); // throws GatewayValidationError: "b" and "B" ... differ only by case
 * ```
 */
export function sign(params: SignableParams | ReadonlyMap<string, SignableValue>, secret: string): string {
  return md5Hex(signingString(params, secret));
}

/**
 * Two signed keys whose order Java's `String.CASE_INSENSITIVE_ORDER` leaves to the order they arrived in.
 * @internal
 */
export interface CaseTwins {
  readonly caseTwins: readonly [string, string];
}

/**
 * The string that is hashed. It contains the secret: internal, for the vector tests only; never log it.
 * @internal
 */
export function signingString(params: SignableParams | ReadonlyMap<string, SignableValue>, secret: string): string {
  const text = signingStringOrTwins(params, secret);
  if (typeof text !== 'string') throw caseTwinsError(text);
  return text;
}

/**
 * {@link signingString}, or the case twins that make the message's signature depend on its field order:
 * for verifiers, which refuse such a message with their own error.
 * @internal
 */
export function signingStringOrTwins(params: SignableParams | ReadonlyMap<string, SignableValue>, secret: string): string | CaseTwins {
  const fragments: string[] = [];
  let plainKeys = true;
  if (params instanceof Map) {
    for (const [key, value] of params as ReadonlyMap<string, SignableValue>) plainKeys = addFragment(fragments, key, value) && plainKeys;
  } else {
    const own = Object.keys(params);
    for (let i = 0; i < own.length; i++) plainKeys = addFragment(fragments, own[i]!, (params as SignableParams)[own[i]!]) && plainKeys;
  }
  // Sorted afresh for every call: nothing about one message (its keys, their order) is kept for the
  // next, so a received message cannot change how another is signed or verified.
  sortFragments(fragments);
  const twins = plainKeys ? adjacentTwins(fragments) : twinsAmongUnusualKeys(params, fragments);
  if (twins !== undefined) return { caseTwins: twins };
  let text = '';
  for (let i = 0; i < fragments.length; i++) text += fragments[i];
  text += `key=${secret}`;
  // UTF-8 has no bytes for a lone surrogate: Java would sign '?', a JS hash U+FFFD; neither is what was meant.
  if (!text.isWellFormed()) throw illFormed(params);
  return text;
}

/**
 * Why a message with case twins is refused, for every verifier's error: names only, never a value.
 * @internal
 */
export function caseTwinsReason({ caseTwins: [first, second] }: CaseTwins): string {
  return `it has two fields whose ${twinsAre(first, second)} (${quoted(first)} and ${quoted(second)}), so its signature depends on their order`;
}

// Names that are the same but for case, or (a name holding `=`) fragments that are.
const twinsAre = (first: string, second: string): string =>
  compareCaseInsensitive(first, second) === 0 ? 'names differ only by case' : 'name=value& fragments differ only by case';

const quoted = (key: string): string => JSON.stringify(key.slice(0, 64));

/**
 * The fields the signature covers, each as the text signed: without `sign`, `null`, `undefined` and `""`.
 * @internal
 */
export function signedTexts(params: SignableParams | ReadonlyMap<string, SignableValue>): Map<string, string> {
  const texts = new Map<string, string>();
  const entries = params instanceof Map ? (params as ReadonlyMap<string, SignableValue>).entries() : Object.entries(params);
  for (const [key, value] of entries) {
    const text = key === 'sign' ? undefined : signText(key, value);
    if (text !== undefined) texts.set(key, text);
  }
  return texts;
}

/** Adds the key's fragment if its value is signed; whether the key is plain (see {@link isPlainKey}). */
function addFragment(fragments: string[], key: string, value: unknown): boolean {
  if (key === 'sign') return true;
  const text = signText(key, value);
  if (text === undefined) return true;
  fragments.push(`${key}=${text}&`);
  return isPlainKey(key);
}

/** A key its fragment shows up to the fragment's first `=`, without a surrogate: every key of a real message. */
function isPlainKey(key: string): boolean {
  // A loop, not a regular expression: a third of the cost for a dozen short keys.
  for (let i = 0; i < key.length; i++) {
    const unit = key.charCodeAt(i);
    if (unit === EQUALS || (unit & 0xf800) === 0xd800) return false;
  }
  return true;
}

// Insertion sort for the dozen fragments of a real message (twice as fast as Array.prototype.sort with
// a comparator there); a hostile message with many fields gets the O(n log n) sort.
function sortFragments(fragments: string[]): void {
  if (fragments.length > 16) {
    fragments.sort(compareCaseInsensitive);
    return;
  }
  for (let i = 1; i < fragments.length; i++) {
    const fragment = fragments[i]!;
    let j = i;
    for (; j > 0 && compareCaseInsensitive(fragments[j - 1]!, fragment) > 0; j--) fragments[j] = fragments[j - 1]!;
    fragments[j] = fragment;
  }
}

/**
 * Case twins among plain keys, from the sorted fragments: up to its `=`, a fragment sorts by its key's
 * fold alone, so keys the same but for case sort next to each other. Costs one walk over the common
 * prefix of each neighbouring pair, as the sort's own comparisons do.
 */
function adjacentTwins(sorted: readonly string[]): [string, string] | undefined {
  for (let i = 1; i < sorted.length; i++) {
    const end = keysTwinUntil(sorted[i - 1]!, sorted[i]!);
    if (end > -1) return [sorted[i - 1]!.slice(0, end), sorted[i]!.slice(0, end)];
  }
  return undefined;
}

/** Where the keys of two fragments of plain keys end if they are the same but for case (distinct keys), else -1. */
function keysTwinUntil(a: string, b: string): number {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === EQUALS || y === EQUALS) return x === y ? i : -1;
    if (x !== y && foldUnit(x) !== foldUnit(y)) return -1;
  }
  return -1;
}

const EQUALS = 0x3d;

/**
 * The slow check, for messages with a key holding `=` or a surrogate (hostile, or exotic): keys whose
 * UTF-16 units fold alike, and fragments Java's order cannot tell apart (`𐐀=x&` and `𐐨=x&`: JDK 17 folds
 * supplementary letters as whole code points; `a=b` / `b` and `a` / `B=b` write one fragment twice).
 */
function twinsAmongUnusualKeys(params: SignableParams | ReadonlyMap<string, SignableValue>, sorted: readonly string[]): [string, string] | undefined {
  const signed = signedTexts(params);
  // Local to this call: filled by received keys, dropped when it returns.
  const byFold = new Map<string, string>();
  for (const key of signed.keys()) {
    let folded = '';
    for (let i = 0; i < key.length; i++) folded += String.fromCharCode(foldUnit(key.charCodeAt(i)));
    const twin = byFold.get(folded);
    if (twin !== undefined) return [twin, key];
    byFold.set(folded, key);
  }
  for (let i = 1; i < sorted.length; i++) {
    const pair = [sorted[i - 1]!, sorted[i]!];
    if (compareCaseInsensitive(pair[0]!, pair[1]!) !== 0) continue;
    // Two keys can write the very same fragment (`a=b` with `c`, `a` with `b=c`): take two distinct keys.
    const [first, second] = [...signed].filter(([key, text]) => pair.includes(`${key}=${text}&`)).map(([key]) => key);
    return [first!, second!];
  }
  return undefined;
}

function caseTwinsError(twins: CaseTwins): GatewayValidationError {
  const [first, second] = twins.caseTwins;
  return new GatewayValidationError('Cannot sign these parameters', [
    {
      path: [first],
      message: `and ${quoted(second)}: two fields whose ${twinsAre(first, second)}; the gateway sorts fields case-insensitively (Java's order), so the signature would depend on their order: send one of them`,
    },
  ]);
}

function illFormed(params: SignableParams | ReadonlyMap<string, SignableValue>): GatewayValidationError {
  const entries = params instanceof Map ? [...(params as ReadonlyMap<string, SignableValue>)] : Object.entries(params);
  const [key = 'key'] = entries.find(([k, v]) => k !== 'sign' && (!k.isWellFormed() || (typeof v === 'string' && !v.isWellFormed()))) ?? [];
  return unsignable(key, 'contains a lone surrogate (text cut inside an emoji or another pair?); only well-formed text can be signed');
}

function signText(key: string, value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return value === '' ? undefined : value;
    case 'number':
      if (!Number.isFinite(value)) throw unsignable(key, 'is not a finite number');
      return String(value);
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'undefined':
      return undefined;
    default:
      if (value === null) return undefined;
      throw unsignable(key, `is ${typeof value === 'object' ? 'an object' : `a ${typeof value}`}; signed values are scalars (serialize objects with JSON.stringify first)`);
  }
}

function unsignable(key: string, problem: string): GatewayValidationError {
  return new GatewayValidationError('Cannot sign these parameters', [{ path: [key], message: problem }]);
}
