import type * as z from 'zod/mini';
import { GatewaySignatureError, GatewayValidationError, type ValidationIssue } from '../errors/index.js';
import { coerceFields } from './coerce.js';
import { sameFieldValue } from '../protocol/schemas/field-equality.js';
import { objectFields } from '../protocol/schemas/introspect.js';
import { REPORT_INPUT, toValidationIssues } from '../protocol/schemas/issues.js';
import { markAmbiguous, type NotUniquelySigned } from '../protocol/schemas/free-text.js';
import { judgeReadings, refusalMessage, type ReadingRefusal, type ReadingRules } from '../protocol/signing/one-reading.js';
import { caseTwinsReason } from '../protocol/signing/sign.js';
import { signatureVerdict } from '../protocol/signing/verify.js';
import type { DeclaredKind, Expected } from './kinds.js';
import { shapeRefusal } from './identify.js';
import { resolveNotificationOptions } from './options.js';
import { readNotificationInput, unreadable, type NotificationInput, type ReceivedFields } from './input.js';

/**
 * What every verified notification carries besides its fields: the key to process its event once by,
 * and (listed under `ambiguousFields`) any free text its signature does not pin down.
 *
 * @example
 * ```ts
 * const { idempotencyKey } = await verifyNotification(body, credentials); // 'P202106181104177050002:2'
 * ```
 */
export interface IdempotentNotification extends NotUniquelySigned {
  /** The same for every delivery of the same event (retries, manual re-sends): process each key once. */
  readonly idempotencyKey: string;
}

type Verified<Schema extends z.ZodMiniObject> = z.output<Schema> & IdempotentNotification;

interface CheckOptions {
  readonly secret: string;
  readonly mchNo: string;
  readonly appId: string;
  readonly ignoreKeys?: readonly string[] | undefined;
  readonly maxAgeMs?: number | undefined;
  readonly maxBodyBytes?: number | undefined;
  readonly now?: (() => number) | undefined;
  readonly expect?: Readonly<Record<string, Expected>> | undefined;
}

/** The default `maxBodyBytes`: 64 KiB, many times a genuine notification (well under 2 KiB). */
export const DEFAULT_MAX_BODY_BYTES = 65_536;

/**
 * Reads, verifies and types a notification: the signature over every received field but `sign` and the
 * ignored keys (constant-time), the merchant, the shape, the caller's expectations and, when asked, the age.
 */
export async function verifyReceived<Schema extends z.ZodMiniObject>(kind: DeclaredKind<Schema>, input: NotificationInput, rawOptions: unknown): Promise<Verified<Schema>> {
  const verifier = receivedVerifier(kind, rawOptions);
  return verifier.verify(await verifier.read(input));
}

/** One kind's verification with parsed options: read an input, then verify the fields read. */
export interface ReceivedVerifier<Schema extends z.ZodMiniObject> {
  /** Reads the input's fields, within `maxBodyBytes`: a map of this call's own, which `verify` consumes. */
  read(input: NotificationInput): Promise<ReceivedFields>;
  /** Verifies fields read by `read` as a notification of this kind. */
  verify(fields: ReceivedFields): Verified<Schema>;
}

/** Parses the options once (throwing when they are invalid) and returns the verification of one input with them. */
export function receivedVerifier<Schema extends z.ZodMiniObject>(kind: DeclaredKind<Schema>, rawOptions: unknown): ReceivedVerifier<Schema> {
  const options: CheckOptions = resolveNotificationOptions(kind, rawOptions);
  const rules = readingRules(kind, options);
  return {
    read: (input) => readNotificationInput(input, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES),
    verify: (fields) => verifyResolved(kind, fields, options, rules),
  };
}

function verifyResolved<Schema extends z.ZodMiniObject>(kind: DeclaredKind<Schema>, fields: ReceivedFields, options: CheckOptions, rules: ReadingRules): Verified<Schema> {
  checkReceivedText(fields);
  const signature = fields.get('sign');
  // The map is this call's own: drop what is not signed in place instead of copying it. The gateway
  // sends `""` members but does not sign them, so they are not part of what it vouches for.
  fields.delete('sign');
  for (const key of options.ignoreKeys ?? []) fields.delete(key);
  for (const [key, value] of fields) if (value === '') fields.delete(key);
  checkSignature(kind.label, signature, fields, options);
  // One reading per message: what a processor would take as another kind, or refuse, no verifier takes as its own.
  const misshaped = shapeRefusal(kind, fields);
  if (misshaped) throw misshaped;
  const verdict = judgeReadings(fields, rules);
  if ('refused' in verdict) throw ambiguityError(kind, verdict.refused);
  const notification = checkRecord(kind, fields, options);
  checkAge(kind.label, notification.reqTime, options);
  return Object.assign(markAmbiguous(notification, verdict.ambiguous), { idempotencyKey: kind.idempotencyKey(notification) });
}

/** The checks that make a field map this kind's record for this merchant application: merchant, shape, expectations. */
function checkRecord<Schema extends z.ZodMiniObject>(kind: DeclaredKind<Schema>, fields: ReadonlyMap<string, string>, options: CheckOptions): z.output<Schema> {
  checkMerchant(kind, fields, options);
  const notification = parseTyped(kind, fields);
  checkExpected(kind.label, notification, { ...kind.defaultExpect, ...withoutUndefined(options.expect) });
  return notification;
}

/**
 * Which readings of a signed text this verifier accepts (`protocol/signing/one-reading.ts`): the kind's
 * field names, the free text its schema marks, and the checks of {@link checkRecord}. Readings differ from the
 * received record only in free text, unknown fields and optional fields split off or swallowed; the schema
 * checks each field apart, and `expect` and the required fields read fields every reading shares, so a
 * reading passes {@link checkRecord} when each field it does not share passes (and names this merchant).
 */
function readingRules(kind: DeclaredKind<z.ZodMiniObject>, options: CheckOptions): ReadingRules {
  const { names, required, freeText } = objectFields(kind.schema);
  const shape = kind.schema.def.shape as Readonly<Record<string, z.ZodMiniType>>;
  return {
    known: names,
    required,
    freeText,
    accepts: (reading, received) => {
      for (const [name, text] of reading) {
        if (text === received.get(name) || !Object.hasOwn(shape, name)) continue;
        if ((name === 'mchNo' || name === 'appId') && text !== options[name]) return false;
        const coerced = coerceFields(shape, new Map([[name, text]]));
        if (coerced.issues.length > 0 || !shape[name]!.safeParse(coerced.value[name]).success) return false;
      }
      return true;
    },
  };
}

// The gateway's field names are plain identifiers; a control character in one is hostile (a NUL in a name
// once collided with a key list in a shared cache). Text must be well-formed to have a UTF-8 form to sign.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

function checkReceivedText(fields: ReceivedFields): void {
  for (const [key, value] of fields) {
    if (CONTROL_CHARACTER.test(key) || !key.isWellFormed()) {
      throw unreadable(`a field name contains a control character or a lone surrogate (${JSON.stringify(key.slice(0, 40))}); the gateway sends none: do not act on this notification`);
    }
    if (!value.isWellFormed()) throw unreadable('contains a lone surrogate, which the gateway never sends: do not act on this notification', [key]);
  }
}

// The signature covers the fields joined into one text: a name that is no identifier, or a value holding
// `&name=` where the text can have that field, lets that text be read as other fields (a gift message
// `x&state=2&subject=x` turns an unpaid order's message into a paid one).
function ambiguityError(kind: DeclaredKind<z.ZodMiniObject>, refusal: ReadingRefusal): GatewayValidationError {
  const { field, problem } = refusal;
  if (problem === 'name') {
    return unreadable(`a field name is ${JSON.stringify(field.slice(0, 40))}, not an identifier as the gateway's are: do not act on this ${kind.label} (your notifyUrl's own query parameters go in ignoreKeys)`);
  }
  return new GatewayValidationError(`The ${kind.label} is signed, but its signed text can be read as other fields, so it cannot be trusted`, [
    { path: [field], message: `${refusalMessage(refusal)}. Do not act on it` },
  ]);
}

function checkSignature(label: string, received: string | undefined, fields: ReceivedFields, options: CheckOptions): void {
  if (received === undefined || received === '') {
    throw new GatewaySignatureError(`The ${label} has no sign, so it cannot be trusted: do not act on it (a parsed body: did the parser keep every field?)`);
  }
  const matches = signatureVerdict(fields, options.secret, received);
  if (typeof matches !== 'boolean') {
    throw new GatewaySignatureError(`The ${label} cannot be trusted: ${caseTwinsReason(matches)}. The gateway sends no such ${label}: do not act on it.`);
  }
  if (!matches) {
    throw new GatewaySignatureError(
      `The ${label}'s signature does not match, so it cannot be trusted: do not act on it. Check that the secret is the one of appId ${options.appId}; ` +
        'list your notifyUrl\'s own query parameters in ignoreKeys; otherwise it was forged or altered.',
    );
  }
}

function checkMerchant(kind: DeclaredKind<z.ZodMiniObject>, fields: ReadonlyMap<string, string>, options: CheckOptions): void {
  const issues: ValidationIssue[] = [];
  for (const key of ['mchNo', 'appId'] as const) {
    const value = fields.get(key);
    if (value === undefined || value === '') {
      if (kind.merchantRequired) issues.push({ path: [key], message: 'is missing' });
    } else if (value !== options[key]) {
      issues.push({ path: [key], message: `is ${JSON.stringify(value)}, not ${JSON.stringify(options[key])}: verify each merchant application's notifications with its own credentials` });
    }
  }
  if (issues.length > 0) throw new GatewayValidationError(`The ${kind.label} is not addressed to this merchant application`, issues);
}

function parseTyped<Schema extends z.ZodMiniObject>(kind: DeclaredKind<Schema>, fields: ReadonlyMap<string, string>): z.output<Schema> {
  const summary = `The ${kind.label} is signed but not the documented shape`;
  const coerced = coerceFields(kind.schema.def.shape, fields);
  if (coerced.issues.length > 0) throw new GatewayValidationError(summary, coerced.issues);
  const result = kind.schema.safeParse(coerced.value, REPORT_INPUT);
  if (!result.success) throw new GatewayValidationError(summary, toValidationIssues(result.error.issues));
  return result.data;
}

/**
 * Checks a verified notification against what the caller expects: each field equal to its expected
 * value (a list: one of its values).
 *
 * @throws {@link GatewayValidationError} naming every field that differs
 */
export function checkExpected(label: string, notification: Readonly<Record<string, unknown>>, expected: Readonly<Record<string, Expected>>): void {
  const issues: ValidationIssue[] = [];
  for (const [key, want] of Object.entries(expected)) {
    if (want === undefined) continue;
    const actual = notification[key];
    const allowed: readonly (string | number)[] = Array.isArray(want) ? want : [want as string | number];
    if (allowed.some((value) => sameFieldValue(key, actual, value))) continue;
    const wanted = allowed.length === 1 ? JSON.stringify(allowed[0]) : `one of ${allowed.map((value) => JSON.stringify(value)).join(', ')}`;
    issues.push({ path: [key], message: `is ${actual === undefined ? 'missing' : JSON.stringify(actual)}, but ${wanted} was expected${key === 'state' ? STATE_ADVICE : ''}` });
  }
  if (issues.length > 0) throw new GatewayValidationError(`The ${label} is genuine but not for what you expected, so do not act on it`, issues);
}

// The payer's browser carries signed fields of any state back from the cashier (returnUrl).
const STATE_ADVICE =
  ". The gateway notifies only paid orders (an unpaid one's signed message is the payer's returnUrl): never fulfil from it; widen expect.state only for states you handle";

function withoutUndefined(expected: Readonly<Record<string, Expected>> | undefined): Record<string, Expected> {
  const defined: Record<string, Expected> = {};
  for (const [key, value] of Object.entries(expected ?? {})) if (value !== undefined) defined[key] = value;
  return defined;
}

function checkAge(label: string, reqTime: unknown, options: CheckOptions): void {
  const { maxAgeMs } = options;
  if (maxAgeMs === undefined) return;
  const fail = (path: string, message: string) => new GatewayValidationError(`The ${label} failed the maxAgeMs check`, [{ path: [path], message }]);
  if (typeof reqTime !== 'number') throw fail('reqTime', 'is missing, but maxAgeMs asks for an age check');
  const now = (options.now ?? Date.now)();
  if (!Number.isFinite(now)) throw fail('now', 'must return milliseconds since the epoch');
  const age = now - reqTime;
  if (age > maxAgeMs) {
    throw fail('reqTime', `is ${age} ms old, more than maxAgeMs (${maxAgeMs}). The gateway keeps the original reqTime on retries and re-sends: query the order instead of dropping it`);
  }
  if (-age > maxAgeMs) throw fail('reqTime', `is ${-age} ms in the future, more than maxAgeMs (${maxAgeMs}): check the clocks`);
}
