/**
 * One reading per signature. The gateway signs the sorted `name=value&` fragments joined into one text,
 * so the text does not say where one field ends: `subject=Gift&state=2&` is the fragment of one field
 * whose value holds `&state=2`, or two fields. A received message is accepted only when its signed text
 * has one reading: field names are identifiers, and no value holds `&name=` (a place the text could be
 * split into another field), except where one URL field of the message carries a query string that no
 * sorted re-split could turn into another field. SECURITY.md ("What a signature can and cannot bind") gives the proof.
 *
 * @module
 */
import { compareCaseInsensitive } from './case-fold.js';

/** A field name a received message may carry: an identifier (no `=`, `&`, spaces or controls). */
export const FIELD_NAME = /^[A-Za-z_$][\w$]*$/;

// Where a value could be split into another field: `&` then a field name then `=`.
const FIELD_BOUNDARY = /&([A-Za-z_$][\w$]*)=/g;

/** Why a signed text has more than one reading: a field name, or a value, that could be split. */
export interface Ambiguity {
  /** The field whose name is not an identifier, or whose value holds the boundary. */
  readonly field: string;
  /** The name after the `&`, e.g. `state` for a value holding `&state=`; absent when the field's own name is the problem. */
  readonly name?: string;
}

/** The first `&name=` in `value`, or `undefined` when none: such a value could be split into another field. */
export function fieldBoundaryIn(value: string): string | undefined {
  if (!value.includes('&')) return undefined;
  FIELD_BOUNDARY.lastIndex = 0;
  return FIELD_BOUNDARY.exec(value)?.[1];
}

/**
 * The first `&name=` in `value` whose `name` is one of `names`, or `undefined`: for parameters that may
 * carry URLs, where only a protocol field name could make the gateway read another field.
 */
export function namedBoundaryIn(value: string, names: ReadonlySet<string>): string | undefined {
  if (!value.includes('&')) return undefined;
  FIELD_BOUNDARY.lastIndex = 0;
  for (let match; (match = FIELD_BOUNDARY.exec(value)) !== null; FIELD_BOUNDARY.lastIndex = match.index + 1) {
    if (names.has(match[1]!)) return match[1];
  }
  return undefined;
}

/**
 * Why the signed fields could be read as another set of fields, or `undefined` when they have one
 * reading. Every name must be an identifier ({@link FIELD_NAME}); every value but `urlField`'s must hold
 * no `&name=`; `urlField`'s may, as long as splitting it there would not give fragments in the gateway's
 * sorted order (which is what another reading needs).
 *
 * @param fields - the signed fields, each as the text signed
 * @param urlField - the one field of this message that may carry a URL with a query string (e.g. `payData`)
 */
export function findAmbiguity(fields: ReadonlyMap<string, string>, urlField?: string): Ambiguity | undefined {
  for (const field of fields.keys()) if (!FIELD_NAME.test(field)) return { field };
  for (const [field, value] of fields) {
    const name = field === urlField ? sortedSplitIn(field, value, fields) : fieldBoundaryIn(value);
    if (name !== undefined) return { field, name };
  }
  return undefined;
}

/**
 * The first `&name=` of the URL field `field` at which the text could be split into a reading the
 * gateway's sort allows: `field=<before>&` then `name=<after>&` then the fragment that follows the
 * field's own. A name the message already has would repeat a field, which no reading can.
 */
function sortedSplitIn(field: string, value: string, fields: ReadonlyMap<string, string>): string | undefined {
  if (!value.includes('&')) return undefined;
  const own = `${field}=${value}&`;
  let next: string | undefined;
  for (const [name, text] of fields) {
    const fragment = `${name}=${text}&`;
    if (name !== field && compareCaseInsensitive(fragment, own) > 0 && (next === undefined || compareCaseInsensitive(fragment, next) < 0)) next = fragment;
  }
  FIELD_BOUNDARY.lastIndex = 0;
  for (let match; (match = FIELD_BOUNDARY.exec(value)) !== null; FIELD_BOUNDARY.lastIndex = match.index + 1) {
    const name = match[1]!;
    if (name === field || fields.has(name)) continue;
    const head = `${field}=${value.slice(0, match.index)}&`;
    const tail = `${name}=${value.slice(match.index + name.length + 2)}&`;
    if (compareCaseInsensitive(head, tail) <= 0 && (next === undefined || compareCaseInsensitive(tail, next) <= 0)) return name;
  }
  return undefined;
}
