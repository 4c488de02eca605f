// Every TypeScript block of the README and of the guides in SNIPPET_DOCUMENTS is written from a file the suite compiles (examples/readme/*.ts,
// test/docs/readme-snippets.test-d.ts) or runs (the framework examples, test/docs/examples.test.ts):
// `npm run docs:readme` rewrites the blocks; this fails when one is stale or has no file.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MARKER, regionsOf, SNIPPET_DOCUMENTS, withSnippets } from '../../scripts/readme-snippets.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const lines = readme.split('\n');

describe('the README\'s code blocks', () => {
  it('are the regions of their files (run npm run docs:readme after changing one)', () => {
    expect(readme).toBe(withSnippets(readme));
  });

  it('every ```ts block follows a snippet marker naming its files', () => {
    const unmarked = lines.flatMap((line, i) => (line === '```ts' && !MARKER.test(lines[i - 1] ?? '') ? [`line ${i + 1}`] : []));
    expect(unmarked).toEqual([]);
    expect(lines.filter((line) => MARKER.test(line)).length).toBeGreaterThanOrEqual(11);
  });

  it('other blocks are commands (sh) or printed output (text), no code that could go stale', () => {
    const kinds = new Set(lines.filter((line) => /^```\w/.test(line)).map((line) => line.slice(3)));
    expect([...kinds].sort()).toEqual(['sh', 'text', 'ts']);
  });

  it('the Postgres set-up migrates its store before the first notification', () => {
    const block = readme.slice(readme.indexOf('<!-- snippet: examples/readme/processor.ts -->'));
    expect(block.slice(0, block.indexOf('\n```\n'))).toMatch(/const store = postgresStore\(\{ pool \}\);\nawait store\.migrate\(\);[\s\S]*createNotificationProcessor\(\{[\s\S]*store,/);
  });

  it('a region is dedented, regions join with a blank line, and a file without one is an error', () => {
    expect(regionsOf('x\n  // #region readme\n    a\n      b\n  // #endregion readme\n// #region readme\nc\n// #endregion readme\n', 'f.ts')).toBe('a\n  b\n\nc');
    expect(() => regionsOf('const a = 1;\n', 'f.ts')).toThrow('f.ts has no // #region readme');
  });
});

describe.each(SNIPPET_DOCUMENTS.filter((document) => document !== 'README.md'))('%s\'s code blocks', (document) => {
  const text = readFileSync(new URL(`../../${document}`, import.meta.url), 'utf8');
  const guideLines = text.split('\n');

  it('are the regions of their files (run npm run docs:readme after changing one)', () => {
    expect(text).toBe(withSnippets(text));
  });

  it('every ```ts block follows a snippet marker naming its files', () => {
    const blocks = guideLines.flatMap((line, i) => (line === '```ts' ? [i] : []));
    expect(blocks.length).toBeGreaterThan(0);
    expect(blocks.filter((i) => !MARKER.test(guideLines[i - 1] ?? '')).map((i) => `line ${i + 1}`)).toEqual([]);
  });
});
