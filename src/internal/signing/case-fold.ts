/**
 * Java's `String.CASE_INSENSITIVE_ORDER`, which the gateway uses to sort sign fragments: compare char by
 * char; where two UTF-16 units differ, decide on `Character.toLowerCase(Character.toUpperCase(c))` of
 * each; a prefix sorts first. Written out as Java does it (not by folding whole strings first), so a
 * comparison costs only the length of the common prefix: hostile case twins (`A=…` and `a=…`) cannot
 * make the signer fold whole values. `Intl.Collator`/`localeCompare` are not equivalent (they ignore
 * punctuation order).
 */
export function compareCaseInsensitive(a: string, b: string): number {
  const shorter = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < shorter; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const fx = foldUnit(x);
    const fy = foldUnit(y);
    if (fx !== fy) return fx - fy;
  }
  return a.length - b.length;
}

/** `Character.toLowerCase(Character.toUpperCase(c))` of Java 17 for one UTF-16 code unit. */
export function foldUnit(c: number): number {
  if (c < 0x80) return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
  return (foldTable ??= buildFoldTable())[c]!;
}

// The whole 64K table is built at once, on the first non-ASCII comparison (about 10 ms, 128 KiB): it is
// a pure function of the unit, never filled or keyed by what is compared. test/signing.test.ts holds
// every unit to the table made with a JDK (test/fixtures/java-case-fold.txt).
let foldTable: Uint16Array | undefined;

function buildFoldTable(): Uint16Array {
  const table = new Uint16Array(0x10000);
  for (let c = 0; c < 0x10000; c++) table[c] = lower(upper(c));
  // Java folds U+0130 'İ' to 'i' (JS lower-cases it to 'i' + U+0307, two units); letters newer than
  // Java 17's Unicode 13 fold to themselves in Java.
  table[0x130] = 0x69;
  for (const c of JAVA_UNKNOWN) table[c] = c;
  return table;
}

const JAVA_UNKNOWN = [0x1c89, 0x2c2f, 0xa7c0, 0xa7cb, 0xa7cc, 0xa7ce, 0xa7d0, 0xa7d2, 0xa7d4, 0xa7d6, 0xa7d8, 0xa7da, 0xa7dc];

// Java's Character.toUpperCase(char) maps one code unit to one; JS may expand ('ß' -> 'SS'): keep such chars.
function upper(c: number): number {
  const s = String.fromCharCode(c).toUpperCase();
  return s.length === 1 ? s.charCodeAt(0) : c;
}

function lower(c: number): number {
  const s = String.fromCharCode(c).toLowerCase();
  return s.length === 1 ? s.charCodeAt(0) : c;
}
