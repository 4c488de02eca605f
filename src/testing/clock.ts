/**
 * The mock's own time. It starts at `startTime` and moves only when a test advances it, so expiry and
 * notification retries are deterministic and a two-hour expiry takes no real time.
 */
export class SimulatedClock {
  #now: number;

  constructor(startTime: number) {
    this.#now = startTime;
  }

  now(): number {
    return this.#now;
  }

  advance(ms: number): number {
    if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`advanceTime: ms must be a whole number >= 0, received ${String(ms)}`);
    this.#now += ms;
    return this.#now;
  }
}
