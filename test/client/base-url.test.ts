// A wrong baseUrl (issue 18 §3): the 404 names the URL it went to, a doubled /api is pointed out, and the
// option's own message shows a base URL, not a notify URL. Against the mock gateway on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient, GatewayHttpStatusError, GatewayValidationError, type GatewayLogger } from '../../src/index.js';
import { createMockGateway, type MockGatewayServer } from '../../src/testing/index.js';
import { baseUrlEndsInApi } from '../../src/client/base-url.js';

const MERCHANT = { mchNo: 'M1700000001', appId: 'app-1', secret: 'test-secret-0123456789' };
let server: MockGatewayServer;

beforeAll(async () => {
  server = await createMockGateway({ merchants: [MERCHANT] }).listen();
});
afterAll(() => server.close());

describe('a wrong baseUrl', () => {
  it('a 404 names the URL requested', async () => {
    const client = new GatewayClient({ baseUrl: `${server.url}/gateway`, ...MERCHANT, retry: { maxRetries: 0 } });
    const error = (await client.query({ mchOrderNo: 'o-1' }).catch((e: unknown) => e)) as GatewayHttpStatusError;
    expect(error).toBeInstanceOf(GatewayHttpStatusError);
    expect(error.status).toBe(404);
    expect(error.message).toBe(`query got HTTP 404 from POST ${server.url}/gateway/api/pay/query (check baseUrl: the path was not found).`);
  });

  it('a baseUrl ending in /api: the 404 says the path holds /api/api, and the client warns when created', async () => {
    const warnings: string[] = [];
    const logger: GatewayLogger = { error: () => undefined, warn: (line) => warnings.push(line), info: () => undefined, debug: () => undefined };
    const client = new GatewayClient({ baseUrl: `${server.url}/api`, ...MERCHANT, retry: { maxRetries: 0 }, logLevel: 'warn', logger });
    expect(warnings).toEqual([`[payment-gateway-sdk] baseUrl "${server.url}/api" ends in /api, and every operation's path starts with /api: requests would go to .../api/api/...; leave /api out of baseUrl`]);
    const error = (await client.query({ mchOrderNo: 'o-1' }).catch((e: unknown) => e)) as GatewayHttpStatusError;
    expect(error.message).toBe(
      `query got HTTP 404 from POST ${server.url}/api/api/pay/query (check baseUrl: the path was not found; the path holds /api/api: baseUrl ends in /api, and every operation's path starts with it, so leave /api out of baseUrl).`,
    );
  });

  it("the option's message shows a base URL as the example", () => {
    const error = (() => {
      try {
        return new GatewayClient({ baseUrl: 'pay.example.com', ...MERCHANT });
      } catch (e) {
        return e;
      }
    })() as GatewayValidationError;
    expect(error).toBeInstanceOf(GatewayValidationError);
    expect(error.issues).toEqual([{ path: ['baseUrl'], message: 'must be an absolute http(s) URL, e.g. https://pay.example.com' }]);
  });
});

describe('baseUrlEndsInApi', () => {
  it('holds for a path ending in /api, trailing slashes aside, and for nothing else', () => {
    for (const url of ['https://pay.test/api', 'https://pay.test/api/', 'https://pay.test/api//', 'https://pay.test/v1/api?x=1']) expect(baseUrlEndsInApi(url), url).toBe(true);
    for (const url of ['https://pay.test', 'https://pay.test/', 'https://pay.test/apis', 'https://pay.test/x-api', 'https://pay.test/api/v1', 'https://api.test/']) expect(baseUrlEndsInApi(url), url).toBe(false);
  });
});
