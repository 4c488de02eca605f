// The HTTP exchange through the public client: what a failure before connecting proves, and the fetch
// option's contract.
import { describe, expect, it } from 'vitest';
import { GatewayClient, GatewayConnectionError, type GatewayClientOptions } from '../../src/index.js';
import { refusedPort } from '../support/fault-proxy.js';
import { useServers } from '../support/http-server.js';
import { signedEnvelope } from '../support/wire.js';

const MERCHANT = { mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9', secret: 'jeepay-test-secret-0123456789' } as const;
const ORDER = { mchOrderNo: 'order-1', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', subject: 's', body: 'b' } as const;

const serve = useServers();

const client = (baseUrl: string, options: Partial<GatewayClientOptions> = {}) => new GatewayClient({ baseUrl, ...MERCHANT, ...options });

describe('failures before connecting are provably not sent', () => {
  // undici refuses "bad ports" (6000 is X11) before opening a connection; node:http is refused by the closed port.
  it.each([
    ['fetch', async () => ({ url: 'http://127.0.0.1:6000', fetch: globalThis.fetch, reason: /bad port/ })],
    ['node:http', async () => ({ url: `http://127.0.0.1:${await refusedPort()}`, fetch: undefined, reason: /ECONNREFUSED/ })],
  ] as const)('%s: a port that takes no connection: not sent, so a create is retried by ky and fails with the connection error, never "outcome unknown"', async (_path, target) => {
    const { url, fetch, reason } = await target();
    const attempts: number[] = [];
    const gatewayClient = client(url, { fetch, retry: { maxRetries: 2, initialDelayMs: 1 }, hooks: { onRequest: ({ attempt }) => attempts.push(attempt) } });
    const error = await gatewayClient.unifiedOrder(ORDER).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayConnectionError);
    expect((error as GatewayConnectionError).mayHaveReachedGateway).toBe(false);
    expect((error as Error).message).toMatch(reason);
    expect(attempts).toEqual([1, 2, 3]);
  });
});

describe('the fetch option keeps its (url, init) contract', () => {
  it('is called with the URL as a string and an init carrying the exact signed text, JSON headers, the signal and redirect: manual', async () => {
    const calls: { url: unknown; init: RequestInit }[] = [];
    const gateway = await serve((_req, res) => {
      res.writeHead(500);
      res.end();
    });
    const gatewayClient = client(gateway.url, {
      retry: { maxRetries: 0 },
      fetch: (url, init) => {
        calls.push({ url, init });
        return globalThis.fetch(url, init);
      },
    });
    await gatewayClient.query({ mchOrderNo: 'order-1' }).catch(() => undefined);
    expect(calls).toHaveLength(1);
    const [{ url, init }] = calls as [{ url: unknown; init: RequestInit }];
    expect(url).toBe(`${gateway.url}/api/pay/query`);
    expect(init.method).toBe('POST');
    expect(init.redirect).toBe('manual');
    expect(init.signal).toBeInstanceOf(AbortSignal);
    expect(new Headers(init.headers).get('content-type')).toBe('application/json');
    const sent = JSON.parse(init.body as string) as Record<string, unknown>;
    expect(sent).toMatchObject({ mchOrderNo: 'order-1', mchNo: MERCHANT.mchNo, appId: MERCHANT.appId, signType: 'MD5' });
    expect(sent.sign).toMatch(/^[0-9A-F]{32}$/);
  });
});

describe('the node:http carrier (on Node, without a fetch of yours)', () => {
  it('keeps connections alive across calls and across clients: fifty clients made one after another reuse one connection', async () => {
    const sockets = new Set<unknown>();
    const gateway = await serve((req, res) => {
      sockets.add(req.socket);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(signedEnvelope({ payOrderId: 'P1', mchNo: MERCHANT.mchNo, appId: MERCHANT.appId, mchOrderNo: 'order-1', ifCode: 'coin', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', state: 1, subject: 's', body: 'b', createdAt: 1_700_000_000_000 }, MERCHANT.secret));
    });
    for (let i = 0; i < 50; i++) await client(gateway.url).query({ mchOrderNo: 'order-1' });
    expect(sockets.size).toBe(1);
  });
});
