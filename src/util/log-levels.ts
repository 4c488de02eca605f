/**
 * The log levels, shared by the client's log and the processor's sweep line.
 *
 * @module
 */

/**
 * How much the client logs; each level includes the ones before it:
 * - `off` (default): nothing;
 * - `error`: each failed call (operation, error name, message);
 * - `warn`: also `verifyResponses: false`, once when the client is created;
 * - `info`: also each retry and each lookup that settles an ambiguous create;
 * - `debug`: also each HTTP attempt (operation, path, attempt, status, duration, whether the signature verified).
 *
 * No level logs the secret, a `sign`, the string that is hashed, or a request or response body.
 *
 * @example
 * ```ts
 * import { GatewayClient, type LogLevel } from 'payment-gateway-sdk';
 *
 * const logLevel: LogLevel = process.env.NODE_ENV === 'production' ? 'warn' : 'debug';
 * const client = new GatewayClient({ ...credentials, logLevel });
 * ```
 */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/** The levels, quietest first. */
export const LOG_LEVELS = ['off', 'error', 'warn', 'info', 'debug'] as const satisfies readonly LogLevel[];
