/** A small benchmark harness: calibrate, warm up, then time batches and report the median rate. */
export interface Result {
  readonly name: string;
  readonly opsPerSec: number;
}

const BATCHES = 15;
const BATCH_MS = 120;

type Batch = (size: number) => unknown;

async function timeBatches(name: string, batch: Batch): Promise<Result> {
  // Grow the batch until it takes about BATCH_MS; the calibration runs double as JIT warm-up.
  let size = 64;
  for (;;) {
    const started = performance.now();
    await batch(size);
    const elapsed = performance.now() - started;
    if (elapsed >= BATCH_MS / 2) {
      size = Math.max(1, Math.round((size * BATCH_MS) / elapsed));
      break;
    }
    size *= 4;
  }
  const rates: number[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const started = performance.now();
    await batch(size);
    rates.push(size / ((performance.now() - started) / 1000));
  }
  rates.sort((x, y) => x - y);
  return { name, opsPerSec: rates[Math.floor(rates.length / 2)] as number };
}

/** Rate of an async operation, awaited one at a time. */
export const measure = (name: string, fn: () => Promise<unknown>) =>
  timeBatches(name, async (size) => {
    for (let i = 0; i < size; i++) await fn();
  });

/** Rate of a synchronous operation (no await in the loop, so no microtask cost is added). */
export const measureSync = (name: string, fn: () => unknown) =>
  timeBatches(name, (size) => {
    for (let i = 0; i < size; i++) fn();
  });
