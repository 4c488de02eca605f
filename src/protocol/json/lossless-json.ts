/**
 * A JSON parser that keeps what `JSON.parse` loses and the gateway's signature needs:
 * - a number literal that a JS number cannot reproduce exactly (`10.50`, `1e2`, `9007199254740993`)
 *   becomes a {@link JsonNumberText} holding the literal, not a rounded float;
 * - for one chosen member object (the envelope's `data`), the text each member is signed as: a string's
 *   decoded value, any other value's raw JSON text as received.
 *
 * @module
 */

/**
 * A JSON number literal kept as written, because converting it to a JS number would change it (`10.50`,
 * `1e2`, an unsafe integer). Response schemas turn it into an exact string or reject it.
 */
export class JsonNumberText {
  /** @param text - the literal, exactly as received */
  constructor(
    /** The literal, exactly as received. */
    readonly text: string,
  ) {}
  /** Serializes as the literal's text. */
  toJSON(): string {
    return this.text;
  }
}

/**
 * An object names a member twice. JSON parsers disagree on which copy counts (`JSON.parse` keeps the
 * last), so a signed text with a repeated member has two readings: it is refused, never read.
 */
export class JsonDuplicateMemberError extends Error {
  constructor(readonly member: string) {
    super(`the member ${JSON.stringify(member.slice(0, 60))} appears more than once in one object`);
  }
}

/** Where and why the text is not JSON; `atEnd` tells a cut-off body from one that was never JSON. */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
    readonly atEnd: boolean,
  ) {
    super(message);
  }
}

/**
 * The members of the captured object, as their sign texts (a `Map`, `null` for JSON null) or, when no
 * member is an object or array and every number is exact, as the parsed object itself (each scalar's
 * `String()` is then its sign text).
 */
export type CapturedMembers = ReadonlyMap<string, string | null> | Readonly<Record<string, string | number | boolean | null>>;

/** The parse result: the value, and the captured object's members. */
export interface LosslessParse {
  value: unknown;
  capturedMembers: CapturedMembers | undefined;
}

/** The sign text of each captured member (`null` for JSON null), as a `Map`. */
export function memberTexts(members: CapturedMembers): Map<string, string | null> {
  if (members instanceof Map) return new Map(members);
  return new Map(Object.entries(members).map(([key, value]) => [key, value === null ? null : String(value)]));
}

/** The members' sign texts without the `null` ones, which no signature covers: one copy, whichever form the parse kept. */
export function presentMemberTexts(members: CapturedMembers): Map<string, string> {
  const texts = new Map<string, string>();
  if (members instanceof Map) {
    for (const [key, text] of members) if (text !== null) texts.set(key, text);
  } else {
    const record = members as Readonly<Record<string, string | number | boolean | null>>;
    for (const key in record) {
      const value = record[key];
      if (value !== null && value !== undefined) texts.set(key, String(value));
    }
  }
  return texts;
}

/** Pass as `capture` to get the sign texts of the top-level object's own members (a JSON notification body). */
export const TOP_LEVEL: unique symbol = Symbol('top-level');

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;
const MAX_DEPTH = 64;

/**
 * Parses `text`. When the top-level value is an object whose member `capture` is an object, returns
 * that object's members' sign texts too; with {@link TOP_LEVEL}, the top-level object's members'.
 */
export function parseLossless(text: string, capture?: string | typeof TOP_LEVEL): LosslessParse {
  return parseNative(text, capture) ?? scan(text, capture);
}

// The literals that may not read back as written: an exponent, a fraction ending in 0, 16 or more
// digits, -0, or 6 zeros after "0." (String() switches to exponents below 1e-6). Any other literal (at
// most 15 significant digits, so a unique double whose shortest form is the literal itself) is exact.
// In JSON a number outside a string follows ':', ',' or '[' or starts the document; number-like text
// inside a string can match too, which costs a check, never a wrong answer.
const MAYBE_INEXACT = /(?:^|[:,[])\s*(?:-0(?![.\d])|-?(?:\d[\d.]{15}|\d*\.\d*0(?!\d)|[\d.]+[eE]|0\.0{6}))/g;

/** Whether every number literal in (valid JSON) `text` reads back as written, so `JSON.parse` loses nothing. */
export function numbersAreExact(text: string): boolean {
  MAYBE_INEXACT.lastIndex = 0;
  for (let match; (match = MAYBE_INEXACT.exec(text)) !== null; ) {
    const start = match.index + match[0].search(/[-\d]/);
    NUMBER.lastIndex = start;
    const literal = start >= match.index ? NUMBER.exec(text)?.[0] : undefined;
    // Number-like text that is no JSON number (inside a string, e.g. "-.5"): let the scanner decide.
    if (literal === undefined || String(Number(literal)) !== literal) return false;
    MAYBE_INEXACT.lastIndex = start + literal.length;
  }
  return true;
}

// The engine's parse, several times faster than scanning in JavaScript, when it loses nothing: not for
// a syntax error (the scanner says where, and whether the text was cut off), nor for a number it would
// round (10.50, 1e2), nor for a captured member that is an object or array (its sign text is its raw
// JSON, which only the scanner keeps), nor where any member may be repeated (JSON.parse keeps the last
// copy silently; the scanner refuses it) or the nesting is deeper than the scanner reads.
function parseNative(text: string, capture: string | typeof TOP_LEVEL | undefined): LosslessParse | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!numbersAreExact(text)) return undefined;
  if (text.includes('\\') || mayRepeatMembers(text, value)) return undefined;
  const target = capture === undefined ? undefined : capture === TOP_LEVEL ? value : isRecord(value) ? value[capture] : undefined;
  if (!isRecord(target)) return { value, capturedMembers: undefined };
  for (const key in target) {
    const member = target[key];
    if (typeof member === 'object' && member !== null) return undefined;
  }
  return { value, capturedMembers: target as Readonly<Record<string, string | number | boolean | null>> };
}

// Without escapes, every quote delimits a string and each member's name ends in `"` then whitespace then
// `:`; a string value can match too (`" :x"`), which only raises the count. JSON.parse keeps one copy of
// a repeated member, so the members it returns are fewer than the matches exactly when a member may be
// repeated: one pass over the text instead of two searches per name (6 µs of a 12 µs decoded response).
const MEMBER_NAME_END = /"[ \t\n\r]*:/g;

function mayRepeatMembers(text: string, value: unknown): boolean {
  let written = 0;
  MEMBER_NAME_END.lastIndex = 0;
  while (MEMBER_NAME_END.exec(text) !== null) written++;
  return written !== membersIn(value, 0);
}

// The members of every object in a parsed value; -1 past MAX_DEPTH, which only the scanner may refuse.
function membersIn(value: unknown, depth: number): number {
  if (typeof value !== 'object' || value === null) return 0;
  if (depth > MAX_DEPTH) return -1;
  const items = Array.isArray(value) ? value : Object.values(value);
  let count = Array.isArray(value) ? 0 : items.length;
  for (const item of items) {
    const inner = membersIn(item, depth + 1);
    if (inner < 0) return -1;
    count += inner;
  }
  return count;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The scanner: exact everywhere, and the only judge of syntax errors. Exported for tests of both paths. */
export function scan(text: string, capture?: string | typeof TOP_LEVEL): LosslessParse {
  let pos = 0;
  let captured: Map<string, string | null> | undefined;

  const fail = (message: string, at = pos): never => {
    const atEnd = at >= text.length;
    throw new JsonSyntaxError(`${atEnd ? 'unexpected end of input' : message} at position ${at}`, at, atEnd);
  };
  const skipWs = () => {
    WHITESPACE.lastIndex = pos;
    WHITESPACE.test(text);
    pos = WHITESPACE.lastIndex;
  };
  const expect = (char: string, what: string) => {
    skipWs();
    if (text[pos] !== char) fail(`expected ${what}`);
    pos++;
    skipWs();
  };

  const parseString = (): string => {
    const start = pos++;
    let escaped = false;
    for (; pos < text.length; pos++) {
      const c = text.charCodeAt(pos);
      if (c === 0x22) break;
      if (c < 0x20) fail('control character in a string');
      if (c === 0x5c) {
        escaped = true;
        pos++;
      }
    }
    if (pos >= text.length) fail('unterminated string');
    pos++;
    if (!escaped) return text.slice(start + 1, pos - 1);
    try {
      // Escapes are rare in gateway bodies: let the engine decode them, with its exact rules.
      return JSON.parse(text.slice(start, pos)) as string;
    } catch {
      return fail('bad escape in a string', start);
    }
  };

  const parseValue = (depth: number, captureMembers: boolean): unknown => {
    if (depth > MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH} levels`);
    const c = text[pos];
    if (c === '"') return parseString();
    if (c === '{' || c === '[') {
      const isObject = c === '{';
      const close = isObject ? '}' : ']';
      const result: Record<string, unknown> | unknown[] = isObject ? {} : [];
      const members = captureMembers && isObject ? new Map<string, string | null>() : undefined;
      if (members) captured = members;
      const seen = isObject ? new Set<string>() : undefined;
      pos++;
      skipWs();
      if (text[pos] === close) {
        pos++;
        return result;
      }
      for (;;) {
        let key = '';
        if (isObject) {
          if (text[pos] !== '"') fail('expected a member name');
          key = parseString();
          if (seen!.has(key)) throw new JsonDuplicateMemberError(key);
          seen!.add(key);
          expect(':', "':'");
        }
        const start = pos;
        const wantCapture = depth === 0 && isObject && key === capture && text[pos] === '{';
        const value = parseValue(depth + 1, wantCapture);
        if (Array.isArray(result)) result.push(value);
        // defineProperty: a member named __proto__ is data, never the prototype.
        else Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
        members?.set(key, typeof value === 'string' ? value : value === null ? null : text.slice(start, pos));
        skipWs();
        const next = text[pos++];
        if (next === close) return result;
        if (next !== ',') fail(`expected ',' or '${close}'`, pos - 1);
        skipWs();
      }
    }
    for (const [word, literal] of LITERALS) {
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return literal;
      }
    }
    NUMBER.lastIndex = pos;
    const match = NUMBER.exec(text);
    const end = pos + (match?.[0].length ?? 0);
    // Text cut inside a literal ("tr", "-", "1.", "2e+") is truncation, not garbage.
    const rest = text.length - pos <= 24 ? text.slice(pos) : '';
    if (rest && (LITERALS.some(([word]) => word.startsWith(rest) && rest !== word) || /^(?:-|-?\d+(?:\.|(?:\.\d+)?[eE][+-]?))$/.test(rest))) fail('', text.length);
    if (!match || end === pos) return fail(`unexpected character ${JSON.stringify(text[pos])}`);
    pos = end;
    const literal = match[0];
    const value = Number(literal);
    return String(value) === literal ? value : new JsonNumberText(literal);
  };

  skipWs();
  const value = parseValue(0, capture === TOP_LEVEL);
  skipWs();
  if (pos < text.length) fail('unexpected text after the JSON value');
  return { value, capturedMembers: captured };
}

const LITERALS: ReadonlyArray<readonly [string, unknown]> = [
  ['true', true],
  ['false', false],
  ['null', null],
];
