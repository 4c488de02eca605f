import { describe, expect, it } from 'vitest';
import { JsonDuplicateMemberError, JsonNumberText, JsonSyntaxError, memberTexts, numbersAreExact, parseLossless, scan, TOP_LEVEL } from '../../../src/protocol/json/lossless-json.js';
import { toPlain } from './plain-value.js';

const samples = [
  '{}', '[]', '0', '-0.5', '"x"', 'true', 'null', ' { "a" : [ 1 , 2 , { "b" : null } ] } ',
  '{"s":"quote \\" backslash \\\\ slash \\/ controls \\b\\f\\n\\r\\t unicode \\u00e9\\ud83d\\ude00 raw é😀"}',
  '{"n":[1,-1,1.5,123456789,0.1,1e21,-2.5e-3]}', '{"nested":{"deep":{"deeper":[[[]]]}}}',
];

describe('parseLossless', () => {
  it.each(samples)('agrees with JSON.parse on %s where numbers are exact', (text) => {
    const { value } = parseLossless(text);
    expect(toPlain(value)).toEqual(JSON.parse(text));
  });

  it('keeps number literals a JS number would change', () => {
    const { value } = parseLossless('{"a":10.50,"b":1e2,"c":9007199254740993,"d":100.0,"e":10.5,"f":58}');
    expect(value).toEqual({ a: new JsonNumberText('10.50'), b: new JsonNumberText('1e2'), c: new JsonNumberText('9007199254740993'), d: new JsonNumberText('100.0'), e: 10.5, f: 58 });
  });

  it("captures each data member's sign text: strings decoded, everything else as received", () => {
    const text = '{"code":200,"data":{"s":"a\\"b","n":10.50,"t":true,"z":null,"l":[{"amount":10.50, "x":"y"}],"o":{}},"sign":"X"}';
    const { capturedMembers } = parseLossless(text, 'data');
    expect(Object.fromEntries(memberTexts(capturedMembers ?? new Map()))).toEqual({ s: 'a"b', n: '10.50', t: 'true', z: null, l: '[{"amount":10.50, "x":"y"}]', o: '{}' });
  });

  it('takes the engine path only where it loses nothing, and both paths agree', () => {
    const flat = '{"code":200,"data":{"s":"a b","n":58,"d":10.5,"t":true,"z":null},"sign":"X"}';
    expect(parseLossless(flat, 'data').capturedMembers).not.toBeInstanceOf(Map); // engine path
    expect(parseLossless('{"data":{"s":"a\\"b"}}', 'data').capturedMembers).toBeInstanceOf(Map); // an escape could hide a repeated name
    expect(parseLossless('{"data":{"s":"n","n":1}}', 'data').capturedMembers).not.toBeInstanceOf(Map); // "n" as a value repeats no member
    expect(parseLossless('{"data":{"s":" :n","n":1}}', 'data').capturedMembers).toBeInstanceOf(Map); // a value that reads like a name: the scanner decides
    expect(() => parseLossless('{"data":{"n":1,"n":2}}', 'data')).toThrow(JsonDuplicateMemberError);
    expect(() => parseLossless('{"x":{"n":1,"n":2},"data":{"a":1}}', 'data')).toThrow(JsonDuplicateMemberError); // outside data too
    expect(parseLossless('{"data":{"n":10.50}}', 'data').capturedMembers).toBeInstanceOf(Map); // 10.50 needs the scanner
    expect(parseLossless('{"data":{"l":[1]}}', 'data').capturedMembers).toBeInstanceOf(Map); // nested: raw text needed
    expect(parseLossless('{"data":{"o":{}}}', 'data').capturedMembers).toBeInstanceOf(Map);
    expect(parseLossless('{"o":{"a":1}}', TOP_LEVEL).capturedMembers).toBeInstanceOf(Map);
    expect(memberTexts(parseLossless('{"o":{ "a" :1}}', TOP_LEVEL).capturedMembers ?? new Map()).get('o')).toBe('{ "a" :1}');
    const engine = parseLossless(flat, 'data');
    const scanned = scan(flat, 'data');
    expect(engine.value).toEqual(scanned.value);
    expect(memberTexts(engine.capturedMembers ?? new Map())).toEqual(memberTexts(scanned.capturedMembers ?? new Map()));
  });

  it('terminates on number-like text that is no JSON number, and leaves it to the scanner', () => {
    // Each once sent the scan back to the start of the text, forever.
    for (const text of ['{"a":"1:.e"}', '{"a":"x5,.E"}', '{"a":":-.50"}']) {
      expect(typeof numbersAreExact(text)).toBe('boolean');
      expect(parseLossless(text).value).toEqual(JSON.parse(text));
    }
  });

  it('finds inexact numbers anywhere but inside strings', () => {
    expect(numbersAreExact('{"a":[1,2.5,-3,1e+21],"b":"10.50 \\" 1e2"}')).toBe(true);
    for (const text of ['{"a":10.50}', '[1e2]', '{"a":"x\\\\","b":100.0}', '[9007199254740993]', '[-0]']) expect(numbersAreExact(text)).toBe(false);
  });

  it('does not capture a data member nested deeper than the envelope', () => {
    expect(parseLossless('{"x":{"data":{"a":1}}}', 'data').capturedMembers).toBeUndefined();
  });

  it('defines a __proto__ member as data, not as the prototype', () => {
    const { value } = parseLossless('{"__proto__":{"polluted":true}}') as { value: Record<string, unknown> };
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each(['{"a":1', '{"a":"abc', '[1,2', '{"a":tr', '{"a":1.', '{"a"', '{'])('marks %s as cut off at the end', (text) => {
    const error = (() => { try { parseLossless(text); } catch (e) { return e; } })();
    expect(error).toBeInstanceOf(JsonSyntaxError);
    expect((error as JsonSyntaxError).atEnd).toBe(true);
  });

  it.each(['<html>', '{"a":1}x', '{"a":01}', "{'a':1}", '{"a":1,}', '{"a":"\\x"}', '{"a":"\u0001"}', 'NaN'])('rejects %s as not JSON (not at the end)', (text) => {
    const error = (() => { try { parseLossless(text); } catch (e) { return e; } })();
    expect(error).toBeInstanceOf(JsonSyntaxError);
    expect((error as JsonSyntaxError).atEnd).toBe(false);
    expect(() => JSON.parse(text)).toThrow();
  });

  it('refuses absurd nesting instead of overflowing the stack', () => {
    expect(() => parseLossless('['.repeat(10_000))).toThrow(JsonSyntaxError);
  });
});
