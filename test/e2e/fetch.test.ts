// The client against the mock gateway's fetch function (no server at all: works on edge runtimes too).
import { describeEndToEnd } from '../support/e2e-scenarios.js';

describeEndToEnd('gateway.fetch', {
  start: async (gateway) => ({ baseUrl: 'https://gateway.test', fetch: gateway.fetch }),
  stop: async () => undefined,
});
