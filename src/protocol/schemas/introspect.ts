import type * as z from 'zod/mini';
import { isFreeText, isPersonalData } from './free-text.js';

/** What a field's schema says of the field on the wire: whether it may be left out, and what its text holds. */
export interface FieldForm {
  /** Whether the field may be absent (optional, nullable or defaulted). */
  readonly optional: boolean;
  /** `integer`: decimal digits; `json`: a list or an object as JSON text; `text`: anything else. */
  readonly kind: 'integer' | 'json' | 'text';
}

// The few parts of zod's schema definitions that tell optionality and the wire form apart.
interface Def {
  readonly type: string;
  readonly innerType?: { readonly _zod: { readonly def: Def } };
  readonly in?: { readonly _zod: { readonly def: Def } };
  readonly entries?: Readonly<Record<string, unknown>>;
}

/**
 * Reads a field's wire form from its schema, so a field list is declared once (the schemas) and both the
 * notification decoder and the mock gateway's binding follow it. The one place that reads zod's internals.
 */
export function fieldForm(schema: z.core.$ZodType): FieldForm {
  let def = schema._zod.def as unknown as Def;
  let optional = false;
  while ((def.type === 'optional' || def.type === 'nullable' || def.type === 'default') && def.innerType) {
    optional = true;
    def = def.innerType._zod.def;
  }
  // A pipe is read by what it takes (a JSON-text parameter takes a string or an object, and sends text).
  if (def.type === 'pipe' && def.in) def = def.in._zod.def;
  if (def.type === 'number' || def.type === 'int') return { optional, kind: 'integer' };
  if (def.type === 'enum') {
    const values = Object.values(def.entries ?? {});
    return { optional, kind: values.length > 0 && values.every((value) => typeof value === 'number') ? 'integer' : 'text' };
  }
  return { optional, kind: def.type === 'array' || def.type === 'object' ? 'json' : 'text' };
}

/** The field names of an object schema, those it requires (neither optional, nullable nor defaulted), and its free text. */
export interface ObjectFields {
  readonly names: ReadonlySet<string>;
  readonly required: ReadonlySet<string>;
  /** The fields marked {@link freeText} where they are declared: they may hold `&name=`. */
  readonly freeText: ReadonlySet<string>;
  /** The fields marked personal data where they are declared (a payee's account and name): masked wherever shown. */
  readonly personal: ReadonlySet<string>;
}

// Read once per schema: keyed by the SDK's own schema objects, never by received data.
const fieldsCache = new WeakMap<object, ObjectFields>();

/** The names, required names, free-text and personal names of an object schema's fields, read once per schema. */
export function objectFields(schema: z.ZodMiniObject): ObjectFields {
  let fields = fieldsCache.get(schema);
  if (!fields) {
    const shape = Object.entries(schema.def.shape as Readonly<Record<string, z.core.$ZodType>>);
    fields = {
      names: new Set(shape.map(([name]) => name)),
      required: new Set(shape.filter(([, field]) => !fieldForm(field).optional).map(([name]) => name)),
      freeText: new Set(shape.filter(([, field]) => isFreeText(field)).map(([name]) => name)),
      personal: new Set(shape.filter(([, field]) => isPersonalData(field)).map(([name]) => name)),
    };
    fieldsCache.set(schema, fields);
  }
  return fields;
}

/**
 * The name of `value` in a field's enum schema (`z.enum(PayOrderState)`: 2 is `Succeeded`), for logs; `undefined`
 * when the field is no enum or the value none of its entries.
 */
export function enumName(schema: z.core.$ZodType | undefined, value: unknown): string | undefined {
  let def = schema?._zod.def as unknown as Def | undefined;
  while (def && (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') && def.innerType) def = def.innerType._zod.def;
  if (def?.type !== 'enum') return undefined;
  return Object.entries(def.entries ?? {}).find(([, entry]) => entry === value)?.[0];
}
