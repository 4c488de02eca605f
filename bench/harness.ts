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
const DEFAULT_BATCH_MS = 60;

export interface CompareOptions {
  /** About how long each timed batch runs; longer for HTTP, whose rate varies more from batch to batch. */
  readonly batchMs?: number;
  /**
   * Milliseconds each side runs before calibration. Over HTTP the JIT, the connection pool and the
   * server process all warm up for longer than calibration alone takes.
   */
  readonly warmupMs?: number;
}

/** Runs `size` operations; sync operations are not awaited, so no microtask cost is added to them. */
type Batch = (size: number) => unknown;

export const asyncBatch = (fn: () => Promise<unknown>): Batch => async (size) => {
  for (let i = 0; i < size; i++) await fn();
};

/**
 * `size` operations with `inFlight` of them pending at any time, as a server handling concurrent
 * requests would issue them.
 */
export const concurrentBatch = (fn: () => Promise<unknown>, inFlight: number): Batch => async (size) => {
  let started = 0;
  const worker = async () => {
    while (started < size) {
      started++;
      await fn();
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, size) }, worker));
};

export const syncBatch = (fn: () => unknown): Batch => (size) => {
  for (let i = 0; i < size; i++) fn();
};

async function time(batch: Batch, size: number): Promise<number> {
  const started = performance.now();
  await batch(size);
  return size / ((performance.now() - started) / 1000);
}

// Grows the batch until it takes about batchMs; the calibration runs double as JIT warm-up.
async function calibrate(batch: Batch, batchMs = DEFAULT_BATCH_MS): Promise<number> {
  for (let size = 16; ; size *= 2) {
    const started = performance.now();
    await batch(size);
    const elapsed = performance.now() - started;
    if (elapsed >= batchMs / 2) return Math.max(1, Math.round((size * batchMs) / elapsed));
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function warmUp(batch: Batch, ms: number): Promise<void> {
  for (const started = performance.now(); performance.now() - started < ms; ) await batch(64);
}

export async function compare(sdk: Batch, baseline: Batch, options: CompareOptions = {}): Promise<Comparison> {
  if (options.warmupMs !== undefined) {
    await warmUp(sdk, options.warmupMs);
    await warmUp(baseline, options.warmupMs);
  }
  const sdkSize = await calibrate(sdk, options.batchMs);
  const baselineSize = await calibrate(baseline, options.batchMs);
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
