/**
 * A notification's input, of any kind a framework hands over (raw text or bytes, a form object,
 * URLSearchParams, FormData, a Web Request, a body stream), read to its fields exactly as received, within
 * a byte limit. Verification (./verify-received.ts) starts from these fields, whatever the input was.
 *
 * @module
 */
import { GatewayPayloadTooLargeError, GatewayValidationError } from '../errors/index.js';
import { JsonDuplicateMemberError, JsonSyntaxError, parseLossless, presentMemberTexts, TOP_LEVEL, type CapturedMembers } from '../protocol/json/lossless-json.js';
import { readCappedStream, type CappedRead } from '../util/read-capped-stream.js';

/**
 * A notification as a framework hands it over:
 * - the raw body: a `string`, a `Uint8Array`/`Buffer` or an `ArrayBuffer` (form or JSON by the first character);
 * - `URLSearchParams` or `FormData`;
 * - a Web `Request` (form or JSON by its `Content-Type`; read from a clone, so its own body stays unread);
 * - a body stream: a Web `ReadableStream` of bytes, or any async iterable of bytes such as Node's `IncomingMessage`;
 * - an object of string fields, as `express.urlencoded()` or `@fastify/formbody` make of a form body.
 * Every kind is held to `maxBodyBytes`: a stream or `Request` is cancelled as soon as it passes the limit.
 *
 * @example
 * ```ts
 * await verifyNotification(request, credentials);            // Web Request (Next.js, Hono, Bun, Deno)
 * await verifyNotification(req.body, credentials);           // Express with express.urlencoded({ extended: false })
 * await verifyNotification(rawBodyBuffer, credentials);      // bytes as received
 * await verifyNotification(req, credentials);                // node:http IncomingMessage, read as a stream
 * ```
 */
export type NotificationInput =
  | string
  | Uint8Array
  | ArrayBuffer
  | URLSearchParams
  | FormData
  | Request
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array>
  | Readonly<Record<string, unknown>>;

/** Reads the fields of a notification, exactly as received, from any {@link NotificationInput}, reading at most `maxBytes`. */
export async function readNotificationInput(input: NotificationInput, maxBytes: number): Promise<ReceivedFields> {
  if (typeof input === 'string') return decodeBody(capText(input, maxBytes), 'sniff');
  if (input instanceof Uint8Array) return decodeBody(decodeUtf8(capBytes(input, maxBytes)), 'sniff');
  if (input instanceof ArrayBuffer) return decodeBody(decodeUtf8(capBytes(new Uint8Array(input), maxBytes)), 'sniff');
  if (input instanceof URLSearchParams) return capFields(collectUnique(input), maxBytes);
  if (input instanceof FormData) return capFields(collectUnique(formDataEntries(input)), maxBytes);
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw unreadable(`expected the raw body (a string or bytes), URLSearchParams, FormData, a Request, a body stream or an object of string fields; received ${inputKindOf(input)}`);
  }
  if (isRequestLike(input)) return readRequest(input, maxBytes);
  if (input instanceof ReadableStream || Symbol.asyncIterator in input) {
    return decodeBody(decodeUtf8(await readStream(input as ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>, maxBytes)), 'sniff');
  }
  return capFields(readRecord(input), maxBytes);
}

// Duck-typed, so a framework's own Request subclass or another realm's Request is recognised too.
function isRequestLike(value: object): value is Request {
  const candidate = value as Partial<Request>;
  return typeof candidate.clone === 'function' && typeof candidate.arrayBuffer === 'function' && typeof candidate.headers?.get === 'function';
}

async function readRequest(request: Request, maxBytes: number): Promise<ReceivedFields> {
  if (request.bodyUsed) {
    throw unreadable('the Request body was already read: call verifyNotification(request) first, or pass the text read');
  }
  const kind = bodyKindOf(request.headers.get('content-type'));
  // A declared length over the limit is refused before anything is read.
  if (Number(request.headers.get('content-length')) > maxBytes) throw new GatewayPayloadTooLargeError(maxBytes);
  // Read a clone, so the caller (or a framework after us) can still read the request's own body.
  const body = request.clone().body;
  return decodeBody(decodeUtf8(body ? await readStream(body, maxBytes) : new Uint8Array()), kind);
}

/** Reads a byte stream chunk by chunk, cancelling it as soon as it passes `maxBytes`. */
async function readStream(stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>, maxBytes: number): Promise<Uint8Array> {
  let read: CappedRead;
  try {
    read = await readCappedStream(stream, maxBytes);
  } catch (error) {
    throw unreadable(`the body could not be read to its end (${error instanceof Error ? error.message : String(error)}): the sender hung up or the stream failed`);
  }
  if (!read.complete) throw new GatewayPayloadTooLargeError(maxBytes);
  return read.bytes;
}

function capBytes(bytes: Uint8Array, maxBytes: number): Uint8Array {
  if (bytes.byteLength > maxBytes) throw new GatewayPayloadTooLargeError(maxBytes);
  return bytes;
}

// A UTF-8 byte is at most one UTF-16 unit, and a unit at most three bytes: count exactly only in between.
function capText(text: string, maxBytes: number): string {
  if (text.length > maxBytes || (text.length * 3 > maxBytes && new TextEncoder().encode(text).byteLength > maxBytes)) throw new GatewayPayloadTooLargeError(maxBytes);
  return text;
}

// Parsed input is already in memory; it is held to the size of the form body it stands for (in characters).
function capFields(fields: ReceivedFields, maxBytes: number): ReceivedFields {
  let size = 0;
  for (const [key, value] of fields) {
    size += key.length + value.length + 2;
    if (size > maxBytes) throw new GatewayPayloadTooLargeError(maxBytes);
  }
  return fields;
}

/** How to decode a body with this `Content-Type` header. */
export function bodyKindOf(contentType: string | null): BodyKind {
  if (!contentType) return 'sniff';
  const [type = '', ...parameters] = contentType.toLowerCase().split(';').map((part) => part.trim());
  const charset = parameters.find((p) => p.startsWith('charset='))?.slice('charset='.length).replaceAll('"', '');
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    throw unreadable(`the body's charset is ${JSON.stringify(charset.slice(0, 40))}; the gateway sends UTF-8`);
  }
  if (type === 'application/x-www-form-urlencoded') return 'form';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'text/plain') return 'sniff';
  throw unreadable(`cannot read a body of type ${JSON.stringify(type.slice(0, 60))}: the gateway posts application/x-www-form-urlencoded (settlement callbacks possibly JSON)`);
}

function* formDataEntries(form: FormData): Generator<[string, string]> {
  for (const [key, value] of form) {
    if (typeof value !== 'string') throw unreadable('is a file; notification fields are text', [key]);
    yield [key, value];
  }
}

function readRecord(record: Readonly<Record<string, unknown>>): ReceivedFields {
  const fields: ReceivedFields = new Map();
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (typeof value === 'string') fields.set(key, value);
    else if (value !== undefined && value !== null) throw unreadable(problemWith(value), [key]);
  }
  if (fields.size === 0) {
    throw unreadable('the object has no fields: did a body parser run for this request (e.g. express.urlencoded())?');
  }
  return fields;
}

function problemWith(value: unknown): string {
  if (Array.isArray(value)) return 'was sent more than once (the parser made an array of it); a notification carries each field once';
  if (typeof value === 'object') {
    return 'is an object: pass the raw body, or parse flat (express.urlencoded({ extended: false })) so each value stays the text received';
  }
  return `is a ${typeof value}, not the text received: pass the raw body or an object of strings (10.50 re-parsed as 10.5 fails the signature)`;
}

function inputKindOf(value: unknown): string {
  if (value === undefined) return 'undefined (did a body parser run for this request?)';
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

// ---- bodies: text to fields ----

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
    throw unreadable('the body is empty. Pass the raw body (or the object your form parser made); fields sent in the URL query: pass new URL(request.url).searchParams');
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
  let captured: CapturedMembers | undefined;
  try {
    captured = parseLossless(text, TOP_LEVEL).capturedMembers;
  } catch (error) {
    if (error instanceof JsonDuplicateMemberError) throw unreadable('appears more than once; a notification carries each field once', [error.member]);
    if (!(error instanceof JsonSyntaxError)) throw error;
    throw unreadable(`the body is not valid JSON (${error.message})`);
  }
  if (!captured) throw unreadable('a JSON body must be an object of fields');
  return presentMemberTexts(captured);
}
