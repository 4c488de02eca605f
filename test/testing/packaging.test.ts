// How the mock ships: a separate entry the main entry never reaches, msw and node:http loaded only on use.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Every source file reachable from `entry` through relative imports and re-exports (type-only ones too). */
function reachable(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  for (const [, specifier] of readFileSync(entry, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
    reachable(resolve(dirname(entry), specifier ?? '').replace(/\.js$/, '.ts'), seen);
  }
  return seen;
}

describe('packaging of payment-gateway-sdk/testing', () => {
  it("the main entry never reaches src/testing, nor a kind's mock desk", () => {
    const files = [...reachable(join(root, 'src/index.ts'))].map((f) => f.slice(root.length));
    expect(files).toContain('src/operations/table.ts');
    expect(files.filter((f) => f.startsWith('src/testing/') || /^src\/kinds\/[^/]+\/mock(?:-[a-z-]+)?\.ts$/.test(f))).toEqual([]);
  });

  it('is exported as ./testing for import and require, with types, and built as its own entry', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, any>;
    expect(pkg.exports['./testing']).toEqual({
      import: { types: './dist/testing.d.ts', default: './dist/testing.js' },
      require: { types: './dist/testing.d.cts', default: './dist/testing.cjs' },
    });
    expect(pkg.exports['./testing/msw']).toEqual({
      import: { types: './dist/testing/msw.d.ts', default: './dist/testing/msw.js' },
      require: { types: './dist/testing/msw.d.cts', default: './dist/testing/msw.cjs' },
    });
    expect(pkg.peerDependenciesMeta.msw).toEqual({ optional: true });
    expect(pkg.dependencies).not.toHaveProperty('msw');
    expect(readFileSync(join(root, 'tsup.config.ts'), 'utf8')).toContain("testing: 'src/testing/index.ts'");
    expect(readFileSync(join(root, 'tsup.config.ts'), 'utf8')).toContain("'testing/msw': 'src/testing/msw.ts'");
  });
});
