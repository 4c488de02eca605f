// parseLossless against JSON.parse and its own scanner on generated text (test/support/property-runs.ts:
// the first cases of a fixed seed in `npm test`, all of them and a random seed in `npm run test:slow`).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, memberTexts, numbersAreExact, parseLossless, scan, TOP_LEVEL } from '../../../src/protocol/json/lossless-json.js';
import { propertyRuns } from '../../support/property-runs.js';
import { toPlain } from './plain-value.js';

describe('parseLossless, property-based', () => {
  for (const { label, parameters } of propertyRuns(2000, 1)) {
    it(`agrees with JSON.parse on any JSON text, on both paths (${label})`, () => {
      fc.assert(
        fc.property(fc.json(), (text) => {
          expect(toPlain(parseLossless(text).value)).toEqual(JSON.parse(text));
          expect(toPlain(scan(text).value)).toEqual(JSON.parse(text));
        }),
        parameters,
      );
    });
  }

  for (const { label, parameters } of propertyRuns(1000, 2)) {
    it(`gives the same member sign texts on the engine path as the scanner, for any envelope and any JSON body (${label})`, () => {
      fc.assert(
        fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (data) => {
          const envelope = JSON.stringify({ code: 200, data, sign: 'X' });
          expect(memberTexts(parseLossless(envelope, 'data').capturedMembers ?? new Map())).toEqual(memberTexts(scan(envelope, 'data').capturedMembers ?? new Map()));
          const body = JSON.stringify(data);
          expect(memberTexts(parseLossless(body, TOP_LEVEL).capturedMembers ?? new Map())).toEqual(memberTexts(scan(body, TOP_LEVEL).capturedMembers ?? new Map()));
        }),
        parameters,
      );
    });
  }

  for (const { label, parameters } of propertyRuns(2000, 3)) {
    it(`reports every proper prefix of a JSON object as cut off at the end (${label})`, () => {
      fc.assert(
        fc.property(fc.dictionary(fc.string(), fc.jsonValue()).map((o) => JSON.stringify(o)), fc.nat(), (text, n) => {
          const prefix = text.slice(0, n % text.length);
          fc.pre(prefix.trim() !== '');
          const error = (() => { try { parseLossless(prefix); } catch (e) { return e; } })();
          expect(error).toBeInstanceOf(JsonSyntaxError);
          expect((error as JsonSyntaxError).atEnd).toBe(true);
        }),
        parameters,
      );
    });
  }

  for (const { label, parameters } of propertyRuns(5000, 4)) {
    it(`finds every inexact number (any literal JSON can hold) (${label})`, () => {
      const literal = fc.oneof(
        fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
        fc.stringMatching(/^-?(0|[1-9]\d{0,25})(\.\d{1,20})?([eE][+-]?\d{1,3})?$/),
      );
      fc.assert(
        fc.property(fc.array(literal, { minLength: 1, maxLength: 6 }), fc.constantFrom(',', ', ', ' ,\n'), (literals, separator) => {
          fc.pre(literals.every((l) => Number.isFinite(Number(l))));
          const text = `{"a":[${literals.join(separator)}],"b":${literals[0]}}`;
          expect(numbersAreExact(text)).toBe(literals.every((l) => String(Number(l)) === l));
        }),
        parameters,
      );
    });
  }

  for (const { label, parameters } of propertyRuns(3000, 5)) {
    it(`is never stuck and never wrong on random text (${label})`, () => {
      fc.assert(
        fc.property(fc.string({ unit: fc.constantFrom(':', ',', '[', '-', '.', 'e', 'E', '0', '1', '5', ' ', '"', 'x') }), (text) => {
          const json = JSON.stringify({ a: text, b: [text] });
          expect(parseLossless(json).value).toEqual(JSON.parse(json));
          numbersAreExact(text);
        }),
        parameters,
      );
    });
  }

  for (const { label, parameters } of propertyRuns(3000, 6)) {
    it(`refuses a repeated member on the engine path as the scanner does, at any depth (${label})`, () => {
      // Names from a small set, so that objects often repeat one; values with quotes, colons and spaces.
      const name = fc.constantFrom('a', 'b', 'data', 'n');
      const leaf = fc.oneof(fc.integer().map(String), fc.constantFrom('"a"', '" :a"', '"a\\"b"', 'null', 'true'));
      const { value } = fc.letrec<{ value: string; object: string }>((tie) => ({
        value: fc.oneof({ depthSize: 'small' }, leaf, tie('object'), fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`)),
        object: fc.array(fc.tuple(name, tie('value'), fc.constantFrom(':', ' : ')), { maxLength: 4 }).map((members) => `{${members.map(([k, v, colon]) => `"${k}"${colon}${v}`).join(',')}}`),
      }));
      const outcome = (parse: () => unknown) => { try { return parse(); } catch (error) { return error instanceof Error ? error.constructor.name : error; } };
      fc.assert(
        fc.property(value, (text) => {
          for (const capture of ['data', TOP_LEVEL, undefined] as const) {
            const engine = outcome(() => parseLossless(text, capture)) as ReturnType<typeof parseLossless> | string;
            const scanned = outcome(() => scan(text, capture)) as ReturnType<typeof scan> | string;
            if (typeof scanned === 'string') expect(engine).toBe(scanned);
            else expect(typeof engine === 'string' ? engine : memberTexts(engine.capturedMembers ?? new Map())).toEqual(memberTexts(scanned.capturedMembers ?? new Map()));
          }
        }),
        parameters,
      );
    });
  }
});
