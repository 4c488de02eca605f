import { endpoints, type OperationName } from '../endpoints.js';
import { GatewayValidationError } from '../errors.js';
import { REPORT_INPUT, toValidationIssues } from '../internal/schemas/issues.js';
import { sign } from '../signing/sign.js';

/** What the client adds to every request. */
export interface RequestContext {
  readonly mchNo: string;
  readonly appId: string;
  readonly version: string;
  readonly secret: string;
  readonly reqTime: number;
}

/** Validated parameters, ready to sign: only the operation's own fields, `""` and `undefined` left out. */
export type ValidParams = Readonly<Record<string, string | number>>;

/**
 * Validates the caller's parameters for an operation.
 *
 * @throws {@link GatewayValidationError} listing every problem; nothing is sent then.
 */
export function validateParams(operation: OperationName, params: unknown): ValidParams {
  const endpoint = endpoints[operation];
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw new GatewayValidationError(`Invalid ${operation} parameters`, [{ path: [], message: 'must be an object of parameters' }], { operation });
  }
  const parsed = endpoint.params.safeParse(params, REPORT_INPUT);
  if (!parsed.success) {
    const known = Object.keys(endpoint.params.def.shape);
    throw new GatewayValidationError(`Invalid ${operation} parameters, nothing was sent`, toValidationIssues(parsed.error.issues, { keys: known, of: 'request' }), { operation });
  }
  const valid: Record<string, string | number> = {};
  const illFormed: string[] = [];
  for (const [key, value] of Object.entries(parsed.data as Record<string, unknown>)) {
    if (value === undefined || value === '') continue;
    // A lone surrogate has no UTF-8 form: the gateway (Java) would sign '?' where we send U+FFFD.
    if (typeof value === 'string' && !value.isWellFormed()) illFormed.push(key);
    valid[key] = value as string | number;
  }
  if (illFormed.length > 0) {
    const message = 'contains a lone surrogate (text cut inside an emoji?): send well-formed text, e.g. cut with Array.from(text).slice(0, n).join("")';
    throw new GatewayValidationError(`Invalid ${operation} parameters, nothing was sent`, illFormed.map((key) => ({ path: [key], message })), { operation });
  }
  return valid;
}

/**
 * Adds the common fields and the signature. Called once per request sent: ky's retries repeat its exact
 * bytes, and a create sent again after reconciliation is signed anew with its own `reqTime`.
 */
export function signRequest(operation: OperationName, params: ValidParams, context: RequestContext): Record<string, string | number> {
  if (!isThirteenDigitMillis(context.reqTime)) {
    throw new GatewayValidationError(`Invalid ${operation} request, nothing was sent`, [
      { path: ['reqTime'], message: 'the clock (option `now`) must return milliseconds since the epoch (13 digits)' },
    ], { operation });
  }
  const body: Record<string, string | number> = {
    ...params,
    version: context.version,
    signType: 'MD5',
    reqTime: String(context.reqTime),
    mchNo: context.mchNo,
    appId: context.appId,
  };
  body.sign = sign(body, context.secret);
  return body;
}

function isThirteenDigitMillis(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 1e12 && value < 1e13;
}
