/**
 * A response body as an error may show it: the values of the operation's personal members (a receiver's or
 * payee's account and name) masked wherever the body holds them, even when it is cut off, not JSON, or escapes
 * them differently. An error's body excerpt reaches logs, with the error or as its `cause`.
 *
 * @module
 */
import { definitionOf, type OperationName } from '../operations/table.js';
import { isPersonalData, maskPersonal } from '../protocol/schemas/free-text.js';

// A JSON string literal, closed or cut off by the body's end (even after a lone backslash: a literal that could
// fail to match would be retried from each quote inside it, quadratic in a hostile body), and the colon after it
// when it names a member.
const STRING_LITERAL = /"((?:[^"\\]|\\[\s\S])*)(?:"|\\?$)(\s*:)?/g;

/** The names of the personal members of an operation's answer (none for most operations). */
function personalNames(operation: OperationName): Set<string> {
  const shape: Record<string, unknown> = definitionOf(operation).result.def.shape;
  return new Set(Object.keys(shape).filter((name) => isPersonalData(shape[name] as Parameters<typeof isPersonalData>[0])));
}

/** A literal's text as decoded (escapes resolved); as written when it is cut inside an escape. */
function decoded(literal: string): string {
  try {
    return JSON.parse(`"${literal}"`) as string;
  } catch {
    return literal;
  }
}

/**
 * `body` with every string value of a personal member masked ({@link maskPersonal} of its decoded text), and every
 * occurrence of the personal values the request sent: a body that is not an answer (truncated, a proxy's page
 * quoting it, members given twice) is scanned as text, never trusted to parse.
 */
export function withoutPersonalValues(operation: OperationName, body: string, sent: Readonly<Record<string, unknown>> = {}): string {
  const names = personalNames(operation);
  if (names.size === 0 || body === '') return body;
  let member: string | undefined;
  let masked = body.replace(STRING_LITERAL, (literal, text: string, colon: string | undefined) => {
    if (colon !== undefined) {
      member = decoded(text);
      return literal;
    }
    const personal = member !== undefined && names.has(member);
    member = undefined;
    return personal ? `"${maskPersonal(decoded(text))}"` : literal;
  });
  for (const name of names) {
    const value = sent[name];
    if (typeof value === 'string' && value !== '') masked = masked.replaceAll(value, maskPersonal(value));
  }
  return masked;
}
