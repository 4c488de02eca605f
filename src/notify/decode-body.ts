import { GatewayValidationError } from '../errors/index.js';
import { JsonDuplicateMemberError, JsonSyntaxError, memberTexts, parseLossless, TOP_LEVEL } from '../protocol/json/lossless-json.js';

/** The fields of a notification exactly as received: name to text, in arrival order. */
export type ReceivedFields = Map<string, string>;

/** How a body is encoded; `sniff` decides by its first character (`{` or `[` is JSON). */
export type BodyKind = 'form' | 'json' | 'sniff';

/** A notification that cannot be read, with what to do about it. */
export function unreadable(message: string, path: readonly (string | number)[] = []): GatewayValidationError {
  return new GatewayValidationError('Cannot read the notification', [{ path, message }]);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body's bytes as UTF-8 text (the gateway's encoding); invalid UTF-8 is an error, never replaced. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw unreadable('the body is not valid UTF-8 text (the gateway sends UTF-8)');
  }
}

/** Decodes a body's text into its fields. */
export function decodeBody(text: string, kind: BodyKind): ReceivedFields {
  if (text.trim() === '') {
    throw unreadable('the body is empty. Pass the raw request body (or the object your form parser made of it); if the fields arrived in the URL query instead, pass new URL(request.url).searchParams');
  }
  const json = kind === 'json' || (kind === 'sniff' && /^\s*[[{]/.test(text));
  return json ? decodeJsonBody(text) : decodeFormBody(text);
}

/**
 * `application/x-www-form-urlencoded`, decoded as browsers and servers do: `+` is a space, `%XX` are
 * UTF-8 bytes. A field sent twice is ambiguous (which copy is the real one?), so it is an error.
 */
export function decodeFormBody(text: string): ReceivedFields {
  return collectUnique(new URLSearchParams(text));
}

/** Collects name/value pairs, refusing a name that appears more than once. */
export function collectUnique(entries: Iterable<readonly [string, string]>): ReceivedFields {
  const fields: ReceivedFields = new Map();
  for (const [key, value] of entries) {
    if (fields.has(key)) throw unreadable('appears more than once; a notification carries each field once', [key]);
    fields.set(key, value);
  }
  return fields;
}

/**
 * A JSON object body. Each member keeps the text it is signed as: a string's value, any other value's
 * JSON text exactly as received (so `10.50` stays `10.50`); `null` members count as absent.
 */
export function decodeJsonBody(text: string): ReceivedFields {
  let members: Map<string, string | null> | undefined;
  try {
    const captured = parseLossless(text, TOP_LEVEL).capturedMembers;
    members = captured && memberTexts(captured);
  } catch (error) {
    if (error instanceof JsonDuplicateMemberError) throw unreadable('appears more than once; a notification carries each field once', [error.member]);
    if (!(error instanceof JsonSyntaxError)) throw error;
    throw unreadable(`the body is not valid JSON (${error.message})`);
  }
  if (!members) throw unreadable('a JSON body must be an object of fields');
  const fields: ReceivedFields = new Map();
  for (const [key, value] of members) if (value !== null) fields.set(key, value);
  return fields;
}
