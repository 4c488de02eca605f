// The diagnosis behind `payment-gateway-sdk verify` (src/testing/domain/diagnose.ts): each common mistake is
// made here by hand, independently of the module, and must be named; nothing it returns holds the secret.
import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diagnoseSignature, type ReceivedTexts, type SignatureMistakeId } from '../../src/testing/domain/diagnose.js';
import { sign, signingString } from '../../src/protocol/signing/sign.js';
import { caseTwinsOf } from '../support/java-order.js';
import { md5 } from '../support/md5.js';
import { propertyRuns } from '../support/property-runs.js';

const SECRET = 'diagnose-test-secret';
const fields = (entries: Record<string, string | null>): ReceivedTexts => new Map(Object.entries(entries));

// A notification-like message: an empty value, a null, a case-sensitive name, non-ASCII text.
const ORDER = fields({ mchNo: 'M1', appId: 'app-1', mchOrderNo: 'o-1', amount: '100', subject: '测试 T-shirt', extParam: '', clientIp: null, Memo: 'gift' });
const canonical = (f: ReceivedTexts, secret = SECRET) => signingString(f, secret);
const fragments = (f: ReceivedTexts) => [...f].filter(([k, v]) => k !== 'sign' && v !== null && v !== '').map(([k, v]) => `${k}=${v}&`);

interface Case {
  readonly mistake: SignatureMistakeId;
  readonly fields: ReceivedTexts;
  readonly received: string;
  readonly unsignedFields?: ReceivedTexts;
}

const CASES: Record<string, Case> = {
  'an empty value signed': { mistake: 'empty-value-signed', fields: ORDER, received: md5(canonical(new Map([...ORDER, ['extParam', '\u0001']])).replace('extParam=\u0001&', 'extParam=&')) },
  'a null signed as "null"': { mistake: 'null-signed', fields: ORDER, received: md5(canonical(new Map([...ORDER, ['clientIp', 'null']]))) },
  'a leading &': { mistake: 'leading-ampersand', fields: ORDER, received: md5(`&${canonical(ORDER)}`) },
  'a case-sensitive sort': { mistake: 'case-sensitive-sort', fields: ORDER, received: md5(`${fragments(ORDER).sort().join('')}key=${SECRET}`) },
  'names sorted instead of fragments': {
    mistake: 'keys-sorted',
    fields: fields({ a: '2', a0: '1', b: '3' }),
    received: md5(`a=2&a0=1&b=3&key=${SECRET}`),
  },
  'no sort': { mistake: 'not-sorted', fields: fields({ zeta: '1', alpha: '2' }), received: md5(`zeta=1&alpha=2&key=${SECRET}`) },
  'key= missing': { mistake: 'key-missing', fields: ORDER, received: md5(canonical(ORDER).replace(`key=${SECRET}`, '')) },
  'the secret without key=': { mistake: 'secret-without-key', fields: ORDER, received: md5(canonical(ORDER).replace(`key=${SECRET}`, SECRET)) },
  'an extra & before key=': { mistake: 'extra-ampersand-before-key', fields: ORDER, received: md5(canonical(ORDER).replace('key=', '&key=')) },
  'no & before key=': { mistake: 'no-ampersand-before-key', fields: ORDER, received: md5(canonical(ORDER).replace('&key=', 'key=')) },
  'an & after the secret': { mistake: 'trailing-ampersand', fields: ORDER, received: md5(`${canonical(ORDER)}&`) },
  'a secret with a trailing newline': { mistake: 'secret-whitespace', fields: ORDER, received: md5(`${canonical(ORDER)}\n`) },
  'SHA-256 instead of MD5': { mistake: 'other-digest', fields: ORDER, received: createHash('sha256').update(canonical(ORDER)).digest('hex') },
  'MD5 in Base64': { mistake: 'other-digest', fields: ORDER, received: createHash('md5').update(canonical(ORDER)).digest('base64') },
  'HMAC-MD5': { mistake: 'other-digest', fields: ORDER, received: createHmac('md5', SECRET).update(canonical(ORDER).replace(`&key=${SECRET}`, '')).digest('hex') },
  'ISO-8859-1 bytes': { mistake: 'not-utf8', fields: ORDER, received: md5(Buffer.from(canonical(ORDER).replace(/[^\x00-\xff]/gu, '?'), 'latin1')) },
  'a decimal re-stringified by the signer': { mistake: 'decimal-restringified', fields: fields({ amount: '10.50', list: '[{"amount":1.10}]' }), received: md5(`amount=10.5&list=[{"amount":1.1}]&key=${SECRET}`) },
  'a decimal that lost its zero after signing': { mistake: 'decimal-restringified', fields: fields({ amount: '10.5' }), received: md5(`amount=10.50&key=${SECRET}`) },
  'integers signed as floats': { mistake: 'integer-as-float', fields: fields({ amount: '100', state: '2' }), received: md5(`amount=100.0&state=2.0&key=${SECRET}`) },
  'nested JSON reformatted after signing': { mistake: 'json-reformatted', fields: fields({ list: '[ { "a b": 1 } ]' }), received: md5(`list=[{"a b":1}]&key=${SECRET}`) },
  'values trimmed': { mistake: 'values-trimmed', fields: fields({ memo: ' gift ', amount: '1' }), received: md5(`amount=1&memo=gift&key=${SECRET}`) },
  'values URL-encoded': { mistake: 'values-url-encoded', fields: fields({ notifyUrl: 'https://shop.example/n?a=1', amount: '1' }), received: md5(`amount=1&notifyUrl=${encodeURIComponent('https://shop.example/n?a=1')}&key=${SECRET}`) },
  'a literal + sent unencoded in a form (read as a space)': { mistake: 'plus-read-as-space', fields: fields({ subject: 'C++'.replaceAll('+', ' '), amount: '1' }), received: md5(`amount=1&subject=C++&key=${SECRET}`) },
  'spaces that arrived as + (a form read without form decoding)': { mistake: 'space-arrived-as-plus', fields: fields({ subject: 'Blue+T-shirt', amount: '1' }), received: md5(`amount=1&subject=Blue T-shirt&key=${SECRET}`) },
  'a field the gateway does not sign, signed': { mistake: 'unsigned-field-signed', fields: ORDER, unsignedFields: fields({ shop: 'eu' }), received: md5(canonical(new Map([...ORDER, ['shop', 'eu']]))) },
  'a field left out': { mistake: 'field-left-out', fields: ORDER, received: md5(canonical(new Map([...ORDER].filter(([k]) => k !== 'mchOrderNo')))) },
};

describe('diagnoseSignature', () => {
  it.each(Object.entries(CASES))('names %s', (_name, c) => {
    const diagnosis = diagnoseSignature({ fields: c.fields, received: c.received, secret: SECRET, ...(c.unsignedFields ? { unsignedFields: c.unsignedFields } : {}) });
    expect(diagnosis.verdict).toBe('wrong-sign');
    expect(diagnosis.verdict === 'wrong-sign' && diagnosis.mistake?.id).toBe(c.mistake);
    expect(JSON.stringify(diagnosis)).not.toContain(SECRET);
  });

  it('says valid for the right sign, in either case, and notes lower case', () => {
    const right = sign(ORDER, SECRET);
    expect(diagnoseSignature({ fields: ORDER, received: right, secret: SECRET })).toEqual({ verdict: 'valid', canonical: canonical(ORDER, '***'), fields: expect.any(Array) });
    const lower = diagnoseSignature({ fields: ORDER, received: right.toLowerCase(), secret: SECRET });
    expect(lower).toMatchObject({ verdict: 'valid', note: expect.stringMatching(/lower-case hex/) });
  });

  it('reports each field: signed, or why not', () => {
    const diagnosis = diagnoseSignature({ fields: new Map([...ORDER, ['sign', 'X']]), received: 'X', secret: SECRET, unsignedFields: fields({ shop: 'eu' }) });
    expect(diagnosis.fields.filter((f) => !f.signed)).toEqual([
      { name: 'extParam', signed: false, why: 'empty value' },
      { name: 'clientIp', signed: false, why: 'null' },
      { name: 'sign', signed: false, why: 'the signature itself' },
      { name: 'shop', signed: false, why: 'not signed by the gateway' },
    ]);
    expect(diagnosis.fields.filter((f) => f.signed).map((f) => f.name)).toEqual(['mchNo', 'appId', 'mchOrderNo', 'amount', 'subject', 'Memo']);
  });

  it('a missing or non-string sign is "missing-sign"; close\'s empty data has the canonical string key=***', () => {
    for (const received of [undefined, null, '']) expect(diagnoseSignature({ fields: ORDER, received, secret: SECRET }).verdict).toBe('missing-sign');
    expect(diagnoseSignature({ fields: ORDER, received: 12, secret: SECRET })).toMatchObject({ verdict: 'missing-sign', problem: expect.stringMatching(/a number, not a string/) });
    expect(diagnoseSignature({ fields: new Map(), received: undefined, secret: SECRET })).toMatchObject({ canonical: 'key=***' });
  });

  it('a lone surrogate cannot be signed: "unsignable", naming the field', () => {
    expect(diagnoseSignature({ fields: fields({ subject: 'cut \ud83d' }), received: 'X', secret: SECRET })).toMatchObject({ verdict: 'unsignable', problem: expect.stringMatching(/subject/) });
  });

  it('without a mistake that reproduces the sign, says the secret most likely differs, and whether the sign looks like hex MD5', () => {
    const other = diagnoseSignature({ fields: ORDER, received: sign(ORDER, 'another-secret'), secret: SECRET });
    expect(other).toMatchObject({ verdict: 'wrong-sign', hint: expect.stringMatching(/^No common mistake reproduces the received sign: most likely the secret differs/) });
    expect(other.verdict === 'wrong-sign' && other.mistake).toBeUndefined();
    expect(diagnoseSignature({ fields: ORDER, received: 'abc', secret: SECRET })).toMatchObject({ hint: expect.stringMatching(/not 32 hexadecimal characters.*3 characters/) });
  });

  it('tries leaving out one field at a time only up to 64 fields (a hostile message costs no more than 64 extra hashes)', () => {
    const many = new Map(Array.from({ length: 65 }, (_, i) => [`f${i}`, String(i)] as const));
    const withoutOne = new Map([...many].slice(1));
    const diagnosis = diagnoseSignature({ fields: many, received: sign(withoutOne, SECRET), secret: SECRET });
    expect(diagnosis.verdict === 'wrong-sign' && diagnosis.mistake).toBeUndefined();
    const fewer = new Map([...many].slice(0, 64));
    const found = diagnoseSignature({ fields: fewer, received: sign(new Map([...fewer].slice(1)), SECRET), secret: SECRET });
    expect(found.verdict === 'wrong-sign' && found.mistake?.id).toBe('field-left-out');
  });

  for (const { label, parameters } of propertyRuns(300, 13, 300)) {
    it(`agrees with sign() on any message, and never returns the secret or the pre-hash string (${label})`, () => {
      const text = fc.string({ unit: 'grapheme', maxLength: 12 });
      fc.assert(
        fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.option(text, { nil: null }), { maxKeys: 8 }), fc.boolean(), (record, leading) => {
          const secret = 'S3cr3t-Pr0perty-9f2c';
          const received = new Map(Object.entries(record));
          if (caseTwinsOf(received) !== undefined) {
            // Names that differ only by case have no one signature (issue 30): the diagnosis says so.
            const refused = diagnoseSignature({ fields: received, received: 'A'.repeat(32), secret });
            expect(refused.verdict === 'unsignable' && refused.problem).toMatch(/differ only by case/);
            return;
          }
          const right = sign(received, secret);
          const diagnosis = diagnoseSignature({ fields: received, received: leading ? md5(`&${signingString(received, secret)}`) : right, secret });
          expect(diagnosis.verdict).toBe(leading ? 'wrong-sign' : 'valid');
          if (leading && diagnosis.verdict === 'wrong-sign') expect(diagnosis.mistake?.id).toBe('leading-ampersand');
          expect(JSON.stringify(diagnosis)).not.toContain(secret);
        }),
        parameters,
      );
    });
  }
});
