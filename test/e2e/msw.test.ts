// The client against the mock gateway through msw (mockGatewayHandlers), for unit-level wire tests.
import { setupServer, type SetupServer } from 'msw/node';
import { mockGatewayHandlers } from '../../src/testing/msw.js';
import { describeEndToEnd } from '../support/e2e-scenarios.js';

let server: SetupServer | undefined;
describeEndToEnd('msw handlers', {
  async start(gateway) {
    server = setupServer(...mockGatewayHandlers(gateway));
    server.listen({ onUnhandledFrame: 'error' });
    return { baseUrl: 'https://gateway.test' };
  },
  stop: async () => server?.close(),
});
