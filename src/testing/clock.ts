/**
 * The mock's own time. `manual` (the default in tests) starts at `startTime` and moves only when a test
 * advances it, so expiry and notification retries are deterministic and a two-hour expiry takes no real
 * time. `real` follows the wall clock (the `mock` command); advancing it adds an offset.
 */
export class SimulatedClock {
  #base: number;
  readonly #real: boolean;

  constructor(startTime: number, mode: 'manual' | 'real' = 'manual') {
    this.#real = mode === 'real';
    this.#base = this.#real ? 0 : startTime;
  }

  get mode(): 'manual' | 'real' {
    return this.#real ? 'real' : 'manual';
  }

  now(): number {
    return this.#real ? Date.now() + this.#base : this.#base;
  }

  advance(ms: number): number {
    if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`advanceTime: ms must be a whole number >= 0, received ${String(ms)}`);
    this.#base += ms;
    return this.now();
  }
}
