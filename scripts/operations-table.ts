/**
 * The README's operation table, generated from the operation table (src/operations/table.ts):
 * `npm run docs:operations` writes it between the markers; test/docs/readme.test.ts fails when it is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { operations } from '../src/operations/table.js';

export const START = '<!-- operations:start (npm run docs:operations writes this table) -->';
export const END = '<!-- operations:end -->';

/** The table, one row per operation, in the table's order. */
export function operationsTable(): string {
  const rows = Object.entries(operations).map(([name, op]) => `| \`${name}(params)\` | \`${op.path}\` | ${op.retry} | ${op.summary} |`);
  return ['| method | path | retry class | what it does |', '|---|---|---|---|', ...rows].join('\n');
}

/** `readme` with its generated block replaced by the current table. */
export function withOperationsTable(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start === -1 || end < start) throw new Error(`README.md has no ${START} ... ${END} block`);
  return `${readme.slice(0, start + START.length)}\n${operationsTable()}\n${readme.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = fileURLToPath(new URL('../README.md', import.meta.url));
  writeFileSync(file, withOperationsTable(readFileSync(file, 'utf8')));
}
