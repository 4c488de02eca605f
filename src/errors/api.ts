import { apiErrorReason, REASON_ADVICE, type GatewayApiErrorReason } from './api-error-reason.js';
import { GatewayError, type GatewayErrorOptions } from './gateway-error.js';

/**
 * The gateway refused the request (`code` other than the success code), e.g. a duplicate `mchOrderNo`.
 * `reason` says what it means in either of the gateway's languages; the message leads with what to do and
 * keeps the gateway's `msg` verbatim.
 *
 * @example
 * ```ts
 * try {
 *   await client.close({ mchOrderNo: 'order-1' });
 * } catch (error) {
 *   if (error instanceof GatewayApiError && error.reason === 'order_not_closable') return client.query({ mchOrderNo: 'order-1' });
 *   throw error;
 * }
 * ```
 */
export class GatewayApiError extends GatewayError {
  static override readonly kind: string = 'GatewayApiError';
  /** The gateway's business code (9999 business error, 10 system, 11 parameter, 12 database, ...). */
  readonly code: number;
  /** The gateway's message, as sent (often Chinese on the reference server). */
  readonly msg: string;
  /** What the refusal means, read from `code` and `msg`: see {@link GatewayApiErrorReason}. */
  readonly reason: GatewayApiErrorReason;

  /**
   * @param options - `advice` replaces the leading sentence that `reason` would give (e.g. a wrong `successCode`)
   */
  constructor(code: number, msg: string, options: GatewayErrorOptions & { advice?: string | undefined } = {}) {
    const reason = apiErrorReason(code, msg);
    const advice = options.advice ?? REASON_ADVICE[reason];
    super(`${advice[0]?.toUpperCase()}${advice.slice(1)}. The gateway answered ${options.operation ?? 'the request'} with code ${code}: ${msg}`, options);
    this.code = code;
    this.msg = msg;
    this.reason = reason;
  }
}
