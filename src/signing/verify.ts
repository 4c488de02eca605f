import { sign, type SignableParams, type SignableValue } from './sign.js';

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

// Branch-free ASCII upper-casing for hex digits: a-f (97-102) become A-F.
function foldCase(c: number): number {
  const isLower = ((96 - c) >>> 31) & ((c - 123) >>> 31);
  return c - (isLower << 5);
}

/**
 * Whether `received` is the signature of `params` under `secret`, compared in constant time.
 *
 * @example
 * ```ts
 * verifySign({ amount: 100 }, 'SECRET', receivedSign); // true or false
 * ```
 */
export function verifySign(params: SignableParams | ReadonlyMap<string, SignableValue>, secret: string, received: unknown): boolean {
  return typeof received === 'string' && received !== '' && signaturesEqual(received, sign(params, secret));
}
