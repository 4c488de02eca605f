import { objectFields } from '../protocol/schemas/introspect.js';
import { OPERATION_NAMES, operations, type OperationName } from './table.js';

/** The common fields every signed request carries besides the operation's own (spec 2.1). */
export const COMMON_REQUEST_FIELDS = ['version', 'signType', 'sign', 'reqTime', 'mchNo', 'appId'] as const;

/**
 * The fields the gateway knows for an operation: the common ones and the operation's own. The gateway
 * signs exactly these, so nothing else may be sent.
 */
export function wireFields(operation: OperationName): readonly string[] {
  return [...COMMON_REQUEST_FIELDS, ...Object.keys(operations[operation].params.def.shape)];
}

const REQUIRED_WIRE_FIELDS = Object.fromEntries(
  OPERATION_NAMES.map((operation) => [operation, new Set([...COMMON_REQUEST_FIELDS.filter((name) => name !== 'sign'), ...objectFields(operations[operation].params).required])]),
) as unknown as Readonly<Record<OperationName, ReadonlySet<string>>>;

/** The fields every request of `operation` carries: the common ones and its required parameters. */
export function requiredWireFields(operation: OperationName): ReadonlySet<string> {
  return REQUIRED_WIRE_FIELDS[operation];
}

const WIRE_FIELD_SETS = Object.fromEntries(OPERATION_NAMES.map((operation) => [operation, new Set(wireFields(operation))])) as unknown as Readonly<Record<OperationName, ReadonlySet<string>>>;

/** {@link wireFields} as a set, read once. */
export function wireFieldSet(operation: OperationName): ReadonlySet<string> {
  return WIRE_FIELD_SETS[operation];
}

// Read once: the table never changes.
const RESULT_FIELDS = Object.fromEntries(
  OPERATION_NAMES.map((operation) => [operation, Object.freeze(Object.keys(operations[operation].result.def.shape))]),
) as Readonly<Record<OperationName, readonly string[]>>;

/** The fields of an operation's response `data` (its result schema), e.g. the record a lookup returns. */
export function resultFields(operation: OperationName): readonly string[] {
  return RESULT_FIELDS[operation];
}
