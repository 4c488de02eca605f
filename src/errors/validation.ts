import { GatewayError, type GatewayErrorOptions } from './gateway-error.js';

/**
 * One problem found in the caller's input.
 *
 * @example
 * ```ts
 * import { GatewayValidationError } from 'payment-gateway-sdk';
 *
 * // Show each problem next to its form field.
 * const fieldErrors = (issues: readonly GatewayValidationError.ValidationIssue[]): Record<string, string> =>
 *   Object.fromEntries(issues.map((issue) => [issue.path.join('.'), issue.message]));
 *
 * if (error instanceof GatewayValidationError) return { status: 422, errors: fieldErrors(error.issues) };
 * ```
 */
export interface ValidationIssue {
  /** Where the problem is, e.g. `['channelExtra', 'authCode']`; empty for the whole input. */
  readonly path: readonly (string | number)[];
  /** What is wrong and what to do. */
  readonly message: string;
}

/**
 * The input was invalid, so nothing was sent; `issues` lists every problem with its path. Also the error of
 * invalid options and of a notification that fails its checks (answer it with 400).
 *
 * @example
 * ```ts
 * try {
 *   await client.unifiedOrder({ mchOrderNo: 'o-1', wayCode: 'QR_CASHIER', amount: 0, currency: 'USD', subject: 's', body: 'b' });
 * } catch (error) {
 *   if (error instanceof GatewayValidationError) console.log(error.issues); // [{ path: ['amount'], message: ... }]
 * }
 * ```
 */
export class GatewayValidationError extends GatewayError {
  static override readonly kind: string = 'GatewayValidationError';
  /** Every problem found, each with its field path. */
  readonly issues: readonly ValidationIssue[];

  constructor(summary: string, issues: readonly ValidationIssue[], options: GatewayErrorOptions = {}) {
    super(`${summary}: ${formatIssues(issues)}`, options);
    this.issues = issues;
  }
}

/** The issues as one line: `path: message; path: message`. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`)).join('; ');
}

/**
 * A notification body was larger than `maxBodyBytes` (default 64 KiB; a genuine one is under 2 KiB), so
 * reading stopped there. A {@link GatewayValidationError}: answer 413 if you tell them apart, and do not act on it.
 *
 * @example
 * ```ts
 * import { GatewayPayloadTooLargeError, verifyNotification } from 'payment-gateway-sdk';
 *
 * try {
 *   await verifyNotification(request, { ...credentials, maxBodyBytes: 16_384 });
 * } catch (error) {
 *   if (error instanceof GatewayPayloadTooLargeError) return new Response('too large', { status: 413 });
 *   throw error;
 * }
 * ```
 */
export class GatewayPayloadTooLargeError extends GatewayValidationError {
  static override readonly kind: string = 'GatewayPayloadTooLargeError';
  /** The limit that was passed, in bytes. */
  readonly maxBytes: number;

  constructor(maxBytes: number) {
    super('Cannot read the notification', [
      { path: [], message: `the body is larger than maxBodyBytes (${maxBytes} bytes), so reading stopped. A genuine notification is far smaller: do not act on it (answer 413)` },
    ]);
    this.maxBytes = maxBytes;
  }
}

/** One problem of invalid input: `GatewayValidationError.ValidationIssue`. */
export declare namespace GatewayValidationError {
  export { type ValidationIssue as ValidationIssue };
}
