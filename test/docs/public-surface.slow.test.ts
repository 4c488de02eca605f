// The public surface counted where merchants meet it: the names dist/index.d.ts exports (the build's
// declaration bundle), at most 100, the same names as src/index.ts (test/docs/public-surface.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../src/index.js';
import { repoRoot } from '../../scripts/lib/shipped-package.mjs';
import { ensureBuilt } from '../support/build.js';

beforeAll(ensureBuilt, 180_000);

/** The names of a declaration bundle's `export { ... }` and `export type { ... }` lists. */
function exportedNames(declarations: string): Set<string> {
  const names = new Set<string>();
  for (const [, list] of declarations.matchAll(/^export (?:type )?\{([^}]*)\}/gm)) {
    for (const part of list!.split(',')) {
      const name = part.trim().replace(/^type /, '').split(/\s+as\s+/).pop();
      if (name) names.add(name);
    }
  }
  return names;
}

describe('the built root entry', () => {
  it('exports at most 100 names, every value of the source entry among them', () => {
    const names = exportedNames(readFileSync(join(repoRoot, 'dist', 'index.d.ts'), 'utf8'));
    expect(names.size).toBeLessThanOrEqual(100);
    for (const value of Object.keys(sdk)) expect(names, value).toContain(value);
    expect(names).not.toContain('operations');
  });
});
