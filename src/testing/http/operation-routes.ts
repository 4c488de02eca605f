/**
 * The gateway's routes, one per operation of the table the client uses (`operations`), each with the
 * wire fields it binds: what it requires and which are integers.
 *
 * @module
 */
import { definitionOf, OPERATION_NAMES, type OperationName } from '../../operations/table.js';
import { wireFields } from '../../operations/wire.js';
import { fieldForm } from '../../protocol/schemas/introspect.js';

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
      const form = schema && fieldForm(schema);
      fields.set(name, form ? { required: !form.optional, integer: form.kind === 'integer' } : { required: true, integer: false });
    }
    return [definitionOf(operation).path, { operation, path: definitionOf(operation).path, fields }];
  }),
);
