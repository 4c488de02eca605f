/**
 * payment-gateway-sdk/testing/msw: the mock gateway as msw request handlers, with msw's own types. A
 * separate entry, so that `payment-gateway-sdk/testing` compiles in a project without msw.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createMockGateway } from 'payment-gateway-sdk/testing';
 * import { mockGatewayHandlers } from 'payment-gateway-sdk/testing/msw';
 *
 * const gateway = createMockGateway({ merchants: [{ mchNo: 'M1', appId: 'app-1', secret: 'test-secret' }] });
 * const server = setupServer(...mockGatewayHandlers(gateway));
 * server.listen({ onUnhandledFrame: 'error' });
 * ```
 *
 * @packageDocumentation
 * @module payment-gateway-sdk/testing/msw
 */
import type { HttpHandler } from 'msw';
import type { MockGateway } from 'payment-gateway-sdk/testing';

/**
 * The mock gateway's msw request handlers for every operation (below the gateway's `baseUrl` option, or
 * any origin), typed for `setupServer`, `setupWorker` and `server.use`. msw is loaded on first use.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { mockGatewayHandlers } from 'payment-gateway-sdk/testing/msw';
 *
 * const server = setupServer(...mockGatewayHandlers(gateway));
 * ```
 */
export function mockGatewayHandlers(gateway: MockGateway): HttpHandler[] {
  // gateway.handlers is built by msw-handlers.ts with msw's own http.post: HttpHandler instances.
  return [...gateway.handlers] as HttpHandler[];
}
