import { successCodeAdvice } from '../api-error-reason.js';
import { endpoints, type OperationName } from '../endpoints.js';
import {
  GatewayApiError,
  GatewayEmptyResponseError,
  GatewayHttpStatusError,
  GatewayNonJsonResponseError,
  GatewayResponseValidationError,
  GatewaySignatureError,
  GatewayTruncatedResponseError,
  type ResponseErrorDetails,
} from '../errors.js';
import { JsonSyntaxError, parseLossless, type LosslessParse } from '../internal/json/lossless-json.js';
import { REPORT_INPUT, toValidationIssues } from '../internal/schemas/issues.js';
import { responseEnvelopeSchema, type ResponseEnvelope } from '../schemas/envelope.js';
import { verifySign } from '../signing/verify.js';
import type { HttpExchange } from '../transport/http.js';

const EMPTY: ReadonlyMap<string, string> = new Map();

/** How responses are judged. */
export interface ResponseContext {
  readonly secret: string;
  readonly successCode: number;
  readonly verifyResponses: boolean;
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
  const details = { operation, status, body, headers };
  if (status < 200 || status > 299) {
    throw new GatewayHttpStatusError(`${operation} got HTTP ${status} from the gateway${status >= 500 ? ' (the gateway or a proxy in front of it failed)' : status === 404 || status === 405 ? ' (check baseUrl: the path was not found)' : ''}.`, details);
  }
  if (!/\S/.test(body)) {
    throw new GatewayEmptyResponseError(
      `${operation} got an empty response body (HTTP ${status}).${operation === 'close' ? ' The gateway does this when the channel refuses the close: query the order to learn its state.' : ''}`,
      details,
    );
  }
  const parsed = parseExactly(operation, body, details);
  const { code, msg, sign, data } = readEnvelope(operation, parsed.value, details);
  if (code !== context.successCode) {
    throw new GatewayApiError(code, msg ?? '', { operation, advice: successCodeAdvice(code, msg ?? '', context.successCode) });
  }
  let signatureVerified = false;
  if (context.verifyResponses) {
    if (typeof sign !== 'string' || sign === '') {
      throw new GatewaySignatureError(`${operation} response has no sign: it cannot be trusted. (verifyResponses: false turns this check off, unsafely.)`, { operation });
    }
    if (!verifySign(parsed.capturedMembers ?? EMPTY, context.secret, sign)) {
      throw new GatewaySignatureError(`${operation} response signature does not match: check that the client's secret belongs to this mchNo/appId; otherwise the response was altered.`, { operation });
    }
    signatureVerified = true;
  }
  const result = endpoints[operation].result.safeParse(data ?? {}, REPORT_INPUT);
  if (!result.success) {
    throw new GatewayResponseValidationError(`${operation} response data is not the documented shape`, toValidationIssues(result.error.issues), details);
  }
  return { data: result.data as T, signatureVerified };
}

function parseExactly(operation: OperationName, body: string, details: ResponseErrorDetails): LosslessParse {
  try {
    return parseLossless(body, 'data');
  } catch (error) {
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
