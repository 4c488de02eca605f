import type * as z from 'zod/mini';
import { objectFields } from '../protocol/schemas/introspect.js';
import { isNotSent } from '../protocol/schemas/not-sent.js';
import { operations, type OperationName } from './table.js';

/** The common fields every signed request carries besides the operation's own (spec 2.1). */
export const COMMON_REQUEST_FIELDS = ['version', 'signType', 'sign', 'reqTime', 'mchNo', 'appId'] as const;

/**
 * The fields the gateway knows for an operation: the common ones and the operation's own, but for those the SDK
 * never sends ({@link isNotSent}). The gateway signs exactly these, so nothing else may be sent.
 */
export function wireFields(operation: OperationName): readonly string[] {
  const shape: Readonly<Record<string, z.core.$ZodType>> = operations[operation].params.def.shape;
  return [...COMMON_REQUEST_FIELDS, ...Object.keys(shape).filter((name) => !isNotSent(shape[name]))];
}

/** An operation's field lists, read from its schemas. */
interface WireLists {
  readonly required: ReadonlySet<string>;
  readonly all: ReadonlySet<string>;
  readonly result: readonly string[];
}

// Read once per operation, on its first call (not at import: that would build every operation's schemas);
// the table never changes, and the keys are the table's own names.
const listsByOperation = new Map<OperationName, WireLists>();

function listsOf(operation: OperationName): WireLists {
  let lists = listsByOperation.get(operation);
  if (lists === undefined) {
    const { params, result } = operations[operation];
    lists = {
      required: new Set([...COMMON_REQUEST_FIELDS.filter((name) => name !== 'sign'), ...objectFields(params).required]),
      all: new Set(wireFields(operation)),
      result: Object.freeze(Object.keys(result.def.shape)),
    };
    listsByOperation.set(operation, lists);
  }
  return lists;
}

/** The fields every request of `operation` carries: the common ones and its required parameters. */
export function requiredWireFields(operation: OperationName): ReadonlySet<string> {
  return listsOf(operation).required;
}

/** {@link wireFields} as a set, read once. */
export function wireFieldSet(operation: OperationName): ReadonlySet<string> {
  return listsOf(operation).all;
}

/** The fields of an operation's response `data` (its result schema), e.g. the record a lookup returns. */
export function resultFields(operation: OperationName): readonly string[] {
  return listsOf(operation).result;
}
