import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { sign } from '../../src/protocol/signing/sign.js';

export const BASE_URL = 'https://gateway.test';
export const SECRET = 'jeepay-test-secret-0123456789';
export const CREDENTIALS = { baseUrl: BASE_URL, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9', secret: SECRET } as const;
export const FIXED_NOW = 1_700_000_000_123;
/** For tests of one response's handling: no retries, so each failure surfaces at once. */
export const NO_RETRY = { retry: { maxRetries: 0 } } as const;

/** A JSON number literal written exactly as given (e.g. `10.50`), for building response bodies. */
export class Raw {
  constructor(readonly text: string) {}
}

/** Serializes a value, writing {@link Raw} literals verbatim. */
export function toJsonText(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * A success envelope as the gateway writes it: `sign` over the members of `data`, each as the server's
 * `toString()` (strings as themselves, numbers and nested values as their JSON text).
 */
export function signedEnvelope(data: Record<string, unknown>, secret = SECRET, code = 200): string {
  const signed: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(data)) {
    signed[key] = typeof value === 'string' ? value : value === null ? null : toJsonText(value);
  }
  return toJsonText({ code, msg: 'SUCCESS', data, sign: sign(signed, secret) });
}

export interface Captured {
  path: string;
  body: Record<string, unknown>;
  contentType: string | null;
}

/** An msw server that answers each path with the given reply and records what it received. */
export function useWire() {
  const captured: Captured[] = [];
  let reply: (path: string, body: Record<string, unknown>) => Response | Promise<Response> = () => new Response('no reply set', { status: 500 });
  const server = setupServer(
    http.post(`${BASE_URL}/*`, async ({ request }) => {
      const path = new URL(request.url).pathname;
      const body = (await request.json()) as Record<string, unknown>;
      captured.push({ path, body, contentType: request.headers.get('content-type') });
      return reply(path, body);
    }),
  );
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => {
    captured.length = 0;
    server.resetHandlers();
  });
  afterAll(() => server.close());
  return {
    captured,
    server,
    /** Answer every request with this body text (HTTP 200 unless given). */
    replyWith(body: string | ((path: string, request: Record<string, unknown>) => string), status = 200, headers: Record<string, string> = { 'content-type': 'application/json' }) {
      reply = (path, request) => new Response(typeof body === 'string' ? body : body(path, request), { status, headers });
    },
    replyRaw(fn: (path: string, body: Record<string, unknown>) => Response | Promise<Response>) {
      reply = fn;
    },
    HttpResponse,
  };
}

/** A fetch that never answers and rejects when its signal aborts, as the real fetch does. */
export function hangingFetch(_url: string, init: RequestInit): Promise<Response> {
  return new Promise((_, reject) => {
    const signal = init.signal;
    if (signal?.aborted) reject(signal.reason);
    signal?.addEventListener('abort', () => reject(signal.reason));
  });
}
