// The mock without its optional peers: its declarations as tsc emits them (a whole TypeScript program), and
// the mock in a child process whose imports of msw and node:http throw (test/fixtures/mock-without-msw.ts).
import { execFile } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
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

describe('packaging of payment-gateway-sdk/testing', () => {
  it("the testing entry's declarations never import msw (a strict consumer without msw compiles); testing/msw's do", () => {
    const declarations = emitDeclarations(['src/testing/index.ts', 'src/testing/msw.ts']);
    const importsOf = (entry: string) => {
      const found = new Set<string>();
      const visit = (file: string) => {
        if (found.has(file)) return;
        found.add(file);
        // Imports only: an @example in a comment may show `import ... from 'msw/node'`, which no consumer compiles.
        const code = (declarations.get(file) ?? '').replace(/\/\*[\s\S]*?\*\//g, '');
        for (const [, specifier] of code.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
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
