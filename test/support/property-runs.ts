import type { Parameters } from 'fast-check';

// vitest.slow.config.ts sets it for the `properties` project: every case, in `npm run test:slow`.
const FULL = process.env.PROPERTY_RUNS === 'full';

/**
 * How a property of `numRuns` cases runs, with a label for the test's title. `npm test` checks the first
 * `fastRuns` cases of a fixed seed (the same cases every run, so a failure repeats); `npm run test:slow`
 * checks all `numRuns` of that seed, and `numRuns` more from a random seed (fast-check prints it when one
 * fails). `fastRandom` adds a random seed's `fastRuns` cases to `npm test`, for the security properties.
 */
export function propertyRuns(numRuns: number, seed: number, fastRuns = Math.ceil(numRuns / 10), fastRandom = false): { label: string; parameters: Parameters<unknown> }[] {
  if (!FULL) {
    const fixed = { label: `seed ${seed}, first ${fastRuns} of ${numRuns} runs`, parameters: { seed, numRuns: fastRuns } };
    // A security property keeps a random seed in `npm test` too (issue 16), with as few runs as the fixed one.
    return fastRandom ? [fixed, { label: `random seed, ${fastRuns} runs`, parameters: { numRuns: fastRuns } }] : [fixed];
  }
  return [
    { label: `seed ${seed}, ${numRuns} runs`, parameters: { seed, numRuns } },
    { label: `random seed, ${numRuns} runs`, parameters: { numRuns } },
  ];
}
