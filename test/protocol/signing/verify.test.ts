import { describe, expect, it } from 'vitest';
import { sign } from '../../../src/index.js';
import { signaturesEqual, verifySign } from '../../../src/protocol/signing/verify.js';

describe('signature comparison', () => {
  it('accepts either case and rejects any difference', () => {
    const good = sign({ a: '1' }, 'k');
    expect(signaturesEqual(good.toLowerCase(), good)).toBe(true);
    expect(signaturesEqual(`${good.slice(0, 31)}0`, good)).toBe(good.endsWith('0'));
    expect(signaturesEqual(good.slice(1), good)).toBe(false);
    expect(verifySign({ a: '1' }, 'k', good)).toBe(true);
    expect(verifySign({ a: '2' }, 'k', good)).toBe(false);
    expect(verifySign({ a: '1' }, 'k', '')).toBe(false);
    expect(verifySign({ a: '1' }, 'k', undefined)).toBe(false);
  });
});
