/**
 * The gateway's answers as HTTP responses: the signed success envelope, the `{ code, msg }` refusal,
 * the framework's JSON for unknown paths and methods, and the faulty answers of {@link FaultKind}.
 *
 * @module
 */
import { sign } from '../../protocol/signing/sign.js';
import { BAD_GATEWAY_PAGE, RATE_LIMITED, REQUEST_TIMEOUT_PAGE, truncate, type FaultKind } from '../domain/faults.js';
import { signTexts, toJsonText } from '../domain/json-text.js';

/** What processing a request produced, before it is written out. */
export type Answer =
  | { readonly kind: 'success'; readonly data: Readonly<Record<string, unknown>>; readonly secret: string }
  | { readonly kind: 'refusal'; readonly code: number; readonly msg: string };

/** What the client gets: a response, or no answer at all (the connection is reset). */
export type Outcome = { readonly kind: 'response'; readonly response: Response } | { readonly kind: 'reset' };

const JSON_TYPE = { 'content-type': 'application/json;charset=UTF-8' };

/** The envelope text: `sign` over the members of `data` only, each as the server's `toString()`. */
export function envelopeText(answer: Answer, successCode: number, secret = answer.kind === 'success' ? answer.secret : ''): string {
  if (answer.kind === 'refusal') return toJsonText({ code: answer.code, msg: answer.msg });
  return toJsonText({ code: successCode, msg: 'SUCCESS', data: answer.data, sign: sign(signTexts(answer.data), secret) });
}

/** The answer as the client sees it, with the fault (if any) applied after processing. */
export function render(answer: Answer, successCode: number, fault?: FaultKind): Outcome {
  switch (fault) {
    case 'wrongSign':
      return respond(envelopeText(answer, successCode, answer.kind === 'success' ? `${answer.secret}#not-the-merchant-secret` : ''));
    case 'truncatedJson':
      return respond(truncate(envelopeText(answer, successCode)));
    case undefined:
    case 'closeRacesPayer': // the answer is the gateway's own; the fault changed what the close did
    case 'refusedAfterStore': // the answer is already the refusal the fault made of the stored create
      return respond(envelopeText(answer, successCode));
    case 'stall': // the handler waits for the client to give up first; then the line drops
      return { kind: 'reset' };
    default:
      return faultOutcome(fault);
  }
}

/** The faults whose answer needs no response body from the gateway: they can strike before it acts. */
export type BodilessFault = 'html502' | 'emptyBody' | 'connectionReset' | 'status408' | 'status429';

/** The outcome of a fault that needs no response body from the gateway. */
export function faultOutcome(fault: BodilessFault): Outcome {
  switch (fault) {
    case 'status408':
      return { kind: 'response', response: new Response(REQUEST_TIMEOUT_PAGE, { status: 408, headers: { 'content-type': 'text/html', connection: 'close' } }) };
    case 'status429':
      return { kind: 'response', response: new Response(RATE_LIMITED.body, { status: 429, headers: { 'content-type': 'application/json', 'retry-after': String(RATE_LIMITED.retryAfterSeconds) } }) };
    case 'html502':
      return { kind: 'response', response: new Response(BAD_GATEWAY_PAGE, { status: 502, headers: { 'content-type': 'text/html' } }) };
    case 'emptyBody':
      return { kind: 'response', response: new Response(null, { status: 200, headers: JSON_TYPE }) };
    case 'connectionReset':
      return { kind: 'reset' };
  }
}

const FRAMEWORK_ERRORS = { 400: 'Bad Request', 404: 'Not Found', 405: 'Method Not Allowed' } as const;

/** The web framework's answer to a malformed path (400), an unknown one (404) or a method other than POST (405). */
export function frameworkError(status: keyof typeof FRAMEWORK_ERRORS, path: string, now: number): Outcome {
  const error = FRAMEWORK_ERRORS[status];
  return respond(JSON.stringify({ timestamp: new Date(now).toISOString(), status, error, path }), status);
}

function respond(body: string, status = 200): Outcome {
  return { kind: 'response', response: new Response(body, { status, headers: JSON_TYPE }) };
}
