import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:slow`: suites that start processes or real servers (databases, the packed tarball, long
// campaigns). Kept out of `npm test`, the fast suite; CI runs both (.ci/run).
export default defineConfig({
  resolve: base.resolve ?? {},
  test: {
    include: ['test/**/*.slow.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
