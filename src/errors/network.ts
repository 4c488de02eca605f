import { GatewayError, type GatewayErrorOptions } from './gateway-error.js';

/**
 * The request could not be delivered or its answer not received (refused, reset, DNS). After a create this
 * is ambiguous when the request may have been sent: the client reconciles by your key.
 *
 * @example
 * ```ts
 * if (error instanceof GatewayConnectionError && !error.mayHaveReachedGateway) console.log('safe to send again');
 * ```
 */
export class GatewayConnectionError extends GatewayError {
  static override readonly kind: string = 'GatewayConnectionError';
  /** `false` when the failure proves the request never reached the gateway (refused, DNS); `true` when it may have. */
  readonly mayHaveReachedGateway: boolean;

  constructor(message: string, options: GatewayErrorOptions & { mayHaveReachedGateway: boolean }) {
    super(message, options);
    this.mayHaveReachedGateway = options.mayHaveReachedGateway;
  }
}

/**
 * No complete answer within `timeout` (one attempt) or `totalTimeout` (the call); the message names which.
 * After a create the gateway may still have acted on it.
 *
 * @example
 * ```ts
 * const client = new GatewayClient({ ...credentials, timeout: 5_000 });
 * // a slow answer rejects with GatewayTimeoutError after 5 s
 * ```
 */
export class GatewayTimeoutError extends GatewayError {
  static override readonly kind: string = 'GatewayTimeoutError';
}

/**
 * The caller's `AbortSignal` aborted the call.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const pending = client.query({ mchOrderNo }, { signal: controller.signal });
 * controller.abort(); // pending rejects with GatewayAbortError
 * ```
 */
export class GatewayAbortError extends GatewayError {
  static override readonly kind: string = 'GatewayAbortError';

  /** The error of a call aborted by the caller's signal (its reason as the cause). */
  static of(operation: string, reason: unknown, when = ''): GatewayAbortError {
    return new GatewayAbortError(`${operation} was aborted by the caller's signal${when}.`, { operation, cause: reason });
  }
}
