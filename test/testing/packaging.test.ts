// How the mock ships: a separate entry the main entry never reaches, msw and node:http loaded only on use.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The declaration files tsc emits for these entries and what they import, by absolute .d.ts path. */
function emitDeclarations(entries: string[]): Map<string, string> {
  const options = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2023, strict: true, skipLibCheck: true, declaration: true, emitDeclarationOnly: true, outDir: root, rootDir: root };
  const out = new Map<string, string>();
  ts.createProgram(entries.map((entry) => join(root, entry)), options).emit(undefined, (file, text) => out.set(file, text), undefined, true);
  return out;
}

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
    expect(files).toContain('src/operations/table.ts');
    expect(files.filter((f) => f.startsWith('src/testing/'))).toEqual([]);
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

  it("the testing entry's declarations never import msw (a strict consumer without msw compiles); testing/msw's do", () => {
    const declarations = emitDeclarations(['src/testing/index.ts', 'src/testing/msw.ts']);
    const importsOf = (entry: string) => {
      const found = new Set<string>();
      const visit = (file: string) => {
        if (found.has(file)) return;
        found.add(file);
        for (const [, specifier] of (declarations.get(file) ?? '').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
          if (specifier?.startsWith('.')) visit(resolve(dirname(file), specifier).replace(/\.js$/, '.d.ts'));
          else found.add(specifier ?? '');
        }
      };
      visit(join(root, entry));
      return [...found];
    };
    const testing = importsOf('src/testing/index.d.ts');
    expect(testing).toContain(join(root, 'src/testing/mock-gateway.d.ts'));
    expect(testing.filter((name) => /^msw(?:\/|$)/.test(name))).toEqual([]);
    expect(importsOf('src/testing/msw.d.ts')).toContain('msw');
  }, 30_000); // a whole TypeScript program emits here: about 5 s on a busy 2-core machine
});
