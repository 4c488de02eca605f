// The client against the mock gateway through msw (gateway.handlers), for unit-level wire tests.
import { setupServer, type SetupServer } from 'msw/node';
import { describeEndToEnd } from './support/e2e-scenarios.js';

let server: SetupServer | undefined;
describeEndToEnd('msw handlers', {
  async start(gateway) {
    server = setupServer(...gateway.handlers);
    server.listen({ onUnhandledFrame: 'error' });
    return { baseUrl: 'https://gateway.test' };
  },
  stop: async () => server?.close(),
});
