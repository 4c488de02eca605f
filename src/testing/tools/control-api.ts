/**
 * The control API, `{base}/_mock/...`: the test controls of {@link MockGateway} as JSON over HTTP, for test
 * suites in any language and for the dashboard's buttons. Each route calls the gateway's own method.
 *
 * @module
 */
import type { MockGateway } from '../mock-gateway.js';
import type { FaultOptions } from '../faults.js';
import { BodyTooLarge, readBodyText } from '../request-body.js';
import type { SettlementProgress } from '../settlement.js';

/** Control bodies are a few small fields; anything bigger is refused unread. */
const MAX_BODY_BYTES = 16 * 1024;

type Body = Readonly<Record<string, unknown>>;
type Control = (gateway: MockGateway, ref: string, body: Body) => unknown;

/** `METHOD path-pattern` -> the control; `:ref` is one path segment (an order, notification, address or settlement id). */
const ROUTES: Readonly<Record<string, Control>> = {
  'GET /_mock/state': (gateway) => gateway.state(),
  'POST /_mock/orders/:ref/pay': (gateway, ref) => gateway.payOrder(ref),
  'POST /_mock/orders/:ref/fail': (gateway, ref, body) => gateway.failOrder(ref, { errCode: text(body, 'errCode'), errMsg: text(body, 'errMsg') }),
  'POST /_mock/notifications/deliver': (gateway) => gateway.deliverNotifications(),
  'POST /_mock/notifications/:ref/resend': (gateway, ref) => gateway.resendNotification(ref),
  'POST /_mock/clock/advance': (gateway, _ref, body) => {
    gateway.advanceTime(body.ms as number);
    return { now: gateway.now() };
  },
  'POST /_mock/addresses/:ref/approve': (gateway, ref) => gateway.approveAddress(ref),
  'POST /_mock/addresses/:ref/reject': (gateway, ref) => gateway.rejectAddress(ref),
  'POST /_mock/settlements/:ref/progress': (gateway, ref, body) => gateway.progressSettlement(ref, text(body, 'to') as SettlementProgress | undefined),
  'POST /_mock/faults': (gateway, _ref, body) => {
    const { kind, operation, when, hits, remaining } = gateway.injectFault(body as unknown as FaultOptions);
    return { kind, operation, when, hits, remaining };
  },
  'DELETE /_mock/faults': (gateway) => {
    gateway.clearFaults();
    return { cleared: true };
  },
};

/** Answers a control request, or `undefined` when `path` is not under `/_mock/`. */
export async function handleControl(gateway: MockGateway, request: Request, path: string): Promise<Response | undefined> {
  if (!path.startsWith('/_mock/')) return undefined;
  const segments = path.split('/');
  const ref = segments[3] ?? '';
  const pattern = segments.length === 5 ? [...segments.slice(0, 3), ':ref', segments[4]].join('/') : path;
  const control = ROUTES[`${request.method} ${pattern}`] ?? ROUTES[`${request.method} ${path}`];
  if (!control) {
    return json({ error: `no control ${request.method} ${path}; the control API has: ${Object.keys(ROUTES).join(', ')}` }, 404);
  }
  try {
    const body = request.method === 'POST' ? await readObject(request) : {};
    return json((await control(gateway, decodeURIComponent(ref), body)) ?? null);
  } catch (error) {
    return json({ error: error instanceof Error ? error.message : String(error) }, error instanceof BodyTooLarge ? 413 : 400);
  }
}

/** The JSON object body, or `{}` when empty; bounded to {@link MAX_BODY_BYTES}. */
async function readObject(request: Request): Promise<Body> {
  const text = (await readBodyText(request, MAX_BODY_BYTES)).trim();
  if (text === '') return {};
  const body: unknown = JSON.parse(text);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new TypeError('the body must be a JSON object');
  return body as Body;
}

function text(body: Body, name: string): string | undefined {
  const value = body[name];
  if (value !== undefined && typeof value !== 'string') throw new TypeError(`${name} must be a string`);
  return value;
}

function json(value: unknown, status = 200): Response {
  return new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}
