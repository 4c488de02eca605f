import { GatewayApiError } from '../operations/api-error.js';
import { successCodeAdvice } from '../kinds/refusals.js';
import { definitionOf, type OperationName } from '../operations/table.js';
import {
  GatewayEmptyResponseError,
  GatewayHttpStatusError,
  GatewayNonJsonResponseError,
  GatewayResponseContractError,
  GatewayResponseMismatchError,
  GatewayResponseValidationError,
  GatewaySignatureError,
  GatewayTruncatedResponseError,
  type ResponseErrorDetails,
} from '../errors/index.js';
import { JsonDuplicateMemberError, JsonSyntaxError, parseLossless, presentMemberTexts, type CapturedMembers, type LosslessParse } from '../protocol/json/lossless-json.js';
import { REPORT_INPUT, toValidationIssues } from '../protocol/schemas/issues.js';
import { judgeReadings, refusalMessage, type ReadingRefusal } from '../protocol/signing/one-reading.js';
import { isPersonalData, markAmbiguous, maskPersonal } from '../protocol/schemas/free-text.js';
import { withoutPersonalValues } from './personal-body.js';
import { objectFields } from '../protocol/schemas/introspect.js';
import { responseEnvelopeSchema, type ResponseEnvelope } from '../protocol/schemas/envelope.js';
import { caseTwinsReason } from '../protocol/signing/sign.js';
import { signatureVerdict } from '../protocol/signing/verify.js';
import type { HttpExchange } from '../transport/http.js';

/** How responses are judged. */
export interface ResponseContext {
  readonly secret: string;
  readonly successCode: number;
  readonly verifyResponses: boolean;
  /** The client's merchant application: a record that names another is not this client's. */
  readonly mchNo: string;
  readonly appId: string;
  /** What the request asked for, that the record must echo as typed values (e.g. `{ mchOrderNo: 'order-1001' }`). */
  readonly asked: Readonly<Record<string, string | number>>;
  /** The URL the request went to, for the message of an HTTP error status. */
  readonly url: string;
  /** The parameters sent: their personal values (an account, a name) are masked wherever an error would show them. */
  readonly sent?: Readonly<Record<string, unknown>> | undefined;
}

/** A decoded response: the typed `data`, and whether its signature was checked and matched. */
export interface DecodedResponse<T> {
  readonly data: T;
  readonly signatureVerified: boolean;
}

/**
 * Turns an HTTP exchange into the operation's typed `data`, or the {@link GatewayError} subclass that
 * says what was wrong with it. The signature is checked over each member's text as received, so decimals
 * such as `10.50` verify.
 */
export function decodeResponse<T>(operation: OperationName, exchange: HttpExchange, context: ResponseContext): DecodedResponse<T> {
  const { status, body, headers } = exchange;
  // Masked only for an error: an account or a name in the body, however cut or escaped, never reaches its excerpt.
  let shownBody: string | undefined;
  const details: ResponseErrorDetails = {
    operation,
    status,
    headers,
    get body() {
      return (shownBody ??= withoutPersonalValues(operation, body, context.sent));
    },
  };
  if (status < 200 || status > 299) {
    throw new GatewayHttpStatusError(`${operation} got HTTP ${status} from POST ${context.url}${statusAdvice(status)}.`, details);
  }
  if (!/\S/.test(body)) {
    const { emptyAnswer } = definitionOf(operation);
    throw new GatewayEmptyResponseError(`${operation} got an empty response body (HTTP ${status}).${emptyAnswer ? ` ${emptyAnswer}` : ''}`, details);
  }
  const parsed = parseExactly(operation, body, details);
  const { code, msg, sign, data } = readEnvelope(operation, parsed.value, details);
  if (code !== context.successCode) {
    // A refusal quoting the account sent (a channel's or a proxy's text) shows it masked: the error reaches logs.
    const shownMsg = withoutPersonalValues(operation, msg ?? '', context.sent);
    throw new GatewayApiError(code, shownMsg, { operation, advice: successCodeAdvice(code, shownMsg, context.successCode) });
  }
  const signed = signedMembers(parsed.capturedMembers);
  let signatureVerified = false;
  if (context.verifyResponses) {
    if (typeof sign !== 'string' || sign === '') {
      throw new GatewaySignatureError(`${operation} response has no sign: it cannot be trusted. (verifyResponses: false turns this check off, unsafely.)`, { operation });
    }
    const matches = signatureVerdict(signed, context.secret, sign);
    if (typeof matches !== 'boolean') {
      throw new GatewaySignatureError(`${operation} response cannot be trusted: ${caseTwinsReason(matches)}. The gateway sends no such response: treat it as altered.`, { operation });
    }
    if (!matches) {
      throw new GatewaySignatureError(`${operation} response signature does not match: check that the client's secret belongs to this mchNo/appId; otherwise the response was altered.`, { operation });
    }
    signatureVerified = true;
  }
  const { names, required, freeText } = objectFields(definitionOf(operation).result);
  const verdict = judgeReadings(signed, {
    known: names,
    required,
    freeText,
    // Another reading counts when this call could return it: the binding to the request and the client.
    accepts: (reading) => acceptsReading(reading, context),
  });
  if ('refused' in verdict) throw ambiguityError(operation, verdict.refused, details);
  const result = definitionOf(operation).result.safeParse(onlySigned(data ?? {}, signed), REPORT_INPUT);
  if (!result.success) {
    // An answer of the gateway's own, not a lost one: retrying gets it again, and a create is never repaired from it.
    const answered = signatureVerified ? 'answered success with a valid signature' : 'answered success (its signature unchecked: verifyResponses is off)';
    throw new GatewayResponseContractError(
      `${operation} was ${answered}, but its data breaks the documented shape, so it is not returned: a contract error between the gateway and this SDK (report it with the fields below; repeating the call gets the same answer)`,
      toValidationIssues(result.error.issues),
      { ...details, signatureVerified },
    );
  }
  checkBinding(operation, result.data as Readonly<Record<string, unknown>>, context, details);
  return { data: markAmbiguous(result.data, verdict.ambiguous) as T, signatureVerified };
}

/**
 * Whether this call could return a reading of the signed members: it names the ids asked for and the
 * client's merchant. Readings differ only in free text and unknown fields (`one-reading.ts`), so the shape
 * decides nothing between them; this check only ever accepts more than the checks of the answer itself,
 * which keeps the search sound.
 */
function acceptsReading(reading: ReadonlyMap<string, string>, context: ResponseContext): boolean {
  for (const [field, asked] of Object.entries(context.asked)) if (reading.get(field) !== String(asked)) return false;
  for (const field of ['mchNo', 'appId'] as const) {
    const found = reading.get(field);
    if (found !== undefined && found !== context[field]) return false;
  }
  return true;
}

/**
 * The members of `data` the signature covers, each as the text signed: `null`, `""` and a `sign` member
 * are not signed (the gateway drops them), so they are no part of what it vouches for.
 */
function signedMembers(members: CapturedMembers | undefined): Map<string, string> {
  if (!members) return new Map();
  const signed = presentMemberTexts(members);
  signed.delete('sign');
  for (const [key, text] of signed) if (text === '') signed.delete(key);
  return signed;
}

/** `data` without the members the signature does not cover; the object itself when it has none. */
function onlySigned(data: unknown, signed: ReadonlyMap<string, string>): unknown {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  const record = data as Record<string, unknown>;
  let unsigned = 0;
  for (const key in record) if (!signed.has(key)) unsigned++;
  if (unsigned === 0) return data;
  const copy: Record<string, unknown> = {};
  for (const [key, text] of signed) Object.defineProperty(copy, key, { value: key in record ? record[key] : text, enumerable: true, writable: true, configurable: true });
  return copy;
}

// The signature covers the members joined into one text: names must be identifiers and no value may hold
// `&name=` where the text can have that member, or the same signed text reads as other members (a
// payOrderId swallowing `&state=0&…`).
function ambiguityError(operation: OperationName, refusal: ReadingRefusal, details: ResponseErrorDetails): GatewayResponseValidationError {
  const { field, problem } = refusal;
  if (problem === 'name') {
    return new GatewayResponseValidationError(`${operation} response data cannot be trusted`, [{ path: ['data', field.slice(0, 40)], message: 'is not an identifier, which no gateway field name is' }], details);
  }
  return new GatewayResponseValidationError(`${operation} response is signed, but its signed text can be read as other fields, so it cannot be trusted`, [{ path: ['data', field], message: refusalMessage(refusal) }], details);
}

// A signature proves who signed, not what for: the record must be the one asked for, of this client.
function checkBinding(operation: OperationName, data: Readonly<Record<string, unknown>>, context: ResponseContext, details: ResponseErrorDetails): void {
  for (const [field, asked] of Object.entries(context.asked)) {
    if (data[field] === asked) continue;
    // A read given two ids answers the record of one of them: the other naming another record is the caller's mix-up.
    const echoed = Object.keys(context.asked).filter((name) => data[name] === context.asked[name]);
    if (echoed.length > 0 && definitionOf(operation).retry === 'read') {
      const given = echoed.map((name) => `${name} '${context.asked[name]}'`).join(' and ');
      throw new GatewayResponseMismatchError(
        `${operation} was given ${given} and ${field} '${asked}', which name different records: the signed record of ${given} has ${field} ${describe(data[field])}. Give one id, or ids of the same record; nothing is returned.`,
        { field, expected: String(asked), found: data[field] },
        details,
      );
    }
    // A receiver's account is named, never shown: the error's message and fields reach logs.
    const personal = isPersonalData(definitionOf(operation).result.def.shape[field]);
    const [expected, found] = personal ? [maskPersonal(asked), maskPersonal(data[field])] : [String(asked), data[field]];
    throw new GatewayResponseMismatchError(
      `${operation} asked for ${field} ${personal ? expected : `'${expected}'`}, but the signed response is for ${field} ${personal ? found : describe(found)}: it answers another request (a replayed or substituted response), so it is not returned. Check what stands between you and the gateway.`,
      { field, expected, found },
      details,
    );
  }
  for (const field of ['mchNo', 'appId'] as const) {
    const found = data[field];
    if (found !== undefined && found !== context[field]) {
      throw new GatewayResponseMismatchError(
        `${operation}: the signed response is a record of ${field} ${describe(found)}, not of this client's '${context[field]}', so it is not returned. Use one client per merchant application; otherwise the response was substituted.`,
        { field, expected: context[field], found },
        details,
      );
    }
  }
}

function describe(value: unknown): string {
  return value === undefined ? '(none)' : JSON.stringify(typeof value === 'string' ? value.slice(0, 80) : value);
}

function statusAdvice(status: number): string {
  if (status >= 500) return ' (the gateway or a proxy in front of it failed)';
  if (status !== 404 && status !== 405) return '';
  return ' (check baseUrl: the path was not found)';
}

function parseExactly(operation: OperationName, body: string, details: ResponseErrorDetails): LosslessParse {
  try {
    return parseLossless(body, 'data');
  } catch (error) {
    if (error instanceof JsonDuplicateMemberError) {
      throw new GatewayResponseValidationError(`${operation} response cannot be trusted`, [{ path: [error.member.slice(0, 40)], message: 'appears more than once in one object, so the body has more than one reading' }], details);
    }
    if (!(error instanceof JsonSyntaxError)) throw error;
    const looksLikeJson = /^\s*[[{]/.test(body);
    if (looksLikeJson && error.atEnd) {
      throw new GatewayTruncatedResponseError(`${operation} got a truncated JSON body (${error.message}); the connection was probably cut.`, { ...details, cause: error });
    }
    throw new GatewayNonJsonResponseError(`${operation} got a body that is not JSON (${error.message}), e.g. an HTML error page from a proxy.`, { ...details, cause: error });
  }
}

function readEnvelope(operation: OperationName, parsed: unknown, details: ResponseErrorDetails): ResponseEnvelope {
  const envelope = responseEnvelopeSchema.safeParse(withoutNulls(parsed), { reportInput: true });
  if (envelope.success) return envelope.data;
  throw new GatewayResponseValidationError(`${operation} got JSON that is not a gateway response envelope`, toValidationIssues(envelope.error.issues), details);
}

// The gateway may send `null` for an absent optional field; the signature already ignores nulls.
// Copies only what contains a null. Only the levels the schemas read are cleaned (the envelope, data,
// a list in data, its items, their members): a hostile body nested thousands deep cannot exhaust the stack.
const NULL_CLEANING_DEPTH = 6;

function withoutNulls(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null || depth >= NULL_CLEANING_DEPTH) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const member = withoutNulls(value[i], depth + 1);
      if (member !== value[i]) (copy ??= value.slice())[i] = member;
    }
    return copy ?? value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  let copy: Record<string, unknown> | undefined;
  for (const key in value) {
    const member = (value as Record<string, unknown>)[key];
    const cleaned = member === null ? undefined : withoutNulls(member, depth + 1);
    if (cleaned === member) continue;
    copy ??= { ...value };
    if (cleaned === undefined) delete copy[key];
    else Object.defineProperty(copy, key, { value: cleaned, enumerable: true, writable: true, configurable: true });
  }
  return copy ?? value;
}
