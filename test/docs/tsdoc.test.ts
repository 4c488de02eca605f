import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { TOPICS } from '../../scripts/typedoc-topics.mjs';

// The typedoc site is part of the product: every public export carries TSDoc with an @example.
const entries = ['../../src/index.ts', '../../src/testing/index.ts', '../../src/testing/msw.ts', '../../src/stores/postgres.ts', '../../src/stores/redis.ts', '../../src/stores/sqlite.ts', '../../src/opentelemetry.ts'].map((p) => fileURLToPath(new URL(p, import.meta.url)));

function exportedSymbols(entry: string): { name: string; symbol: ts.Symbol; docs: { documented: boolean; example: boolean } | undefined; file: string; checker: ts.TypeChecker }[] {
  const program = ts.createProgram([entry], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2023, strict: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  if (!source) throw new Error(`cannot load ${entry}`);
  const module = checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`no module symbol for ${entry}`);
  return checker.getExportsOfModule(module).map((exported) => {
    const aliased = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    // A kind's group (`export * as Refunds from ...`) is a module: its TSDoc is the export's own, in the entry.
    const group = aliased.declarations?.[0] !== undefined && ts.isSourceFile(aliased.declarations[0]) ? exported.declarations?.[0]?.parent : undefined;
    const docs = group === undefined ? undefined : { documented: ts.getJSDocCommentsAndTags(group).length > 0, example: ts.getJSDocTags(group).some((tag) => tag.tagName.text === 'example') };
    return { name: exported.name, symbol: aliased, docs, file: aliased.declarations?.[0]?.getSourceFile().fileName ?? '', checker };
  });
}

const exports = new Map(entries.map((entry) => [entry, exportedSymbols(entry)]));

describe('documentation', () => {
  it.each(entries)('every export of %s has TSDoc with an @example', (entry) => {
    const missing = (exports.get(entry) ?? []).filter(({ symbol, docs, checker }) => {
      if (docs !== undefined) return !docs.documented || !docs.example;
      const documented = symbol.getDocumentationComment(checker).length > 0;
      return !documented || !symbol.getJsDocTags(checker).some((tag) => tag.name === 'example');
    });
    expect(missing.map(({ name }) => name)).toEqual([]);
  });

  // The API pages are grouped by topic (scripts/typedoc-topics.mjs) from the file an export is declared in.
  it.each(entries)('every export of %s is filed under a topic', (entry) => {
    const topicOf = (file: string) => TOPICS.find(([, pattern]) => pattern.test(file.split('/src/').at(-1) ?? ''))?.[0];
    const filed = (exports.get(entry) ?? []).map(({ name, file }) => [name, topicOf(file)]);
    expect(filed.filter(([, topic]) => topic === undefined)).toEqual([]);
    const topics = new Set(filed.map(([, topic]) => topic));
    const expected = entry.includes('/src/testing/')
      ? ['Testing']
      : entry.includes('/src/stores/')
        ? ['Notifications']
        : entry.endsWith('opentelemetry.ts')
          ? ['Telemetry']
          : ['Client', 'Errors', 'Kinds', 'Notifications', 'Schemas'];
    expect([...topics].sort()).toEqual(expected);
  });
});
