// Issue 38, the mock's division amounts (shared/spec/division.md section 4): the net the receivers share (fee,
// refunds and earlier shares deducted, floored at 0), the cap, each share rounded half up but never over what is
// left of the cap; exact decimals read as Java's BigDecimal reads them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareDecimal, divisibleAmount, divisionAmounts, parseDecimal, plainText, roundDecimal, type Decimal } from '../../src/kinds/division/mock-amounts.js';

const d = (text: string): Decimal => parseDecimal(text) as Decimal;

describe('parseDecimal and plainText, as new BigDecimal(text).toPlainString()', () => {
  it.each([
    ['0.3', '0.3'], ['0.10', '0.10'], ['.5', '0.5'], ['5.', '5'], ['+0.25', '0.25'], ['1E-3', '0.001'], ['2.5e1', '25'], ['-0.1', '-0.1'], ['0.000001', '0.000001'],
  ])('%s reads as %s', (text, plain) => {
    expect(plainText(d(text))).toBe(plain);
  });
  it.each(['', '.', 'abc', '0.1.2', '1e', '0x10', ' 0.1', '1,5', 'NaN', 'Infinity'])('%j is not a number (NumberFormatException)', (text) => {
    expect(parseDecimal(text)).toBeUndefined();
  });
  it('compares with whole numbers and rounds half up to a scale', () => {
    expect([compareDecimal(d('0'), 0), compareDecimal(d('0.0000001'), 0), compareDecimal(d('1.000'), 1), compareDecimal(d('1.0001'), 1)]).toEqual([0, 1, 0, 1]);
    expect(plainText(roundDecimal(d('0.1234565'), 6))).toBe('0.123457');
    expect(plainText(roundDecimal(d('0.1234564'), 6))).toBe('0.123456');
    expect(plainText(roundDecimal(d('0.5'), 6))).toBe('0.5');
  });
});

describe('divisibleAmount: the merchant net, less refunds and earlier shares, floored at 0', () => {
  it('deducts the fee first, then the refunded sum and the shares that succeeded earlier', () => {
    expect(divisibleAmount({ amount: 10_000, mchFeeAmount: 60, refundAmount: 0, earlierShares: 0 })).toBe(9940);
    expect(divisibleAmount({ amount: 10_000, mchFeeAmount: 60, refundAmount: 2000, earlierShares: 0 })).toBe(7940);
    expect(divisibleAmount({ amount: 10_000, mchFeeAmount: 60, refundAmount: 2000, earlierShares: 940 })).toBe(7000);
  });
  it('is never below 0', () => {
    expect(divisibleAmount({ amount: 1000, mchFeeAmount: 10, refundAmount: 1000, earlierShares: 0 })).toBe(0);
    expect(divisibleAmount({ amount: 1000, mchFeeAmount: 0, refundAmount: 600, earlierShares: 600 })).toBe(0);
  });
});

describe('divisionAmounts: the cap floored, each share half up, never over what is left of the cap', () => {
  it('rounds each share half up', () => {
    // 9940 x 0.3 = 2982; 9940 x 0.15 = 1491
    expect(divisionAmounts(9940, [d('0.3'), d('0.15')])).toEqual({ cap: 4473, amounts: [2982, 1491] });
    // 1001 x 0.5 = 500.5 -> 501; cap floor(1001 x 0.5) = 500
    expect(divisionAmounts(1001, [d('0.5')])).toEqual({ cap: 500, amounts: [500] });
    // 101 x 0.25 = 25.25 -> 25, 101 x 0.35 = 35.35 -> 35
    expect(divisionAmounts(101, [d('0.25'), d('0.35')])).toEqual({ cap: 60, amounts: [25, 35] });
  });
  it('gives the last receivers a cent less once the cap is used up by rounding', () => {
    // 3 x round(101 x 0.333333 = 33.666633) = 34 each, but the cap is floor(101 x 0.999999) = 100
    expect(divisionAmounts(101, [d('0.333333'), d('0.333333'), d('0.333333')])).toEqual({ cap: 100, amounts: [34, 34, 32] });
    // two halves of 3: 1.5 -> 2, then what is left of floor(3) = 1
    expect(divisionAmounts(3, [d('0.5'), d('0.5')])).toEqual({ cap: 3, amounts: [2, 1] });
  });
  it('gives 0 once the cap is used up, and lets shares summing over 1 make the cap exceed the divisible amount (unchecked, as the reference)', () => {
    expect(divisionAmounts(1000, [d('0.6'), d('0.6'), d('0')])).toEqual({ cap: 1200, amounts: [600, 600, 0] });
    expect(divisionAmounts(0, [d('0.3')])).toEqual({ cap: 0, amounts: [0] });
    expect(divisionAmounts(1000, [])).toEqual({ cap: 0, amounts: [] });
  });
  it('is exact where a float is not: 0.1 + 0.2 of 1000 is 300, and large amounts keep every cent', () => {
    expect(divisionAmounts(1000, [d('0.1'), d('0.2')]).cap).toBe(300);
    expect(divisionAmounts(9_007_199_254_740_991, [d('0.000001')])).toEqual({ cap: 9_007_199_254, amounts: [9_007_199_254] });
  });

  it('never gives receivers more than the cap, nor (shares summing to at most 1) more than the divisible amount: seeded property', () => {
    const share = fc.integer({ min: 0, max: 1_000_000 }).map((micro): Decimal => ({ units: BigInt(micro), scale: 6 }));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), fc.array(share, { maxLength: 12 }), (divisible, shares) => {
        const { cap, amounts } = divisionAmounts(divisible, shares);
        const sum = amounts.reduce((a, b) => a + b, 0);
        expect(sum).toBeLessThanOrEqual(cap);
        expect(amounts.every((a) => Number.isSafeInteger(a) && a >= 0)).toBe(true);
        const total = shares.reduce((a, s) => a + s.units, 0n);
        if (total <= 1_000_000n) expect(sum).toBeLessThanOrEqual(divisible);
        // Each amount is its half-up share or less (what was left of the cap).
        shares.forEach((s, i) => expect(BigInt(amounts[i] ?? 0) * 2_000_000n).toBeLessThanOrEqual(BigInt(divisible) * s.units * 2n + 1_000_000n));
      }),
      { seed: 38_2026, numRuns: 500 },
    );
  });
});
