// prepare and prepack build dist/ unless it is the build of the sources as they are: a pack or a git install
// builds once, and never ships a dist/ older than its sources.
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { distIsFresh } from '../../scripts/lib/dist-fresh.mjs';

let root: string;
const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));
async function write(path: string, text: string, seconds: number): Promise<void> {
  await mkdir(join(root, path, '..'), { recursive: true });
  await writeFile(join(root, path), text);
  await utimes(join(root, path), at(seconds), at(seconds));
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'pgsdk-dist-fresh-'));
  const manifest = { exports: { '.': { import: './dist/index.js', require: './dist/index.cjs' }, './package.json': './package.json' }, bin: { sdk: './dist/cli.js' } };
  await write('package.json', JSON.stringify(manifest), 1);
  await write('src/index.ts', 'export {};', 1);
  await write('src/client/client.ts', 'export {};', 1);
  await utimes(join(root, 'src/client'), at(1), at(1));
  await utimes(join(root, 'src'), at(1), at(1));
  for (const file of ['dist/index.js', 'dist/index.cjs', 'dist/cli.js']) await write(file, '', 10);
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('distIsFresh', () => {
  it('is true when every file the exports map and the bin point at is newer than every input', () => {
    expect(distIsFresh(root)).toBe(true);
  });

  it('is false when a source changed after the build', async () => {
    await utimes(join(root, 'src/client/client.ts'), at(20), at(20));
    expect(distIsFresh(root)).toBe(false);
  });

  it('is false when a source was deleted after the build (its folder changed)', async () => {
    await rm(join(root, 'src/client/client.ts'));
    expect(distIsFresh(root)).toBe(false);
  });

  it('is false when the build configuration changed', async () => {
    await write('tsup.config.ts', 'export default {};', 20);
    expect(distIsFresh(root)).toBe(false);
  });

  it('is false when a file the package points at is missing (a build cut short), or all of dist/', async () => {
    await rm(join(root, 'dist/cli.js'));
    expect(distIsFresh(root)).toBe(false);
    await rm(join(root, 'dist'), { recursive: true });
    expect(distIsFresh(root)).toBe(false);
  });
});
