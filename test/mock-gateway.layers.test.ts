// The mock's own layers (docs/guides/testing.md, "How the mock is built"): domain under pages under http under
// the gateway class and its entries; type-only imports count, an import circle fails.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const testing = join(root, 'src/testing');
const files = readdirSync(testing, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.ts'))
  .map((e) => relative(root, join(e.parentPath, e.name)).replaceAll('\\', '/'));

/** The files under src/testing that `file` imports (values or types), by relative specifier. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gm)]
    .map(([, specifier]) => relative(root, resolve(dirname(join(root, file)), specifier ?? '')).replaceAll('\\', '/').replace(/\.js$/, '.ts'))
    .filter((target) => target.startsWith('src/testing/'));
}

const layer = (file: string): number => {
  if (file.startsWith('src/testing/domain/')) return 0;
  if (file.startsWith('src/testing/pages/')) return 1;
  if (file.startsWith('src/testing/http/')) return 2;
  if (/^src\/testing\/(?:log-lines|options)\.ts$/.test(file)) return 1;
  return 3; // mock-gateway.ts and the entries
};

describe('the mock is layered', () => {
  it('finds the layers it checks', () => {
    expect(files).toContain('src/testing/domain/orders.ts');
    expect(files).toContain('src/testing/http/handler.ts');
    expect(files).toContain('src/testing/pages/dashboard-page.ts');
    expect(importsOf('src/testing/http/handler.ts')).toContain('src/testing/domain/controls.ts');
  });

  it('no file imports a higher layer: domain < pages, options, log lines < http < the gateway and its entries', () => {
    const upward = files.flatMap((file) => importsOf(file).filter((target) => layer(target) > layer(file) || (layer(file) === 1 && layer(target) === 1 && dirname(target) !== dirname(file))).map((target) => `${file} -> ${target}`));
    expect(upward).toEqual([]);
  });

  it('only the entry imports the gateway class: pages and control routes use the narrow GatewayControls', () => {
    const importers = files.filter((file) => importsOf(file).includes('src/testing/mock-gateway.ts'));
    expect(importers).toEqual(['src/testing/index.ts']);
  });

  it('has no import circle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const target of importsOf(file)) visit(target, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
