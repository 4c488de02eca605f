/**
 * Java's `String.CASE_INSENSITIVE_ORDER` as JDK 17 runs it (the reference gateway's JDK;
 * `StringUTF16.compareToCIImpl`): compare char by char; where two UTF-16 units differ, decide on
 * `Character.toLowerCase(Character.toUpperCase(c))` of each; where a differing unit is half of a surrogate
 * pair, decide on the fold of the whole code point instead; a prefix sorts first. Written out as Java does it
 * (not by folding whole strings first), so a comparison costs only the length of the common prefix: hostile
 * case twins (`A=…` and `a=…`, `𐐀=…` and `𐐨=…`) cannot make the signer fold whole values.
 * `Intl.Collator`/`localeCompare` are not equivalent (they ignore punctuation order).
 */
export function compareCaseInsensitive(a: string, b: string): number {
  const shorter = a.length < b.length ? a.length : b.length;
  for (let i = 0; i < shorter; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const fx = foldUnit(x);
    const fy = foldUnit(y);
    if (fx === fy) continue;
    // A surrogate folds to itself, so only here can a supplementary character be involved.
    if (isSurrogate(x) || isSurrogate(y)) return compareFromSurrogates(a, b, i);
    return fx - fy;
  }
  return a.length - b.length;
}

/**
 * The rest of JDK 17's loop from `start`, where the units first differ and one is a surrogate: each side
 * takes the code point that unit belongs to (a high surrogate also consumes its low half, so the two
 * indexes may part, as in Java), and their folds decide; equal folds go on.
 */
function compareFromSurrogates(a: string, b: string, start: number): number {
  for (let i = start, j = start; i < a.length && j < b.length; i++, j++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(j);
    if (x === y || foldUnit(x) === foldUnit(y)) continue;
    const cx = codePointIncluding(a, i);
    const cy = codePointIncluding(b, j);
    if (cx > 0xffff && isHighSurrogate(x)) i++;
    if (cy > 0xffff && isHighSurrogate(y)) j++;
    const difference = foldCodePoint(cx) - foldCodePoint(cy);
    if (difference !== 0) return difference;
  }
  return a.length - b.length;
}

/** Java's `StringUTF16.codePointIncluding`: the code point of the pair the unit at `index` is half of, else the unit. */
function codePointIncluding(text: string, index: number): number {
  const unit = text.charCodeAt(index);
  if (isHighSurrogate(unit)) {
    const next = index + 1 < text.length ? text.charCodeAt(index + 1) : 0;
    return isLowSurrogate(next) ? toCodePoint(unit, next) : unit;
  }
  if (isLowSurrogate(unit) && index > 0) {
    const previous = text.charCodeAt(index - 1);
    if (isHighSurrogate(previous)) return toCodePoint(previous, unit);
  }
  return unit;
}

const isSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdfff;
const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;
const toCodePoint = (high: number, low: number): number => ((high - 0xd800) << 10) + (low - 0xdc00) + 0x10000;

/** `Character.toLowerCase(Character.toUpperCase(cp))` of Java 17 for any code point. */
export function foldCodePoint(cp: number): number {
  return cp <= 0xffff ? foldUnit(cp) : foldSupplementary(cp);
}

/** `Character.toLowerCase(Character.toUpperCase(c))` of Java 17 for one UTF-16 code unit. */
export function foldUnit(c: number): number {
  if (c < 0x80) return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
  return (foldTable ??= buildFoldTable())[c]!;
}

// Java 17 (Unicode 13) knows case outside the BMP in six scripts only, each a run of capitals whose small
// letters sit a fixed distance on: [first capital, last capital, distance]. Not JS's toLowerCase: it
// follows a newer Unicode (Vithkuqi U+10570.., Garay U+10D50..), unknown to Java 17. Held to the JDK for
// every code point by test/protocol/signing/case-fold.test.ts (test/fixtures/java-case-fold.txt).
const SUPPLEMENTARY_CAPITALS: readonly (readonly [number, number, number])[] = [
  [0x10400, 0x10427, 0x28], // Deseret
  [0x104b0, 0x104d3, 0x28], // Osage
  [0x10c80, 0x10cb2, 0x40], // Old Hungarian
  [0x118a0, 0x118bf, 0x20], // Warang Citi
  [0x16e40, 0x16e5f, 0x20], // Medefaidrin
  [0x1e900, 0x1e921, 0x22], // Adlam
];

function foldSupplementary(cp: number): number {
  for (const [first, last, distance] of SUPPLEMENTARY_CAPITALS) if (cp >= first && cp <= last) return cp + distance;
  return cp;
}

// The whole 64K table is built at once, on the first non-ASCII comparison (about 10 ms, 128 KiB): it is
// a pure function of the unit, never filled or keyed by what is compared. test/protocol/signing/case-fold.test.ts
// holds every unit to the table made with a JDK (test/fixtures/java-case-fold.txt).
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
