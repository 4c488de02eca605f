// The portable MD5 the signer falls back to where node:crypto is missing (edge runtimes, browsers).
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { portableMd5Hex } from '../../../src/protocol/signing/md5.js';
import { propertyRuns } from '../../support/property-runs.js';

const nodeMd5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex').toUpperCase();

describe('the portable MD5 (runtimes without node:crypto)', () => {
  it('matches node:crypto on text of every length around the block boundaries', () => {
    for (let n = 50; n <= 130; n++) expect(portableMd5Hex('x'.repeat(n))).toBe(nodeMd5('x'.repeat(n)));
  });

  for (const { label, parameters } of propertyRuns(1000, 5)) {
    it(`matches node:crypto on random text (${label})`, () => {
      fc.assert(
        fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
          expect(portableMd5Hex(text)).toBe(nodeMd5(text));
        }),
        parameters,
      );
    });
  }
});
