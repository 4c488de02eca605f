/**
 * Reads a request as the reference server does, independently of the SDK's client: the raw body (JSON,
 * or a form), then only the fields the operation knows (from the endpoint table), bound to their types,
 * checked, authenticated and signature-verified. A field the operation does not know is dropped before
 * signing, so a client that signed an extra field fails with `验签失败`, as on the real server.
 *
 * @module
 */
import { definitionOf, operations, type OperationName } from '../operations/table.js';
import { COMMON_REQUEST_FIELDS, wireFields } from '../operations/wire.js';
import { sign } from '../protocol/signing/sign.js';
import { signaturesEqual } from '../protocol/signing/verify.js';
import type { MerchantRegistry, MockMerchant } from './merchants.js';
import { MESSAGES, refuse, refuseParameter } from './refusals.js';
import { MAX_OPERATION_BODY_BYTES, readBodyText, type BodyTooLarge } from './request-body.js';

/** A request field's binding: whether the operation requires it and whether it is an integer. */
interface FieldSpec {
  readonly required: boolean;
  readonly integer: boolean;
}

/** What the table says about one operation's wire fields. */
export interface OperationSpec {
  readonly operation: OperationName;
  readonly path: string;
  readonly fields: ReadonlyMap<string, FieldSpec>;
}

/** A bound, authenticated request: the merchant application and the operation's own fields. */
export interface AcceptedRequest {
  readonly app: MockMerchant;
  /** The operation's own fields that have a value (`""` counts as not given, as in the reference's checks). */
  readonly params: Readonly<Record<string, string | number>>;
  /** Fields sent as `""`: the reference stores them, so queries and notifications echo them (unsigned). */
  readonly blank: ReadonlySet<string>;
}

/** The six operations, by path, with their field bindings derived from the endpoint table. */
export const OPERATION_SPECS: ReadonlyMap<string, OperationSpec> = new Map(
  (Object.keys(operations) as OperationName[]).map((operation) => {
    const shape = definitionOf(operation).params.def.shape;
    const fields = new Map<string, FieldSpec>();
    for (const name of wireFields(operation)) {
      const schema = shape[name];
      fields.set(name, schema ? bindingOf(schema._zod.def as unknown as ZodDef) : { required: true, integer: false });
    }
    return [operations[operation].path, { operation, path: operations[operation].path, fields }];
  }),
);

// The few parts of zod's schema definitions needed to see optionality and integer fields.
interface ZodDef {
  type: string;
  innerType?: { _zod: { def: ZodDef } };
  in?: { _zod: { def: ZodDef } };
  entries?: Record<string, unknown>;
}

function bindingOf(def: ZodDef): FieldSpec {
  let required = true;
  while ((def.type === 'optional' || def.type === 'default' || def.type === 'nullable') && def.innerType) {
    required = false;
    def = def.innerType._zod.def;
  }
  if (def.type === 'pipe' && def.in) def = def.in._zod.def;
  const integer = def.type === 'number' || (def.type === 'enum' && Object.values(def.entries ?? {}).every((v) => typeof v === 'number'));
  return { required, integer };
}

/**
 * Reads the body: JSON, or a form when the request says so (the reference parses both).
 *
 * @throws {@link BodyTooLarge} past {@link MAX_OPERATION_BODY_BYTES}
 */
export async function readBody(request: Request): Promise<Record<string, unknown>> {
  const text = await readBodyText(request, MAX_OPERATION_BODY_BYTES);
  if (/application\/x-www-form-urlencoded/i.test(request.headers.get('content-type') ?? '')) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw refuseParameter('请求体不是合法的JSON', 'the body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw refuseParameter('请求体必须是JSON对象', 'the body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/**
 * Binds, checks, authenticates and verifies a request body for an operation.
 *
 * @throws {@link Refusal} with the reference server's code and text
 */
export function acceptRequest(spec: OperationSpec, body: Readonly<Record<string, unknown>>, merchants: MerchantRegistry): AcceptedRequest {
  const bound = bind(spec, body);
  for (const [name, field] of spec.fields) {
    const value = bound[name];
    if (field.required && (value === undefined || (typeof value === 'string' && value.trim() === ''))) {
      throw refuse(name === 'amount' && spec.operation === 'unifiedOrder' ? MESSAGES.amountMissing : MESSAGES.required(name));
    }
  }
  if (bound.signType !== 'MD5') throw refuse(MESSAGES.signTypeUnsupported);
  if (!/^\d{13}$/.test(String(bound.reqTime))) throw refuse(MESSAGES.reqTimeFormat);
  const app = merchants.authenticate(String(bound.mchNo), String(bound.appId));
  if (!signaturesEqual(String(bound.sign), sign(bound, app.secret))) throw refuse(MESSAGES.signatureMismatch);

  const params: Record<string, string | number> = {};
  const blank = new Set<string>();
  for (const [name, value] of Object.entries(bound)) {
    if ((COMMON_REQUEST_FIELDS as readonly string[]).includes(name)) continue;
    if (value === '') blank.add(name);
    else params[name] = value;
  }
  return { app, params, blank };
}

// Like the server's typed request class: unknown fields are dropped, values converted to the field's type.
function bind(spec: OperationSpec, body: Readonly<Record<string, unknown>>): Record<string, string | number> {
  const bound: Record<string, string | number> = {};
  for (const [name, field] of spec.fields) {
    const value = Object.hasOwn(body, name) ? body[name] : undefined;
    if (value === undefined || value === null) continue;
    bound[name] = field.integer ? bindInteger(name, value) : bindString(name, value);
  }
  return bound;
}

function bindInteger(name: string, value: unknown): number | string {
  if (value === '') return '';
  const number = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof number === 'number' && Number.isSafeInteger(number)) return number;
  throw refuseParameter(`${name}必须为整数`, `${name} must be an integer`);
}

function bindString(name: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw refuseParameter(`${name}必须为字符串`, `${name} must be a string; objects such as channelExtra travel as JSON text`);
}
