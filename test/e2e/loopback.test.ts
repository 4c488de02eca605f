// The client against the mock gateway on a real HTTP server on 127.0.0.1 (gateway.listen).
import { describeEndToEnd } from '../support/e2e-scenarios.js';
import type { MockGatewayServer } from '../../src/testing/index.js';

let server: MockGatewayServer | undefined;
describeEndToEnd('loopback HTTP', {
  async start(gateway) {
    server = await gateway.listen({ port: 0 });
    return { baseUrl: server.url };
  },
  stop: async () => server?.close(),
});
