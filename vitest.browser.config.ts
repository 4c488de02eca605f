import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:browser`: the mock's pages in a real Chromium (Debian's /usr/bin/chromium). Kept out of
// `npm test`, which needs nothing but Node.
export default defineConfig({
  resolve: base.resolve ?? {},
  test: {
    include: ['test-browser/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
