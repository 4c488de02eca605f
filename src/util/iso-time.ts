/**
 * A time for messages: the processor's `stale` refusal and the sweep's `tooOld` problem name times alike.
 *
 * @module
 */

/** A time as ISO 8601, or as its number when no Date can hold it. @internal */
export function isoTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}
