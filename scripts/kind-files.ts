/**
 * Issue 36's measure: per record kind, the files under src/ whose code (comments stripped by the TypeScript
 * scanner; string literals count, they are code) names the kind. `npx tsx scripts/kind-files.ts` prints the
 * counts, then each kind's files; `--counts` prints the counts alone.
 *
 * A kind is named by its identifiers, matched case-insensitively in the code's text:
 * - payments: `payment` (not the package's name, `payment-gateway`, `payment_gateway`), `payOrder` (`PayOrder`,
 *   `payOrderId`), `unifiedOrder`: its notification kind, records and create;
 * - refunds: `refund` (`refundOrder`, `mchRefundNo`, `Refunds`...);
 * - settlements: `settlement`, `settleRequest`, `settleAddress` (not a sweep's `settled`, which is any kind's);
 * - transfers: `transfer` (`transferOrder`, `transferId`, `Transfers`...);
 * - division: `division` (`divisionReceiver`, `divisionRecord`, `kinds/division/`), not an order's `divisionMode` or
 *   `isDivisionOrder`, fields of an order since the first release.
 *
 * Each count is printed twice: all of src/, and outside the mock (src/testing/, src/cli/, a kind's `mock.ts` and
 * `mock-<part>.ts`), whose desks are issue 36's other half.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const KINDS: Readonly<Record<string, RegExp>> = {
  payments: /payment(?![-_]gateway)|payorder|unifiedorder/i,
  refunds: /refund/i,
  settlements: /settle(?:ment|request|address)/i,
  transfers: /transfer/i,
  division: /(?<!is)division(?!mode)/i,
};

/** The text of a TypeScript file without its comments (tokens joined by a space). */
export function codeOf(source: string): string {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, source);
  const parts: string[] = [];
  // The scanner reads a template's text and a regular expression whole only when told where one goes on: the open
  // braces of each template substitution, and whether a slash can start an expression (after no operand).
  const substitutions: number[] = [];
  let afterOperand = false;
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) {
    if (token >= ts.SyntaxKind.FirstTriviaToken && token <= ts.SyntaxKind.LastTriviaToken) continue; // comments, spaces, line ends
    if (token === ts.SyntaxKind.OpenBraceToken && substitutions.length > 0) substitutions[substitutions.length - 1]!++;
    else if (token === ts.SyntaxKind.CloseBraceToken && substitutions.length > 0) {
      if (substitutions[substitutions.length - 1] === 0) token = scanner.reScanTemplateToken(false);
      else substitutions[substitutions.length - 1]!--;
    } else if ((token === ts.SyntaxKind.SlashToken || token === ts.SyntaxKind.SlashEqualsToken) && !afterOperand) token = scanner.reScanSlashToken();
    if (token === ts.SyntaxKind.TemplateHead) substitutions.push(0);
    else if (token === ts.SyntaxKind.TemplateTail) substitutions.pop();
    afterOperand =
      token === ts.SyntaxKind.Identifier || token === ts.SyntaxKind.CloseParenToken || token === ts.SyntaxKind.CloseBracketToken || token === ts.SyntaxKind.CloseBraceToken ||
      (token >= ts.SyntaxKind.FirstLiteralToken && token <= ts.SyntaxKind.LastLiteralToken) || token === ts.SyntaxKind.TemplateTail ||
      token === ts.SyntaxKind.ThisKeyword || token === ts.SyntaxKind.SuperKeyword;
    parts.push(scanner.getTokenText());
  }
  return parts.join(' ');
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : /\.(?:m|c)?tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Per kind, the src/ files (relative to src/) whose code names it. */
export function kindFiles(src: string): Record<string, string[]> {
  const files = filesUnder(src).sort();
  const codes = files.map((file) => [relative(src, file), codeOf(readFileSync(file, 'utf8'))] as const);
  return Object.fromEntries(Object.entries(KINDS).map(([kind, pattern]) => [kind, codes.filter(([, code]) => pattern.test(code)).map(([file]) => file)]));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const found = kindFiles(fileURLToPath(new URL('../src', import.meta.url)));
  const outsideMock = (files: readonly string[]) => files.filter((file) => !/^(?:testing|cli)[/\\]|^cli\.ts$|^kinds[/\\][^/\\]+[/\\]mock(?:-[a-z-]+)?\.ts$/.test(file));
  console.log(`${'kind'.padEnd(12)} src/  outside the mock`);
  for (const [kind, files] of Object.entries(found)) console.log(`${kind.padEnd(12)} ${String(files.length).padEnd(5)} ${outsideMock(files).length}`);
  if (!process.argv.includes('--counts')) for (const [kind, files] of Object.entries(found)) console.log(`\n${kind} (${files.length}):\n  ${files.join('\n  ')}`);
}
