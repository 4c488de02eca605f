/**
 * The README's operation table and notification-kind table, generated from the operation table
 * (src/operations/table.ts) and the notification kinds (src/notify/kinds.ts): `npm run docs:operations` writes each
 * between its markers; test/docs/readme.test.ts fails when one is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { notificationKinds } from '../src/notify/kinds.js';
import { operations } from '../src/operations/table.js';

export const START = '<!-- operations:start (npm run docs:operations writes this table) -->';
export const END = '<!-- operations:end -->';

/** The table, one row per operation, in the table's order. */
export function operationsTable(): string {
  const rows = Object.entries(operations).map(([name, op]) => `| \`${name}(params)\` | \`${op.path}\` | ${op.retry} | ${op.summary} |`);
  return ['| method | path | retry class | what it does |', '|---|---|---|---|', ...rows].join('\n');
}

export const KINDS_START = '<!-- notification-kinds:start (npm run docs:operations writes this table) -->';
export const KINDS_END = '<!-- notification-kinds:end -->';

type KindRow = {
  readonly name: string;
  readonly verifier: string;
  readonly expectOption: string;
  readonly identifiedBy: readonly string[];
  readonly handlers: Readonly<Record<string, { readonly states?: readonly number[] }>>;
  readonly tracking?: { readonly read: string; readonly states: Readonly<Record<string, number>> };
};

/** A handler's states as `3 Failed, 4 Closed`, named by the kind's tracked states where it has them. */
function statesOf(kind: KindRow, states: readonly number[] | undefined): string {
  if (states === undefined) return 'every state';
  const names = Object.entries(kind.tracking?.states ?? {});
  return states
    .map((state) => {
      const name = names.find(([, code]) => code === state)?.[0];
      return name === undefined ? String(state) : `${state} ${name}`;
    })
    .join(', ');
}

/** The table, one row per notification kind: the fields that tell it from the others, its verifier, the processor's handlers and the states each runs for, its expectation option, and the read that settles a tracked one. */
export function notificationKindsTable(): string {
  const rows = (Object.values(notificationKinds) as readonly KindRow[]).map((kind) => {
    const handlers = Object.entries(kind.handlers).map(([option, handler]) => `\`${option}\`: ${statesOf(kind, handler.states)}`).join('; ');
    return `| ${kind.name} | ${kind.identifiedBy.map((field) => `\`${field}\``).join(' and ')} | \`${kind.verifier}\` | ${handlers} | \`${kind.expectOption}\` | ${kind.tracking ? `\`${kind.tracking.read}\`` : 'not tracked'} |`;
  });
  return ['| kind | identified by | verifier | processor handlers: the states each runs for | expectation option | tracked and swept by |', '|---|---|---|---|---|---|', ...rows].join('\n');
}

/** `text` with the block between `start` and `end` replaced by `table`. */
function withBlock(text: string, start: string, end: string, table: string): string {
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to < from) throw new Error(`the file has no ${start} ... ${end} block`);
  return `${text.slice(0, from + start.length)}\n${table}\n${text.slice(to)}`;
}

/** `readme` with its generated blocks replaced by the current tables. */
export function withOperationsTable(readme: string): string {
  return withBlock(withBlock(readme, START, END, operationsTable()), KINDS_START, KINDS_END, notificationKindsTable());
}

/** A guide with its notification-kind table replaced by the current one. */
export function withNotificationKindsTable(guide: string): string {
  return withBlock(guide, KINDS_START, KINDS_END, notificationKindsTable());
}

/** The guide that holds the notification-kind table too. */
export const NOTIFICATIONS_GUIDE = 'docs/guides/notifications.md';

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const readme = fileURLToPath(new URL('../README.md', import.meta.url));
  writeFileSync(readme, withOperationsTable(readFileSync(readme, 'utf8')));
  const guide = fileURLToPath(new URL(`../${NOTIFICATIONS_GUIDE}`, import.meta.url));
  writeFileSync(guide, withNotificationKindsTable(readFileSync(guide, 'utf8')));
}
