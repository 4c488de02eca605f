import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node22',
  treeshake: true,
  // The pure-JS MD5 (for runtimes without node:crypto) is a few hundred bytes: bundle it, so the CJS
  // build never has to require() an ESM-only package.
  noExternal: ['@noble/hashes'],
});
