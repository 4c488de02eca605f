import { defineConfig, type Options } from 'tsup';

const shared = {
  format: ['esm', 'cjs'],
  dts: true,
  // No source maps in the package: the output is unminified, readable ES2023, and maps tripled its size.
  sourcemap: false,
  target: 'node22',
  treeshake: true,
  // zod/mini and ky are bundled (tree-shaken): one file to load instead of zod's hundred modules and ky's
  // thirty (scripts/size.mjs and npm run bench measure the cold start). Both stay exact-pinned dependencies:
  // zod for the exported schemas' types, ky so that the declared dependencies say what the code runs on.
  noExternal: ['zod', 'ky'],
} satisfies Options;

export default defineConfig([
  { ...shared, entry: { index: 'src/index.ts' }, clean: true },
  // payment-gateway-sdk/testing, the mock gateway: a separate build, so the main entry's output does not
  // change with it and never contains it. It finds msw with createRequire(import.meta.url), which the
  // CJS build needs shimmed.
  { ...shared, entry: { testing: 'src/testing/index.ts' }, clean: false, shims: true },
  // The `payment-gateway-sdk` command (package.json `bin`): one ESM file with the mock bundled in, no types.
  { ...shared, entry: { cli: 'src/cli.ts' }, format: ['esm'], dts: false, clean: false, banner: { js: '#!/usr/bin/env node' } },
  // payment-gateway-sdk/testing/msw: msw's types for gateway.handlers, apart so that ./testing compiles without
  // msw. It refers to ./testing by name, so both declare one MockGateway.
  { ...shared, entry: { 'testing/msw': 'src/testing/msw.ts' }, clean: false, external: ['payment-gateway-sdk/testing'] },
  // payment-gateway-sdk/stores/postgres and /stores/redis: apart, so that the main entry never loads pg or ioredis.
  // They only use the client the merchant passes in (pg and ioredis are optional peers, referred to by type). One
  // build each: a shared build would put the store types they share in a declaration chunk that exports nothing.
  { ...shared, entry: { 'stores/postgres': 'src/stores/postgres.ts' }, clean: false, external: ['pg'] },
  { ...shared, entry: { 'stores/redis': 'src/stores/redis.ts' }, clean: false, external: ['ioredis'] },
  // payment-gateway-sdk/stores/sqlite: apart, so that only its importers need node:sqlite (Node 22.13+). It keeps
  // the node: prefix, which tsup strips by default: node:sqlite exists only under that name.
  { ...shared, entry: { 'stores/sqlite': 'src/stores/sqlite.ts' }, clean: false, removeNodeProtocol: false },
]);
