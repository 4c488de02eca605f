import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  // Examples and the demo import the package by name, as a merchant would (tsconfig `paths` does the same for tsc and tsx).
  resolve: {
    alias: [
      { find: /^payment-gateway-sdk\/testing$/, replacement: src('testing/index.ts') },
      { find: /^payment-gateway-sdk\/testing\/msw$/, replacement: src('testing/msw.ts') },
      { find: /^payment-gateway-sdk\/stores\/(postgres|redis)$/, replacement: src('stores/$1.ts') },
      { find: /^payment-gateway-sdk\/opentelemetry$/, replacement: src('opentelemetry.ts') },
      { find: /^payment-gateway-sdk$/, replacement: src('index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    // Slow suites (real servers, child processes, the soak, the campaign) run with `npm run test:slow`.
    exclude: ['**/node_modules/**', 'test/**/*.slow.test.ts'],
    // Files share their worker and its loaded modules (half the CPU of a fresh worker per file): a file
    // that changes a global puts it back (vi.unstubAllGlobals, test/support/fetch-globals.ts).
    isolate: false,
    // One worker per core (vitest's default leaves one core out: on 2 cores that is one worker).
    maxWorkers: '100%',
    // Type-level rules (a wrong call must not compile) are checked by tsc through vitest.
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
  },
});
