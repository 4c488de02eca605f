import { GatewayError, type GatewayErrorOptions } from './gateway-error.js';

/**
 * The merchant key that identifies a record a create may have made.
 *
 * @example
 * ```ts
 * import type { GatewayOutcomeUnknownError } from 'payment-gateway-sdk';
 *
 * // Run later, e.g. from a queue, to learn what became of the create.
 * async function reconcile(operation: string | undefined, key: GatewayOutcomeUnknownError.ReconcileKey) {
 *   if (operation === 'unifiedOrder') return client.query({ mchOrderNo: key.value });
 *   if (operation === 'settleRequest') return client.settleRequestGet({ requestId: key.value });
 *   return undefined; // settleAddressApply has no lookup
 * }
 * ```
 */
export interface ReconcileKey {
  /** The parameter name: `mchOrderNo` or `requestId`. */
  readonly name: string;
  /** Its value in the failed call. */
  readonly value: string;
}

/**
 * A create may or may not have been processed, and the SDK could not find out in time. Do **not** send it under a
 * new key: send the same create again with the same key (the SDK looks the key up first and resolves to the record
 * made, if any), look it up later by `key`, or hand it to `processor.track` so the sweep settles it. A create the
 * gateway can neither look up nor tell as a repeat (`settleAddressApply`) says so in its message: never send it again.
 *
 * @example
 * ```ts
 * try {
 *   await client.unifiedOrder(order);
 * } catch (error) {
 *   if (error instanceof GatewayOutcomeUnknownError) await reconcileLater(error.operation, error.key.name, error.key.value);
 * }
 * ```
 */
export class GatewayOutcomeUnknownError extends GatewayError {
  static override readonly kind: string = 'GatewayOutcomeUnknownError';
  /** The key to reconcile with. */
  readonly key: ReconcileKey;

  constructor(message: string, key: ReconcileKey, options: GatewayErrorOptions) {
    super(message, options);
    this.key = key;
  }
}

/**
 * One field in which the record a lookup found differs from the create that was sent.
 *
 * @example
 * ```ts
 * import type { GatewayReconciliationMismatchError } from 'payment-gateway-sdk';
 *
 * const line = ({ field, expected, found }: GatewayReconciliationMismatchError.ReconciliationDifference) => `${field}: sent ${String(expected)}, gateway has ${String(found)}`;
 * ```
 */
export interface ReconciliationDifference {
  /** The field, e.g. `amount`. */
  readonly field: string;
  /** The value the create sent. */
  readonly expected: unknown;
  /** The value of the record found. */
  readonly found: unknown;
}

/**
 * Your key is used by another request: after a create failed, was lost or was refused, the record the gateway has
 * under your key is **not** the one you asked for (another amount, order, text, token or address). This request
 * was not made under that key, and the other record is never returned: check it, and send this one under a new key.
 * The failure that led to the lookup, a refusal included, is `cause`.
 *
 * @example
 * ```ts
 * try {
 *   await client.unifiedOrder({ mchOrderNo: 'order-1001', amount: 500000, currency: 'USD', wayCode: 'QR_CASHIER', subject: 'Sofa', body: 'Sofa' });
 * } catch (error) {
 *   if (error instanceof GatewayReconciliationMismatchError) log.error({ key: error.key, differences: error.differences }, 'mchOrderNo already used');
 * }
 * ```
 */
export class GatewayReconciliationMismatchError extends GatewayError {
  static override readonly kind: string = 'GatewayReconciliationMismatchError';
  /** The key the lookup used. */
  readonly key: ReconcileKey;
  /** Each field that differs, with the value sent and the value found. */
  readonly differences: readonly ReconciliationDifference[];

  constructor(key: ReconcileKey, differences: readonly ReconciliationDifference[], options: GatewayErrorOptions = {}) {
    const listed = differences.map((d) => `${d.field}: sent ${JSON.stringify(d.expected)}, found ${JSON.stringify(d.found)}`).join('; ');
    super(
      `${options.operation ?? 'The create'}: ${key.name} '${key.value}' is used by another request (the record under it differs: ${listed}), so this request was not made under it ` +
        `and that record is not returned. Check that record, and send this one under a new ${key.name}.`,
      options,
    );
    this.key = key;
    this.differences = differences;
  }
}

/** The key a lost create is looked up by: `GatewayOutcomeUnknownError.ReconcileKey`. */
export declare namespace GatewayOutcomeUnknownError {
  export { type ReconcileKey as ReconcileKey };
}

/** What the record found differs in: `GatewayReconciliationMismatchError.ReconciliationDifference` (and its `ReconcileKey`). */
export declare namespace GatewayReconciliationMismatchError {
  export { type ReconcileKey as ReconcileKey, type ReconciliationDifference as ReconciliationDifference };
}
