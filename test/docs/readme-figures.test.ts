// The README's figures come from the last recorded bench (bench/results.json, written by `npm run bench`):
// none is typed by hand, so none goes stale. Run `npm run docs:bench` after recording a bench.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { markers, readResults, withReadmeFigures } from '../../scripts/readme-figures.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('the README quotes the last recorded bench', () => {
  it('every generated region holds what bench/results.json says (run npm run docs:bench)', () => {
    expect(readme).toBe(withReadmeFigures(readme, readResults()));
  });

  it('has both regions, and no figure of the bench outside them', () => {
    const outside = (['intro', 'performance'] as const).reduce((text, name) => {
      const [start, end] = markers(name);
      expect(text).toContain(start);
      return text.slice(0, text.indexOf(start)) + text.slice(text.indexOf(end) + end.length);
    }, readme);
    // Sizes in KB or bytes, milliseconds of start-up, µs of CPU, ratios against peers: only the bench writes them.
    expect(outside).not.toMatch(/\d+(?:\.\d+)? ?KB min\+gz|\d[\d,]* B \(|imported in about \d+ ms|\d+ µs|\d\.\d+x (?:raw fetch|stripe)/);
  });

  it('the figures follow the recorded results, budget verdicts included', () => {
    const results = readResults();
    const changed = withReadmeFigures(readme, { ...results, size: { ...results.size, gzipBytes: results.size.stripeGzipBytes + 1 } });
    expect(changed).not.toBe(readme);
    expect(changed).toContain(`**${(results.size.stripeGzipBytes + 1).toLocaleString('en-US')} B**`);
  });
});
