/**
 * Comparing a received secret-like value (a state, a token) with the expected one without telling an attacker,
 * by the time taken, how much of it matched.
 *
 * @module
 */

/**
 * Whether `received` equals `expected`, in time that depends only on their lengths (a length is not secret):
 * every unit is compared, never stopping at the first difference.
 */
export function equalInConstantTime(received: string, expected: string): boolean {
  if (received.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= received.charCodeAt(i) ^ expected.charCodeAt(i);
  return diff === 0;
}
