import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FIXTURE = fileURLToPath(new URL('../fixtures/java-case-fold.txt', import.meta.url));
const ORDER_FIXTURE = fileURLToPath(new URL('../fixtures/java-case-order.txt', import.meta.url));

/**
 * `Character.toLowerCase(Character.toUpperCase(cp))` as a JDK 17 computed it for every code point that
 * changes (test/fixtures/java-case-fold.txt; see test/fixtures/README.md). Others fold to themselves.
 */
const JAVA_FOLDS: ReadonlyMap<number, number> = new Map(
  readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.split(' ').map((hex) => Number.parseInt(hex, 16)) as [number, number]),
);

/** The JDK's fold of a code point (or of a UTF-16 unit, surrogates folding to themselves). */
export function javaFold(cp: number): number {
  return JAVA_FOLDS.get(cp) ?? cp;
}

/** {@link javaFold} of every UTF-16 unit. */
export const JAVA_FOLD: Uint16Array = Uint16Array.from({ length: 0x10000 }, (_, c) => javaFold(c));

/**
 * The reference: JDK 17's `String.CASE_INSENSITIVE_ORDER` transcribed from its source
 * (`StringUTF16.compareToCIImpl`, `compareCodePointCI`, `codePointIncluding`) on the JDK's fold table: where
 * units differ and their folds differ, each side takes the code point its unit belongs to (a high surrogate
 * followed by a low one: the pair, and the index moves past it; a low one after a high one: the pair), and
 * the folds of those decide; a prefix sorts first.
 */
export function compareCaseInsensitive(a: string, b: string): number {
  for (let k1 = 0, k2 = 0; k1 < a.length && k2 < b.length; k1++, k2++) {
    let cp1 = a.charCodeAt(k1);
    let cp2 = b.charCodeAt(k2);
    if (cp1 === cp2 || javaFold(cp1) === javaFold(cp2)) continue;
    cp1 = codePointIncluding(a, cp1, k1);
    if (cp1 < 0) {
      k1++;
      cp1 = -cp1;
    }
    cp2 = codePointIncluding(b, cp2, k2);
    if (cp2 < 0) {
      k2++;
      cp2 = -cp2;
    }
    const diff = javaFold(cp1) - javaFold(cp2);
    if (diff !== 0) return diff;
  }
  return a.length - b.length;
}

// Negated when the unit at index is a high surrogate followed by a low one, as in the JDK.
function codePointIncluding(text: string, cp: number, index: number): number {
  if (cp < 0xd800 || cp > 0xdfff) return cp;
  if (cp >= 0xdc00) {
    const before = index > 0 ? text.charCodeAt(index - 1) : 0;
    return before >= 0xd800 && before <= 0xdbff ? text.codePointAt(index - 1)! : cp;
  }
  const after = index + 1 < text.length ? text.charCodeAt(index + 1) : 0;
  return after >= 0xdc00 && after <= 0xdfff ? -text.codePointAt(index)! : cp;
}

/** JDK 8 to 15: the same order, but unit by unit (a surrogate folds to itself); see SECURITY.md. */
export function compareCaseInsensitiveByUnit(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i++) {
    const x = JAVA_FOLD[a.charCodeAt(i)]!;
    const y = JAVA_FOLD[b.charCodeAt(i)]!;
    if (x !== y) return x - y;
  }
  return a.length - b.length;
}

/** A pair of strings and the sign of what JDK 17's `CASE_INSENSITIVE_ORDER.compare(a, b)` returned. */
export type JavaComparison = readonly [sign: -1 | 0 | 1, a: string, b: string];
/** Parameters and the signature a JDK 17 computed for them as the gateway does (`JeepayKit.getSign`). */
export interface JavaSignature {
  readonly secret: string;
  readonly params: readonly (readonly [string, string])[];
  readonly sign: string;
}

/** Everything test/fixtures/java-case-order.txt holds (made with a JDK; see test/fixtures/README.md). */
export const JAVA_ORDER: { readonly comparisons: readonly JavaComparison[]; readonly signatures: readonly JavaSignature[] } = (() => {
  const comparisons: JavaComparison[] = [];
  const signatures: JavaSignature[] = [];
  for (const line of readFileSync(ORDER_FIXTURE, 'utf8').split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const value = JSON.parse(line) as JavaComparison | JavaSignature;
    if (Array.isArray(value)) comparisons.push(value as JavaComparison);
    else signatures.push(value as JavaSignature);
  }
  return { comparisons, signatures };
})();

type SignableEntries = Iterable<readonly [string, string | number | boolean | null | undefined]>;

/**
 * A stateless reference signer, written from the protocol text (docs/reference/protocol.md section 1) and nothing of the
 * SDK: every entry but `sign`, without null/undefined/"", as `key=value&`, sorted with the reference
 * order, `key=SECRET`, MD5 over UTF-8, upper-case hex. Ill-formed text (a lone surrogate) has no UTF-8
 * form, and case twins ({@link caseTwinsOf}) no one signature: it returns `undefined`, where the SDK must refuse.
 */
export function referenceSign(entries: SignableEntries, secret: string): string | undefined {
  const list = [...entries];
  return caseTwinsOf(list) === undefined ? javaSign(list, secret) : undefined;
}

/**
 * What a JDK 17 gateway computes (`JeepayKit.getSign`): {@link referenceSign} without its refusal of case
 * twins, whose fragments a stable sort leaves in the order given (as Java's `Arrays.sort` does); a message
 * with twins signed this way is "genuinely signed" for whoever sent them in this order.
 */
export function javaSign(entries: SignableEntries, secret: string): string | undefined {
  const text = `${signedFragments(entries).sort(compareCaseInsensitive).join('')}key=${secret}`;
  if (!text.isWellFormed()) return undefined;
  return createHash('md5').update(Buffer.from(text, 'utf8')).digest('hex').toUpperCase();
}

/**
 * Two signed keys the SDK must refuse to sign together, found pair by pair (not by the SDK's neighbour
 * check): names of one length whose UTF-16 units fold alike under the JDK's fold (`b`/`B`, `ſ`/`s`), or
 * whole fragments the reference order ties (`𐐀=x&`/`𐐨=x&`: then the signature depends on their order).
 */
export function caseTwinsOf(entries: SignableEntries): readonly [string, string] | undefined {
  const signed = [...entries].filter(([key, value]) => key !== 'sign' && value !== null && value !== undefined && value !== '');
  for (let i = 0; i < signed.length; i++) {
    for (let j = i + 1; j < signed.length; j++) {
      const [a, x] = signed[i]!;
      const [b, y] = signed[j]!;
      const sameButForCase = a.length === b.length && [...Array(a.length).keys()].every((k) => JAVA_FOLD[a.charCodeAt(k)] === JAVA_FOLD[b.charCodeAt(k)]);
      if (sameButForCase || compareCaseInsensitive(`${a}=${String(x)}&`, `${b}=${String(y)}&`) === 0) return [a, b];
    }
  }
  return undefined;
}

function signedFragments(entries: SignableEntries): string[] {
  const fragments: string[] = [];
  for (const [key, value] of entries) {
    if (key === 'sign' || value === null || value === undefined || value === '') continue;
    fragments.push(`${key}=${String(value)}&`);
  }
  return fragments;
}
