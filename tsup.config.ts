import { defineConfig, type Options } from 'tsup';

const shared = {
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  target: 'node22',
  treeshake: true,
  // The pure-JS MD5 (for runtimes without node:crypto) is a few hundred bytes: bundle it, so the CJS
  // build never has to require() an ESM-only package.
  noExternal: ['@noble/hashes'],
} satisfies Options;

export default defineConfig([
  { ...shared, entry: { index: 'src/index.ts' }, clean: true },
  // payment-gateway-sdk/testing, the mock gateway: a separate build, so the main entry's output does not
  // change with it and never contains it. It finds msw with createRequire(import.meta.url), which the
  // CJS build needs shimmed.
  { ...shared, entry: { testing: 'src/testing/index.ts' }, clean: false, shims: true },
]);
