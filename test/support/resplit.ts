import { compareCaseInsensitive } from './java-order.js';

// Written from the protocol text, not from the SDK: a reading's names are identifiers, its fragments
// `name=value&` with a value of at least one character (the gateway signs no empty value).
const NAME = /^[A-Za-z_$][\w$]*$/;
const NAME_THEN_EQUALS = /^[A-Za-z_$][\w$]*=/;

/** The signed text of `fields` without the secret: the sorted `name=value&` fragments joined. */
export function signedText(fields: ReadonlyMap<string, string>): string {
  return [...fields]
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `${name}=${value}&`)
    .sort(compareCaseInsensitive)
    .join('');
}

/**
 * Readings of a signed text: every map of identifier names to non-empty values whose fragments, in the
 * gateway's sorted order, join to `text` (so it has the same signature). Explored depth first with the
 * candidate boundaries in an order shuffled by `seed`, up to `limit` readings.
 */
export function readingsOf(text: string, limit: number, seed: number): Map<string, string>[] {
  const readings: Map<string, string>[] = [];
  let state = seed >>> 0 || 1;
  const random = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const walk = (pos: number, previous: string, fields: Map<string, string>) => {
    if (readings.length >= limit) return;
    if (pos === text.length) {
      readings.push(new Map(fields));
      return;
    }
    const equals = text.indexOf('=', pos);
    if (equals === -1) return;
    const name = text.slice(pos, equals);
    if (!NAME.test(name) || fields.has(name)) return;
    const ends: number[] = [];
    for (let p = text.indexOf('&', equals + 2); p !== -1; p = text.indexOf('&', p + 1)) {
      if (p === text.length - 1 || NAME_THEN_EQUALS.test(text.slice(p + 1, p + 200))) ends.push(p);
    }
    for (let i = ends.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [ends[i], ends[j]] = [ends[j]!, ends[i]!];
    }
    for (const end of ends) {
      const fragment = text.slice(pos, end + 1);
      if (previous !== '' && compareCaseInsensitive(previous, fragment) > 0) continue;
      fields.set(name, text.slice(equals + 1, end));
      walk(end + 1, fragment, fields);
      fields.delete(name);
    }
  };
  walk(0, '', new Map());
  return readings;
}

/**
 * Readings of the signed text of `fields` that differ from it only within `window` consecutive
 * fragments (every way to re-split that stretch: swallowing the next fields, splitting a value at its
 * `&name=`), with the genuine fragments before and after, kept where the sort still allows the junctions.
 * An attack moves boundaries locally; a full enumeration of a long message would be too large.
 */
export function readingsNear(fields: ReadonlyMap<string, string>, window: number, limitPerWindow: number, seed: number): Map<string, string>[] {
  const fragments = [...fields].filter(([, v]) => v !== '').map(([name, value]) => [name, value, `${name}=${value}&`] as const);
  fragments.sort((a, b) => compareCaseInsensitive(a[2], b[2]));
  const found = new Map<string, Map<string, string>>();
  for (let i = 0; i < fragments.length; i++) {
    const before = fragments.slice(0, i);
    for (let width = 1; width <= window && i + width <= fragments.length; width++) {
      const after = fragments.slice(i + width);
      const stretch = fragments.slice(i, i + width).map(([, , fragment]) => fragment).join('');
      for (const middle of readingsOf(stretch, limitPerWindow, seed + i * 31 + width)) {
        const names = new Set([...before, ...after].map(([name]) => name));
        if ([...middle.keys()].some((name) => names.has(name))) continue;
        const last = [...middle].map(([name, value]) => `${name}=${value}&`).sort(compareCaseInsensitive).at(-1)!;
        if (after.length > 0 && compareCaseInsensitive(last, after[0]![2]) > 0) continue;
        const reading = new Map([...before.map(([n, v]) => [n, v] as const), ...middle, ...after.map(([n, v]) => [n, v] as const)]);
        found.set(JSON.stringify([...reading].sort()), reading);
      }
    }
  }
  return [...found.values()];
}

/** Whether two readings are the same map of fields. */
export function sameFields(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  return a.size === b.size && [...a].every(([name, value]) => b.get(name) === value);
}

/** A form body of `entries` (names may hold '=' and '&': the form encodes them) and a sign. */
export const form = (entries: Iterable<readonly [string, string]>, sign: string) => new URLSearchParams([...[...entries].map(([k, v]) => [k, v]), ['sign', sign]]).toString();

/** The signed fields of a genuine message as a map, without its sign. */
export function fieldsOf(signed: Readonly<Record<string, string>>): Map<string, string> {
  const { sign: _sign, ...fields } = signed;
  return new Map(Object.entries(fields));
}

/** A reading with where each of its fields starts in the signed text. */
export interface PlacedReading {
  readonly fields: Map<string, string>;
  readonly starts: ReadonlyMap<string, number>;
}

/**
 * Every reading of `text` under the first two rules of a record verifier (issue 23), enumerated from the
 * rules' text, not from the SDK: names identifiers and unique, values non-empty, fragments in sorted order;
 * a field not in `freeText` ends at its first `&name=` (its value never holds one), a free-text field at
 * any. Complete: every such reading, up to `limit`.
 */
export function readingsByRules(text: string, freeText: ReadonlySet<string>, limit = 2000): PlacedReading[] {
  const readings: PlacedReading[] = [];
  const walk = (pos: number, previous: string, fields: Map<string, string>, starts: Map<string, number>) => {
    if (readings.length >= limit) return;
    if (pos === text.length) {
      readings.push({ fields: new Map(fields), starts: new Map(starts) });
      return;
    }
    const equals = text.indexOf('=', pos);
    if (equals === -1) return;
    const name = text.slice(pos, equals);
    if (!NAME.test(name) || fields.has(name)) return;
    for (let end = text.indexOf('&', equals + 1); end !== -1; end = text.indexOf('&', end + 1)) {
      const boundary = end === text.length - 1 || NAME_THEN_EQUALS.test(text.slice(end + 1, end + 200));
      if (!boundary) continue;
      if (end > equals + 1) {
        const fragment = text.slice(pos, end + 1);
        if (previous === '' || compareCaseInsensitive(previous, fragment) <= 0) {
          fields.set(name, text.slice(equals + 1, end));
          starts.set(name, pos);
          walk(end + 1, fragment, fields, starts);
          fields.delete(name);
          starts.delete(name);
        }
      }
      if (!freeText.has(name)) return; // the next `&name=` ends it, or it has none
    }
  };
  walk(0, '', new Map(), new Map());
  return readings;
}

/**
 * The third rule: drops each reading whose free-text value holds `&k=`, for a `known` name k that the
 * reading leaves out, at a place where another of `readings` starts a field.
 */
export function withoutSwallowedFields(readings: readonly PlacedReading[], known: ReadonlySet<string>, freeText: ReadonlySet<string>): PlacedReading[] {
  const startsSomewhere = new Set(readings.flatMap((reading) => [...reading.starts.values()]));
  return readings.filter(({ fields, starts }) =>
    [...fields].every(([name, value]) => {
      if (!freeText.has(name)) return true;
      const valueAt = starts.get(name)! + name.length + 1;
      for (const match of value.matchAll(/&([A-Za-z_$][\w$]*)=/g)) {
        const inner = match[1]!;
        if (known.has(inner) && !fields.has(inner) && startsSomewhere.has(valueAt + match.index + 1)) return false;
      }
      return true;
    }),
  );
}
