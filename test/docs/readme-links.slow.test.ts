// The README as a registry user reads it: its relative links against what `npm pack` ships (a child process).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README links, as a registry user reads them', () => {
  // npm shows the packed README: every relative link must point at a file in the tarball.
  it('every relative link resolves to a file `npm pack` includes', async () => {
    const npm = process.env.npm_execpath;
    const { stdout } = await promisify(execFile)(npm ? process.execPath : 'npm', [...(npm ? [npm] : []), 'pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
    });
    const [packed] = JSON.parse(stdout) as [{ files: { path: string }[] }];
    const files = new Set(packed.files.map((file) => file.path));
    const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map(([, target]) => target ?? '').filter((target) => !/^[a-z]+:|^#/i.test(target));
    expect(links.length).toBeGreaterThan(5);
    const dead = links.filter((target) => {
      const path = posix.normalize(target.split('#')[0] ?? '');
      return path.endsWith('/') ? ![...files].some((file) => file.startsWith(path)) : !files.has(path);
    });
    expect(dead).toEqual([]);
  }, 60_000);
});
