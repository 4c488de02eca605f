import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FIXTURE = fileURLToPath(new URL('../fixtures/java-case-fold.txt', import.meta.url));

/**
 * `Character.toLowerCase(Character.toUpperCase(c))` as a JDK computed it for every UTF-16 unit
 * (test/fixtures/java-case-fold.txt lists the units that change; see test/fixtures/README.md).
 */
export const JAVA_FOLD: Uint16Array = (() => {
  const table = new Uint16Array(0x10000);
  for (let c = 0; c < 0x10000; c++) table[c] = c;
  for (const line of readFileSync(FIXTURE, 'utf8').split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const [unit, folded] = line.split(' ').map((hex) => Number.parseInt(hex, 16)) as [number, number];
    table[unit] = folded;
  }
  return table;
})();

/**
 * The reference: Java's `String.CASE_INSENSITIVE_ORDER` written out as its comparator, char by char
 * (where code units differ, their Java folds decide; a prefix sorts first), on the JDK's own table.
 */
export function compareCaseInsensitive(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i++) {
    const x = JAVA_FOLD[a.charCodeAt(i)]!;
    const y = JAVA_FOLD[b.charCodeAt(i)]!;
    if (x !== y) return x - y;
  }
  return a.length - b.length;
}

/**
 * A stateless reference signer, written from the protocol text (docs/reference/protocol.md section 1) and nothing of the
 * SDK: every entry but `sign`, without null/undefined/"", as `key=value&`, sorted with the reference
 * order, `key=SECRET`, MD5 over UTF-8, upper-case hex. Ill-formed text (a lone surrogate) has no UTF-8
 * form: it returns `undefined`, where the SDK must refuse.
 */
export function referenceSign(entries: Iterable<readonly [string, string | number | boolean | null | undefined]>, secret: string): string | undefined {
  const fragments: string[] = [];
  for (const [key, value] of entries) {
    if (key === 'sign' || value === null || value === undefined || value === '') continue;
    fragments.push(`${key}=${String(value)}&`);
  }
  const text = `${fragments.sort(compareCaseInsensitive).join('')}key=${secret}`;
  if (!text.isWellFormed()) return undefined;
  return createHash('md5').update(Buffer.from(text, 'utf8')).digest('hex').toUpperCase();
}
