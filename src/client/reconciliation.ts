import type { OperationName, ReconcileDefinition } from '../endpoints.js';
import { GatewayReconciliationMismatchError, type ReconciliationDifference } from '../errors.js';
import { sameFieldValue } from '../internal/schemas/field-equality.js';

/**
 * Throws {@link GatewayReconciliationMismatchError} unless the record a lookup found is the create that was
 * sent: each field the endpoint declares in `reconcile.matches` that both have must be equal. A record
 * under the same key with another amount is an older record, never this create's result.
 */
export function assertSameRecord(operation: OperationName, keyName: string, reconcile: ReconcileDefinition, sent: Readonly<Record<string, unknown>>, record: Readonly<Record<string, unknown>>): void {
  const differences: ReconciliationDifference[] = [];
  for (const field of reconcile.matches) {
    const expected = sent[field];
    const found = record[field];
    if (expected === undefined || found === undefined) continue;
    if (!sameFieldValue(field, expected, found)) differences.push({ field, expected, found });
  }
  if (differences.length > 0) throw new GatewayReconciliationMismatchError({ name: keyName, value: String(sent[keyName]) }, differences, { operation });
}
