// A clone's npm ci and a git install fetch only the tarballs when the lockfile says where each is; without
// the URLs npm first fetched the metadata of every package (392 requests, 80 MB: about 30 s of a git install).
// .npmrc keeps npm writing them whatever the machine's own npm configuration says.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const lockfiles = ['package-lock.json', 'bench/peers/package-lock.json'];

describe.each(lockfiles)('%s', (file) => {
  it('names the tarball URL and integrity of every registry package it installs', () => {
    const { packages } = JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')) as { packages: Record<string, { link?: boolean; resolved?: string; integrity?: string }> };
    const installed = Object.entries(packages).filter(([path, entry]) => path !== '' && entry.link !== true);
    expect(installed.length).toBeGreaterThan(0);
    expect(installed.filter(([, entry]) => !entry.resolved?.startsWith('https://registry.npmjs.org/') || !entry.integrity).map(([path]) => path)).toEqual([]);
  });
});

it('.npmrc keeps npm writing the tarball URLs into the lockfile', () => {
  expect(readFileSync(new URL('../../.npmrc', import.meta.url), 'utf8')).toMatch(/^omit-lockfile-registry-resolved=false$/m);
});
