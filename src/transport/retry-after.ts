/**
 * How long ky 2 waits before retrying a 429 or 503, read from the answer's headers as ky reads them, so that the
 * transport can stop at once when that wait would outlast the call's budget.
 *
 * @module
 */

// ky's order: Retry-After when present, else the rate-limit reset headers; `true` where ky takes a Unix time too.
const TIMING_HEADERS = [
  ['retry-after', false],
  ['ratelimit-reset', true],
  ['x-ratelimit-retry-after', false],
  ['x-ratelimit-reset', true],
  ['x-rate-limit-reset', true],
] as const;

// Seconds at or past this are a Unix time, in the headers that allow one (ky's threshold).
const TIMESTAMP_FROM_MS = Date.UTC(2024, 0, 1);

/**
 * The wait in milliseconds the server's timing headers ask for (before ky's `maxRetryAfter` cap), or `undefined`
 * when there is none (ky then waits its backoff). An HTTP date is read by `Date.parse`, which accepts more forms
 * than ky: a date ky would ignore can only end a call early, never make it wait.
 */
export function serverRetryWaitMs(headers: Headers): number | undefined {
  for (const [name, allowsTimestamp] of TIMING_HEADERS) {
    const value = headers.get(name);
    if (value === null) continue;
    if (/^\d+$/.test(value)) {
      const ms = Number(value) * 1_000;
      return Math.max(0, allowsTimestamp && ms >= TIMESTAMP_FROM_MS ? ms - Date.now() : ms);
    }
    const at = Date.parse(value);
    return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
  }
  return undefined;
}
