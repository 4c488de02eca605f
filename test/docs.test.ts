import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The typedoc site is part of the product: every public export carries TSDoc with an @example.
const entries = ['../src/index.ts', '../src/testing/index.ts', '../src/testing/msw.ts'].map((p) => fileURLToPath(new URL(p, import.meta.url)));

function exportsWithoutExample(entry: string): string[] {
  const program = ts.createProgram([entry], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2023, strict: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  if (!source) throw new Error(`cannot load ${entry}`);
  const module = checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`no module symbol for ${entry}`);
  const missing: string[] = [];
  for (const exported of checker.getExportsOfModule(module)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const tags = symbol.getJsDocTags(checker);
    const documented = symbol.getDocumentationComment(checker).length > 0;
    if (!documented || !tags.some((tag) => tag.name === 'example')) missing.push(exported.name);
  }
  return missing;
}

describe('documentation', () => {
  it.each(entries)('every export of %s has TSDoc with an @example', (entry) => {
    expect(exportsWithoutExample(entry)).toEqual([]);
  });
});
