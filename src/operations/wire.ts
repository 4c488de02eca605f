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

// Read once: the table never changes.
const RESULT_FIELDS = Object.fromEntries(
  OPERATION_NAMES.map((operation) => [operation, Object.freeze(Object.keys(operations[operation].result.def.shape))]),
) as Readonly<Record<OperationName, readonly string[]>>;

/** The fields of an operation's response `data` (its result schema), e.g. the record a lookup returns. */
export function resultFields(operation: OperationName): readonly string[] {
  return RESULT_FIELDS[operation];
}
