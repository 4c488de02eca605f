// The portable MD5 the signer falls back to where node:crypto is missing (edge runtimes, browsers).
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { portableMd5Hex } from '../../../src/protocol/signing/md5.js';

describe('the portable MD5 (runtimes without node:crypto)', () => {
  it('matches node:crypto on random text of every length around the block boundaries', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(portableMd5Hex(text)).toBe(createHash('md5').update(text, 'utf8').digest('hex').toUpperCase());
      }),
      { numRuns: 1000 },
    );
    for (let n = 50; n <= 130; n++) expect(portableMd5Hex('x'.repeat(n))).toBe(createHash('md5').update('x'.repeat(n)).digest('hex').toUpperCase());
  });
});
