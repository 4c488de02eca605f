import { collectUnique, decodeBody, decodeUtf8, unreadable, type BodyKind, type ReceivedFields } from './decode-body.js';

/**
 * A notification as a framework hands it over:
 * - the raw body: a `string`, a `Uint8Array`/`Buffer` or an `ArrayBuffer` (form or JSON, told apart by
 *   the first character);
 * - `URLSearchParams` or `FormData`;
 * - a Web `Request` (form or JSON by its `Content-Type`; read from a clone, so its own body stays unread);
 * - an object of string fields, as `express.urlencoded()` or `@fastify/formbody` make of a form body.
 *
 * @example
 * ```ts
 * await verifyNotification(request, credentials);            // Web Request (Next.js, Hono, Bun, Deno)
 * await verifyNotification(req.body, credentials);           // Express with express.urlencoded({ extended: false })
 * await verifyNotification(rawBodyBuffer, credentials);      // bytes as received
 * ```
 */
export type NotificationInput = string | Uint8Array | ArrayBuffer | URLSearchParams | FormData | Request | Readonly<Record<string, unknown>>;

/** Reads the fields of a notification, exactly as received, from any {@link NotificationInput}. */
export async function readNotificationInput(input: NotificationInput): Promise<ReceivedFields> {
  if (typeof input === 'string') return decodeBody(input, 'sniff');
  if (input instanceof Uint8Array) return decodeBody(decodeUtf8(input), 'sniff');
  if (input instanceof ArrayBuffer) return decodeBody(decodeUtf8(new Uint8Array(input)), 'sniff');
  if (input instanceof URLSearchParams) return collectUnique(input);
  if (input instanceof FormData) return collectUnique(formDataEntries(input));
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw unreadable(`expected the raw body (a string or bytes), URLSearchParams, FormData, a Request or an object of string fields; received ${describe(input)}`);
  }
  return isRequestLike(input) ? readRequest(input) : readRecord(input);
}

// Duck-typed, so a framework's own Request subclass or another realm's Request is recognised too.
function isRequestLike(value: object): value is Request {
  const candidate = value as Partial<Request>;
  return typeof candidate.clone === 'function' && typeof candidate.arrayBuffer === 'function' && typeof candidate.headers?.get === 'function';
}

async function readRequest(request: Request): Promise<ReceivedFields> {
  if (request.bodyUsed) {
    throw unreadable('the Request body was already read: call verifyNotification(request) before anything reads the body, or pass the text that was read');
  }
  const kind = bodyKindOf(request.headers.get('content-type'));
  // Read a clone, so the caller (or a framework after us) can still read the request's own body.
  const bytes = new Uint8Array(await request.clone().arrayBuffer());
  return decodeBody(decodeUtf8(bytes), kind);
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
    throw unreadable('the object has no fields: did a body parser run for this request (e.g. express.urlencoded() for application/x-www-form-urlencoded)?');
  }
  return fields;
}

function problemWith(value: unknown): string {
  if (Array.isArray(value)) return 'was sent more than once (the parser made an array of it); a notification carries each field once';
  if (typeof value === 'object') {
    return 'is an object: pass the raw body, or use a flat form parser (express.urlencoded({ extended: false })) so every value stays the text received';
  }
  return `is a ${typeof value}, not the text received: pass the raw body or an object of strings (re-parsed values such as 10.50 -> 10.5 would not match the signature)`;
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined (did a body parser run for this request?)';
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}
