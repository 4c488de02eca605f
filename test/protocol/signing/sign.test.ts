import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayValidationError, sign } from '../../../src/index.js';
import { md5Hex, portableMd5Hex } from '../../../src/protocol/signing/md5.js';
import { signingString } from '../../../src/protocol/signing/sign.js';
import { compareCaseInsensitive } from '../../support/java-order.js';
import { vectors } from '../../support/vectors.js';

describe('sign() against the signature vectors (test/fixtures/sign-vectors.json)', () => {
  it('has the vectors', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(18);
  });

  for (const v of vectors) {
    it(`${v.name}: sign`, () => {
      expect(sign(v.params, v.secret)).toBe(v.sign);
    });
    if (v.canonical !== undefined) {
      it(`${v.name}: canonical string`, () => {
        expect(signingString(v.params, v.secret)).toBe(v.canonical);
      });
    }
    it(`${v.name}: the portable MD5 gives the same digest as node:crypto`, () => {
      const text = signingString(v.params, v.secret);
      expect(portableMd5Hex(text)).toBe(v.sign);
      expect(md5Hex(text)).toBe(v.sign);
    });
  }
});

describe('the signing rule', () => {
  it('is independent of key order', () => {
    expect(sign({ b: '2', a: '1', C: '3' }, 'k')).toBe(sign({ C: '3', a: '1', b: '2' }, 'k'));
  });

  it('drops exactly null, undefined and "" and keeps 0, false and whitespace', () => {
    expect(signingString({ a: null, b: undefined, c: '', d: 0, e: false, f: ' ' }, 'k')).toBe('d=0&e=false&f= &key=k');
  });

  it('ignores a sign member', () => {
    expect(signingString({ a: '1', sign: 'X' }, 'k')).toBe('a=1&key=k');
  });

  it('sorts whole fragments with Java CASE_INSENSITIVE_ORDER', () => {
    const sorted = ['b=1&', 'A=1&', 'a0=1&', 'a=1&', 'Zebra=1&', 'apple=1&'].sort(compareCaseInsensitive);
    expect(sorted).toEqual(['a0=1&', 'A=1&', 'a=1&', 'apple=1&', 'b=1&', 'Zebra=1&']);
  });

  it('decides on the lower-case forms like Java, so "_" sorts before "A"', () => {
    // Code units say 'A' (65) < '_' (95); Java compares lower-case forms last: '_' (95) < 'a' (97).
    expect(compareCaseInsensitive('_x', 'Ax')).toBeLessThan(0);
    expect('_x' < 'Ax').toBe(false);
    expect(compareCaseInsensitive('ß', 'SS')).not.toBe(0);
  });

  it('rejects objects and non-finite numbers with a typed error naming the field', () => {
    expect(() => sign({ channelExtra: { a: 1 } as never }, 'k')).toThrow(GatewayValidationError);
    expect(() => sign({ channelExtra: { a: 1 } as never }, 'k')).toThrow(/channelExtra/);
    expect(() => sign({ amount: Number.NaN }, 'k')).toThrow(/amount: is not a finite number/);
  });
});

describe('property: the signer', () => {
  const secretArb = fc.stringMatching(/^[A-Za-z0-9]{24,40}$/);
  const scalar = fc.oneof(fc.string(), fc.integer(), fc.boolean());
  const params = fc.dictionary(fc.string({ minLength: 1 }).filter((k) => k !== 'sign' && !k.includes('=')), scalar, { maxKeys: 12 });

  it('does not depend on key order', () => {
    fc.assert(
      fc.property(params, secretArb, (p, secret) => {
        const reversed = Object.fromEntries(Object.entries(p).reverse());
        expect(sign(reversed, secret)).toBe(sign(p, secret));
      }),
    );
  });

  it('drops exactly null, undefined and "" and keeps every other value', () => {
    fc.assert(
      fc.property(params, secretArb, fc.string({ minLength: 1 }).filter((k) => !k.includes('=') && k !== 'sign'), fc.constantFrom(null, undefined, ''), (p, secret, extraKey, empty) => {
        fc.pre(!(extraKey in p));
        expect(sign({ ...p, [extraKey]: empty }, secret)).toBe(sign(p, secret));
        for (const kept of [0, false, ' ', '0']) {
          expect(signingString({ ...p, [extraKey]: kept }, secret)).toContain(`${extraKey}=${String(kept)}&`);
        }
      }),
    );
  });
});
