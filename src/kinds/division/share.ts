/**
 * A division share (`divisionProfit`): a decimal fraction of an order's divisible amount, written as a string
 * (`"0.3"` is 30 %), above 0, at most 1, with at most 6 decimals (the gateway stores `DECIMAL(20,6)`). Shares are
 * compared and summed as whole millionths, never as floats.
 *
 * @module
 */
import * as z from 'zod/mini';

/** One share in millionths: `"0.3"` is 300000, `"1"` is 1000000. */
export const SHARE_SCALE = 1_000_000;

// 0 or 1, then up to 6 decimals: no sign, no exponent, no leading dot, no leading zeros.
const SHARE_TEXT = /^([01])(?:\.(\d{1,6}))?$/;

/**
 * The share in whole millionths, or `undefined` when `text` is not a plain decimal between 0 and 1 with at most 6
 * decimals (`"0.10"` is 100000; `"5"`, `"-0.1"`, `"0.1234567"` and `"1.5"` are `undefined`).
 */
export function shareMillionths(text: string): number | undefined {
  const match = SHARE_TEXT.exec(text);
  if (!match) return undefined;
  const millionths = Number(match[1]) * SHARE_SCALE + Number((match[2] ?? '').padEnd(6, '0'));
  return millionths <= SHARE_SCALE ? millionths : undefined;
}

/** Why `text` is no share, for the validation message (the value itself is the caller's and is not echoed). */
function shareProblem(text: string): string | undefined {
  const millionths = shareMillionths(text);
  if (millionths !== undefined) return millionths > 0 ? undefined : 'must be above 0 (a share of 0 pays the receiver nothing: leave the receiver out)';
  if (/^\d+(?:\.\d+)?$/.test(text)) {
    const [whole = '', decimals = ''] = text.split('.');
    if (/^0\d/.test(whole)) return 'must be written without leading zeros (e.g. "0.5", not "00.5")';
    if (decimals.length > 6 && /^[01]$/.test(whole)) return 'must have at most 6 decimals (the gateway stores 6 and would round the rest)';
    return 'must be at most 1, the whole divisible amount ("0.3" is 30 %)';
  }
  return 'must be a decimal fraction written as a string, from "0.000001" to "1" (e.g. "0.3" for 30 %), without sign or exponent';
}

/** A share parameter: a string, checked exactly (see the module). */
export const divisionShare = () =>
  z.string({ error: 'must be a decimal string such as "0.3" (30 %): a number would be a float' }).check(
    z.superRefine((text, ctx) => {
      const problem = shareProblem(text);
      if (problem !== undefined) ctx.issues.push({ code: 'custom', message: problem, input: text });
    }),
  );
