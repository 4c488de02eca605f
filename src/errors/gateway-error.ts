/**
 * The base of every error the SDK throws. A subclass says which layer failed, so a caller can decide what
 * to do: fix the input, retry, reconcile, or alert (docs/guides/errors-and-retries.md has the table).
 *
 * @module
 */

// `instanceof` across package copies (ESM and CJS in one process, two versions): each error carries a
// `Symbol.for` brand listing its kinds, which `Symbol.hasInstance` checks.
const BRAND = Symbol.for('payment-gateway-sdk.error');

type Branded = { [BRAND]?: readonly string[] };

/**
 * Options shared by every {@link GatewayError} constructor.
 *
 * @example
 * ```ts
 * import { GatewayConnectionError } from 'payment-gateway-sdk';
 *
 * // A test double of your payment service fails the way the real client would.
 * throw new GatewayConnectionError('query could not reach the gateway (ECONNRESET).', { operation: 'query', cause: new Error('socket hang up'), mayHaveReachedGateway: true });
 * ```
 */
export interface GatewayErrorOptions {
  /** The operation that failed (`unifiedOrder`, `query`, ...), when there is one. */
  operation?: string | undefined;
  /** The underlying error, when there is one. */
  cause?: unknown;
}

/**
 * The base class of every error this SDK throws.
 *
 * @example
 * ```ts
 * import { GatewayError, isGatewayError } from 'payment-gateway-sdk';
 *
 * try {
 *   await client.query({ mchOrderNo: 'order-1' });
 * } catch (error) {
 *   if (error instanceof GatewayError) console.error(error.name, error.operation, error.message);
 *   // or, across bundles and realms:
 *   if (isGatewayError(error)) console.error(error.message);
 * }
 * ```
 */
export class GatewayError extends Error {
  /** Stable kind of this class; survives minification, unlike `constructor.name`. */
  static readonly kind: string = 'GatewayError';
  /** The operation that failed (a key of `operations`), when the error belongs to one. */
  readonly operation: string | undefined;

  constructor(message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.operation = options.operation;
    const kinds: string[] = [];
    for (let c = new.target as unknown as { kind?: string } | null; c && Object.hasOwn(c, 'kind'); c = Object.getPrototypeOf(c)) {
      kinds.push(c.kind as string);
    }
    Object.defineProperty(this, BRAND, { value: Object.freeze(kinds) });
    this.name = kinds[0] ?? 'GatewayError';
  }

  /** `instanceof` by brand, so errors from another copy of the package are recognised too. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== 'object' || value === null) return false;
    const kinds = (value as Branded)[BRAND];
    return Array.isArray(kinds) && kinds.includes(this.kind);
  }
}

/**
 * Type guard for {@link GatewayError} that works across package copies and realms.
 *
 * @example
 * ```ts
 * if (isGatewayError(error)) console.log(error.operation);
 * ```
 */
export function isGatewayError(value: unknown): value is GatewayError {
  return value instanceof GatewayError;
}
