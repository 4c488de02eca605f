import { GatewayValidationError } from '../../errors/index.js';
import { compareCaseInsensitive } from './case-fold.js';
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
 * @param params - the fields to sign (an object or a `Map`); values must be scalars (serialize objects with `JSON.stringify` first)
 * @param secret - the merchant application's secret
 * @returns the 32-character upper-case hex signature
 * @throws {@link GatewayValidationError} when a value is an object, a function or a non-finite number, or a key or
 *   value is not well-formed UTF-16 (a lone surrogate)
 *
 * @example
 * ```ts
 * import { sign } from 'payment-gateway-sdk';
 *
 * sign({ mchNo: 'M1621873433953', appId: '60cc09bce4b0f1c0b83761c9', amount: 100 }, 'test-api-key');
 * // => '9717AAF3E5A9D564ED93559644E8D620'
 * ```
 */
export function sign(params: SignableParams | ReadonlyMap<string, SignableValue>, secret: string): string {
  return md5Hex(signingString(params, secret));
}

/**
 * The string that is hashed. It contains the secret: internal, for the vector tests only; never log it.
 * @internal
 */
export function signingString(params: SignableParams | ReadonlyMap<string, SignableValue>, secret: string): string {
  const fragments: string[] = [];
  if (params instanceof Map) {
    for (const [key, value] of params as ReadonlyMap<string, SignableValue>) addFragment(fragments, key, value);
  } else {
    const own = Object.keys(params);
    for (let i = 0; i < own.length; i++) addFragment(fragments, own[i]!, (params as SignableParams)[own[i]!]);
  }
  // Sorted afresh for every call: nothing about one message (its keys, their order) is kept for the
  // next, so a received message cannot change how another is signed or verified.
  sortFragments(fragments);
  let text = '';
  for (let i = 0; i < fragments.length; i++) text += fragments[i];
  text += `key=${secret}`;
  // UTF-8 has no bytes for a lone surrogate: Java would sign '?', a JS hash U+FFFD; neither is what was meant.
  if (!text.isWellFormed()) throw illFormed(params);
  return text;
}

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

function addFragment(fragments: string[], key: string, value: unknown): void {
  if (key === 'sign') return;
  const text = signText(key, value);
  if (text !== undefined) fragments.push(`${key}=${text}&`);
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
