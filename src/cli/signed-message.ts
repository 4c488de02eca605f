/**
 * A gateway message as `sign` and `verify` read it: a JSON object or a form body; a response envelope
 * (`{ code, msg, data, sign }`, signed over the members of `data` only) or a message signed over its own
 * fields (a request, a notification). Each field keeps the text it is signed as: a string's value, any
 * other JSON value's text exactly as written (so `10.50` stays `10.50`).
 *
 * @module
 */
import { GatewayValidationError } from '../errors/index.js';
import { decodeFormBody } from '../notify/input.js';
import { JsonDuplicateMemberError, JsonSyntaxError, memberTexts, parseLossless, TOP_LEVEL } from '../protocol/json/lossless-json.js';
import type { ReceivedTexts } from '../testing/domain/diagnose.js';

/** Why a body cannot be read, said so that the user can fix it (exit code 2, like a usage mistake). */
export class BodyError extends Error {}

export interface SignedMessage {
  /** `response`: an envelope, signed over `data`; `fields`: signed over its own fields but `sign`. */
  readonly kind: 'response' | 'fields';
  readonly format: 'json' | 'form';
  /** The fields the gateway signs, with `sign` among them for `fields`; `null` for a JSON null. */
  readonly fields: ReceivedTexts;
  /** What was received beside them and is not signed: a response's `code` and `msg`. */
  readonly unsigned: ReceivedTexts;
  /** The `sign` received, as it came (`undefined` if none). */
  readonly sign: unknown;
  /** Fields of a `fields` message whose JSON value is an object or array (a request sends them as JSON text). */
  readonly nested: readonly string[];
  /** A form body's bare `+` characters, which form decoding reads as spaces (the gateway too). */
  readonly plusAsSpace?: number;
}

/** Reads a body: JSON when it starts with `{`, a form otherwise (a final line break, as `echo` adds, is dropped). */
export function readMessage(text: string): SignedMessage {
  if (text.trim() === '') throw new BodyError('the body is empty: pipe in the JSON or form body, e.g. payment-gateway-sdk sign < order.json');
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) throw new BodyError('the body is a JSON array; a gateway message is a JSON object or a form (a=1&b=2)');
  return trimmed.startsWith('{') ? readJson(text) : readForm(text.replace(/\r?\n$/, ''));
}

function readForm(text: string): SignedMessage {
  let fields: Map<string, string>;
  try {
    fields = decodeFormBody(text);
  } catch (error) {
    if (!(error instanceof GatewayValidationError)) throw error;
    throw new BodyError(`the form body cannot be read: ${error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`.trim()).join('; ')}`);
  }
  return { kind: 'fields', format: 'form', fields, unsigned: new Map(), sign: fields.get('sign'), nested: [], plusAsSpace: text.split('+').length - 1 };
}

function readJson(text: string): SignedMessage {
  let top: Record<string, unknown>;
  let members: Map<string, string | null>;
  try {
    const parsed = parseLossless(text, TOP_LEVEL);
    top = parsed.value as Record<string, unknown>;
    members = parsed.capturedMembers ? memberTexts(parsed.capturedMembers) : new Map();
  } catch (error) {
    if (error instanceof JsonDuplicateMemberError) throw new BodyError(`the JSON body cannot be read: ${JSON.stringify(error.member.slice(0, 60))} appears more than once; a gateway message carries each field once`);
    if (!(error instanceof JsonSyntaxError)) throw error;
    throw new BodyError(`the body is not valid JSON (${error.message})`);
  }
  if (!isObject(top)) throw new BodyError('the body must be a JSON object of fields');
  if (Object.hasOwn(top, 'code') && (Object.hasOwn(top, 'msg') || isObject(top.data))) {
    const data = isObject(top.data) ? parseLossless(text, 'data').capturedMembers : undefined;
    const unsigned = new Map([...members].filter(([name]) => name !== 'data' && name !== 'sign'));
    return { kind: 'response', format: 'json', fields: data ? memberTexts(data) : new Map(), unsigned, sign: top.sign, nested: [] };
  }
  const nested = Object.keys(top).filter((name) => typeof top[name] === 'object' && top[name] !== null);
  return { kind: 'fields', format: 'json', fields: members, unsigned: new Map(), sign: top.sign, nested };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What the signature of a message covers, in words. */
export function coverage(message: SignedMessage): string {
  return message.kind === 'response'
    ? `a response envelope (${message.format}): the members of data only, not code or msg`
    : `a request or notification (${message.format}): every field but sign`;
}
