// The built stores (Postgres, Redis, SQLite) share the main entry's chunk (tsup code splitting): one copy of zod and of the errors, so
// a store's GatewayError is the root's (instanceof holds, in ESM and in CommonJS), and a store ships a few
// kilobytes instead of a second copy of the SDK.
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/shipped-package.mjs';
import { ensureBuilt } from '../support/build.js';

const dist = join(repoRoot, 'dist');
beforeAll(ensureBuilt, 180_000);

/** What constructing a store with a pool that is not one throws. */
function refusal(store: (options: { pool: unknown }) => unknown): unknown {
  try {
    store({ pool: {} });
  } catch (error) {
    return error;
  }
  throw new Error('the store accepted a pool that is not one');
}

describe('the built stores share the main entry', () => {
  it('ESM: a store throws the root entry\'s GatewayError', async () => {
    const root = await import(pathToFileURL(join(dist, 'index.js')).href);
    const { postgresStore } = await import(pathToFileURL(join(dist, 'stores/postgres.js')).href);
    const { redisStore } = await import(pathToFileURL(join(dist, 'stores/redis.js')).href);
    expect(refusal(postgresStore)).toBeInstanceOf(root.GatewayError);
    expect(refusal((options) => redisStore({ client: options.pool }))).toBeInstanceOf(root.GatewayError);
    const { sqliteStore } = await import(pathToFileURL(join(dist, 'stores/sqlite.js')).href);
    expect(refusal(() => sqliteStore({ path: ':memory:' }))).toBeInstanceOf(root.GatewayError);
  });

  it('CommonJS: a store throws the root entry\'s GatewayError', () => {
    const require = createRequire(join(dist, 'index.cjs'));
    const root = require('./index.cjs');
    expect(refusal(require('./stores/postgres.cjs').postgresStore)).toBeInstanceOf(root.GatewayError);
    expect(refusal((options) => require('./stores/redis.cjs').redisStore({ client: options.pool }))).toBeInstanceOf(root.GatewayError);
    expect(refusal(() => require('./stores/sqlite.cjs').sqliteStore({ path: ':memory:' }))).toBeInstanceOf(root.GatewayError);
  });

  it('each store is a few kilobytes, not a second copy of the SDK', () => {
    for (const file of ['stores/postgres.js', 'stores/postgres.cjs', 'stores/redis.js', 'stores/redis.cjs', 'stores/sqlite.js', 'stores/sqlite.cjs']) {
      // A store's own code (its SQL or Lua, claims and tracking) is under 10 KB; a second copy of the SDK would be 100 KB and more.
      expect(statSync(join(dist, file)).size, file).toBeLessThan(10_000);
    }
  });
});
