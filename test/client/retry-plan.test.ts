import { describe, expect, it } from 'vitest';
import { GatewayAbortError, GatewayClient, GatewayHttpStatusError, GatewayOutcomeUnknownError, GatewayTimeoutError, type GatewayClientOptions, type GatewayHooks } from '../../src/index.js';
import { refusedPort } from '../support/fault-proxy.js';
import { CARRIERS } from '../support/carriers.js';
import { useServers } from '../support/http-server.js';
import { signedEnvelope } from '../support/wire.js';

type RetryEvent = GatewayHooks.RetryEvent;

// How ky carries the SDK's retry plan, observed from a real server on loopback.
const MERCHANT = { mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9', secret: 'jeepay-test-secret-0123456789' } as const;
const ORDER = { payOrderId: 'P1', mchNo: MERCHANT.mchNo, appId: MERCHANT.appId, mchOrderNo: 'order-1', ifCode: 'coin', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', state: 1, subject: 's', body: 'b', createdAt: 1_700_000_000_000 };
const serve = useServers();

describe.each(CARRIERS)('over $carrier', ({ fetch }) => {
  const client = (baseUrl: string, options: Partial<GatewayClientOptions>) => new GatewayClient({ baseUrl, ...MERCHANT, fetch, ...options });

  describe('the retry plan', () => {
    it('a Retry-After longer than what is left of totalTimeout fails at once with the status, in seconds or as a date', async () => {
      const asked = ['30', new Date(Date.now() + 60_000).toUTCString()];
      for (const retryAfter of asked) {
        const gateway = await serve((_req, res) => {
          res.writeHead(503, { 'retry-after': retryAfter });
          res.end('busy');
        });
        const retries: RetryEvent[] = [];
        const gatewayClient = client(gateway.url, { totalTimeout: 2_000, retry: { maxRetries: 3, maxRetryAfterMs: 120_000 }, hooks: { onRetry: (e) => retries.push(e) } });
        const started = performance.now();
        const error = await gatewayClient.query({ mchOrderNo: 'order-1' }).catch((e: unknown) => e);
        const took = performance.now() - started;
        expect(error).toBeInstanceOf(GatewayHttpStatusError);
        expect((error as GatewayHttpStatusError).status).toBe(503);
        // Not the 2 s budget waited out (nor the 30 s asked for): the call ends with the answer, no second attempt.
        expect(took).toBeLessThan(1_500);
        expect(retries).toEqual([]);
        expect(gateway.hits).toHaveLength(1);
      }
    });

    it('a Retry-After capped by maxRetryAfterMs to less than what is left is waited, then sent again', async () => {
      const gateway = await serve((_req, res, hit) => {
        if (hit === 1) {
          res.writeHead(503, { 'retry-after': '30' });
          return void res.end('busy');
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(signedEnvelope(ORDER, MERCHANT.secret));
      });
      const gatewayClient = client(gateway.url, { totalTimeout: 5_000, retry: { maxRetryAfterMs: 50 } });
      await expect(gatewayClient.query({ mchOrderNo: 'order-1' })).resolves.toMatchObject({ payOrderId: 'P1' });
      expect(gateway.hits).toHaveLength(2);
    });

    it('onRetry is told when the wait is over, before the next attempt, with the wait taken (Retry-After, capped)', async () => {
      const gateway = await serve((_req, res, hit) => {
        if (hit === 1) {
          res.writeHead(503, { 'retry-after': '2' });
          return void res.end('busy');
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(signedEnvelope(ORDER, MERCHANT.secret));
      });
      const told: { event: RetryEvent; at: number }[] = [];
      const gatewayClient = client(gateway.url, { retry: { maxRetryAfterMs: 250 }, hooks: { onRetry: (event) => told.push({ event, at: performance.now() }) } });
      await expect(gatewayClient.query({ mchOrderNo: 'order-1' })).resolves.toMatchObject({ payOrderId: 'P1' });
      expect(told).toHaveLength(1);
      expect(told[0]!.event).toMatchObject({ operation: 'query', attempt: 1, reason: 'GatewayHttpStatusError (HTTP 503)' });
      // The capped Retry-After (250 ms, not 2 s), waited after the first answer and before the second attempt.
      expect(told[0]!.event.delayMs).toBeGreaterThanOrEqual(248);
      expect(told[0]!.event.delayMs).toBeLessThan(1_000);
      expect(told[0]!.at - gateway.arrivals[0]!).toBeGreaterThanOrEqual(248);
      expect(gateway.arrivals[1]!).toBeGreaterThanOrEqual(told[0]!.at);
    });

    it('without Retry-After the wait is backoff with jitter from initialDelayMs, and it is the one waited', async () => {
      const gateway = await serve((_req, res, hit) => {
        if (hit < 3) {
          res.writeHead(502);
          return void res.end('bad gateway');
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(signedEnvelope(ORDER, MERCHANT.secret));
      });
      const told: { event: RetryEvent; at: number }[] = [];
      const gatewayClient = client(gateway.url, { retry: { initialDelayMs: 80, maxRetries: 2 }, hooks: { onRetry: (event) => told.push({ event, at: performance.now() }) } });
      await gatewayClient.query({ mchOrderNo: 'order-1' });
      expect(told.map((t) => t.event.attempt)).toEqual([1, 2]);
      const [first, second] = told.map((t) => t.event.delayMs);
      // Equal jitter: half the doubled delay fixed, half random (ky's delay and jitter), and it is the one waited.
      expect(first).toBeGreaterThanOrEqual(40);
      expect(first).toBeLessThanOrEqual(80);
      expect(second).toBeGreaterThanOrEqual(80);
      expect(second).toBeLessThanOrEqual(160);
      told.forEach(({ event, at }, i) => {
        expect(at - gateway.arrivals[i]!).toBeGreaterThanOrEqual(event.delayMs - 2);
        expect(gateway.arrivals[i + 1]!).toBeGreaterThanOrEqual(at);
      });
    });

    it('a create is not repeated by ky after an ambiguous 502: it is looked up instead', async () => {
      const gateway = await serve((req, res) => {
        res.writeHead(req.url === '/api/pay/unifiedOrder' ? 502 : 504);
        res.end('upstream');
      });
      const requests: [string, number][] = [];
      const gatewayClient = client(gateway.url, { totalTimeout: 2_000, retry: { initialDelayMs: 1, maxRetries: 2 }, hooks: { onRequest: (e) => requests.push([e.operation, e.attempt]) } });
      const error = await gatewayClient.unifiedOrder({ mchOrderNo: 'order-1', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', subject: 's', body: 'b' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayOutcomeUnknownError);
      // One create, then the lookup (a read: retried by ky on its 504s).
      expect(gateway.hits).toEqual(['/api/pay/unifiedOrder', '/api/pay/query', '/api/pay/query', '/api/pay/query']);
      // Attempts are numbered across the whole call, as onRetry's events are.
      expect(requests).toEqual([['unifiedOrder', 1], ['query', 2], ['query', 3], ['query', 4]]);
    });
  });

  describe('a create under Retry-After: ky waits only when the create provably was not processed', () => {
    const order = { mchOrderNo: 'order-1', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', subject: 's', body: 'b' } as const;
    const CREATED = { payOrderId: 'P1', mchOrderNo: 'order-1', orderState: 1, payDataType: 'codeImgUrl', payData: 'https://pay.test/qr.png' };

    it('a 429 proves nothing about a create: the key is looked up first, and only when absent is it sent again, after the capped Retry-After', async () => {
      const gateway = await serve((req, res, hit) => {
        if (hit === 1) {
          res.writeHead(429, { 'retry-after': '30' });
          return void res.end('slow down');
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(req.url === '/api/pay/query' ? JSON.stringify({ code: 9999, msg: '订单不存在' }) : signedEnvelope(CREATED, MERCHANT.secret));
      });
      const retries: RetryEvent[] = [];
      const result = await client(gateway.url, { retry: { maxRetryAfterMs: 120 }, hooks: { onRetry: (e) => retries.push(e) } }).withResponse('unifiedOrder', order);
      expect(result).toMatchObject({ attempts: 3, reconciled: false, replayed: false, data: { payOrderId: 'P1' } });
      expect(gateway.hits).toEqual(['/api/pay/unifiedOrder', '/api/pay/query', '/api/pay/unifiedOrder']);
      expect(gateway.arrivals[2]! - gateway.arrivals[0]!).toBeGreaterThanOrEqual(118);
      expect(retries).toMatchObject([{ operation: 'unifiedOrder', attempt: 2, reason: 'GatewayHttpStatusError (HTTP 429)' }]);
    });

    it.each([408, 429])('a %i answered after the gateway created the order resolves to the order found, never a second create', async (status) => {
      const gateway = await serve((req, res) => {
        if (req.url === '/api/pay/unifiedOrder') {
          res.writeHead(status, { 'retry-after': '1' });
          return void res.end('{"status":' + status + '}');
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(signedEnvelope({ ...ORDER, state: 1 }, MERCHANT.secret));
      });
      const result = await client(gateway.url, { retry: { maxRetryAfterMs: 5_000 } }).withResponse('unifiedOrder', order);
      expect(result).toMatchObject({ reconciled: true, replayed: false, data: { payOrderId: 'P1', recovered: true } });
      expect(gateway.hits).toEqual(['/api/pay/unifiedOrder', '/api/pay/query']);
    });

    it('a 503 with Retry-After (maybe processed) is never re-sent by ky: the record is looked up at once', async () => {
      const gateway = await serve((req, res) => {
        if (req.url === '/api/pay/unifiedOrder') {
          res.writeHead(503, { 'retry-after': '1' });
          return void res.end('busy');
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(signedEnvelope({ ...ORDER, state: 1 }, MERCHANT.secret));
      });
      const result = await client(gateway.url, { retry: { maxRetryAfterMs: 5_000 } }).withResponse('unifiedOrder', order);
      expect(result).toMatchObject({ reconciled: true, data: { payOrderId: 'P1', mchOrderNo: 'order-1' } });
      expect(gateway.hits).toEqual(['/api/pay/unifiedOrder', '/api/pay/query']);
      // The lookup did not wait for the create's Retry-After: only a read of the same record follows.
      expect(gateway.arrivals[1]! - gateway.arrivals[0]!).toBeLessThan(900);
    });
  });

  describe('timeout messages name the setting as configured, and only a create may have been acted on', () => {
    const silent = () => serve(() => undefined);

    it('a read cut by timeout', async () => {
      const gateway = await silent();
      const error = await client(gateway.url, { timeout: 100, totalTimeout: 5_000, retry: { maxRetries: 0 } }).query({ mchOrderNo: 'order-1' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayTimeoutError);
      expect((error as Error).message).toMatch(/^query got no complete response within timeout \(100 ms\) \(1 attempt in \d+ ms\)\. Nothing changed on the gateway; retry later or raise timeout\.$/);
    });

    it('a read cut by totalTimeout (shorter than the attempt timeout) names totalTimeout, not a clipped budget', async () => {
      const gateway = await silent();
      const error = await client(gateway.url, { timeout: 5_000, totalTimeout: 150 }).query({ mchOrderNo: 'order-1' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayTimeoutError);
      expect((error as Error).message).toMatch(/^query did not finish within totalTimeout \(150 ms\) \(1 attempt in \d+ ms\)\. Nothing changed on the gateway; retry later or raise totalTimeout\.$/);
    });

    it('a create cut by timeout says the gateway may have acted on it (the lookup then runs out of budget too)', async () => {
      const gateway = await silent();
      const error = await client(gateway.url, { timeout: 100, totalTimeout: 300, retry: { maxRetries: 0 } })
        .unifiedOrder({ mchOrderNo: 'order-1', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', subject: 's', body: 'b' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayOutcomeUnknownError);
      const cause = (error as Error).cause as Error;
      expect(cause).toBeInstanceOf(GatewayTimeoutError);
      expect(cause.message).toMatch(/^unifiedOrder got no complete response within timeout \(100 ms\) \(1 attempt in \d+ ms\)\. The gateway may still have acted on it: look the record up by your key before creating another\.$/);
    });
  });

  describe('a create is judged by what its attempts did, not by the last error alone', () => {
    const order = { mchOrderNo: 'order-1', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', subject: 's', body: 'b' } as const;

    it('an abort during the wait after a refused connection: nothing reached the gateway, so GatewayAbortError, no lookup', async () => {
      const port = await refusedPort();
      const controller = new AbortController();
      const requests: string[] = [];
      const gatewayClient = client(`http://127.0.0.1:${port}`, {
        retry: { initialDelayMs: 2_000, maxRetries: 2 },
        // The first attempt is refused at once; the abort comes during the wait of 1 to 2 s after it.
        hooks: { onRequest: (e) => (requests.push(e.operation), setTimeout(() => controller.abort(), 100)) },
      });
      const error = await gatewayClient.unifiedOrder(order, { signal: controller.signal }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayAbortError);
      expect(error).not.toBeInstanceOf(GatewayOutcomeUnknownError);
      expect(requests).toEqual(['unifiedOrder']);
    });

    it('the deadline passing during the wait after a refused connection: a timeout that says nothing was sent, no lookup', async () => {
      const port = await refusedPort();
      const requests: string[] = [];
      const busy = (ms: number) => {
        const until = performance.now() + ms;
        while (performance.now() < until);
      };
      const gatewayClient = client(`http://127.0.0.1:${port}`, {
        totalTimeout: 400,
        retry: { initialDelayMs: 20, maxRetries: 2 },
        // A slow observer of the retry eats the budget after the wait: ky's totalTimeout ends the call before the retry.
        hooks: { onRequest: (e) => requests.push(e.operation), onRetry: () => busy(420) },
      });
      const error = await gatewayClient.unifiedOrder(order).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayTimeoutError);
      expect((error as Error).message).toMatch(/^unifiedOrder did not finish within totalTimeout \(400 ms\) \(1 attempt in \d+ ms, the last failing with GatewayConnectionError\)\. Nothing changed on the gateway; retry later or raise totalTimeout\.$/);
      expect(requests).toEqual(['unifiedOrder']);
    });

    it('a failure judging a response that is no GatewayError (a broken fetch result) is ambiguous: looked up, never re-sent', async () => {
      const calls: string[] = [];
      const brokenResponse = {
        status: 200,
        type: 'basic',
        headers: { get: () => { throw new TypeError('headers unreadable'); }, has: () => false },
        body: null,
      } as unknown as Response;
      const gatewayClient = client('http://127.0.0.1:9', {
        retry: { initialDelayMs: 1, maxRetries: 2 },
        fetch: async (url) => {
          calls.push(new URL(url).pathname);
          return brokenResponse;
        },
      });
      const error = await gatewayClient.unifiedOrder(order).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayOutcomeUnknownError);
      expect(((error as Error).cause as Error).message).toMatch(/could not be judged \(headers unreadable\)/);
      // Sent once; then the lookup (a read, whose untrusted answer is final).
      expect(calls).toEqual(['/api/pay/unifiedOrder', '/api/pay/query']);
    });
  });
});
