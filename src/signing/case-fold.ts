/**
 * Java's `String.CASE_INSENSITIVE_ORDER`, which the gateway uses to sort sign fragments, compares two
 * strings char by char and decides on `lower(upper(c))` of the first differing chars (a prefix first).
 * So it is plain code-unit order on strings folded that way: sorting folded strings natively is the
 * Java order, and much faster than a comparator in JS. `Intl.Collator` and `localeCompare` are not
 * equivalent (they ignore punctuation order), and plain `toLowerCase` differs outside ASCII ('ſ', whose
 * upper case is 'S').
 */
export function foldCase(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  let folded = '';
  for (let i = 0; i < text.length; i++) folded += String.fromCharCode(lower(upper(text.charCodeAt(i))));
  return folded;
}

/** {@link foldCase} for field names, which repeat from call to call: cached, within a bound. */
export function foldKey(key: string): string {
  let folded = foldedKeys.get(key);
  if (folded === undefined) {
    folded = foldCase(key);
    // Bounded, so hostile input cannot grow it.
    if (foldedKeys.size < 512) foldedKeys.set(key, folded);
  }
  return folded;
}

const ASCII = /^[\x00-\x7f]*$/;
const foldedKeys = new Map<string, string>();

// Java's Character.toUpperCase(char) maps one code unit to one; JS may expand ('ß' -> 'SS'): keep such chars.
function upper(c: number): number {
  const s = String.fromCharCode(c).toUpperCase();
  return s.length === 1 ? s.charCodeAt(0) : c;
}

function lower(c: number): number {
  const s = String.fromCharCode(c).toLowerCase();
  return s.length === 1 ? s.charCodeAt(0) : c;
}
