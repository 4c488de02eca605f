/**
 * Why a signature does not verify, for people debugging a signer in any language: the string the gateway's
 * rule hashes (with the secret replaced by `***`), which received fields it signs and why others are left
 * out, and the most likely mistake, found by re-signing the message the ways common mistakes do (an empty
 * value signed, a leading `&`, a case-sensitive sort, `key=` missing, another digest, a decimal
 * re-stringified...). Used by `payment-gateway-sdk verify`; meant for the mock gateway's refusals too.
 * Nothing it returns holds the secret or an unredacted pre-hash string. It keeps nothing between calls.
 *
 * @module
 */
import { GatewayValidationError } from '../../errors/index.js';
import { sign, signingString } from '../../protocol/signing/sign.js';
import { signaturesEqual } from '../../protocol/signing/verify.js';
import { compareCaseInsensitive } from '../../protocol/signing/case-fold.js';
import { loadNodeCrypto, md5Hex } from '../../protocol/signing/md5.js';

/** What stands for the secret in every string this module returns. */
export const REDACTED_SECRET = '***';

/** Received fields: name to the text it is signed as (`null` for a JSON null), in arrival order. */
export type ReceivedTexts = ReadonlyMap<string, string | null>;

/** What to judge. */
export interface SignatureCase {
  /** The fields the gateway signs (a `sign` member among them is the signature, never signed). */
  readonly fields: ReceivedTexts;
  /** The signature received, as received (`undefined` when there was none). */
  readonly received: unknown;
  readonly secret: string;
  /**
   * Fields received beside `fields` that the gateway does not sign: a response's `code` and `msg`, a
   * notifyUrl's query keys, fields an operation does not know. A signer that signed them is a mistake found.
   */
  readonly unsignedFields?: ReceivedTexts;
}

/** One received field, and whether the gateway's rule signs it. */
export interface FieldReport {
  readonly name: string;
  readonly signed: boolean;
  /** Why a field is not signed. */
  readonly why?: 'the signature itself' | 'empty value' | 'null' | 'not signed by the gateway';
}

/** Received fields as people read them: `2 signed (a, b); not signed: sign (the signature itself)`. */
export function describeFields(fields: readonly { readonly name: string; readonly signed: boolean; readonly why?: string | undefined }[]): string {
  const signed = fields.filter((field) => field.signed).map((field) => field.name);
  const left = fields.filter((field) => !field.signed).map((field) => `${field.name} (${field.why ?? 'not signed'})`);
  return `${signed.length} signed${signed.length > 0 ? ` (${signed.join(', ')})` : ''}${left.length > 0 ? `; not signed: ${left.join(', ')}` : ''}`;
}

/** The mistakes recognised, most likely first. */
export type SignatureMistakeId =
  | 'empty-value-signed'
  | 'null-signed'
  | 'leading-ampersand'
  | 'case-sensitive-sort'
  | 'keys-sorted'
  | 'not-sorted'
  | 'key-missing'
  | 'secret-without-key'
  | 'extra-ampersand-before-key'
  | 'no-ampersand-before-key'
  | 'trailing-ampersand'
  | 'secret-whitespace'
  | 'other-digest'
  | 'not-utf8'
  | 'decimal-restringified'
  | 'integer-as-float'
  | 'json-reformatted'
  | 'values-trimmed'
  | 'values-url-encoded'
  | 'plus-read-as-space'
  | 'space-arrived-as-plus'
  | 'unsigned-field-signed'
  | 'field-left-out';

/** A mistake that reproduces the received signature exactly. */
export interface SignatureMistake {
  readonly id: SignatureMistakeId;
  /** What the signer did, in one line. */
  readonly summary: string;
  /** What to change. */
  readonly fix: string;
  /** The string the signer hashed, the secret replaced by `***`. */
  readonly signedString: string;
}

/** The verdict, with what a person needs to see why. */
export type SignatureDiagnosis =
  | { readonly verdict: 'valid'; readonly canonical: string; readonly fields: readonly FieldReport[]; readonly note?: string }
  | { readonly verdict: 'missing-sign'; readonly canonical: string; readonly fields: readonly FieldReport[]; readonly problem: string }
  | { readonly verdict: 'wrong-sign'; readonly canonical: string; readonly fields: readonly FieldReport[]; readonly expectedSign: string; readonly mistake?: SignatureMistake; readonly hint: string }
  | { readonly verdict: 'unsignable'; readonly fields: readonly FieldReport[]; readonly problem: string };

type Entry = readonly [name: string, text: string];

/** A way of signing: which entries, in which order, how the string ends, which digest. */
interface Attempt {
  readonly id: SignatureMistakeId;
  readonly summary: string;
  readonly fix: string;
  readonly entries?: readonly Entry[];
  readonly order?: 'java' | 'code-unit' | 'key' | 'received';
  /** The whole pre-hash string from the joined fragments (each ends in `&`) and the secret. */
  readonly finish?: (joined: string, secret: string) => string;
  /** The secret as the signer used it (only hashed, never shown: shown strings have `***`). */
  readonly secretAsUsed?: (secret: string) => string;
  /** The digest to compare, exactly as the signer would have written it; `undefined` when unavailable here. */
  readonly digest?: (text: string, secret: string) => string | undefined;
}

// Beyond this many fields, the attempts that leave out one field at a time (one hash per field) are skipped.
const MAX_FIELDS_LEFT_OUT = 64;

/** Judges a received signature and, when it is wrong, finds the mistake that reproduces it. */
export function diagnoseSignature(input: SignatureCase): SignatureDiagnosis {
  const fields = reportFields(input);
  let expected: string;
  try {
    expected = sign(input.fields, input.secret);
  } catch (error) {
    if (!(error instanceof GatewayValidationError)) throw error;
    return { verdict: 'unsignable', fields, problem: error.message };
  }
  const signed = signedEntries(input.fields);
  // The secret stands only in the closing key=SECRET: the string with *** there is the canonical one, redacted.
  const canonical = signingString(input.fields, REDACTED_SECRET);
  const { received } = input;
  if (received === undefined || received === null || received === '') {
    return { verdict: 'missing-sign', canonical, fields, problem: 'there is no sign: the gateway signs every request, response with data, and notification' };
  }
  if (typeof received !== 'string') {
    return { verdict: 'missing-sign', canonical, fields, problem: `sign is ${typeof received === 'object' ? 'an object' : `a ${typeof received}`}, not a string of 32 hexadecimal characters` };
  }
  if (signaturesEqual(received, expected)) {
    const note = /[a-f]/.test(received) ? 'the sign is lower-case hex: the gateway accepts either case but sends upper case; compare signs case-insensitively' : undefined;
    return note ? { verdict: 'valid', canonical, fields, note } : { verdict: 'valid', canonical, fields };
  }
  for (const attempt of attempts(input, signed)) {
    const entries = attempt.entries ?? signed;
    const text = preHash(entries, attempt.secretAsUsed?.(input.secret) ?? input.secret, attempt);
    const digest = (attempt.digest ?? md5Hex)(text, input.secret);
    if (digest !== undefined && sameDigest(received, digest)) {
      return { verdict: 'wrong-sign', canonical, fields, expectedSign: expected, mistake: { id: attempt.id, summary: attempt.summary, fix: attempt.fix, signedString: preHash(entries, REDACTED_SECRET, attempt) }, hint: attempt.fix };
    }
  }
  const shape = /^[0-9A-Fa-f]{32}$/.test(received) ? '' : ` The sign is not 32 hexadecimal characters (an MD5 in hex); it has ${received.length} characters.`;
  return {
    verdict: 'wrong-sign',
    canonical,
    fields,
    expectedSign: expected,
    hint: `No common mistake reproduces the received sign: most likely the secret differs (use the secret of this mchNo/appId, without a trailing newline or space), or a field was changed after signing.${shape}`,
  };
}

function reportFields({ fields, unsignedFields }: SignatureCase): FieldReport[] {
  const report: FieldReport[] = [];
  for (const [name, text] of fields) {
    if (name === 'sign') report.push({ name, signed: false, why: 'the signature itself' });
    else if (text === null) report.push({ name, signed: false, why: 'null' });
    else if (text === '') report.push({ name, signed: false, why: 'empty value' });
    else report.push({ name, signed: true });
  }
  for (const name of unsignedFields?.keys() ?? []) report.push({ name, signed: false, why: name === 'sign' ? 'the signature itself' : 'not signed by the gateway' });
  return report;
}

/** The entries the gateway's rule signs: all but `sign`, null and `""`. */
function signedEntries(fields: ReceivedTexts): Entry[] {
  return textEntries(fields, (text) => (text === '' ? undefined : text));
}

/** Every field but `sign`, with the text `textOf` gives it; left out where that is `undefined` (and for null, by default). */
function textEntries(fields: ReceivedTexts, textOf: (text: string | null) => string | null | undefined): Entry[] {
  const entries: Entry[] = [];
  for (const [name, text] of fields) {
    const signedText = name === 'sign' ? undefined : textOf(text);
    if (typeof signedText === 'string') entries.push([name, signedText]);
  }
  return entries;
}

/** The string hashed: the gateway's rule, or an attempt's variation of it. */
function preHash(entries: readonly Entry[], secret: string, attempt: Partial<Attempt> = {}): string {
  const finish = attempt.finish ?? ((joined, key) => `${joined}key=${key}`);
  return finish(ordered(entries, attempt.order ?? 'java').join(''), secret);
}

function ordered(entries: readonly Entry[], order: NonNullable<Attempt['order']>): string[] {
  const fragments = (list: readonly Entry[]) => list.map(([name, text]) => `${name}=${text}&`);
  switch (order) {
    case 'java':
      return fragments(entries).sort(compareCaseInsensitive);
    case 'code-unit':
      return fragments(entries).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    case 'key':
      return fragments([...entries].sort(([a], [b]) => compareCaseInsensitive(a, b)));
    case 'received':
      return fragments(entries);
  }
}

// Hex digests compare in either case (the gateway does); Base64 exactly.
function sameDigest(received: string, digest: string): boolean {
  return /^[0-9A-F]+$/.test(digest) ? signaturesEqual(received, digest) : received === digest;
}

/** The ways of signing that common mistakes produce, most likely first; only those that differ from the rule. */
function* attempts(input: SignatureCase, signed: readonly Entry[]): Generator<Attempt> {
  const all = [...input.fields].filter(([name]) => name !== 'sign');
  const empty = all.filter(([, text]) => text === '').map(([name]) => name);
  if (empty.length > 0) {
    yield {
      id: 'empty-value-signed',
      summary: `an empty value was signed (${empty.map((name) => `${name}=&`).join(', ')})`,
      fix: 'leave out every field whose value is empty ("") or null: the gateway signs neither',
      entries: textEntries(input.fields, (text) => text),
    };
  }
  const nulls = all.filter(([, text]) => text === null).map(([name]) => name);
  if (nulls.length > 0) {
    yield {
      id: 'null-signed',
      summary: `a null was signed as text (${nulls.map((name) => `${name}=null&`).join(', ')})`,
      fix: 'leave out every field whose value is null or empty (""): the gateway signs neither',
      entries: textEntries(input.fields, (text) => (text === '' ? undefined : (text ?? 'null'))),
    };
  }
  yield { id: 'leading-ampersand', summary: 'the string starts with "&"', fix: 'write each field as key=value& with no "&" before the first one', finish: (joined, secret) => `&${joined}key=${secret}` };
  const java = ordered(signed, 'java').join('');
  const differs = (order: 'code-unit' | 'key' | 'received') => ordered(signed, order).join('') !== java;
  const sortFix = "sort the whole key=value& fragments case-insensitively, as Java's String.CASE_INSENSITIVE_ORDER (docs/guides/signing.md)";
  if (differs('code-unit')) yield { id: 'case-sensitive-sort', summary: 'the fragments were sorted case-sensitively (by character code: upper case first)', fix: sortFix, order: 'code-unit' };
  if (differs('key')) yield { id: 'keys-sorted', summary: 'the keys were sorted instead of the whole key=value& fragments', fix: sortFix, order: 'key' };
  if (differs('received')) yield { id: 'not-sorted', summary: 'the fields were not sorted (signed in the order sent)', fix: sortFix, order: 'received' };
  yield { id: 'key-missing', summary: 'the string ends without key=SECRET', fix: 'append key= and the secret after the last fragment', finish: (joined) => joined };
  yield { id: 'secret-without-key', summary: 'the secret was appended without "key="', fix: 'append key=SECRET, not the secret alone', finish: (joined, secret) => `${joined}${secret}` };
  yield { id: 'extra-ampersand-before-key', summary: 'an extra "&" before key=', fix: 'each fragment already ends in "&": append key=SECRET directly', finish: (joined, secret) => `${joined}&key=${secret}` };
  if (signed.length > 0) {
    yield { id: 'no-ampersand-before-key', summary: 'no "&" between the last field and key=', fix: 'end every fragment, the last one too, with "&" before key=SECRET', finish: (joined, secret) => `${joined.slice(0, -1)}key=${secret}` };
  }
  yield { id: 'trailing-ampersand', summary: 'an "&" after the secret', fix: 'end the string with key=SECRET, nothing after it', finish: (joined, secret) => `${joined}key=${secret}&` };
  yield* secretWhitespace(input.secret);
  yield* otherDigests();
  yield* valueRewrites(signed);
  const unsigned = signedEntries(input.unsignedFields ?? new Map());
  if (unsigned.length > 0) {
    yield {
      id: 'unsigned-field-signed',
      summary: `fields the gateway does not sign were signed (${unsigned.map(([name]) => name).join(', ')})`,
      fix: 'sign only the fields the gateway signs: a response\'s data members, a request\'s or notification\'s fields without the notifyUrl query keys',
      entries: [...signed, ...unsigned],
    };
  }
  if (signed.length <= MAX_FIELDS_LEFT_OUT) {
    for (const [name] of signed) {
      yield {
        id: 'field-left-out',
        summary: `${name} was not signed`,
        fix: `${name} was added after signing, or the signer leaves it out: sign every field sent (if it came from the notifyUrl's query string, ignore it when verifying)`,
        entries: signed.filter(([other]) => other !== name),
      };
    }
  }
}

function* secretWhitespace(secret: string): Generator<Attempt> {
  const base = { id: 'secret-whitespace', fix: 'use the secret exactly, without surrounding spaces or a newline (a file written with echo ends in one)' } as const;
  if (secret.trim() !== secret) yield { ...base, summary: 'the signer used the secret without the whitespace around yours', secretAsUsed: (key) => key.trim() };
  else yield { ...base, summary: "the signer's secret ends with a newline", secretAsUsed: (key) => `${key}\n` };
}

function* otherDigests(): Generator<Attempt> {
  const crypto = loadNodeCrypto();
  if (!crypto) return;
  const fix = 'the gateway signs with plain MD5 over the UTF-8 bytes, written as 32 upper-case hexadecimal characters';
  const hash = (algorithm: string, encoding: 'hex' | 'base64') => (text: string) => {
    const digest = crypto.createHash(algorithm).update(text, 'utf8').digest(encoding);
    return encoding === 'hex' ? digest.toUpperCase() : digest;
  };
  const hmac = (algorithm: string) => (text: string, secret: string) => crypto.createHmac(algorithm, secret).update(text, 'utf8').digest('hex').toUpperCase();
  const withoutKey = (joined: string) => joined.slice(0, -1);
  yield { id: 'other-digest', summary: 'the sign is the SHA-256 of the right string, not its MD5', fix, digest: hash('sha256', 'hex') };
  yield { id: 'other-digest', summary: 'the sign is the SHA-1 of the right string, not its MD5', fix, digest: hash('sha1', 'hex') };
  yield { id: 'other-digest', summary: 'the MD5 was written in Base64, not hexadecimal', fix, digest: hash('md5', 'base64') };
  yield { id: 'other-digest', summary: 'the sign is an HMAC-MD5 keyed with the secret over the fields, not the MD5 of the fields followed by key=SECRET', fix, finish: withoutKey, digest: hmac('md5') };
  yield { id: 'other-digest', summary: 'the sign is an HMAC-SHA256 keyed with the secret over the fields, not the MD5 of the fields followed by key=SECRET', fix, finish: withoutKey, digest: hmac('sha256') };
  yield {
    id: 'not-utf8',
    summary: 'the text was hashed as ISO-8859-1 or ASCII, not UTF-8 (characters outside Latin-1 became "?")',
    fix: 'hash the UTF-8 bytes of the string (Java: getBytes(StandardCharsets.UTF_8), never the platform default charset)',
    digest: (text) => (/[^\x00-\x7f]/.test(text) ? crypto.createHash('md5').update(Buffer.from(text.replace(/[^\x00-\xff]/gu, '?'), 'latin1')).digest('hex').toUpperCase() : undefined),
  };
}

const NUMBER_TEXT = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function* valueRewrites(signed: readonly Entry[]): Generator<Attempt> {
  const rewrite = (change: (text: string) => string) => {
    const changed: string[] = [];
    const entries = signed
      .map(([name, text]): Entry => {
        const next = change(text);
        if (next !== text) changed.push(`${name}: ${describeChange(text, next)}`);
        return [name, next];
      })
      .filter(([, text]) => text !== '');
    return { entries, changed };
  };
  const restringified = rewrite((text) => (NUMBER_TEXT.test(text) ? String(Number(text)) : /^[[{]/.test(text) ? numbersRewritten(text) : text));
  if (restringified.changed.length > 0) {
    yield {
      id: 'decimal-restringified',
      summary: `a number was re-stringified before signing (${restringified.changed.join('; ')})`,
      fix: 'sign each value\'s text exactly as sent (parse JSON losslessly; never JSON.parse and String() a decimal such as 10.50)',
      entries: restringified.entries,
    };
  }
  const zeroRestored = rewrite((text) => text.replace(/(?<=^|[:,[]\s*)(-?\d+\.\d)(?=\s*(?:$|[,}\]]))/g, '$10'));
  if (zeroRestored.changed.length > 0) {
    yield {
      id: 'decimal-restringified',
      summary: `the body was re-serialized after signing: a decimal lost its trailing zero (${zeroRestored.changed.join('; ')})`,
      fix: 'verify the body exactly as received, before any JSON.parse/JSON.stringify',
      entries: zeroRestored.entries,
    };
  }
  const floats = rewrite((text) => (/^-?\d+$/.test(text) ? `${text}.0` : text));
  if (floats.changed.length > 0) {
    yield { id: 'integer-as-float', summary: `integers were signed as floats (${floats.changed.join('; ')})`, fix: 'sign integers as plain decimal text: 100, never 100.0', entries: floats.entries };
  }
  const compacted = rewrite((text) => (/^[[{]/.test(text) ? compactJson(text) : text));
  if (compacted.changed.length > 0) {
    yield {
      id: 'json-reformatted',
      summary: `JSON inside a value was reformatted after signing (${compacted.changed.map((c) => c.split(':')[0]).join(', ')} had whitespace added)`,
      fix: 'verify the body exactly as received: the gateway signs nested JSON compact, as it sends it',
      entries: compacted.entries,
    };
  }
  const trimmed = rewrite((text) => text.trim());
  if (trimmed.changed.length > 0) {
    yield { id: 'values-trimmed', summary: `values were trimmed before signing (${trimmed.changed.join('; ')})`, fix: 'sign values as sent: whitespace is kept, nothing is trimmed', entries: trimmed.entries };
  }
  // A form body reads + as a space: a signer's literal + sent unencoded arrives as a space, and a body read
  // without form decoding (decodeURIComponent, a JSON copy of a logged form) keeps its spaces as +.
  const pluses = rewrite((text) => text.replaceAll(' ', '+'));
  if (pluses.changed.length > 0) {
    yield {
      id: 'plus-read-as-space',
      summary: `the signer signed "+" where the body holds a space (${pluses.changed.join('; ')}): in a form body a bare + means a space`,
      fix: 'send a literal + as %2B (encode every form value, e.g. with URLSearchParams or encodeURIComponent), or sign the value you send as the receiver decodes it',
      entries: pluses.entries,
    };
  }
  const spaces = rewrite((text) => text.replaceAll('+', ' '));
  if (spaces.changed.length > 0) {
    yield {
      id: 'space-arrived-as-plus',
      summary: `spaces arrived as "+" (${spaces.changed.join('; ')}): the body was form-encoded and then read without form decoding`,
      fix: 'decode a form body with + as a space (URLSearchParams, not decodeURIComponent), or verify the body exactly as received',
      entries: spaces.entries,
    };
  }
  const encoded = rewrite((text) => encodeURIComponent(text));
  if (encoded.changed.length > 0) {
    yield { id: 'values-url-encoded', summary: `values were URL-encoded before signing (${encoded.changed.join('; ')})`, fix: 'sign the decoded values: nothing is URL-encoded in the signed string', entries: encoded.entries };
  }
}

/** Nested JSON as a parse and re-stringify writes it, where that changes a number (not only whitespace). */
function numbersRewritten(text: string): string {
  let rewritten: string;
  try {
    rewritten = JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
  return rewritten === compactJson(text) ? text : rewritten;
}

/** JSON text without whitespace outside strings, every literal kept as written. */
function compactJson(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      out += c;
      inString = true;
    } else if (!/\s/.test(c)) {
      out += c;
    }
  }
  return out;
}

/** The part of a value that a rewrite changed, widened to whole words or numbers: `10.50 as 10.5`. */
function describeChange(before: string, after: string): string {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  const word = /[\w.+-]/;
  while (start > 0 && word.test(before[start - 1]!)) start--;
  while (end > 0 && word.test(before[before.length - end]!)) end--;
  const show = (text: string) => {
    const part = text.length > 40 ? `${text.slice(0, 37)}...` : text;
    return part === '' || /\s/.test(part) ? JSON.stringify(part) : part;
  };
  return `${show(before.slice(start, before.length - end))} as ${show(after.slice(start, after.length - end))}`;
}
