import { GatewayValidationError } from '../errors.js';
import { compareCaseInsensitive, foldCase } from './compare-fragments.js';
import { md5Hex } from './md5.js';

/** A value the gateway can sign: every signed field is a scalar (objects travel as JSON strings). */
export type SignableValue = string | number | boolean | bigint | null | undefined;

/** Parameters to sign: field name to scalar value. A `sign` member is ignored. */
export type SignableParams = Readonly<Record<string, SignableValue>>;

/**
 * Signs parameters with the gateway's MD5 rule: every field but `sign`, without `null`, `undefined` and
 * `""`, as `key=value&` fragments sorted case-insensitively (Java's order), then `key=SECRET`, MD5 over
 * UTF-8, upper-case hex. `0`, `false` and whitespace are kept; nothing is trimmed or URL-encoded.
 *
 * @param params - the fields to sign (an object or a `Map`); values must be scalars (serialize objects with `JSON.stringify` first)
 * @param secret - the merchant application's secret
 * @returns the 32-character upper-case hex signature
 * @throws {@link GatewayValidationError} when a value is an object, a function or a non-finite number
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
  const fragments: Fragment[] = [];
  if (params instanceof Map) for (const [key, value] of params) addFragment(fragments, key, value);
  else for (const key in params) if (Object.hasOwn(params, key)) addFragment(fragments, key, (params as SignableParams)[key]);
  // A key containing '=' breaks the folded-key shortcut (see byJavaOrder): compare such fragments whole.
  fragments.sort(fragments.some((f) => f[2]) ? (a, b) => compareCaseInsensitive(a[1], b[1]) : byJavaOrder);
  let text = '';
  for (const fragment of fragments) text += fragment[1];
  return `${text}key=${secret}`;
}

function addFragment(fragments: Fragment[], key: string, value: unknown): void {
  if (key === 'sign') return;
  const text = signText(key, value);
  if (text !== undefined) fragments.push([foldCase(key) + '=', `${key}=${text}&`, key.includes('=')]);
}

/** A fragment `key=value&` with its sort key (the case-folded `key=`) and whether its key contains '='. */
type Fragment = [sortKey: string, fragment: string, keyHasEquals: boolean];

// Keys are unique, so two fragments' order is decided within `key=` unless the keys are equal when
// folded ('A' and 'a'): only then are the whole fragments compared. (A key containing '=' breaks this.) Native string comparison of folded
// keys is Java's CASE_INSENSITIVE_ORDER, and much cheaper than comparing character by character in JS.
function byJavaOrder(a: Fragment, b: Fragment): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return compareCaseInsensitive(a[1], b[1]);
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
