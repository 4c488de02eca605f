/**
 * A division's amounts as the reference computes them (shared/spec/division.md section 4), in exact integer
 * arithmetic: shares are decimal fractions read as Java's `BigDecimal` reads them, never floats.
 *
 * @module
 */

/** An exact decimal: `units / 10^scale`, `scale` >= 0. */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

// Java's BigDecimal(String): a sign, digits with an optional point, an optional exponent.
const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?$/;

/** The decimal `text` stands for as `new BigDecimal(text)` reads it, or `undefined` where Java throws `NumberFormatException`. */
export function parseDecimal(text: string): Decimal | undefined {
  const match = DECIMAL_TEXT.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  if (whole === '' && fraction === '') return undefined;
  const digits = BigInt(`${whole}${fraction}` || '0') * (sign === '-' ? -1n : 1n);
  const scale = fraction.length - Number(exponent);
  return scale >= 0 ? { units: digits, scale } : { units: digits * 10n ** BigInt(-scale), scale: 0 };
}

/** The decimal as plain text with its scale kept (`0.10` stays `0.10`), as Java's `toPlainString()`. */
export function plainText({ units, scale }: Decimal): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/** -1, 0 or 1 as `value` is below, equal to or above the whole number `than`. */
export function compareDecimal(value: Decimal, than: number): -1 | 0 | 1 {
  const other = BigInt(than) * 10n ** BigInt(value.scale);
  return value.units < other ? -1 : value.units > other ? 1 : 0;
}

/** `value` rounded half up to `scale` decimals (a `DECIMAL(20,6)` column stores a share so). */
export function roundDecimal(value: Decimal, scale: number): Decimal {
  if (value.scale <= scale) return value;
  return { units: roundHalfUp(value.units, 10n ** BigInt(value.scale - scale)), scale };
}

/** What an order's division shares (`payOrderDivisionAmount`), in minor units. */
export interface DivisibleInput {
  /** The paid amount. */
  readonly amount: number;
  /** The gateway's fee, deducted first: receivers share the merchant's net. */
  readonly mchFeeAmount: number;
  /** The order's refunded sum so far. */
  readonly refundAmount: number;
  /** The sum of this order's division records that succeeded earlier. */
  readonly earlierShares: number;
}

/** `amount - mchFeeAmount - refundAmount - earlierShares`, floored at 0. */
export function divisibleAmount({ amount, mchFeeAmount, refundAmount, earlierShares }: DivisibleInput): number {
  return Math.max(0, amount - mchFeeAmount - refundAmount - earlierShares);
}

/** The division of `divisible` among shares: the cap and each receiver's amount, in the order given. */
export interface DivisionAmounts {
  /** `floor(divisible x sum of shares)`: never more than that goes to receivers. */
  readonly cap: number;
  readonly amounts: readonly number[];
}

/**
 * Each share of `divisible`: `round_half_up(divisible x share)`, but never more than what is left of the cap (0
 * once it is used up), in the order given, as the reference's loop does. The shares' sum is not checked: above 1,
 * the cap exceeds `divisible` (the channel refuses such a batch).
 */
export function divisionAmounts(divisible: number, shares: readonly Decimal[]): DivisionAmounts {
  const scale = Math.max(0, ...shares.map((s) => s.scale));
  const one = 10n ** BigInt(scale);
  const scaled = shares.map((s) => s.units * 10n ** BigInt(scale - s.scale));
  const base = BigInt(divisible);
  const total = scaled.reduce((sum, s) => sum + s, 0n) * base;
  let left = total < 0n ? 0n : total / one;
  const cap = left;
  const amounts = scaled.map((share) => {
    const amount = roundHalfUp(base * share, one);
    const taken = amount > left ? left : amount < 0n ? 0n : amount;
    left -= taken;
    return Number(taken);
  });
  return { cap: Number(cap), amounts };
}

/** `numerator / denominator` rounded half up (away from zero on a tie), for a positive denominator. */
function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  const magnitude = ((numerator < 0n ? -numerator : numerator) * 2n + denominator) / (denominator * 2n);
  return numerator < 0n ? -magnitude : magnitude;
}
