import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:slow`: the suites that start processes, real servers or a browser, or run long (the soak,
// the fault campaign, every case of the property tests), in one run and one report. `npm test` is the
// fast suite; CI runs both (.ci/run). One project alone: `npm run test:slow -- --project browser`.
export default defineConfig({
  resolve: base.resolve ?? {},
  test: {
    // One file at a time: they start servers and builds of their own, and time what they measure.
    fileParallelism: false,
    projects: [
      // Real servers and child processes: PostgreSQL, Redis, the built command, the packed tarball.
      { extends: true, test: { name: 'slow', include: ['test/**/*.slow.test.ts'], testTimeout: 120_000, hookTimeout: 180_000 } },
      // The property tests with all their cases and a random seed too (npm test checks the first cases of a
      // fixed seed: test/support/property-runs.ts).
      { extends: true, test: { name: 'properties', include: ['test/**/*.properties.test.ts'], env: { PROPERTY_RUNS: 'full' }, testTimeout: 120_000 } },
      // The mock's pages in a real Chromium (Debian's /usr/bin/chromium).
      { extends: true, test: { name: 'browser', include: ['test-browser/**/*.test.ts'], testTimeout: 30_000, hookTimeout: 60_000 } },
    ],
  },
});
