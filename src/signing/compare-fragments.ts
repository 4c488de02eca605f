/**
 * Java's `String.CASE_INSENSITIVE_ORDER`, which the gateway uses to sort sign fragments: compare UTF-16
 * code units; where they differ, compare their upper-case forms, then their lower-case forms; a prefix
 * sorts first. `Intl.Collator` and `localeCompare` are not equivalent (they ignore punctuation order).
 */
export function compareCaseInsensitive(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    x = upper(x);
    y = upper(y);
    if (x === y) continue;
    x = lower(x);
    y = lower(y);
    if (x !== y) return x - y;
  }
  return a.length - b.length;
}

// Java's Character.toUpperCase(char) maps one code unit to one; JS may expand ('ß' -> 'SS'): keep such chars.
function upper(c: number): number {
  if (c < 128) return c >= 97 && c <= 122 ? c - 32 : c;
  const s = String.fromCharCode(c).toUpperCase();
  return s.length === 1 ? s.charCodeAt(0) : c;
}

function lower(c: number): number {
  if (c < 128) return c >= 65 && c <= 90 ? c + 32 : c;
  const s = String.fromCharCode(c).toLowerCase();
  return s.length === 1 ? s.charCodeAt(0) : c;
}
