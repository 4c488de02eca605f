import type { Parameters } from 'fast-check';

// vitest.slow.config.ts sets it for the `properties` project: every case, in `npm run test:slow`.
const FULL = process.env.PROPERTY_RUNS === 'full';

/**
 * How a property of `numRuns` cases runs, with a label for the test's title. `npm test` checks the first
 * `fastRuns` cases of a fixed seed (the same cases every run, so a failure repeats); `npm run test:slow`
 * checks all `numRuns` of that seed, and `numRuns` more from a random seed (fast-check prints it when one
 * fails).
 */
export function propertyRuns(numRuns: number, seed: number, fastRuns = Math.ceil(numRuns / 10)): { label: string; parameters: Parameters<unknown> }[] {
  if (!FULL) return [{ label: `seed ${seed}, first ${fastRuns} of ${numRuns} runs`, parameters: { seed, numRuns: fastRuns } }];
  return [
    { label: `seed ${seed}, ${numRuns} runs`, parameters: { seed, numRuns } },
    { label: `random seed, ${numRuns} runs`, parameters: { numRuns } },
  ];
}
