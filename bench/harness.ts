/**
 * A small benchmark harness. The SDK and its baseline are timed in alternating batches, and the ratio
 * is the median of the per-round ratios: load from other processes then hits both sides alike instead
 * of skewing whichever ran second.
 */
export interface Comparison {
  readonly sdkOpsPerSec: number;
  readonly baselineOpsPerSec: number;
  /** Median of per-round `sdk / baseline` rate ratios. */
  readonly ratio: number;
}

const ROUNDS = 21;
const BATCH_MS = 60;

/** Runs `size` operations; sync operations are not awaited, so no microtask cost is added to them. */
type Batch = (size: number) => unknown;

export const asyncBatch = (fn: () => Promise<unknown>): Batch => async (size) => {
  for (let i = 0; i < size; i++) await fn();
};

export const syncBatch = (fn: () => unknown): Batch => (size) => {
  for (let i = 0; i < size; i++) fn();
};

async function time(batch: Batch, size: number): Promise<number> {
  const started = performance.now();
  await batch(size);
  return size / ((performance.now() - started) / 1000);
}

// Grows the batch until it takes about BATCH_MS; the calibration runs double as JIT warm-up.
async function calibrate(batch: Batch): Promise<number> {
  for (let size = 16; ; size *= 2) {
    const started = performance.now();
    await batch(size);
    const elapsed = performance.now() - started;
    if (elapsed >= BATCH_MS / 2) return Math.max(1, Math.round((size * BATCH_MS) / elapsed));
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

export async function compare(sdk: Batch, baseline: Batch): Promise<Comparison> {
  const sdkSize = await calibrate(sdk);
  const baselineSize = await calibrate(baseline);
  const sdkRates: number[] = [];
  const baselineRates: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const s = await time(sdk, sdkSize);
    const b = await time(baseline, baselineSize);
    sdkRates.push(s);
    baselineRates.push(b);
    ratios.push(s / b);
  }
  return { sdkOpsPerSec: median(sdkRates), baselineOpsPerSec: median(baselineRates), ratio: median(ratios) };
}

/** The rate of one operation alone (median of ROUNDS batches). */
export async function rate(batch: Batch): Promise<number> {
  const size = await calibrate(batch);
  const rates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) rates.push(await time(batch, size));
  return median(rates);
}
