import { definitionOf, type OperationName } from '../operations/table.js';
import { COMMON_REQUEST_FIELDS, requiredWireFields, wireFieldSet } from '../operations/wire.js';
import { GatewayValidationError, type ValidationIssue } from '../errors/index.js';
import { parseInput } from '../protocol/schemas/parse.js';
import { objectFields } from '../protocol/schemas/introspect.js';
import { judgeReadings, refusalMessage } from '../protocol/signing/one-reading.js';
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
 * as `name=value&`, so a value holding `&name=` may let the same signature stand for other fields. The
 * request's readings are judged as a received record's are (`protocol/signing/one-reading.ts`): a value is
 * refused only when some reading of the request, with the gateway's field names, differs from it.
 */
function ambiguities(operation: OperationName, params: ValidParams): ValidationIssue[] {
  const fields = new Map<string, string>();
  for (const [key, value] of Object.entries(params)) fields.set(key, String(value));
  if (![...fields.values()].some((value) => value.includes('&'))) return [];
  // The common fields never hold '&', and where a fragment sorts depends on its name alone (names differ
  // before any value is compared): stand-in values place them exactly.
  for (const name of COMMON_REQUEST_FIELDS) if (name !== 'sign') fields.set(name, '1');
  // The gateway takes a reading that carries every field it requires.
  const verdict = judgeReadings(fields, { known: wireFieldSet(operation), required: requiredWireFields(operation), freeText: freeTextOf(operation), accepts: () => true });
  if ('refused' in verdict) {
    const { field, name, problem } = verdict.refused;
    const message =
      problem === 'boundary'
        ? `contains '&${name}=': the gateway signs fields joined as name=value&, so its signature could not tell this text from a field '${name}' (a record or notification of it could be re-split and forged). Remove the '&' or the '=', or encode the text (e.g. encodeURIComponent)`
        : `${refusalMessage(verdict.refused)}. Encode the text (e.g. encodeURIComponent)`;
    return [{ path: [field], message }];
  }
  return [...verdict.ambiguous.keys()]
    .filter((field) => Object.hasOwn(params, field))
    .map((field) => ({
      path: [field],
      message: `holds '&name=' where the gateway's signature could also be read as ${describeReadings(operation, verdict.ambiguous)}: the gateway could take other text than was sent. Remove the '&' or the '=', or encode that part (e.g. encodeURIComponent)`,
    }));
}

/** The operation's free-text parameters, as its schema marks them. */
const freeTextOf = (operation: OperationName): ReadonlySet<string> => objectFields(definitionOf(operation).params).freeText;

function describeReadings(operation: OperationName, ambiguous: ReadonlyMap<string, readonly string[]>): string {
  const freeText = freeTextOf(operation);
  const extra = [...ambiguous.keys()].filter((name) => !freeText.has(name));
  return extra.length > 0 ? `another field (${extra.map((name) => `'${name}'`).join(', ')})` : 'other text';
}

/**
 * Adds the common fields and the signature. Called once per request, not per attempt: the runner's retries
 * repeat its exact bytes, and a create sent again after a lookup proved it absent is signed anew with its
 * own `reqTime`.
 */
export function signRequest(operation: OperationName | 'channelUserUrl', params: ValidParams, context: RequestContext): Record<string, string | number> {
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
