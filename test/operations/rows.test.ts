// An operation's rules live in its row of the table (src/operations/table.ts): the generic code that runs,
// judges and reconciles calls reads the row, and never names an operation or a gateway reason itself.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../src/operations/table.js';

const GENERIC = ['client/runner.ts', 'client/decode-response.ts', 'client/encode-request.ts', 'client/reconciliation.ts', 'client/policy.ts', 'client/failures.ts', 'operations/wire.ts'];

/** The string literals of a file's code (comments and TSDoc examples are not code). */
function stringLiterals(file: string): string[] {
  const path = fileURLToPath(new URL(`../../src/${file}`, import.meta.url));
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node)) found.push(node.text);
    if (ts.isTemplateExpression(node)) found.push(node.head.text, ...node.templateSpans.map((span) => span.literal.text));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('rules in their rows', () => {
  for (const file of GENERIC) {
    it(`src/${file} names no operation and no not-found reason`, () => {
      // An operation's name as a value (`operation === 'close'`), or a refusal that means "not found" (the row's `notFound`).
      const named = stringLiterals(file).filter((text) => (OPERATION_NAMES as readonly string[]).includes(text) || /_not_found$/.test(text));
      expect(named).toEqual([]);
    });
  }
});
