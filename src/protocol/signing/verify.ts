import { GatewayValidationError } from '../../errors/index.js';
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

// ASCII upper-casing without a branch, so the comparison takes the same time whatever the sign holds:
// a-z (97-122) become A-Z, every other unit stays.
function foldCase(c: number): number {
  const isLower = ((96 - c) >>> 31) & ((c - 123) >>> 31);
  return c - (isLower << 5);
}

/**
 * Whether `received` is the signature of `params` under `secret`, compared in constant time. Parameters
 * that cannot be signed (an object value, a lone surrogate) are not verified: `false`.
 *
 * @example
 * ```ts
 * verifySign({ amount: 100 }, 'SECRET', receivedSign); // true or false
 * ```
 */
export function verifySign(params: SignableParams | ReadonlyMap<string, SignableValue>, secret: string, received: unknown): boolean {
  if (typeof received !== 'string' || received === '') return false;
  try {
    return signaturesEqual(received, sign(params, secret));
  } catch (error) {
    if (error instanceof GatewayValidationError) return false;
    throw error;
  }
}
