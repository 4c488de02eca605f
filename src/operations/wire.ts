import { objectFields } from '../protocol/schemas/introspect.js';
import { operations, type OperationName } from './table.js';

/** The common fields every signed request carries besides the operation's own (spec 2.1). */
export const COMMON_REQUEST_FIELDS = ['version', 'signType', 'sign', 'reqTime', 'mchNo', 'appId'] as const;

/**
 * The fields the gateway knows for an operation: the common ones and the operation's own. The gateway
 * signs exactly these, so nothing else may be sent.
 */
export function wireFields(operation: OperationName): readonly string[] {
  return [...COMMON_REQUEST_FIELDS, ...Object.keys(operations[operation].params.def.shape)];
}

// Each list is read once per operation, on the operation's first call (not at import: that would build
// every operation's schemas); the table never changes, and the keys are the table's own names.
const requiredWireFieldSets = new Map<OperationName, ReadonlySet<string>>();
const wireFieldSets = new Map<OperationName, ReadonlySet<string>>();
const resultFieldLists = new Map<OperationName, readonly string[]>();

function readOnce<T>(lists: Map<OperationName, T>, operation: OperationName, read: (operation: OperationName) => T): T {
  let list = lists.get(operation);
  if (list === undefined) lists.set(operation, (list = read(operation)));
  return list;
}

/** The fields every request of `operation` carries: the common ones and its required parameters. */
export function requiredWireFields(operation: OperationName): ReadonlySet<string> {
  return readOnce(requiredWireFieldSets, operation, (op) => new Set([...COMMON_REQUEST_FIELDS.filter((name) => name !== 'sign'), ...objectFields(operations[op].params).required]));
}

/** {@link wireFields} as a set, read once. */
export function wireFieldSet(operation: OperationName): ReadonlySet<string> {
  return readOnce(wireFieldSets, operation, (op) => new Set(wireFields(op)));
}

/** The fields of an operation's response `data` (its result schema), e.g. the record a lookup returns. */
export function resultFields(operation: OperationName): readonly string[] {
  return readOnce(resultFieldLists, operation, (op) => Object.freeze(Object.keys(operations[op].result.def.shape)));
}
