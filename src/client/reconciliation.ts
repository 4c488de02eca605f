import { definitionOf, type OperationName } from '../operations/table.js';
import type * as z from 'zod/mini';
import { GatewayReconciliationMismatchError, type ReconciliationDifference } from '../errors/index.js';
import { sameFieldValue } from '../protocol/schemas/field-equality.js';
import { isPersonalData, maskPersonal, type NotUniquelySigned } from '../protocol/schemas/free-text.js';

/**
 * Whether the record a lookup found is the create that was sent: the key first, then every other field
 * the create sent that the record's schema has must be equal (a field the record leaves out has no
 * value there, which differs from the one sent). Resolves to the decisive fields the create sent that the
 * record cannot show, and the free text it shows only as ambiguous (`ambiguousFields`, when a value
 * there is the one sent), for then nothing proves the record is this create's: the outcome stays
 * unknown. An empty list means it is.
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
    const readings = found === undefined ? ambiguousValues(record, field) : undefined;
    if (readings) {
      // Free text the record's signature does not pin down: one of its readings may be what was sent, but nothing proves it.
      if (readings.includes(String(expected))) unshown.push(field);
      else differences.push({ field, expected, found: readings });
    } else if (found === undefined && !recordFields.includes(field)) {
      if (decisive.includes(field)) unshown.push(field);
    } else if (!sameFieldValue(field, expected, found)) {
      differences.push({ field, expected, found });
    }
  }
  if (differences.length > 0) {
    // A payee's account or name is named, never shown: the error's message and fields reach logs.
    const shape = (definitionOf(operation).params as unknown as { def?: { shape?: Readonly<Record<string, z.core.$ZodType>> } }).def?.shape ?? {};
    const shown = differences.map((d) => (isPersonalData(shape[d.field]) ? { field: d.field, expected: maskPersonal(d.expected), found: maskPersonal(d.found) } : d));
    throw new GatewayReconciliationMismatchError({ name: keyName, value: String(sent[keyName]) }, shown, { operation });
  }
  return unshown;
}

/** The values a record's signature allows for an ambiguous free-text field, or `undefined` when the field is not ambiguous. */
function ambiguousValues(record: Readonly<Record<string, unknown>>, field: string): readonly string[] | undefined {
  const ambiguous = (record as NotUniquelySigned).ambiguousFields;
  return ambiguous && Object.hasOwn(ambiguous, field) ? ambiguous[field] : undefined;
}
