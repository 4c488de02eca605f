import { afterAll } from 'vitest';

/**
 * @hono/node-server's adaptor puts its own Request and Response in the globals, as it does in a merchant's
 * Hono app, and the SDK runs with them in the calling file. Afterwards the platform's come back: the
 * files that share this worker (`isolate: false`) must not inherit them (msw's `Response.error()` stops
 * being a Response there).
 */
export function restoreFetchGlobalsAfterAll(): void {
  const { Request, Response } = globalThis;
  afterAll(() => {
    Object.defineProperty(globalThis, 'Request', { value: Request });
    Object.defineProperty(globalThis, 'Response', { value: Response });
  });
}
