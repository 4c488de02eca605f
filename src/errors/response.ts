import { GatewayError, type GatewayErrorOptions } from './gateway-error.js';
import { formatIssues, type ValidationIssue } from './validation.js';

/** How many characters of a response body an error keeps: enough to diagnose, never a whole page. */
export const BODY_EXCERPT_LIMIT = 512;

/**
 * What a {@link GatewayResponseError} knows about the HTTP response.
 *
 * @example
 * ```ts
 * import { GatewayHttpStatusError } from 'payment-gateway-sdk';
 *
 * // A test double of your payment service answers as an overloaded gateway would.
 * throw new GatewayHttpStatusError('query got HTTP 503 from the gateway.', { operation: 'query', status: 503, body: 'Service Unavailable', headers: new Headers({ 'retry-after': '2' }) });
 * ```
 */
export interface ResponseErrorDetails extends GatewayErrorOptions {
  /** The HTTP status code. */
  status: number;
  /** The response body, of which at most 512 characters are kept. */
  body: string;
  /** The response headers (for `Retry-After`). */
  headers?: Headers | undefined;
}

/**
 * Base of the errors for a response that could not be used. Carries the HTTP `status` and a bounded
 * `bodyExcerpt`. After a create such a response is ambiguous: the client looks the record up by your key.
 *
 * @example
 * ```ts
 * if (error instanceof GatewayResponseError) console.log(error.status, error.bodyExcerpt);
 * ```
 */
export class GatewayResponseError extends GatewayError {
  static override readonly kind: string = 'GatewayResponseError';
  /** The HTTP status code of the response. */
  readonly status: number;
  /** The start of the response body: at most 512 characters, and when cut, a note of the whole body's length. */
  readonly bodyExcerpt: string;
  /** The response headers, when known. */
  readonly headers: Headers | undefined;

  constructor(message: string, details: ResponseErrorDetails) {
    super(message, { operation: details.operation, cause: details.cause });
    this.status = details.status;
    this.bodyExcerpt = excerpt(details.body);
    this.headers = details.headers;
  }
}

/** Cuts a body to {@link BODY_EXCERPT_LIMIT} characters, marking the cut. */
export function excerpt(body: string): string {
  return body.length <= BODY_EXCERPT_LIMIT ? body : `${body.slice(0, BODY_EXCERPT_LIMIT)}… (${body.length} characters in all)`;
}

/**
 * An HTTP status other than 2xx (a proxy's 502, a 404 for a wrong `baseUrl`, a redirect, never followed).
 *
 * @example
 * ```ts
 * if (error instanceof GatewayHttpStatusError && error.status >= 500) scheduleRetry();
 * ```
 */
export class GatewayHttpStatusError extends GatewayResponseError {
  static override readonly kind: string = 'GatewayHttpStatusError';
}

/**
 * A 2xx with an empty body: what `close` answers when the channel refuses. Query the order.
 *
 * @example
 * ```ts
 * if (error instanceof GatewayEmptyResponseError) await client.query({ mchOrderNo });
 * ```
 */
export class GatewayEmptyResponseError extends GatewayResponseError {
  static override readonly kind: string = 'GatewayEmptyResponseError';
}

/**
 * A body that is not JSON (an HTML error page from a proxy).
 *
 * @example
 * ```ts
 * if (error instanceof GatewayNonJsonResponseError) console.log(error.bodyExcerpt);
 * ```
 */
export class GatewayNonJsonResponseError extends GatewayResponseError {
  static override readonly kind: string = 'GatewayNonJsonResponseError';
}

/**
 * JSON cut off before its end (a connection cut mid-response).
 *
 * @example
 * ```ts
 * if (error instanceof GatewayTruncatedResponseError) console.log('cut after', error.bodyExcerpt.length, 'characters');
 * ```
 */
export class GatewayTruncatedResponseError extends GatewayResponseError {
  static override readonly kind: string = 'GatewayTruncatedResponseError';
}

/**
 * A body larger than `maxResponseBytes` (counted after decompression): reading stopped and it was discarded.
 *
 * @example
 * ```ts
 * if (error instanceof GatewayResponseTooLargeError) console.warn(`gateway sent more than ${error.maxBytes} bytes`);
 * ```
 */
export class GatewayResponseTooLargeError extends GatewayResponseError {
  static override readonly kind: string = 'GatewayResponseTooLargeError';
  /** The limit that was passed, in bytes (the client's `maxResponseBytes`). */
  readonly maxBytes: number;

  constructor(message: string, maxBytes: number, details: ResponseErrorDetails) {
    super(message, details);
    this.maxBytes = maxBytes;
  }
}

/**
 * JSON of the wrong shape, or whose signed text has readings that differ in a field that is not free text;
 * `issues` lists each problem.
 *
 * @example
 * ```ts
 * if (error instanceof GatewayResponseValidationError) console.log(error.issues);
 * ```
 */
export class GatewayResponseValidationError extends GatewayResponseError {
  static override readonly kind: string = 'GatewayResponseValidationError';
  /** Every problem found in the response, each with its path. */
  readonly issues: readonly ValidationIssue[];

  constructor(message: string, issues: readonly ValidationIssue[], details: ResponseErrorDetails) {
    super(`${message}: ${formatIssues(issues)}`, details);
    this.issues = issues;
  }
}

/**
 * What a create's lookup found after its answer broke the contract ({@link GatewayResponseContractError}):
 * `found` with the record the gateway holds under your key (a payee's account and name masked, `***6789`: the error's
 * fields reach logs), `absent` when the lookup proved there is none, or `unknown` when the lookup could not tell
 * (then `error` says why).
 *
 * @example
 * ```ts
 * import { GatewayResponseContractError } from 'payment-gateway-sdk';
 *
 * try {
 *   await client.unifiedOrder(order);
 * } catch (error) {
 *   if (error instanceof GatewayResponseContractError && error.lookup?.outcome === 'found') keepForSupport(error.lookup.record);
 *   throw error;
 * }
 * ```
 */
export type ContractLookup =
  | { readonly outcome: 'found'; readonly record: Readonly<Record<string, unknown>> }
  | { readonly outcome: 'absent' }
  | { readonly outcome: 'unknown'; readonly error: unknown };

// Set by the class's static block: what withContractLookup calls to read the error's private parts.
let addLookup: (error: GatewayResponseContractError, lookup: ContractLookup | undefined, advice: string) => GatewayResponseContractError;

/**
 * The gateway answered success, signed (or with `verifyResponses: false`, unchecked), but its `data` is not the
 * documented shape: a broken contract between the gateway and this SDK, never a lost answer. Retrying gets the
 * same answer, so nothing is repeated. After a create, the record is looked up once by your key, so that you
 * learn whether it exists (`lookup`), but the call never resolves from it: **do not create it again under a new
 * key**; report the `issues` (the field, what was expected) to whoever runs the gateway, or upgrade the SDK.
 *
 * @example
 * ```ts
 * import { GatewayResponseContractError } from 'payment-gateway-sdk';
 *
 * try {
 *   await client.query({ mchOrderNo: 'order-1001' });
 * } catch (error) {
 *   if (error instanceof GatewayResponseContractError) alertOnCall(`${error.operation}: ${error.message}`);
 *   throw error;
 * }
 * ```
 */
export class GatewayResponseContractError extends GatewayResponseValidationError {
  static override readonly kind: string = 'GatewayResponseContractError';
  /** Whether the answer's signature was checked and matched (`false` only with `verifyResponses: false`). */
  readonly signatureVerified: boolean;
  /** For a create that has a lookup: what the lookup by your key found. */
  readonly lookup: ContractLookup | undefined;

  // What the error was made from, so that a create's lookup can add to it (withContractLookup): never enumerated.
  readonly #summary: string;
  readonly #details: ResponseErrorDetails;

  constructor(message: string, issues: readonly ValidationIssue[], details: ResponseErrorDetails & { readonly signatureVerified: boolean; readonly lookup?: ContractLookup | undefined }) {
    super(message, issues, details);
    this.signatureVerified = details.signatureVerified;
    this.lookup = details.lookup;
    this.#summary = message;
    this.#details = { operation: details.operation, status: details.status, body: details.body, headers: details.headers };
  }

  static {
    addLookup = (error, lookup, advice) =>
      new GatewayResponseContractError(`${error.#summary}. ${advice}`, error.issues, { ...error.#details, signatureVerified: error.signatureVerified, lookup, cause: error });
  }
}


/** The types of a contract error's parts: `GatewayResponseContractError.Lookup`. */
export declare namespace GatewayResponseContractError {
  export { type ContractLookup as Lookup };
}

/** The same contract error after a create: what its lookup found (if it has one), and what to do, added to the message. */
export function withContractLookup(error: GatewayResponseContractError, lookup: ContractLookup | undefined, advice: string): GatewayResponseContractError {
  return addLookup(error, lookup, advice);
}

/**
 * A genuine signed answer to another request: a record of another order, request id or merchant application
 * (a replayed or substituted response). Never returned; after a create, the record is looked up by your key.
 *
 * @example
 * ```ts
 * import { GatewayResponseMismatchError } from 'payment-gateway-sdk';
 *
 * try {
 *   await client.query({ mchOrderNo: 'order-1001' });
 * } catch (error) {
 *   if (error instanceof GatewayResponseMismatchError) alertSecurityTeam(`${error.field}: asked ${error.expected}, got ${String(error.found)}`);
 * }
 * ```
 */
export class GatewayResponseMismatchError extends GatewayResponseError {
  static override readonly kind: string = 'GatewayResponseMismatchError';
  /** The field that differs, e.g. `mchOrderNo` or `appId`. */
  readonly field: string;
  /** The value the request asked for (or the client's own `mchNo`/`appId`). */
  readonly expected: string;
  /** The value in the signed response. */
  readonly found: unknown;

  constructor(message: string, mismatch: { readonly field: string; readonly expected: string; readonly found: unknown }, details: ResponseErrorDetails) {
    super(message, details);
    this.field = mismatch.field;
    this.expected = mismatch.expected;
    this.found = mismatch.found;
  }
}
