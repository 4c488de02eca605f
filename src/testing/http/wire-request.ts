/**
 * Reads a request as the reference server does, independently of the SDK's client: the raw body, then
 * only the fields the operation knows, bound to their types, checked, authenticated and verified (a
 * signed field the operation does not know fails with `验签失败`, as on the real server).
 *
 * @module
 */
import { COMMON_REQUEST_FIELDS } from '../../operations/wire.js';
import { diagnoseSignature, type ReceivedTexts } from '../domain/diagnose.js';
import { signatureMatches } from '../../protocol/signing/verify.js';
import type { AcceptedRequest } from '../domain/accepted-request.js';
import type { MerchantRegistry } from '../domain/merchants.js';
import { BUSINESS_ERROR, MESSAGES, Refusal, refuse, refuseParameter } from '../domain/refusals.js';
import { bounded, type MockSignatureRefusal } from '../domain/request-log.js';
import type { OperationRoute } from './operation-routes.js';
import { MAX_OPERATION_BODY_BYTES, readBodyText, type BodyTooLarge } from './request-body.js';

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
export function acceptRequest(route: OperationRoute, body: Readonly<Record<string, unknown>>, merchants: MerchantRegistry): AcceptedRequest {
  const bound = bind(route, body);
  for (const [name, field] of route.fields) {
    const value = bound[name];
    if (field.required && (value === undefined || (typeof value === 'string' && value.trim() === ''))) {
      throw refuse(name === 'amount' && route.operation === 'unifiedOrder' ? MESSAGES.amountMissing : MESSAGES.required(name));
    }
  }
  if (bound.signType !== 'MD5') throw refuse(MESSAGES.signTypeUnsupported);
  if (!/^\d{13}$/.test(String(bound.reqTime))) throw refuse(MESSAGES.reqTimeFormat);
  const app = merchants.authenticate(String(bound.mchNo), String(bound.appId));
  // False for fields that cannot be signed (a lone surrogate, case twins) too: the diagnosis says why.
  if (!signatureMatches(bound, app.secret, bound.sign)) {
    throw new Refusal(BUSINESS_ERROR, MESSAGES.signatureMismatch, explainSignature(route, body, bound, app.secret));
  }

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
function bind(route: OperationRoute, body: Readonly<Record<string, unknown>>): Record<string, string | number> {
  const bound: Record<string, string | number> = {};
  for (const [name, field] of route.fields) {
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

/** Why the signature is not the one the gateway's rule gives: the fields it kept are signed, the others (dropped) are not. */
function explainSignature(route: OperationRoute, body: Readonly<Record<string, unknown>>, bound: Readonly<Record<string, string | number>>, secret: string): MockSignatureRefusal {
  const fields = new Map<string, string | null>();
  const unsignedFields = new Map<string, string | null>();
  for (const [name, value] of Object.entries(body)) {
    if (route.fields.has(name)) fields.set(name, value === null || bound[name] === undefined ? null : String(bound[name]));
    else unsignedFields.set(name, textOf(value));
  }
  const diagnosis = diagnoseSignature({ fields: fields as ReceivedTexts, received: bound.sign, secret, unsignedFields });
  const hint = 'hint' in diagnosis ? diagnosis.hint : 'problem' in diagnosis ? diagnosis.problem : 'the signature differs';
  const mistake = 'mistake' in diagnosis ? diagnosis.mistake : undefined;
  return {
    expected: bounded('canonical' in diagnosis ? diagnosis.canonical : '', 4000),
    received: bounded(String(bound.sign), 100),
    fields: diagnosis.fields.slice(0, 64).map(({ name, signed, why }) => (why === undefined ? { name: bounded(name, 64), signed } : { name: bounded(name, 64), signed, why })),
    mistake: mistake && { id: mistake.id, summary: bounded(mistake.summary, 500), fix: mistake.fix, signedString: bounded(mistake.signedString, 4000) },
    hint: bounded(hint, 500),
  };
}

function textOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}
