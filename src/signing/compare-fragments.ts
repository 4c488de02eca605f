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

const ASCII = /^[\x00-\x7f]*$/;

/**
 * The string whose code-unit order is Java's case-insensitive order: each char as `lower(upper(c))`,
 * the form {@link compareCaseInsensitive} finally compares. (Plain `toLowerCase` differs outside ASCII,
 * e.g. for 'ſ', whose upper case is 'S'.)
 */
export function foldCase(text: string): string {
  let folded = foldedKeys.get(text);
  if (folded === undefined) {
    if (ASCII.test(text)) folded = text.toLowerCase();
    else {
      folded = '';
      for (let i = 0; i < text.length; i++) folded += String.fromCharCode(lower(upper(text.charCodeAt(i))));
    }
    // Field names repeat from call to call; a bounded cache keeps hostile input from growing it.
    if (foldedKeys.size < 512) foldedKeys.set(text, folded);
  }
  return folded;
}

const foldedKeys = new Map<string, string>();
