/**
 * Readings of a signature. The gateway signs the sorted `name=value&` fragments joined into one text, so
 * the text does not say where one field ends: `subject=Gift&state=2&` is the fragment of one field whose
 * value holds `&state=2`, or two fields. A reading is any field map whose fragments join to the same text.
 *
 * {@link findAmbiguity} is the strict rule of {@link verifySign}, which vouches for a whole field map: one
 * reading only (no value holds `&name=`, except where the gateway's sort rules a URL field's split out).
 * {@link judgeReadings} is the rule of the record verifiers: every reading they would accept is searched
 * for, and a record is returned only as far as those readings agree; free text they disagree on is marked,
 * never returned as signed. SECURITY.md ("What a signature can and cannot bind") gives the argument.
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

/**
 * What a record verifier tells {@link judgeReadings} about its record: the names its schema knows, the
 * fields whose values are free text (the only ones that may hold `&name=`), and whether it would accept a
 * given field map (shape, merchant, binding, expectations). `accepts` is called only for messages whose
 * text holds `&name=` or fields the schema does not know, once per reading.
 */
export interface ReadingRules {
  /** The field names of the record's schema. */
  readonly known: ReadonlySet<string>;
  /** The names of free-text fields (titles, descriptions, URLs); one counts where `known` has it too. */
  readonly freeText: ReadonlySet<string>;
  /** The names every reading `accepts` takes carries (the schema's required fields): the search leaves out readings without one. */
  readonly required: ReadonlySet<string>;
  /**
   * Whether the verifier would accept `reading`, a reading of `received`'s signed text. The verdict counts
   * only when `received` passes the verifier's own checks, so a field `reading` shares with it needs no
   * check again. It may accept more than the verifier does (the search stays sound), never less.
   */
  readonly accepts: (reading: ReadonlyMap<string, string>, received: ReadonlyMap<string, string>) => boolean;
}

/** Why a message is refused: its signed text can be read as another record the verifier would accept. */
export interface ReadingRefusal extends Ambiguity {
  /** `name`: a field name is no identifier; `boundary`: a value holds `&name=` where another reading starts a field; `differs`: accepted readings differ in a field that is not free text; `too-many`: too many readings to check them all. */
  readonly problem: 'name' | 'boundary' | 'differs' | 'too-many';
}

/**
 * The verdict on a received record: refused, or accepted with the free-text fields (and fields the schema
 * does not know) that other accepted readings of the same signed text give other values, each with the
 * values it takes (sorted); empty when the record has one accepted reading.
 */
export type ReadingVerdict = { readonly refused: ReadingRefusal } | { readonly ambiguous: ReadonlyMap<string, readonly string[]> };

const NO_AMBIGUITY: ReadingVerdict = { ambiguous: new Map() };

/** What is wrong with the refused field, for the issue an error lists (a name that is no identifier has its own message). */
export function refusalMessage(refusal: ReadingRefusal): string {
  switch (refusal.problem) {
    case 'boundary':
      return `contains '&${refusal.name}=': the gateway's signature cannot tell where this field ends and a field '${refusal.name}' begins`;
    case 'differs':
      return 'has another value in another reading of the signed text that would pass the same checks';
    default:
      return `gives its message more readings than the SDK checks (${MAX_INNER_BOUNDARIES} '&name=' inside values, ${MAX_READINGS} readings, ${MAX_FIELDS} fields)`;
  }
}

// Bounds on the search: a genuine message has a dozen fields and a few `&name=` in its free text.
const MAX_INNER_BOUNDARIES = 32;
const MAX_FIELDS = 512;
const MAX_STEPS = 10_000;
const MAX_READINGS = 64;

const NAME_THEN_EQUALS = /[A-Za-z_$][\w$]*=/y;

/** A place in the signed text where a field could start: `name=` at the start or after an `&`. */
interface Start {
  readonly at: number;
  readonly name: string;
  /** Where the value starts (after the `=`). */
  readonly value: number;
}

/**
 * Judges every reading of the signed text of `fields` (the received record, each value as signed): another
 * field map whose sorted `name=value&` fragments join to the same text. The **accepted** readings are those where:
 * 1. every name is an identifier and appears once, every value is non-empty, the fragments are in the
 *    gateway's sorted order;
 * 2. only a free-text field's value holds `&name=` (ids, amounts, states, enums, unknown fields never do);
 * 3. a free-text value holds `&name=` for a name the schema knows and the reading leaves out only where no
 *    reading of rules 1, 2 and 4 starts a field there (free text does not swallow a field the text can have);
 * 4. `rules.accepts` holds (the verifier's own checks).
 *
 * The record is refused when it is not accepted itself, or when accepted readings differ in a field that is not
 * free text; the free-text fields they differ in are returned as ambiguous (docs/architecture.md, "Received data").
 */
export function judgeReadings(fields: ReadonlyMap<string, string>, rules: ReadingRules): ReadingVerdict {
  let simple = true;
  for (const [name, value] of fields) {
    if (!FIELD_NAME.test(name)) return { refused: { field: name, problem: 'name' } };
    if (!rules.known.has(name)) simple = false;
    const inner = fieldBoundaryIn(value);
    if (inner === undefined) continue;
    if (!isFreeText(name, rules)) return { refused: { field: name, name: inner, problem: 'boundary' } };
    simple = false;
  }
  // Known names, no `&name=` in any value: another reading would need a value running past a known
  // field's start, which rules 2 and 3 refuse (this record, accepted, starts one there). It is the only one.
  if (simple) return NO_AMBIGUITY;
  return judgeAll(fields, rules);
}

function judgeAll(fields: ReadonlyMap<string, string>, rules: ReadingRules): ReadingVerdict {
  const fragments = [...fields].map(([name, value]) => `${name}=${value}&`).sort(compareCaseInsensitive);
  const text = fragments.join('');
  const starts = startsIn(text);
  const crowded = [...fields].find(([name, value]) => isFreeText(name, rules) && fieldBoundaryIn(value) !== undefined) ?? [...fields][0]!;
  const tooMany: ReadingVerdict = { refused: { field: crowded[0], problem: 'too-many' } };
  if (starts.length - fields.size > MAX_INNER_BOUNDARIES || fields.size > MAX_FIELDS) return tooMany;
  const index = new Map(starts.map((start, i) => [start.at, i]));
  const own: number[] = [];
  for (let at = 0, i = 0; i < fragments.length; at += fragments[i]!.length, i++) own.push(index.get(at)!);

  const readings = search(text, starts, rules, fields);
  if (readings === undefined) return tooMany;
  // Rule 3: a free-text value may not swallow a known field it leaves out, where some reading starts one.
  const startsSomewhere = new Set(readings.flat());
  const swallowed = (reading: readonly number[]): ReadingRefusal | undefined => {
    let names: Set<string> | undefined;
    for (let r = 0; r < reading.length; r++) {
      const field = starts[reading[r]!]!.name;
      if (!isFreeText(field, rules)) continue;
      const end = r + 1 < reading.length ? reading[r + 1]! : starts.length;
      for (let inner = reading[r]! + 1; inner < end; inner++) {
        const { name } = starts[inner]!;
        if (!rules.known.has(name) || !startsSomewhere.has(inner)) continue;
        names ??= new Set(reading.map((s) => starts[s]!.name));
        if (!names.has(name)) return { field, name, problem: 'boundary' };
      }
    }
    return undefined;
  };
  const accepted = readings.filter((reading) => swallowed(reading) === undefined);
  const ownKey = own.join(',');
  if (!accepted.some((reading) => reading.join(',') === ownKey)) {
    // Not found by rules 1, 2 and 4: the verifier's own checks refuse the record and say why.
    const refusal = readings.some((reading) => reading.join(',') === ownKey) ? swallowed(own) : undefined;
    return refusal ? { refused: refusal } : NO_AMBIGUITY;
  }
  if (accepted.length === 1) return NO_AMBIGUITY;
  return compareReadings(accepted.map((reading) => valuesOf(text, starts, reading)), rules);
}

/** A free-text field of the record's schema: a field the schema does not know is never free text. */
function isFreeText(name: string, rules: ReadingRules): boolean {
  return rules.freeText.has(name) && rules.known.has(name);
}

/** Every `name=` at the start of the text or after an `&`: the places a field could start. */
function startsIn(text: string): Start[] {
  const starts: Start[] = [];
  for (let at = 0; at < text.length; ) {
    NAME_THEN_EQUALS.lastIndex = at;
    if (NAME_THEN_EQUALS.test(text)) starts.push({ at, name: text.slice(at, NAME_THEN_EQUALS.lastIndex - 1), value: NAME_THEN_EQUALS.lastIndex });
    const amp = text.indexOf('&', at);
    if (amp === -1) break;
    at = amp + 1;
  }
  return starts;
}

/**
 * Every reading of rules 1, 2 and 4, as the indexes of its fields' starts, or `undefined` when there are
 * more than the bounds allow. Depth first: a field that is not free text ends at the next start; a
 * free-text field at any later one, up to the last start of a required name.
 */
function search(text: string, starts: readonly Start[], rules: ReadingRules, received: ReadonlyMap<string, string>): number[][] | undefined {
  const readings: number[][] = [];
  const path: number[] = [];
  const names = new Set<string>();
  // A free-text value that swallows the last start of a required name the reading lacks leaves it without one.
  const last = new Map<string, number>();
  starts.forEach((start, s) => last.set(start.name, s));
  let steps = 0;
  let exhausted = false;
  const walk = (s: number, previous: string): void => {
    const start = starts[s]!;
    if (names.has(start.name)) return;
    if (++steps > MAX_STEPS) {
      exhausted = true;
      return;
    }
    names.add(start.name);
    path.push(s);
    const free = isFreeText(start.name, rules);
    for (let next = s + 1; next <= starts.length && !exhausted; next++) {
      const end = next < starts.length ? starts[next]!.at : text.length;
      if (end - 1 > start.value) {
        const fragment = text.slice(start.at, end);
        if (compareCaseInsensitive(previous, fragment) <= 0) {
          if (next < starts.length) walk(next, fragment);
          else if (rules.accepts(valuesOf(text, starts, path), received)) {
            readings.push([...path]);
            if (readings.length > MAX_READINGS) exhausted = true;
          }
        }
      }
      if (!free) break; // its value would hold `&name=`
      const skipped = starts[next]?.name;
      if (skipped !== undefined && rules.required.has(skipped) && !names.has(skipped) && last.get(skipped) === next) break;
    }
    path.pop();
    names.delete(start.name);
  };
  walk(0, '');
  return exhausted ? undefined : readings;
}

function valuesOf(text: string, starts: readonly Start[], reading: readonly number[]): Map<string, string> {
  const values = new Map<string, string>();
  for (let r = 0; r < reading.length; r++) {
    const start = starts[reading[r]!]!;
    const end = r + 1 < reading.length ? starts[reading[r + 1]!]!.at : text.length;
    values.set(start.name, text.slice(start.value, end - 1));
  }
  return values;
}

function compareReadings(readings: readonly ReadonlyMap<string, string>[], rules: ReadingRules): ReadingVerdict {
  const names = new Set(readings.flatMap((reading) => [...reading.keys()]));
  const ambiguous = new Map<string, readonly string[]>();
  for (const name of [...names].sort()) {
    const values = readings.map((reading) => reading.get(name));
    if (values.every((value) => value === values[0])) continue;
    if (rules.known.has(name) && !isFreeText(name, rules)) return { refused: { field: name, problem: 'differs' } };
    ambiguous.set(name, [...new Set(values.filter((value) => value !== undefined))].sort());
  }
  return { ambiguous };
}
