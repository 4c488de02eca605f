// The client against the mock gateway on a real HTTP server on 127.0.0.1 (gateway.listen).
import { describeEndToEnd } from '../support/e2e-scenarios.js';
import type { MockGatewayServer } from '../../src/testing/index.js';
import { CARRIERS } from '../support/carriers.js';

for (const { carrier, fetch } of CARRIERS) {
  let server: MockGatewayServer | undefined;
  describeEndToEnd(`loopback HTTP over ${carrier}`, {
    async start(gateway) {
      server = await gateway.listen({ port: 0 });
      return { baseUrl: server.url, fetch };
    },
    stop: async () => server?.close(),
  });
}
