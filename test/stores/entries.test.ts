// The stores are entries of their own: the main entry never loads pg, ioredis or node:sqlite (a merchant on
// Workers, or on another store, needs none of them), and each store entry exports exactly its store.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as postgres from '../../src/stores/postgres.js';
import * as redis from '../../src/stores/redis.js';
import * as sqlite from '../../src/stores/sqlite.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Every package a module and the modules it imports (relatively, transitively) import by name. */
function packagesImportedFrom(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*'([^']+)'|import\(\s*'([^']+)'\s*\)/g)) {
      if (specifier === undefined) continue;
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else packages.add(specifier);
    }
  };
  visit(join(root, entry));
  return packages;
}

describe('the store entries', () => {
  it('the main entry imports neither pg nor ioredis nor node:sqlite, by any path', () => {
    const imported = [...packagesImportedFrom('src/index.ts')];
    expect(imported.filter((name) => /^(?:pg|ioredis|redis|node:sqlite)(?:\/|$)/.test(name))).toEqual([]);
    expect(imported.length).toBeGreaterThan(0); // the walk did see the imports (zod, at least)
  });

  it('the store entries import pg and ioredis for types only', () => {
    for (const file of ['src/stores/postgres.ts', 'src/stores/redis.ts']) {
      const lines = readFileSync(join(root, file), 'utf8').split('\n').filter((line) => /^(?:import|export)\b.*from '(?:pg|ioredis)'/.test(line));
      expect(lines.length, relative(root, file)).toBeGreaterThan(0);
      expect(lines.filter((line) => !line.startsWith('import type ')), relative(root, file)).toEqual([]);
    }
  });

  it('payment-gateway-sdk/stores/postgres exports postgresStore, /stores/redis redisStore, /stores/sqlite sqliteStore', () => {
    expect(Object.keys(postgres)).toEqual(['postgresStore']);
    expect(Object.keys(redis)).toEqual(['redisStore']);
    expect(Object.keys(sqlite)).toEqual(['sqliteStore']);
  });

  it('package.json maps the three entries, declares pg and ioredis as optional peers, and needs node:sqlite\'s Node', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(manifest.engines.node).toBe('>=22.13'); // node:sqlite is unflagged from 22.13
    for (const name of ['postgres', 'redis', 'sqlite']) {
      expect(manifest.exports[`./stores/${name}`].import.default).toBe(`./dist/stores/${name}.js`);
      expect(manifest.typesVersions['*'][`stores/${name}`]).toEqual([`./dist/stores/${name}.d.ts`]);
    }
    for (const peer of ['pg', 'ioredis', '@types/pg']) {
      expect(manifest.peerDependenciesMeta[peer]).toEqual({ optional: true });
      expect(manifest.devDependencies[peer]).toMatch(/^\d+\.\d+\.\d+$/);
    }
  });
});
