// A wrong baseUrl (issue 18 §3, issue 25 §4, issue 23 §7): the 404 names the URL it went to; a base URL that
// would double the operations' path prefix, hold credentials, a query or a fragment, and a secret with
// whitespace at an end or a line break, are refused at construction, naming the option and never its value.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspect } from 'node:util';
import { createNotificationProcessor, GatewayClient, GatewayHttpStatusError, GatewayValidationError, verifyNotification, type GatewayLogger } from '../../src/index.js';
import { createMockGateway, type MockGatewayServer } from '../../src/testing/index.js';
import { validationError } from '../support/rejection.js';

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

/** The GatewayValidationError that creating a client with `options` throws. */
const refused = validationError;

describe('a baseUrl that already ends in the gateway\'s path prefix is refused at construction', () => {
  it.each([
    ['https://pay.test/api', '/api'],
    ['https://pay.test/api/', '/api'],
    ['https://pay.test/gateway/api//', '/api'],
    ['https://pay.test/api/pay', '/api/pay'],
    ['https://pay.test/api/pay/query', '/api/pay/query'],
    ['https://pay.test/api/channelbiz', '/api/channelbiz'],
    ['https://pay.test/api/channelbiz/coinpay/', '/api/channelbiz/coinpay'],
  ])('%s: baseUrl ends in %s', (baseUrl, prefix) => {
    const error = refused(() => new GatewayClient({ baseUrl, ...MERCHANT }));
    expect(error.issues).toEqual([{ path: ['baseUrl'], message: expect.stringContaining(`ends in ${prefix}, which the operations' paths already start with`) }]);
    expect(error.message).toMatch(/leave .* out: give the gateway's root, e.g\. https:\/\/pay\.example\.com/);
  });

  it('a root, a path of its own, or one that merely contains "api" is fine', () => {
    for (const baseUrl of ['https://pay.test', 'https://pay.test/', 'https://pay.test/gateway', 'https://pay.test/apis', 'https://pay.test/x-api', 'https://pay.test/api/v1', 'https://api.test/']) {
      expect(new GatewayClient({ baseUrl, ...MERCHANT }).baseUrl, baseUrl).toBe(baseUrl);
    }
  });
});

describe('a baseUrl with credentials, a query or a fragment is refused at construction', () => {
  const PASSWORD = 'hunter2-Pa55word';

  it('user:password@ is refused, and the password is in no output: message, issues, JSON, inspect, stack, logs', () => {
    const lines: string[] = [];
    const logger: GatewayLogger = { error: (line) => lines.push(line), warn: (line) => lines.push(line), info: (line) => lines.push(line), debug: (line) => lines.push(line) };
    for (const baseUrl of [`https://shop:${PASSWORD}@pay.test`, `https://${PASSWORD}@pay.test/`, `https://shop:${encodeURIComponent(PASSWORD)}@pay.test/gw`]) {
      const error = refused(() => new GatewayClient({ baseUrl, ...MERCHANT, logLevel: 'debug', logger }));
      expect(error.issues).toEqual([{ path: ['baseUrl'], message: expect.stringMatching(/^must not hold credentials \(user:password@\): the gateway authenticates each request by its signature/) }]);
      const outputs = [error.message, String(error), error.stack ?? '', JSON.stringify(error), JSON.stringify(error.issues), inspect(error, { depth: 10 }), ...lines];
      for (const output of outputs) expect(output).not.toContain(PASSWORD);
      for (const output of outputs) expect(output).not.toContain(PASSWORD.slice(0, 7));
    }
  });

  it.each([
    ['https://pay.test?env=prod'],
    ['https://pay.test/gw?'],
    ['https://pay.test/#top'],
    ['https://pay.test/gw#'],
  ])('%s: a query or a fragment is refused', (baseUrl) => {
    expect(refused(() => new GatewayClient({ baseUrl, ...MERCHANT })).issues).toEqual([{ path: ['baseUrl'], message: expect.stringMatching(/^must not have a query \(\?\.\.\.\) or a fragment \(#\.\.\.\)/) }]);
  });
});

describe('a secret with whitespace at either end or a line break is refused at construction (client and notifications alike)', () => {
  it.each([
    ['a final newline (read from a file)', `${MERCHANT.secret}\n`],
    ['a final CRLF', `${MERCHANT.secret}\r\n`],
    ['a leading space', ` ${MERCHANT.secret}`],
    ['a trailing tab', `${MERCHANT.secret}\t`],
    ['a line break inside', 'test-secret\n0123456789'],
    ['a Unicode line separator inside', 'test-secret\u20280123456789'],
    ['a byte-order mark first (a file saved by Notepad)', `\ufeff${MERCHANT.secret}`],
    ['a no-break space last (copied from a web page)', `${MERCHANT.secret}\u00a0`],
    ['a zero-width space last (copied from a web page)', `${MERCHANT.secret}\u200b`],
    ['a word joiner first', `\u2060${MERCHANT.secret}`],
  ])('%s', async (_label, secret) => {
    const rule = /^must not start or end with whitespace or an invisible character, or hold a line break, which every signature would include \(a secret read from a file keeps the file's final newline: trim it/;
    const client = refused(() => new GatewayClient({ baseUrl: 'https://pay.test', ...MERCHANT, secret }));
    expect(client.issues).toEqual([{ path: ['secret'], message: expect.stringMatching(rule) }]);
    const verifying = (await verifyNotification('a=1&sign=X', { ...MERCHANT, secret }).catch((e: unknown) => e)) as GatewayValidationError;
    expect(verifying).toBeInstanceOf(GatewayValidationError);
    expect(verifying.issues).toEqual([{ path: ['secret'], message: expect.stringMatching(rule) }]);
    const processor = refused(() => createNotificationProcessor({ ...MERCHANT, secret, expect: { mchOrderNo: 'o-1' }, onPaid: () => undefined }));
    expect(processor.issues).toContainEqual({ path: ['secret'], message: expect.stringMatching(rule) });
    for (const error of [client, verifying, processor]) expect(error.message).not.toContain(MERCHANT.secret.slice(0, 10));
  });

  it('a secret with spaces inside is the merchant\'s own and stays valid', () => {
    expect(() => new GatewayClient({ baseUrl: 'https://pay.test', ...MERCHANT, secret: 'my secret 0123' })).not.toThrow();
  });
});
