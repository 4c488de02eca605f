import { endpoints, type OperationName } from '../endpoints.js';
import { GatewayValidationError } from '../errors.js';
import { toValidationIssues } from '../schemas/issues.js';
import { sign } from '../signing/sign.js';

/** What the client adds to every request. */
export interface RequestContext {
  readonly mchNo: string;
  readonly appId: string;
  readonly version: string;
  readonly secret: string;
  readonly reqTime: number;
}

/**
 * Validates the caller's parameters and builds the signed body: only the operation's own fields and the
 * common ones, `""` and `undefined` left out (the gateway does not sign them), integers as numbers.
 *
 * @throws {@link GatewayValidationError} listing every problem; nothing is sent then.
 */
export function encodeRequest(operation: OperationName, params: unknown, context: RequestContext): Record<string, string | number> {
  const endpoint = endpoints[operation];
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw new GatewayValidationError(`Invalid ${operation} parameters`, [{ path: [], message: 'must be an object of parameters' }], { operation });
  }
  const parsed = endpoint.params.safeParse(params, { reportInput: true });
  if (!parsed.success) {
    const known = Object.keys(endpoint.params.def.shape);
    throw new GatewayValidationError(`Invalid ${operation} parameters, nothing was sent`, toValidationIssues(parsed.error.issues, known), { operation });
  }
  if (!isThirteenDigitMillis(context.reqTime)) {
    throw new GatewayValidationError(`Invalid ${operation} request, nothing was sent`, [
      { path: ['reqTime'], message: 'the clock (option `now`) must return milliseconds since the epoch (13 digits)' },
    ], { operation });
  }
  const body: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(parsed.data as Record<string, unknown>)) {
    if (value === undefined || value === '') continue;
    body[key] = value as string | number;
  }
  body.version = context.version;
  body.signType = 'MD5';
  body.reqTime = String(context.reqTime);
  body.mchNo = context.mchNo;
  body.appId = context.appId;
  body.sign = sign(body, context.secret);
  return body;
}

function isThirteenDigitMillis(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 1e12 && value < 1e13;
}
