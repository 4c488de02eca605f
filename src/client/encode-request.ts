import { definitionOf, type OperationName } from '../operations/table.js';
import { resultFields, wireFields } from '../operations/wire.js';
import { GatewayValidationError, type ValidationIssue } from '../errors/index.js';
import { parseInput } from '../protocol/schemas/parse.js';
import { fieldBoundaryIn, findAmbiguity, namedBoundaryIn } from '../protocol/signing/one-reading.js';
import { sign } from '../protocol/signing/sign.js';

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
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw new GatewayValidationError(`Invalid ${operation} parameters`, [{ path: [], message: 'must be an object of parameters' }], { operation });
  }
  const summary = `Invalid ${operation} parameters, nothing was sent`;
  const parsed = parseInput(definitionOf(operation).params, params, summary, 'request', operation);
  const valid: Record<string, string | number> = {};
  const illFormed: string[] = [];
  for (const [key, value] of Object.entries(parsed)) {
    if (value === undefined || value === '') continue;
    // A lone surrogate has no UTF-8 form: the gateway (Java) would sign '?' where we send U+FFFD.
    if (typeof value === 'string' && !value.isWellFormed()) illFormed.push(key);
    valid[key] = value as string | number;
  }
  if (illFormed.length > 0) {
    const message = 'contains a lone surrogate (text cut inside an emoji?): send well-formed text, e.g. cut with Array.from(text).slice(0, n).join("")';
    throw new GatewayValidationError(summary, illFormed.map((key) => ({ path: [key], message })), { operation });
  }
  const ambiguous = ambiguities(operation, valid);
  if (ambiguous.length > 0) throw new GatewayValidationError(summary, ambiguous, { operation });
  return valid;
}

/**
 * Text the gateway's signature could not tell apart from a field boundary: the gateway signs fields joined
 * as `name=value&`, so a value holding `&name=` can be re-split into other fields with the same signature.
 * Refused at the source, so that no request, and no record or notification of it, has two readings.
 */
function ambiguities(operation: OperationName, params: ValidParams): ValidationIssue[] {
  const { urlParams = [], reconcile } = definitionOf(operation);
  const issues: ValidationIssue[] = [];
  let names: ReadonlySet<string> | undefined;
  for (const [key, value] of Object.entries(params)) {
    if (typeof value !== 'string' || !value.includes('&')) continue;
    if (urlParams.includes(key)) {
      const name = namedBoundaryIn(value, (names ??= new Set(wireFields(operation))));
      if (name !== undefined) issues.push({ path: [key], message: `contains '&${name}=', the name of a field of this request: the gateway could read the text after it as that field. Encode that part of the URL` });
    } else {
      const name = fieldBoundaryIn(value);
      if (name !== undefined) {
        issues.push({
          path: [key],
          message: `contains '&${name}=': the gateway signs fields joined as name=value&, so its signature could not tell this text from a field '${name}' (a record or notification of it could be re-split and forged). Remove the '&' or the '=', or encode the text (e.g. encodeURIComponent)`,
        });
      }
    }
  }
  // The record a create makes is read back (lookups, notifications) with its URL field judged by the sort.
  const lookup = reconcile && definitionOf(reconcile.lookup);
  if (reconcile && issues.length === 0 && lookup?.resultUrlField !== undefined && typeof params[lookup.resultUrlField] === 'string') {
    // The record's own fields decide where the URL field's fragment sorts; values not sent stand in as '0'.
    const record = new Map<string, string>();
    for (const field of resultFields(reconcile.lookup)) record.set(field, String(params[field] ?? '0'));
    const ambiguity = findAmbiguity(record, lookup.resultUrlField);
    if (ambiguity) {
      issues.push({
        path: [ambiguity.field],
        message: `contains '&${ambiguity.name}=': the record this request makes (as ${reconcile.lookup} returns it) could be read with a field '${ambiguity.name}'. Rename or encode that query parameter`,
      });
    }
  }
  return issues;
}

/**
 * Adds the common fields and the signature. Called once per request, not per attempt: the runner's retries
 * repeat its exact bytes, and a create sent again after a lookup proved it absent is signed anew with its
 * own `reqTime`.
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
