import { GatewayValidationError } from '../errors.js';
import { foldCase, foldKey } from './case-fold.js';
import { md5Hex } from './md5.js';

/**
 * A value the gateway can sign: every signed field is a scalar (objects travel as JSON strings).
 * `null`, `undefined` and `""` are left out of the signature, so an absent optional field needs no filtering.
 *
 * @example
 * ```ts
 * import { sign, type SignableValue } from 'payment-gateway-sdk';
 *
 * const clientIp: SignableValue = request.headers.get('x-real-ip'); // null when absent: not signed
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
 * import { verifySign, type SignableParams } from 'payment-gateway-sdk';
 *
 * // A form body as received (verifyNotification does this and also checks merchant, shape and amounts).
 * const fields: SignableParams = Object.fromEntries(new URLSearchParams(rawBody));
 * const authentic = verifySign(fields, process.env.GATEWAY_SECRET!, fields.sign);
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
  const keys: string[] = [];
  const texts: string[] = [];
  // Keys first, values looked up: fewer allocations than entries on this hot path.
  const map = params instanceof Map ? params : undefined;
  const own = map ? [...map.keys()] : Object.keys(params);
  for (let i = 0; i < own.length; i++) {
    const key = own[i] as string;
    if (key === 'sign') continue;
    const text = signText(key, map ? map.get(key) : (params as SignableParams)[key]);
    if (text === undefined) continue;
    keys.push(key);
    texts.push(text);
  }
  let text = '';
  for (const i of fragmentOrder(keys.join('\u0000'), keys, texts)) text += `${keys[i]}=${texts[i]}&`;
  return `${text}key=${secret}`;
}

// Requests and responses of one operation have the same keys call after call, so the sorted order of a
// key list is computed once (a sort costs more than the rest of signing). Keys are unique, so the order
// is decided by the case-folded `key=` alone, except where keys are equal when folded ('A' and 'a') or
// contain '=': such lists depend on their values and are sorted, as whole fragments, every time.
const orderCache = new Map<string, readonly number[]>();

function fragmentOrder(shape: string, keys: readonly string[], texts: readonly string[]): readonly number[] {
  const cached = orderCache.get(shape);
  if (cached) return cached;
  const folded = keys.map((key) => `${foldKey(key)}=`);
  const valueDependent = keys.some((key) => key.includes('=')) || new Set(folded).size < folded.length;
  // Sort keys: the folded `key=`, or for value-dependent lists the folded whole fragment `key=value&`.
  const sortKeys = valueDependent ? keys.map((key, i) => foldCase(`${key}=${texts[i]}&`)) : folded;
  const order = keys.map((_, i) => i).sort((a, b) => (sortKeys[a]! < sortKeys[b]! ? -1 : sortKeys[a]! > sortKeys[b]! ? 1 : 0));
  if (!valueDependent && orderCache.size < 256) orderCache.set(shape, order);
  return order;
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
