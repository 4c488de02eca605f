import type { OperationName } from '../operations/table.js';
import { GatewayReconciliationMismatchError, type ReconciliationDifference } from '../errors/index.js';
import { sameFieldValue } from '../protocol/schemas/field-equality.js';

/**
 * Whether the record a lookup found is the create that was sent: the key first, then every other field
 * the create sent that the record's schema has must be equal (a field the record leaves out has no
 * value there, which differs from the one sent). Resolves to the decisive fields the create sent that the
 * record cannot show (then nothing proves the record is this create's: the outcome stays unknown); an
 * empty list means it is.
 *
 * @param decisive - the fields that decide the record (the operation's `reconcile.decisive`; none without it)
 * @param recordFields - the fields of the lookup's record (its schema)
 * @throws {@link GatewayReconciliationMismatchError} when a field differs: the record is an older one under the same key
 */
export function compareRecord(
  operation: OperationName,
  keyName: string,
  decisive: readonly string[],
  recordFields: readonly string[],
  sent: Readonly<Record<string, unknown>>,
  record: Readonly<Record<string, unknown>>,
): string[] {
  const differences: ReconciliationDifference[] = [];
  const unshown: string[] = [];
  for (const field of [keyName, ...Object.keys(sent).filter((name) => name !== keyName)]) {
    const expected = sent[field];
    if (expected === undefined) continue;
    const found = record[field];
    if (found === undefined && !recordFields.includes(field)) {
      if (decisive.includes(field)) unshown.push(field);
    } else if (!sameFieldValue(field, expected, found)) {
      differences.push({ field, expected, found });
    }
  }
  if (differences.length > 0) throw new GatewayReconciliationMismatchError({ name: keyName, value: String(sent[keyName]) }, differences, { operation });
  return unshown;
}
