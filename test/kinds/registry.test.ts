// A kind's folder is registered or nothing of it runs (issue 36, "a kind not registered"): each declaration's rows are
// the operation table's and its notification kind is the processor's, each group of public names is a root export,
// and each mock desk is one the mock runs. Read from the folders, so a new kind's folder is checked without a list.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { notificationKinds } from '../../src/notify/kinds.js';
import { operations } from '../../src/operations/table.js';
import { MOCK_KINDS } from '../../src/testing/domain/kinds.js';

const kindsDir = new URL('../../src/kinds/', import.meta.url);
const folders = readdirSync(kindsDir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
const filesOf = (folder: string) => readdirSync(new URL(`${folder}/`, kindsDir));
const entry = readFileSync(new URL('../../src/index.ts', import.meta.url), 'utf8');
const load = (folder: string, file: string) => import(new URL(`${folder}/${file}`, kindsDir).href) as Promise<Record<string, unknown>>;

describe('the record kinds in src/kinds/', () => {
  it('are the five kinds, each with a declaration and a group of public names', () => {
    expect(folders.sort()).toEqual(['division', 'payments', 'refunds', 'settlements', 'transfers']);
    for (const folder of folders) expect(filesOf(folder)).toEqual(expect.arrayContaining(['declaration.ts', 'public.ts']));
  });

  it.each(folders)("%s: its rows are the operation table's, its notification kind the processor's", async (folder) => {
    const declaration = await load(folder, 'declaration.ts');
    const rows = declaration['operations'] as Readonly<Record<string, unknown>>;
    expect(Object.keys(rows).length).toBeGreaterThan(0);
    for (const [name, row] of Object.entries(rows)) expect((operations as Readonly<Record<string, unknown>>)[name], name).toBe(row);
    const notification = declaration['notification'] as { readonly name: string } | undefined;
    if (notification !== undefined) expect((notificationKinds as Readonly<Record<string, unknown>>)[notification.name]).toBe(notification);
  });

  // A group of types alone (`export type * as Payments`) has no value to compare: the entry's text says it.
  it.each(folders)('%s: its group of public names is a root export', (folder) => {
    expect(entry).toMatch(new RegExp(`^export (?:type )?\\* as [A-Z]\\w+ from '\\./kinds/${folder}/public\\.js';$`, 'm'));
  });

  it.each(folders)('%s: each mock desk it declares is one the mock runs', async (folder) => {
    for (const file of filesOf(folder).filter((name) => /^mock(?:-[a-z-]+)?\.ts$/.test(name))) {
      const desks = Object.values(await load(folder, file)).filter((value) => typeof value === 'object' && value !== null && 'decisions' in value && 'modes' in value);
      for (const desk of desks) expect(MOCK_KINDS as readonly unknown[]).toContain(desk);
    }
  });
});
