/**
 * The mock's own time. `manual` (the default in tests) starts at `startTime` and moves only when a test
 * advances it, so expiry and notification retries are deterministic; `real` follows the wall clock plus
 * what was advanced (the `mock` command).
 *
 * @module
 */
import { safeInteger } from '../../protocol/schemas/fields.js';
import { parseInput } from '../../protocol/schemas/parse.js';

const advanceSchema = safeInteger(0);

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
    this.#base += parseInput(advanceSchema, ms, 'Invalid advanceTime ms (a whole number of milliseconds >= 0)', 'options');
    return this.now();
  }
}
