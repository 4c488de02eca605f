import type * as z from 'zod/mini';
import type { ValidationIssue } from '../errors/index.js';
import { JsonDuplicateMemberError, JsonSyntaxError, parseLossless } from '../protocol/json/lossless-json.js';
import { fieldForm, type FieldForm } from '../protocol/schemas/introspect.js';

/** What a received text becomes: an integer, a JSON value (lists, objects), or itself. */
type FieldKind = FieldForm['kind'];

/** The result of {@link coerceFields}: typed values, or what could not be converted. */
export interface Coerced {
  readonly value: Record<string, unknown>;
  readonly issues: ValidationIssue[];
}

const DECIMAL_INTEGER = /^-?\d+$/;

/**
 * Turns received texts into the types `shape` expects, reading each field's kind from the schema so the
 * field list is declared once: integers from decimal digits (never rounded: `1e2`, `58.0` and unsafe
 * integers are refused), lists and objects from their JSON text. A field the schema does not know stays
 * text. An empty integer or JSON field counts as absent (the gateway does not sign `""`).
 */
export function coerceFields(shape: Readonly<Record<string, z.core.$ZodType>>, fields: ReadonlyMap<string, string>): Coerced {
  const kinds = kindsOf(shape);
  const value: Record<string, unknown> = {};
  const issues: ValidationIssue[] = [];
  for (const [key, text] of fields) {
    const kind = kinds.get(key) ?? 'text';
    if (kind !== 'text' && text === '') continue;
    const converted = kind === 'integer' ? toInteger(text) : kind === 'json' ? toJson(text) : text;
    if (converted === undefined) issues.push({ path: [key], message: kind === 'integer' ? 'must be an integer in plain decimal digits within the safe range' : 'must be JSON text' });
    // A field named __proto__ is data, never the prototype.
    else if (key === '__proto__') Object.defineProperty(value, key, { value: converted, enumerable: true, writable: true, configurable: true });
    else value[key] = converted;
  }
  return { value, issues };
}

// Field kinds are read from the schema once per shape, not once per notification.
const kindCache = new WeakMap<object, ReadonlyMap<string, FieldKind>>();

function kindsOf(shape: Readonly<Record<string, z.core.$ZodType>>): ReadonlyMap<string, FieldKind> {
  let kinds = kindCache.get(shape);
  if (!kinds) {
    kinds = new Map(Object.entries(shape).map(([key, schema]) => [key, fieldForm(schema).kind]));
    kindCache.set(shape, kinds);
  }
  return kinds;
}

function toInteger(text: string): number | undefined {
  if (!DECIMAL_INTEGER.test(text)) return undefined;
  const number = Number(text);
  return Number.isSafeInteger(number) ? number : undefined;
}

function toJson(text: string): unknown {
  try {
    return parseLossless(text).value;
  } catch (error) {
    if (error instanceof JsonSyntaxError || error instanceof JsonDuplicateMemberError) return undefined;
    throw error;
  }
}
