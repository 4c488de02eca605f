// SECURITY.md names, for each threat, the tests that attack it as `file` › describe › test; › another test.
// Every path it names must exist, and every test name must be one of that file's titles, so a moved file or
// a renamed test cannot leave the threat model pointing at nothing.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const security = readFileSync(`${root}SECURITY.md`, 'utf8');

/** The "Proved by" cell of each threat row, by threat number. */
const proofs = security
  .split('\n')
  .filter((line) => /^\| \d+ \|/.test(line))
  .map((line) => ({ threat: line.split(' | ')[0]!.replace('| ', ''), cell: line.slice(line.lastIndexOf(' | ') + 3).replace(/\s*\|\s*$/, '') }));

/** Each test file a cell names, with the names after it: `file` (a remark) › name › name; › name. */
function namedTests(cell: string): { file: string; names: string[] }[] {
  const parts = cell.split(/`((?:test|test-browser)\/[^`]+?\.ts)`/);
  const named: { file: string; names: string[] }[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const names = (parts[i + 1] ?? '').split('›').slice(1).map((name) => name.trim().replace(/;$/, ''));
    named.push({ file: parts[i]!, names });
  }
  return named;
}

/**
 * A test title of the file as a pattern: `${…}` and the `%s` of `it.each` stand for any text. A name matches
 * a title whole, with a remark in parentheses after it, or cut short (at least 30 characters of it). A
 * literal with little text of its own (`${key}=${value}`) is no title: it would match anything.
 */
function titleMatcher(title: string): (name: string) => boolean {
  const texts = title.split(/\$\{[^}]*\}|%[sidjfo#]/);
  if ((texts.join('').match(/[A-Za-z]/g) ?? []).length < 5) return () => false;
  const pattern = texts.map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('(.+?)');
  const whole = new RegExp(`^${pattern}(?: \\(.*\\))?$`, 's');
  return (name) => whole.test(name) || (name.length >= 30 && title.startsWith(name));
}

/** Every string literal of a source file: test titles are among them. */
function literals(source: string): string[] {
  return [...source.matchAll(/'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g)].map((m) => (m[1] ?? m[2] ?? m[3] ?? '').replace(/\\(['"`\\])/g, '$1'));
}

/** A name occurs in a file when a title matches it, or, for "a / b", when a title matches each part. */
function occurs(name: string, titles: ((name: string) => boolean)[]): boolean {
  const matched = (text: string) => titles.some((matches) => matches(text));
  return matched(name) || (name.includes(' / ') && name.split(' / ').every(matched));
}

describe("SECURITY.md's threat table", () => {
  it('has a row for each threat, each proved by at least one test file', () => {
    expect(proofs.map((p) => Number(p.threat))).toEqual(proofs.map((_, i) => i + 1));
    expect(proofs.length).toBeGreaterThanOrEqual(20);
    for (const { threat, cell } of proofs) expect(namedTests(cell).length, `threat ${threat}`).toBeGreaterThan(0);
  });

  it('names only paths that exist', () => {
    const paths = [...security.matchAll(/`((?:test|test-browser)\/[^`\s]+)`/g)].map(([, path]) => path!);
    expect(paths.length).toBeGreaterThan(30);
    expect(paths.filter((path) => !existsSync(`${root}${path}`))).toEqual([]);
  });

  it.each(proofs)('threat $threat: each test named is a test of the file named before it', ({ cell }) => {
    const missing: string[] = [];
    for (const { file, names } of namedTests(cell)) {
      expect(names.length, `${file} names no test`).toBeGreaterThan(0);
      const titles = literals(readFileSync(`${root}${file}`, 'utf8')).map(titleMatcher);
      missing.push(...names.filter((name) => !occurs(name, titles)).map((name) => `${file} › ${name}`));
    }
    expect(missing).toEqual([]);
  });

  it('the check above fails on a name that is not a test of the file', () => {
    const titles = literals("it('refuses a forged sign', () => {}); it.each(['a'])('a change of %s', () => {}); it(`on ${DB}: 300 orders`, f);").map(titleMatcher);
    expect(['refuses a forged sign', 'a change of amount', 'on Postgres: 300 orders', 'refuses a forged sign (with a remark)'].every((name) => occurs(name, titles))).toBe(true);
    expect(['refuses a forged signature', 'accepts a forged sign', 'a change', 'refuses a forged sign, then more'].some((name) => occurs(name, titles))).toBe(false);
    // A literal that is mostly placeholders is not taken for a title.
    expect(occurs('anything at all', literals('const line = `${key}=${value}&`;').map(titleMatcher))).toBe(false);
  });
});
