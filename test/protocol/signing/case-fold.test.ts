// The fragment order: Java's String.CASE_INSENSITIVE_ORDER as JDK 17 runs it, held to tables a JDK made
// (test/fixtures/java-case-fold.txt, test/fixtures/java-case-order.txt).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sign } from '../../../src/index.js';
import { compareCaseInsensitive as sdkCompare, foldCodePoint, foldUnit } from '../../../src/protocol/signing/case-fold.js';
import { signingString } from '../../../src/protocol/signing/sign.js';
import { caseTwinsOf, compareCaseInsensitive, compareCaseInsensitiveByUnit, JAVA_FOLD, JAVA_ORDER, javaFold } from '../../support/java-order.js';
import { propertyRuns } from '../../support/property-runs.js';

describe('the fast fragment order', () => {
  it('folds every one of the 65,536 UTF-16 units as Java does (test/fixtures/java-case-fold.txt, made with a JDK)', () => {
    const differing: string[] = [];
    for (let c = 0; c < 0x10000; c++) if (foldUnit(c) !== JAVA_FOLD[c]) differing.push(c.toString(16));
    expect(differing).toEqual([]);
    // The units the old JS-only fold got wrong, and a sanity check that the table is the JDK's.
    expect(JAVA_FOLD[0x130]).toBe(0x69); // 'İ' -> 'i'
    expect(JAVA_FOLD[0x17f]).toBe(0x73); // 'ſ' -> 's'
    expect(JAVA_FOLD[0x41]).toBe(0x61);
  });

  for (const { label, parameters } of propertyRuns(5000, 11, 5000)) {
    it(`the SDK comparator is Java CASE_INSENSITIVE_ORDER, for any strings (${label})`, () => {
      const supplementary = fc.array(fc.constantFrom('a', 'A', 'x', '=', '\u{10400}', '\u{10428}', '\u{10427}', '\u{1E900}', '\u{1E922}', '\u{10570}', '\u{10597}', 'Ａ', 'ａ', '\uFFFD', '😀'), { maxLength: 4 }).map((chars) => chars.join(''));
      const text = fc.oneof(fc.string({ maxLength: 6 }), fc.stringMatching(/^[aAſSs_0=ßİıꟀ]{0,4}$/), fc.string({ unit: 'binary', maxLength: 4 }), supplementary);
      fc.assert(
        fc.property(text, text, (a, b) => {
          expect(Math.sign(sdkCompare(a, b))).toBe(Math.sign(compareCaseInsensitive(a, b)));
        }),
        parameters,
      );
    }, 30_000); // 5,000 cases: seconds on a loaded 2-core machine
  }

  it('signs İ (U+0130) as Java does: it sorts as i', () => {
    // Java: 'İ' folds to 'i', so 'İb=…' sorts after 'ia=…'; without the fold it sorted after 'z'.
    expect(signingString({ 'İb': '1', ia: '2', z: '3' }, 'K')).toBe('ia=2&İb=1&z=3&key=K');
  });

  for (const { label, parameters } of propertyRuns(2000, 12, 2000)) {
    it(`equals Java CASE_INSENSITIVE_ORDER on whole fragments, for any keys and values; refuses case twins (${label})`, () => {
      const key = fc.oneof(fc.string({ minLength: 1, maxLength: 6 }), fc.stringMatching(/^[aAſSs_0=ß]{1,4}$/)).filter((k) => k !== 'sign');
      fc.assert(
        fc.property(fc.uniqueArray(fc.tuple(key, fc.string({ minLength: 1, maxLength: 5 })), { selector: ([k]) => k, maxLength: 12 }), (entries) => {
          if (caseTwinsOf(entries) !== undefined) {
            expect(() => signingString(Object.fromEntries(entries), 'K')).toThrow(/differ only by case/);
            return;
          }
          const expected = entries.map(([k, v]) => `${k}=${v}&`).sort(compareCaseInsensitive).join('');
          expect(signingString(Object.fromEntries(entries), 'K')).toBe(`${expected}key=K`);
        }),
        parameters,
      );
    });
  }
});

describe('Java parity outside the BMP (JDK 17 compares surrogate pairs by code point)', () => {
  it('folds every supplementary code point as Java 17 does (test/fixtures/java-case-fold.txt, made with a JDK)', () => {
    const differing: string[] = [];
    for (let cp = 0x10000; cp <= 0x10ffff; cp++) if (foldCodePoint(cp) !== javaFold(cp)) differing.push(cp.toString(16));
    expect(differing).toEqual([]);
    expect(javaFold(0x10400)).toBe(0x10428); // DESERET CAPITAL LONG I -> small
    expect(javaFold(0x10570)).toBe(0x10570); // Vithkuqi: cased in Unicode 14, not in Java 17
    expect('\u{10570}'.toLowerCase()).toBe('\u{10597}'); // ... while this JS engine knows it
  });

  it('orders every pair of test/fixtures/java-case-order.txt as the JDK did (sign of compare)', () => {
    expect(JAVA_ORDER.comparisons.length).toBeGreaterThanOrEqual(400);
    const wrong = JAVA_ORDER.comparisons.filter(([sign, a, b]) => Math.sign(sdkCompare(a, b)) !== sign || Math.sign(sdkCompare(b, a)) !== -sign);
    expect(wrong).toEqual([]);
    // The reference the other tests sign with agrees with the JDK too.
    expect(JAVA_ORDER.comparisons.filter(([sign, a, b]) => Math.sign(compareCaseInsensitive(a, b)) !== sign)).toEqual([]);
    // The fixture would catch the per-unit order of JDK 8-15: it decides some pairs the other way.
    expect(JAVA_ORDER.comparisons.filter(([sign, a, b]) => Math.sign(compareCaseInsensitiveByUnit(a, b)) !== sign).length).toBeGreaterThan(10);
  });

  it('sign() gives the signature a JDK 17 gateway computes, for keys differing only by case in supplementary letters', () => {
    const capital = '\u{10400}';
    const small = '\u{10428}';
    const issueCase = JAVA_ORDER.signatures.find((s) => s.params.map(([k]) => k).join(' ') === `x${small} x${capital}y`);
    expect(issueCase).toBeDefined();
    const twins = JAVA_ORDER.signatures.filter(({ params }) => caseTwinsOf(params) !== undefined);
    for (const { secret, params, sign: expected } of JAVA_ORDER.signatures.filter((signature) => !twins.includes(signature))) {
      expect(sign(Object.fromEntries(params), secret), JSON.stringify(params)).toBe(expected);
      expect(sign(new Map(params), secret)).toBe(expected);
    }
    // One random set has BMP case twins with one value (U+10D0 / U+1C90, Georgian): the JDK signed it in the
    // order it was given, and would sign the other order differently; the SDK refuses it (issue 30).
    expect(twins.map(({ params }) => params.map(([k]) => k))).toEqual([['\u10d0', '\u1c90']]);
    for (const { secret, params } of twins) {
      expect(() => sign(new Map(params), secret)).toThrow(/differ only by case/);
      expect(() => sign(new Map([...params].reverse()), secret)).toThrow(/differ only by case/);
    }
    // JDK 8-15 would sort the issue's fragments the other way round, so it would sign them differently.
    const fragments = issueCase!.params.map(([k, v]) => `${k}=${v}&`);
    expect(Math.sign(compareCaseInsensitiveByUnit(fragments[0]!, fragments[1]!))).toBe(1);
    expect(Math.sign(compareCaseInsensitive(fragments[0]!, fragments[1]!))).toBe(-1);
  });
});
