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
 *
 * @example
 * ```ts
 * new JsonNumberText("10.50").text; // "10.50"
 * ```
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

/** The parse result: the value, and the sign text of each member of the captured object (`null` for JSON null). */
export interface LosslessParse {
  value: unknown;
  capturedMembers: Map<string, string | null> | undefined;
}

const WS = new Uint8Array(128);
for (const c of [0x20, 0x09, 0x0a, 0x0d]) WS[c] = 1;

/**
 * Parses `text`. When the top-level value is an object whose member `capture` is an object, returns
 * that object's members' sign texts too.
 */
export function parseLossless(text: string, capture?: string): LosslessParse {
  return new Parser(text, capture).parseDocument();
}

class Parser {
  private pos = 0;
  captured: Map<string, string | null> | undefined;

  constructor(
    private readonly text: string,
    private readonly capture: string | undefined,
  ) {}

  parseDocument(): LosslessParse {
    this.skipWs();
    const value = this.parseValue(0);
    this.skipWs();
    if (this.pos < this.text.length) this.fail('unexpected text after the JSON value');
    return { value, capturedMembers: this.captured };
  }

  private parseValue(depth: number, captureMembers = false): unknown {
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case 0x7b: // {
        return this.parseObject(depth, captureMembers);
      case 0x5b: // [
        return this.parseArray(depth);
      case 0x22: // "
        return this.parseString();
      case 0x74: // t
        return this.parseLiteral('true', true);
      case 0x66: // f
        return this.parseLiteral('false', false);
      case 0x6e: // n
        return this.parseLiteral('null', null);
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.parseNumber();
        return this.fail(Number.isNaN(c) ? 'unexpected end of input' : `unexpected character ${JSON.stringify(this.text[this.pos])}`);
    }
  }

  private parseObject(depth: number, captureMembers: boolean): Record<string, unknown> {
    if (depth > 64) this.fail('nesting deeper than 64 levels');
    const result: Record<string, unknown> = {};
    const members = captureMembers ? new Map<string, string | null>() : undefined;
    if (members) this.captured = members;
    this.pos++;
    this.skipWs();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return result;
    }
    for (;;) {
      if (this.text.charCodeAt(this.pos) !== 0x22) this.fail('expected a member name');
      const key = this.parseString();
      this.skipWs();
      this.expect(0x3a, "':'");
      this.skipWs();
      const start = this.pos;
      const wantCapture = depth === 0 && key === this.capture && this.text.charCodeAt(this.pos) === 0x7b;
      const value = this.parseValue(depth + 1, wantCapture);
      if (members) members.set(key, typeof value === 'string' ? value : value === null ? null : this.text.slice(start, this.pos));
      if (key === '__proto__') Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
      else result[key] = value;
      this.skipWs();
      const next = this.text.charCodeAt(this.pos++);
      if (next === 0x7d) return result;
      if (next !== 0x2c) this.fail("expected ',' or '}'", -1);
      this.skipWs();
    }
  }

  private parseArray(depth: number): unknown[] {
    if (depth > 64) this.fail('nesting deeper than 64 levels');
    const result: unknown[] = [];
    this.pos++;
    this.skipWs();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return result;
    }
    for (;;) {
      result.push(this.parseValue(depth + 1));
      this.skipWs();
      const next = this.text.charCodeAt(this.pos++);
      if (next === 0x5d) return result;
      if (next !== 0x2c) this.fail("expected ',' or ']'", -1);
      this.skipWs();
    }
  }

  private parseString(): string {
    const text = this.text;
    const start = ++this.pos;
    // Fast path: no escapes.
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        this.pos = i + 1;
        return text.slice(start, i);
      }
      if (c === 0x5c || c < 0x20) break;
    }
    let out = '';
    let chunk = start;
    for (;;) {
      if (this.pos >= text.length) this.fail('unterminated string');
      const c = text.charCodeAt(this.pos);
      if (c === 0x22) {
        out += text.slice(chunk, this.pos++);
        return out;
      }
      if (c < 0x20) this.fail('control character in a string');
      if (c !== 0x5c) {
        this.pos++;
        continue;
      }
      out += text.slice(chunk, this.pos);
      const e = text[this.pos + 1];
      if (e === undefined) this.fail('unterminated string');
      this.pos += 2;
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          const hex = text.slice(this.pos, this.pos + 4);
          if (hex.length < 4) this.fail('unterminated string');
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('bad \\u escape');
          out += String.fromCharCode(Number.parseInt(hex, 16));
          this.pos += 4;
          break;
        }
        default:
          this.fail('bad escape', -2);
      }
      chunk = this.pos;
    }
  }

  private parseNumber(): number | JsonNumberText {
    const start = this.pos;
    const text = this.text;
    if (text.charCodeAt(this.pos) === 0x2d) this.pos++;
    if (text.charCodeAt(this.pos) === 0x30) this.pos++;
    else if (!this.digits()) this.failNumber();
    if (text.charCodeAt(this.pos) === 0x2e) {
      this.pos++;
      if (!this.digits()) this.failNumber();
    }
    const e = text.charCodeAt(this.pos);
    if (e === 0x65 || e === 0x45) {
      this.pos++;
      const sign = text.charCodeAt(this.pos);
      if (sign === 0x2b || sign === 0x2d) this.pos++;
      if (!this.digits()) this.failNumber();
    }
    const literal = text.slice(start, this.pos);
    const value = Number(literal);
    return String(value) === literal ? value : new JsonNumberText(literal);
  }

  private digits(): boolean {
    const start = this.pos;
    for (let c = this.text.charCodeAt(this.pos); c >= 0x30 && c <= 0x39; c = this.text.charCodeAt(++this.pos));
    return this.pos > start;
  }

  private failNumber(): never {
    return this.fail(this.pos >= this.text.length ? 'unexpected end of input' : 'malformed number');
  }

  private parseLiteral<T>(word: string, value: T): T {
    for (let i = 0; i < word.length; i++) {
      if (this.text.charCodeAt(this.pos + i) !== word.charCodeAt(i)) {
        this.pos += i;
        this.fail(this.pos >= this.text.length ? 'unexpected end of input' : `unexpected character ${JSON.stringify(this.text[this.pos])}`);
      }
    }
    this.pos += word.length;
    return value;
  }

  private expect(code: number, what: string): void {
    if (this.text.charCodeAt(this.pos) !== code) this.fail(`expected ${what}`);
    this.pos++;
  }

  private skipWs(): void {
    const text = this.text;
    let c = text.charCodeAt(this.pos);
    while (c < 128 && WS[c] === 1) c = text.charCodeAt(++this.pos);
  }

  private fail(message: string, offset = 0): never {
    const position = this.pos + offset;
    const atEnd = position >= this.text.length;
    throw new JsonSyntaxError(`${atEnd && !message.includes('end of input') ? 'unexpected end of input' : message} at position ${position}`, position, atEnd);
  }
}
