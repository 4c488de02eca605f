/**
 * Free text in the gateway's records: the fields whose values are titles, descriptions, the merchant's own
 * data or URLs, and so may hold `&name=` (`body: "Size=M&Color=Red"`, a URL with a query string). Each is
 * marked where its schema is declared ({@link freeText}); every other field (ids, the merchant, amounts,
 * currencies, states, addresses, times) never holds it: a value that does is refused, and no other reading of
 * a signed text may change one. SECURITY.md ("What a signature can and cannot bind") gives the argument.
 *
 * @module
 */
import * as z from 'zod/mini';

// The SDK's own field schemas marked free text: filled by the schema builders, never by received data.
const freeTextFields = z.registry<{ readonly freeText: true }>();

/**
 * Marks a field's schema as free text (it may hold `&name=`): a request's, a record's or a notification's field
 * is free text exactly when its schema is marked so. Mark the field where it is declared, e.g.
 * `subject: freeText(requiredText())`, `errMsg: z.optional(freeText(z.string()))`.
 */
export function freeText<S extends z.ZodMiniType>(schema: S): S {
  freeTextFields.add(schema, { freeText: true });
  return schema;
}

/** Whether a field's schema (or the schema it wraps: optional, nullable, defaulted, piped) is marked {@link freeText}. */
export const isFreeText = (schema: z.core.$ZodType): boolean => marked(freeTextFields, schema);

/** Whether `schema`, or a schema it wraps, is in `registry`. */
export function marked(registry: z.core.$ZodRegistry<object>, schema: z.core.$ZodType | undefined): boolean {
  for (let current = schema; current; ) {
    if (registry.has(current)) return true;
    const def = current._zod.def as { innerType?: z.core.$ZodType; in?: z.core.$ZodType };
    current = def.innerType ?? def.in;
  }
  return false;
}

// The SDK's own field schemas marked personal data (a payee's account, name, bank): filled by the schema builders only.
const personalFields = z.registry<{ readonly personal: true }>();

/**
 * Marks a field's schema as personal data: the typed record keeps its value, but an error's message or a log line
 * that names the field shows it masked ({@link maskPersonal}). Mark it where it is declared: `accountNo: personalData(requiredText())`.
 */
export function personalData<S extends z.ZodMiniType>(schema: S): S {
  personalFields.add(schema, { personal: true });
  return schema;
}

/** Whether a field's schema (or the schema it wraps) is marked {@link personalData}. */
export const isPersonalData = (schema: z.core.$ZodType | undefined): boolean => marked(personalFields, schema);

/** A personal value as messages show it: its last 4 characters of 8 or more (`***6789`), else nothing of it. */
export const maskPersonal = (value: unknown): string => (String(value).length >= 8 ? `***${String(value).slice(-4)}` : '***');

/**
 * A copy of a record an error, an outcome or a view carries, its fields named in `personal` (the record schema's,
 * `objectFields(schema).personal`) masked: an error's fields reach logs as its message does.
 */
export function maskPersonalFields<R>(record: R, personal: ReadonlySet<string>): R {
  if (personal.size === 0) return record;
  const fields = record as Readonly<Record<string, unknown>>;
  const present = [...personal].filter((name) => fields[name] !== undefined);
  // Personal free text the signature leaves ambiguous is listed with its readings: masked alike.
  const ambiguous = (fields as NotUniquelySigned).ambiguousFields;
  const ambiguousPersonal = ambiguous === undefined ? [] : Object.keys(ambiguous).filter((name) => personal.has(name));
  if (present.length === 0 && ambiguousPersonal.length === 0) return record;
  const masked: Record<string, unknown> = { ...fields, ...Object.fromEntries(present.map((name) => [name, maskPersonal(fields[name])])) };
  if (ambiguous !== undefined && ambiguousPersonal.length > 0) {
    masked[AMBIGUOUS_FIELDS] = Object.freeze({ ...ambiguous, ...Object.fromEntries(ambiguousPersonal.map((name) => [name, Object.freeze(ambiguous[name]!.map(maskPersonal))])) });
  }
  return masked as R;
}

/** The member of a verified record that holds its ambiguous free text; no field of the record is returned under this name. */
const AMBIGUOUS_FIELDS = 'ambiguousFields';

/**
 * What a verified record carries besides its fields when its signed text has several readings that the SDK
 * would accept: they agree on every field the merchant acts on (ids, merchant, application, state, amount,
 * currency, addresses), so the record is returned, but not on some free text. Those fields are left out of the
 * record and listed here, each with the values the readings give it (one of them is what the gateway signed;
 * the signature cannot say which). The member is absent when the record has one reading, as every record
 * has whose free text holds no `&name=` and whose fields are all the documented ones.
 *
 * @example
 * ```ts
 * // A paid order created elsewhere with body "Size=M&Color=Red": the signature cannot tell that body from
 * // body "Size=M" and a field Color "Red", so neither is returned as signed.
 * const n = await verifyNotification(request, credentials);
 * n.state;           // 2: decided by the signature
 * n.body;            // undefined
 * n.ambiguousFields; // { Color: ['Red'], body: ['Size=M', 'Size=M&Color=Red'] }
 * ```
 */
export interface NotUniquelySigned {
  /** Free text the signature does not pin down: field name to the values its readings give (sorted). */
  readonly ambiguousFields?: Readonly<Record<string, readonly string[]>>;
}

/**
 * Moves the ambiguous fields of a verified `record` (and a member named like the marker, which is never a
 * field the SDK returns) under {@link AMBIGUOUS_FIELDS}; the record itself when there are none.
 */
export function markAmbiguous<T extends object>(record: T, ambiguous: ReadonlyMap<string, readonly string[]>): T & NotUniquelySigned {
  const own = record as Record<string, unknown>;
  if (ambiguous.size === 0 && !Object.hasOwn(own, AMBIGUOUS_FIELDS)) return record;
  const marked: Record<string, readonly string[]> = {};
  if (Object.hasOwn(own, AMBIGUOUS_FIELDS) && !ambiguous.has(AMBIGUOUS_FIELDS)) marked[AMBIGUOUS_FIELDS] = [String(own[AMBIGUOUS_FIELDS])];
  for (const [name, values] of ambiguous) {
    Object.defineProperty(marked, name, { value: Object.freeze([...values]), enumerable: true, writable: false, configurable: false });
    delete own[name];
  }
  Object.defineProperty(own, AMBIGUOUS_FIELDS, { value: Object.freeze(marked), enumerable: true, writable: true, configurable: true });
  return record;
}
