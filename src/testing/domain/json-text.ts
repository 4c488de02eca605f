/**
 * Writes response JSON the way the gateway does, including decimal literals such as `10.50` that a JS
 * number cannot hold, and gives the text each `data` member is signed as.
 *
 * @module
 */

/** A JSON number literal written exactly as given (`10.50` stays `10.50`). */
export class DecimalLiteral {
  constructor(readonly text: string) {
    if (!/^-?\d+(?:\.\d+)?$/.test(text)) throw new TypeError(`not a plain decimal literal: ${JSON.stringify(text)}`);
  }
}

/** Compact JSON text of `value`; {@link DecimalLiteral}s are written verbatim, `undefined` members left out. */
export function toJsonText(value: unknown): string {
  if (value instanceof DecimalLiteral) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members: string[] = [];
    for (const [key, member] of Object.entries(value)) {
      if (member !== undefined) members.push(`${JSON.stringify(key)}:${toJsonText(member)}`);
    }
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * What the server signs for each member of `data`: Java's `toString()` of the value, so a string as
 * itself and anything else (numbers, decimals, nested lists) as its JSON text.
 */
export function signTexts(data: Readonly<Record<string, unknown>>): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined || value === null) continue;
    texts[key] = typeof value === 'string' ? value : toJsonText(value);
  }
  return texts;
}
