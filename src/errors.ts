/**
 * Every failure the SDK reports is a {@link GatewayError}. The subclasses say which layer failed, so a
 * caller can decide what to do: fix the input, retry, reconcile, or alert.
 *
 * `instanceof` works across package copies (an ESM and a CJS copy in one process, or two versions): each
 * error carries a `Symbol.for` brand listing its kinds, and `Symbol.hasInstance` checks that brand.
 *
 * @module
 */

import { apiErrorReason, REASON_ADVICE, type GatewayApiErrorReason } from './api-error-reason.js';
import type { OperationName } from './endpoints.js';
import type { PayOrderState } from './schemas/enums.js';
import type { PayOrder } from './schemas/order.js';

const BRAND = Symbol.for('payment-gateway-sdk.error');
/** How many characters of a response body an error keeps: enough to diagnose, never a whole page. */
export const BODY_EXCERPT_LIMIT = 512;

type Branded = { [BRAND]?: readonly string[] };

/**
 * Options shared by every {@link GatewayError} constructor.
 *
 * @example
 * ```ts
 * import { GatewayConnectionError, type GatewayErrorOptions } from 'payment-gateway-sdk';
 *
 * // A test double of your payment service fails the way the real client would.
 * const options: GatewayErrorOptions = { operation: 'query', cause: new Error('socket hang up') };
 * throw new GatewayConnectionError('query could not reach the gateway (ECONNRESET).', { ...options, mayHaveReachedGateway: true });
 * ```
 */
export interface GatewayErrorOptions {
  /** The operation that failed (`unifiedOrder`, `query`, ...), when there is one. */
  operation?: OperationName | undefined;
  /** The underlying error, when there is one. */
  cause?: unknown;
}

/**
 * The base class of every error this SDK throws.
 *
 * @example
 * ```ts
 * import { GatewayError, isGatewayError } from 'payment-gateway-sdk';
 *
 * try {
 *   await client.query({ mchOrderNo: 'order-1' });
 * } catch (error) {
 *   if (error instanceof GatewayError) console.error(error.name, error.operation, error.message);
 *   // or, across bundles and realms:
 *   if (isGatewayError(error)) console.error(error.message);
 * }
 * ```
 */
export class GatewayError extends Error {
  /** Stable kind of this class; survives minification, unlike `constructor.name`. */
  static readonly kind: string = 'GatewayError';
  /** The operation that failed, when the error belongs to one. */
  readonly operation: OperationName | undefined;

  constructor(message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.operation = options.operation;
    const kinds: string[] = [];
    for (let c = new.target as unknown as { kind?: string } | null; c && Object.hasOwn(c, 'kind'); c = Object.getPrototypeOf(c)) {
      kinds.push(c.kind as string);
    }
    Object.defineProperty(this, BRAND, { value: Object.freeze(kinds) });
    this.name = kinds[0] ?? 'GatewayError';
  }

  /** `instanceof` by brand, so errors from another copy of the package are recognised too. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== 'object' || value === null) return false;
    const kinds = (value as Branded)[BRAND];
    return Array.isArray(kinds) && kinds.includes(this.kind);
  }
}

/**
 * Type guard for {@link GatewayError} that works across package copies and realms.
 *
 * @example
 * ```ts
 * if (isGatewayError(error)) console.log(error.operation);
 * ```
 */
export function isGatewayError(value: unknown): value is GatewayError {
  return value instanceof GatewayError;
}

/**
 * One problem found in the caller's input.
 *
 * @example
 * ```ts
 * import { GatewayValidationError, type ValidationIssue } from 'payment-gateway-sdk';
 *
 * // Show each problem next to its form field.
 * const fieldErrors = (issues: readonly ValidationIssue[]): Record<string, string> =>
 *   Object.fromEntries(issues.map((issue) => [issue.path.join('.'), issue.message]));
 *
 * if (error instanceof GatewayValidationError) return { status: 422, errors: fieldErrors(error.issues) };
 * ```
 */
export interface ValidationIssue {
  /** Where the problem is, e.g. `['channelExtra', 'authCode']`; empty for the whole input. */
  readonly path: readonly (string | number)[];
  /** What is wrong and what to do. */
  readonly message: string;
}

/**
 * The input was invalid, so nothing was sent. `issues` lists every problem with its field path.
 * Also used for invalid client options and for notifications that fail their checks.
 *
 * @example
 * ```ts
 * try {
 *   await client.unifiedOrder({ mchOrderNo: 'o-1', wayCode: 'QR_CASHIER', amount: 0, currency: 'USD', subject: 's', body: 'b' });
 * } catch (error) {
 *   if (error instanceof GatewayValidationError) console.log(error.issues); // [{ path: ['amount'], message: ... }]
 * }
 * ```
 */
export class GatewayValidationError extends GatewayError {
  static override readonly kind: string = 'GatewayValidationError';
  /** Every problem found, each with its field path. */
  readonly issues: readonly ValidationIssue[];

  constructor(summary: string, issues: readonly ValidationIssue[], options: GatewayErrorOptions = {}) {
    super(`${summary}: ${issues.map(formatIssue).join('; ')}`, options);
    this.issues = issues;
  }
}

function formatIssue(issue: ValidationIssue): string {
  return issue.path.length === 0 ? issue.message : `${issue.path.join('.')}: ${issue.message}`;
}

/**
 * The gateway answered with a business error (`code` other than the success code), for example a
 * duplicate `mchOrderNo` (code 9999) or a parameter error (code 11). `reason` says what it means, whatever
 * language the gateway answered in; the message leads with what to do and keeps the gateway's `msg` verbatim.
 *
 * @example
 * ```ts
 * try {
 *   await client.close({ mchOrderNo: 'order-1' });
 * } catch (error) {
 *   if (error instanceof GatewayApiError && error.reason === 'order_not_closable') return client.query({ mchOrderNo: 'order-1' });
 *   throw error;
 * }
 * ```
 */
export class GatewayApiError extends GatewayError {
  static override readonly kind: string = 'GatewayApiError';
  /** The gateway's business code (9999 business error, 10 system, 11 parameter, 12 database, ...). */
  readonly code: number;
  /** The gateway's message, as sent (often Chinese on the reference server). */
  readonly msg: string;
  /** What the refusal means, read from `code` and `msg` (Chinese or English): see {@link GatewayApiErrorReason}. */
  readonly reason: GatewayApiErrorReason;

  /**
   * @param options - `advice` replaces the leading sentence that `reason` would give (e.g. a wrong `successCode`)
   */
  constructor(code: number, msg: string, options: GatewayErrorOptions & { advice?: string | undefined } = {}) {
    const reason = apiErrorReason(code, msg);
    const advice = options.advice ?? REASON_ADVICE[reason];
    super(`${advice[0]?.toUpperCase()}${advice.slice(1)}. The gateway answered ${options.operation ?? 'the request'} with code ${code}: ${msg}`, options);
    this.code = code;
    this.msg = msg;
    this.reason = reason;
  }
}

/**
 * A response's signature was missing or did not match: the response cannot be trusted and its data is
 * not returned. Check that the client's `secret` is the one configured for this merchant application;
 * if it is, treat the response as tampered with.
 *
 * @example
 * ```ts
 * try {
 *   await client.query({ payOrderId });
 * } catch (error) {
 *   if (error instanceof GatewaySignatureError) alertSecurityTeam(error.message);
 * }
 * ```
 */
export class GatewaySignatureError extends GatewayError {
  static override readonly kind: string = 'GatewaySignatureError';
}

/**
 * What a {@link GatewayResponseError} knows about the HTTP response.
 *
 * @example
 * ```ts
 * import { GatewayHttpStatusError, type ResponseErrorDetails } from 'payment-gateway-sdk';
 *
 * // A test double of your payment service answers as an overloaded gateway would.
 * const details: ResponseErrorDetails = { operation: 'query', status: 503, body: 'Service Unavailable', headers: new Headers({ 'retry-after': '2' }) };
 * throw new GatewayHttpStatusError('query got HTTP 503 from the gateway.', details);
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
 * Base class of the errors for a response that could not be used (wrong HTTP status, empty, not JSON,
 * truncated, or not the expected shape). Carries the HTTP `status` and a bounded `bodyExcerpt`.
 *
 * A response error after a create (`unifiedOrder`, `settleRequest`, `settleAddressApply`) is ambiguous:
 * the gateway may have acted on the request. Look the record up by your own key before sending again.
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
 * The gateway answered with an HTTP status other than 2xx (for example a 502 from a proxy, or the
 * framework's 404 for a wrong path). Check `baseUrl`; for 5xx, the gateway or a proxy in front of it failed.
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
 * The gateway answered 2xx with an empty body. `close` does this when the channel call fails: query the
 * order to learn its state.
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
 * The body was not JSON at all (for example an HTML error page from a proxy).
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
 * The body started as JSON but ended early (a connection cut mid-response).
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
 * The response body was larger than `maxResponseBytes` (counted after decompression), so reading stopped
 * and the body was discarded. A genuine gateway answer is a few kilobytes: check `baseUrl` (a proxy's
 * page?), or raise `maxResponseBytes` if your deployment really sends more.
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
 * The body was JSON but not the shape the operation returns (a field missing, of the wrong type, an
 * unsafe integer, an unknown order state). `issues` lists each problem with its path.
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
    super(`${message}: ${issues.map(formatIssue).join('; ')}`, details);
    this.issues = issues;
  }
}

/**
 * A response that is genuine (its signature verified) but answers another request: a record for another
 * order, request id or merchant application than the one asked for. A hostile network or a replaying
 * proxy can hand the client another genuine signed answer; the record is never returned. `field` names
 * what differs, with the value asked for and the value found. After a create, the client looks the record
 * up by your key instead (an ambiguous outcome); after a read, check the network path to the gateway.
 *
 * @example
 * ```ts
 * import { GatewayResponseMismatchError } from 'payment-gateway-sdk';
 *
 * try {
 *   await client.query({ mchOrderNo: 'order-1001' });
 * } catch (error) {
 *   if (error instanceof GatewayResponseMismatchError) alertSecurityTeam(`${error.field}: asked ${error.expected}, got ${error.found}`);
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

/**
 * The request could not be delivered or its response not received (connection refused, reset, DNS).
 * For a create this is ambiguous when the request may have been sent: reconcile by your own key.
 *
 * @example
 * ```ts
 * if (error instanceof GatewayConnectionError) console.log(error.cause);
 * ```
 */
export class GatewayConnectionError extends GatewayError {
  static override readonly kind: string = 'GatewayConnectionError';
  /**
   * `false` when the failure proves the request never reached the gateway (connection refused, DNS
   * failure); `true` when it may have been received and processed (a reset after sending).
   */
  readonly mayHaveReachedGateway: boolean;

  constructor(message: string, options: GatewayErrorOptions & { mayHaveReachedGateway: boolean }) {
    super(message, options);
    this.mayHaveReachedGateway = options.mayHaveReachedGateway;
  }
}

/**
 * No complete response arrived within the `timeout`. The gateway may still have acted on the request.
 *
 * @example
 * ```ts
 * const client = new GatewayClient({ ...credentials, timeout: 5_000 });
 * // a slow answer rejects with GatewayTimeoutError after 5 s
 * ```
 */
export class GatewayTimeoutError extends GatewayError {
  static override readonly kind: string = 'GatewayTimeoutError';
}

/**
 * The caller's `AbortSignal` aborted the call.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const pending = client.query({ mchOrderNo }, { signal: controller.signal });
 * controller.abort(); // pending rejects with GatewayAbortError
 * ```
 */
export class GatewayAbortError extends GatewayError {
  static override readonly kind: string = 'GatewayAbortError';
}

/**
 * The merchant key that identifies a record a create may have made, from
 * {@link GatewayOutcomeUnknownError.key}.
 *
 * @example
 * ```ts
 * import type { OperationName, ReconcileKey } from 'payment-gateway-sdk';
 *
 * // Run later, e.g. from a queue, to learn what became of the create.
 * async function reconcile(operation: OperationName | undefined, key: ReconcileKey) {
 *   if (operation === 'unifiedOrder') return client.query({ mchOrderNo: key.value });
 *   if (operation === 'settleRequest') return client.settleRequestGet({ requestId: key.value });
 *   // settleAddressApply has no lookup: send it again with the same requestId; the gateway refuses a duplicate.
 *   return undefined;
 * }
 * // with error.operation and error.key of a GatewayOutcomeUnknownError
 * ```
 */
export interface ReconcileKey {
  /** The parameter name: `mchOrderNo` or `requestId`. */
  readonly name: string;
  /** Its value in the failed call. */
  readonly value: string;
}

/**
 * A create (`unifiedOrder`, `settleRequest`, `settleAddressApply`) failed in a way that does not tell
 * whether the gateway acted on it, and the SDK could not find out before the deadline. Do **not** send a
 * new record: look this one up later by `key` (`query({ mchOrderNo })` or `settleRequestGet({ requestId })`),
 * or call the same operation again with the same key, which the gateway refuses if it already exists.
 *
 * @example
 * ```ts
 * try {
 *   await client.unifiedOrder(order);
 * } catch (error) {
 *   if (error instanceof GatewayOutcomeUnknownError) {
 *     await reconcileLater(error.operation, error.key.name, error.key.value);
 *   }
 * }
 * ```
 */
export class GatewayOutcomeUnknownError extends GatewayError {
  static override readonly kind: string = 'GatewayOutcomeUnknownError';
  /** The key to reconcile with. */
  readonly key: ReconcileKey;

  constructor(message: string, key: ReconcileKey, options: GatewayErrorOptions) {
    super(message, options);
    this.key = key;
  }
}

/**
 * {@link GatewayClient.waitForOrder} ran out of its `timeout` before the order reached the state it waited
 * for. `lastOrder` is the order as last read (`undefined` when no query succeeded; `cause` is then the last
 * failure). Nothing is wrong with the order: show the payment as pending and rely on the notification or a
 * later query.
 *
 * @example
 * ```ts
 * try {
 *   return await client.waitForOrder({ mchOrderNo }, { timeout: 10_000 });
 * } catch (error) {
 *   if (error instanceof GatewayWaitTimeoutError) return showPending(mchOrderNo, error.lastOrder?.state);
 *   throw error;
 * }
 * ```
 */
export class GatewayWaitTimeoutError extends GatewayTimeoutError {
  static override readonly kind: string = 'GatewayWaitTimeoutError';
  /** The order as last read, or `undefined` when no query succeeded. */
  readonly lastOrder: PayOrder | undefined;

  constructor(message: string, lastOrder: PayOrder | undefined, options: GatewayErrorOptions = {}) {
    super(message, options);
    this.lastOrder = lastOrder;
  }

  /** The state last seen, or `undefined` when no query succeeded. */
  get lastState(): PayOrderState | undefined {
    return this.lastOrder?.state;
  }
}

/**
 * One field in which the record found by a reconciliation lookup differs from the create that was sent,
 * from {@link GatewayReconciliationMismatchError.differences}.
 *
 * @example
 * ```ts
 * import type { ReconciliationDifference } from 'payment-gateway-sdk';
 *
 * const line = ({ field, expected, found }: ReconciliationDifference) => `${field}: sent ${String(expected)}, gateway has ${String(found)}`;
 * ```
 */
export interface ReconciliationDifference {
  /** The field, e.g. `amount`. */
  readonly field: string;
  /** The value the create sent. */
  readonly expected: unknown;
  /** The value of the record found. */
  readonly found: unknown;
}

/**
 * A create (`unifiedOrder`, `settleRequest`) failed ambiguously, and the lookup by your key found a
 * record that is **not** the one you asked for (another amount, currency, way code, token or address):
 * the key was already used, e.g. by an old order. The record is never returned as your result. Check
 * the existing record, and send this one with a new key.
 *
 * @example
 * ```ts
 * import { GatewayReconciliationMismatchError } from 'payment-gateway-sdk';
 *
 * try {
 *   await client.unifiedOrder({ mchOrderNo: 'order-1001', amount: 500000, currency: 'USD', wayCode: 'QR_CASHIER', subject: 'Sofa', body: 'Sofa' });
 * } catch (error) {
 *   if (error instanceof GatewayReconciliationMismatchError) {
 *     log.error({ key: error.key, differences: error.differences }, 'mchOrderNo already used by another order');
 *   }
 * }
 * ```
 */
export class GatewayReconciliationMismatchError extends GatewayError {
  static override readonly kind: string = 'GatewayReconciliationMismatchError';
  /** The key the lookup used. */
  readonly key: ReconcileKey;
  /** Each field that differs, with the value sent and the value found. */
  readonly differences: readonly ReconciliationDifference[];

  constructor(key: ReconcileKey, differences: readonly ReconciliationDifference[], options: GatewayErrorOptions = {}) {
    const listed = differences.map((d) => `${d.field}: sent ${JSON.stringify(d.expected)}, found ${JSON.stringify(d.found)}`).join('; ');
    super(
      `${options.operation ?? 'The create'} failed without a clear outcome, and the record the gateway has under ${key.name} '${key.value}' is not this request (${listed}), ` +
        `so it is not returned. The ${key.name} was already used: check that record, and send this one with a new ${key.name}.`,
      options,
    );
    this.key = key;
    this.differences = differences;
  }
}

/**
 * A notification body was larger than `maxBodyBytes` (64 KiB by default; a genuine one is well under
 * 2 KiB), so reading stopped there: a stream or `Request` is cancelled, not read to its end. A
 * {@link GatewayValidationError}, so handlers that answer those with 400 keep working; answer 413 if you
 * tell them apart, and do not act on the notification.
 *
 * @example
 * ```ts
 * import { GatewayPayloadTooLargeError, verifyNotification } from 'payment-gateway-sdk';
 *
 * try {
 *   await verifyNotification(request, { ...credentials, maxBodyBytes: 16_384 });
 * } catch (error) {
 *   if (error instanceof GatewayPayloadTooLargeError) return new Response('too large', { status: 413 });
 *   throw error;
 * }
 * ```
 */
export class GatewayPayloadTooLargeError extends GatewayValidationError {
  static override readonly kind: string = 'GatewayPayloadTooLargeError';
  /** The limit that was passed, in bytes. */
  readonly maxBytes: number;

  constructor(maxBytes: number) {
    super('Cannot read the notification', [
      { path: [], message: `the body is larger than maxBodyBytes (${maxBytes} bytes), so reading stopped. A genuine notification is far smaller: do not act on it (answer 413)` },
    ]);
    this.maxBytes = maxBytes;
  }
}
