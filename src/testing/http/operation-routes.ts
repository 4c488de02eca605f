/**
 * The gateway's routes, one per operation of the table the client uses (`operations`), each with the
 * wire fields it binds: what it requires and which are integers.
 *
 * @module
 */
import { definitionOf, OPERATION_NAMES, type OperationName } from '../../operations/table.js';
import { wireFields } from '../../operations/wire.js';

/** A request field's binding: whether the operation requires it and whether it is an integer. */
export interface FieldSpec {
  readonly required: boolean;
  readonly integer: boolean;
}

/** One operation's route. */
export interface OperationRoute {
  readonly operation: OperationName;
  readonly path: string;
  readonly fields: ReadonlyMap<string, FieldSpec>;
}

/** The operations by path below the gateway's base. */
export const OPERATION_ROUTES: ReadonlyMap<string, OperationRoute> = new Map(
  OPERATION_NAMES.map((operation) => {
    const shape = definitionOf(operation).params.def.shape;
    const fields = new Map<string, FieldSpec>();
    for (const name of wireFields(operation)) {
      const schema = shape[name];
      fields.set(name, schema ? bindingOf(schema._zod.def as unknown as ZodDef) : { required: true, integer: false });
    }
    return [definitionOf(operation).path, { operation, path: definitionOf(operation).path, fields }];
  }),
);

// The few parts of zod's schema definitions needed to see optionality and integer fields.
interface ZodDef {
  type: string;
  innerType?: { _zod: { def: ZodDef } };
  in?: { _zod: { def: ZodDef } };
  entries?: Record<string, unknown>;
}

function bindingOf(def: ZodDef): FieldSpec {
  let required = true;
  while ((def.type === 'optional' || def.type === 'default' || def.type === 'nullable') && def.innerType) {
    required = false;
    def = def.innerType._zod.def;
  }
  if (def.type === 'pipe' && def.in) def = def.in._zod.def;
  const integer = def.type === 'number' || (def.type === 'enum' && Object.values(def.entries ?? {}).every((v) => typeof v === 'number'));
  return { required, integer };
}
