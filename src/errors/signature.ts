import { GatewayError } from './gateway-error.js';

/**
 * A response's or a notification's `sign` was missing or did not match: its data is not returned. Check
 * that the `secret` is the one of this merchant application; if it is, treat it as tampering.
 *
 * @example
 * ```ts
 * try {
 *   await client.query({ payOrderId });
 * } catch (error) {
 *   if (error instanceof GatewaySignatureError) alertSecurityTeam(error.message);
 * }
 * ```
 */
export class GatewaySignatureError extends GatewayError {
  static override readonly kind: string = 'GatewaySignatureError';
}
