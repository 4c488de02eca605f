/**
 * A small benchmark harness. Competing sides are timed in turn, batch after batch, and a ratio between
 * two sides is the median of the per-round ratios: load from other processes then hits every side alike
 * instead of skewing whichever ran last. Each batch also records the process's CPU time per operation
 * (user + system, all its threads: the JIT and GC included), which load on the machine skews far less
 * than rates; a server in another process is not counted.
 */
export interface Comparison {
  readonly sdkOpsPerSec: number;
  readonly baselineOpsPerSec: number;
  /** Median of per-round `sdk / baseline` rate ratios. */
  readonly ratio: number;
}

/** One side of a race: its median rate and CPU per operation, and each round's. */
export interface SideResult {
  readonly opsPerSec: number;
  readonly cpuUsPerOp: number;
  readonly rates: readonly number[];
  readonly cpuUs: readonly number[];
}

const ROUNDS = 21;
const DEFAULT_BATCH_MS = 60;

export interface RaceOptions {
  /** About how long each timed batch runs; longer for HTTP, whose rate varies more from batch to batch. */
  readonly batchMs?: number;
  /**
   * Milliseconds each side runs before calibration. Over HTTP the JIT, the connection pool and the
   * server process all warm up for longer than calibration alone takes.
   */
  readonly warmupMs?: number;
}

/** Runs `size` operations; sync operations are not awaited, so no microtask cost is added to them. */
export type Batch = (size: number) => unknown;

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

async function time(batch: Batch, size: number): Promise<{ rate: number; cpuUs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await batch(size);
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { rate: size / (elapsed / 1000), cpuUs: (used.user + used.system) / size };
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

export const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** The median of the per-round ratios `a[i] / b[i]`. */
export const medianRatio = (a: readonly number[], b: readonly number[]) => median(a.map((x, i) => x / b[i]!));

async function warmUp(batch: Batch, ms: number): Promise<void> {
  for (const started = performance.now(); performance.now() - started < ms; ) await batch(64);
}

/**
 * Times every side in ROUNDS rounds; each round runs one batch of each, starting one side further on
 * than the round before, so that no side always follows the same one (whose garbage it would collect).
 */
export async function race<K extends string>(sides: Readonly<Record<K, Batch>>, options: RaceOptions = {}): Promise<Record<K, SideResult>> {
  const names = Object.keys(sides) as K[];
  if (options.warmupMs !== undefined) for (const name of names) await warmUp(sides[name], options.warmupMs);
  const sizes = new Map<K, number>();
  for (const name of names) sizes.set(name, await calibrate(sides[name], options.batchMs));
  const rounds = new Map(names.map((name) => [name, { rates: [] as number[], cpuUs: [] as number[] }]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length]!;
      const { rate, cpuUs } = await time(sides[name], sizes.get(name)!);
      rounds.get(name)!.rates.push(rate);
      rounds.get(name)!.cpuUs.push(cpuUs);
    }
  }
  const results = {} as Record<K, SideResult>;
  for (const [name, { rates, cpuUs }] of rounds) results[name] = { opsPerSec: median(rates), cpuUsPerOp: median(cpuUs), rates, cpuUs };
  return results;
}

export async function compare(sdk: Batch, baseline: Batch, options: RaceOptions = {}): Promise<Comparison> {
  const result = await race({ sdk, baseline }, options);
  return { sdkOpsPerSec: result.sdk.opsPerSec, baselineOpsPerSec: result.baseline.opsPerSec, ratio: medianRatio(result.sdk.rates, result.baseline.rates) };
}

/** The rate of one operation alone (median of ROUNDS batches). */
export async function rate(batch: Batch): Promise<number> {
  return (await race({ batch })).batch.opsPerSec;
}
