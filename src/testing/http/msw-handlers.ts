/**
 * `gateway.handlers`: every operation as msw request handlers. msw is an optional peer dependency,
 * loaded only when `handlers` is first read (with `require`, which loads ES modules on Node >= 22.12),
 * so the mock works without msw installed.
 *
 * @module
 */
import type { HttpHandler } from 'msw';
import { OPERATION_ROUTES } from './operation-routes.js';
import type { Outcome } from './respond.js';

type Msw = typeof import('msw');

/** Handlers for each operation path, below `baseUrl` or below any origin. */
export function createMswHandlers(handle: (request: Request) => Promise<Outcome>, baseUrl: string | undefined): HttpHandler[] {
  const { http, HttpResponse } = loadMsw();
  return [...OPERATION_ROUTES.values()].map((route) =>
    http.post(baseUrl === undefined ? `*${route.path}` : `${baseUrl.replace(/\/+$/, '')}${route.path}`, async ({ request }) => {
      const outcome = await handle(request);
      return outcome.kind === 'reset' ? HttpResponse.error() : outcome.response;
    }),
  );
}

function loadMsw(): Msw {
  const nodeModule = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:module') as typeof import('node:module') | undefined;
  if (!nodeModule) {
    throw new Error("gateway.handlers loads msw with require(), which needs Node >= 22.12, Bun or Deno. Elsewhere, route to the mock yourself: http.post('*/api/*', ({ request }) => gateway.fetch(request)).");
  }
  try {
    return nodeModule.createRequire(import.meta.url)('msw') as Msw;
  } catch (cause) {
    throw new Error('gateway.handlers needs msw, an optional peer dependency: npm install --save-dev msw', { cause });
  }
}
