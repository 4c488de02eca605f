import { readFileSync, rmSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

// dist/ is emptied once, here, before any build starts: tsup builds the configs below in parallel, and a config's
// `clean` (its declaration build's too) could delete what another had already written (seen under load: a
// packed tarball without dist/opentelemetry.d.ts).
rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });

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

// Each operation row's `summary` (in its kind's declaration) is one line of the README's operation table
// (scripts/operations-table.ts reads the sources) and its `logged` names what the mock's request log shows (the
// testing build): no code of the main entry reads either, so it ships the summaries empty and no `logged`, 0.5 KB less gzip in a consumer's bundle
// (issue 39). One written over several lines is left as it is.
const tableDocAndMockFields: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'table-doc-and-mock-fields',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]kinds[\\/][^\\/]+[\\/]declaration\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8')
        .replace(/^(\s+summary: )(['"`]).*\2,$/gm, "$1'',")
        .replace(/^\s+logged: \[[^\]\n]*\],$/gm, ''),
      loader: 'ts',
    }));
  },
};

export default defineConfig([
  // The main entry and the stores in one build, split into shared chunks (ESM and CJS alike): a store loads
  // the main entry's chunk instead of a second copy of zod and the errors, so one GatewayError class is
  // thrown by both (instanceof holds) and a store ships a few kilobytes. pg and ioredis stay out: optional
  // peers, referred to by type. The node: prefix is kept (tsup strips it by default): node:sqlite, which only
  // the sqlite store imports (Node 22.13+), exists only under that name.
  {
    ...shared,
    entry: { index: 'src/index.ts', 'stores/postgres': 'src/stores/postgres.ts', 'stores/redis': 'src/stores/redis.ts', 'stores/sqlite': 'src/stores/sqlite.ts' },
    splitting: true,
    clean: false,
    external: ['pg', 'ioredis'],
    removeNodeProtocol: false,
    esbuildPlugins: [tableDocAndMockFields],
  },
  // payment-gateway-sdk/testing, the mock gateway: a separate build, so the main entry's output does not
  // change with it and never contains it. It finds msw with createRequire(import.meta.url), which the
  // CJS build needs shimmed.
  { ...shared, entry: { testing: 'src/testing/index.ts' }, clean: false, shims: true },
  // The `payment-gateway-sdk` command (package.json `bin`): one ESM file with the mock bundled in, no types.
  { ...shared, entry: { cli: 'src/cli.ts' }, format: ['esm'], dts: false, clean: false, banner: { js: '#!/usr/bin/env node' } },
  // payment-gateway-sdk/testing/msw: msw's types for gateway.handlers, apart so that ./testing compiles without
  // msw. It refers to ./testing by name, so both declare one MockGateway.
  { ...shared, entry: { 'testing/msw': 'src/testing/msw.ts' }, clean: false, external: ['payment-gateway-sdk/testing'] },
  // payment-gateway-sdk/opentelemetry: apart, so that the main entry never loads @opentelemetry/api (an optional peer).
  { ...shared, entry: { opentelemetry: 'src/opentelemetry.ts' }, clean: false, external: ['@opentelemetry/api'] },
]);
