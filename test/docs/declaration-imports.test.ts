// `npm run check:package` finds the optional peers an entry's types need from the declarations' real imports
// (scripts/lib/declaration-imports.mjs): a TSDoc @example that shows `import ... from 'msw/node'` is no import.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bareImportsOf, declarationImports, packageNameOf } from '../../scripts/lib/declaration-imports.mjs';

// What tsup emits for an entry that documents msw without importing it (dist/testing.d.ts does).
const DOCUMENTED_ONLY = `import * as z from 'zod/mini';
/**
 * The handlers, typed without msw.
 *
 * @example
 * \`\`\`ts
 * import { setupServer } from 'msw/node';
 * const types = import('pg');
 * \`\`\`
 */
declare const handlers: readonly unknown[];
// export * from 'ioredis';
/* import type { Tracer } from '@opentelemetry/api'; */
type Hint = "import { http } from 'msw'";
declare const schema: z.ZodMiniString;
export { handlers, schema, type Hint };
`;

let dir: string;
async function write(files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pgsdk-declaration-imports-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('declarationImports', () => {
  it('ignores imports in TSDoc examples, comments and strings', () => {
    expect(declarationImports(DOCUMENTED_ONLY)).toEqual(['zod/mini']);
  });

  it('finds every kind of real import a declaration file has', () => {
    const text = `/// <reference types="node" />
import type { RequestHandler } from 'msw';
export * from './chunk.js';
export { type Pool } from "pg";
import Redis = require('ioredis');
export type Tracer = import('@opentelemetry/api').Tracer;
declare module 'zod' { interface Augmented {} }
export declare const handlers: RequestHandler[];
export declare const redis: Redis;
`;
    expect(declarationImports(text)).toEqual(['node', 'msw', './chunk.js', 'pg', 'ioredis', '@opentelemetry/api', 'zod']);
  });
});

describe('bareImportsOf', () => {
  it("finds an optional peer imported by a chunk the entry's declaration imports, never one from its TSDoc", async () => {
    await write({
      'dist/testing.d.ts': DOCUMENTED_ONLY,
      'dist/testing/msw.d.ts': `import { type Handlers } from '../chunk-AB12.js';\nexport { type Handlers };\n`,
      'dist/testing/msw.d.cts': `import { type Handlers } from '../chunk-AB12.cjs';\nexport { type Handlers };\n`,
      'dist/chunk-AB12.d.ts': `import type { HttpHandler } from 'msw/core/http';\nexport type Handlers = HttpHandler[];\n`,
      'dist/chunk-AB12.d.cts': `import type { HttpHandler } from 'msw/core/http';\nexport type Handlers = HttpHandler[];\n`,
    });
    expect(await bareImportsOf(dir, 'dist/testing.d.ts')).toEqual(['zod/mini']);
    expect(await bareImportsOf(dir, './dist/testing/msw.d.ts')).toEqual(['msw/core/http']);
    expect(await bareImportsOf(dir, './dist/testing/msw.d.cts')).toEqual(['msw/core/http']);
    expect(packageNameOf('msw/core/http')).toBe('msw');
    expect(packageNameOf('@opentelemetry/api/experimental')).toBe('@opentelemetry/api');
  });

  it('rejects a relative import that names no declaration file in the package, or leaves it', async () => {
    await write({
      'pkg/dist/index.d.ts': `export * from './missing.js';\n`,
      'pkg/dist/escape.d.ts': `export * from '../../outside.js';\n`,
      'outside.d.ts': `export {};\n`,
    });
    await expect(bareImportsOf(join(dir, 'pkg'), 'dist/index.d.ts')).rejects.toThrow("dist/index.d.ts imports './missing.js', which names no declaration file in the package");
    await expect(bareImportsOf(join(dir, 'pkg'), 'dist/escape.d.ts')).rejects.toThrow("dist/escape.d.ts imports '../../outside.js'");
  });
});
