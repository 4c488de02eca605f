// How the mock ships: a separate entry the main entry never reaches, msw and node:http loaded only on use.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

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
  it('the main entry never reaches src/testing', () => {
    const files = [...reachable(join(root, 'src/index.ts'))].map((f) => f.slice(root.length));
    expect(files).toContain('src/endpoints.ts');
    expect(files.filter((f) => f.startsWith('src/testing/'))).toEqual([]);
  });

  it('is exported as ./testing for import and require, with types, and built as its own entry', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, any>;
    expect(pkg.exports['./testing']).toEqual({
      import: { types: './dist/testing.d.ts', default: './dist/testing.js' },
      require: { types: './dist/testing.d.cts', default: './dist/testing.cjs' },
    });
    expect(pkg.peerDependenciesMeta.msw).toEqual({ optional: true });
    expect(pkg.dependencies).not.toHaveProperty('msw');
    expect(readFileSync(join(root, 'tsup.config.ts'), 'utf8')).toContain("testing: 'src/testing/index.ts'");
  });

  it('works without msw and without importing node:http; handlers explain what is missing', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/fixtures/mock-without-msw.ts'], { cwd: root });
    expect(JSON.parse(stdout)).toEqual({
      fetchStatus: 200,
      fetchCode: 9999,
      handlers: 'gateway.handlers needs msw, an optional peer dependency: npm install --save-dev msw',
      listen: true,
    });
  });
});
