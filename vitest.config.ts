import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The examples import the package by its name, as a merchant's code does; in this repo that is the source.
  resolve: { alias: [{ find: /^payment-gateway-sdk$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) }] },
  test: {
    include: ['test/**/*.test.ts'],
    // Type-level rules (a wrong call must not compile) are checked by tsc through vitest.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
