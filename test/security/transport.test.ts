import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  GatewayClient,
  GatewayHttpStatusError,
  GatewayOutcomeUnknownError,
  GatewayResponseTooLargeError,
  GatewayTimeoutError,
  GatewayValidationError,
  type GatewayClientOptions,
} from '../../src/index.js';
import { CARRIERS } from '../support/carriers.js';
import { useServers } from '../support/http-server.js';
import { signedEnvelope } from '../support/wire.js';

// Attacks on the HTTP exchange itself, through the public client, against real servers on loopback.
const MERCHANT = { mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9', secret: 'jeepay-test-secret-0123456789' } as const;
const ORDER = { mchOrderNo: 'order-1', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', subject: 's', body: 'b' } as const;
const MiB = 1024 * 1024;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const serve = useServers();


describe.each(CARRIERS)('over $carrier', ({ fetch }) => {
  const client = (baseUrl: string, options: Partial<GatewayClientOptions> = {}) => new GatewayClient({ baseUrl, ...MERCHANT, fetch, ...options });

  describe('redirects are answers, never followed: the signed body goes nowhere else', () => {
    it.each([301, 302, 303, 307, 308])('HTTP %i on a read and on a create', async (status) => {
      const elsewhere = await serve((_req, res) => res.end('{}'));
      const gateway = await serve((_req, res) => {
        res.writeHead(status, { location: `${elsewhere.url}/collect` });
        res.end();
      });
      const gatewayClient = client(gateway.url);
      for (const call of [() => gatewayClient.query({ mchOrderNo: 'order-1' }), () => gatewayClient.unifiedOrder(ORDER)]) {
        const error = await call().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(GatewayHttpStatusError);
        expect((error as GatewayHttpStatusError).status).toBe(status);
        expect((error as Error).message).toMatch(/redirected .*never followed.*check baseUrl/);
      }
      // One attempt each: a redirect is not retried, and a create's redirect is not "reconciled" by a lookup.
      expect(gateway.hits).toEqual(['/api/pay/query', '/api/pay/unifiedOrder']);
      expect(elsewhere.hits).toEqual([]);
    });
  });

  describe('response bodies are read capped, counting decoded bytes', () => {
    it('a 200 MiB body: reading stops just past maxResponseBytes, the connection is dropped, memory stays flat', async () => {
      let written = 0;
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const gateway = await serve((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"code":200,"data":{"x":"');
        const pump = () => {
          while (written < 200 * MiB && !res.destroyed) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end('"}}');
        };
        res.on('close', () => res.destroy());
        pump();
      });
      gc();
      const heapBefore = process.memoryUsage().heapUsed;
      const error = await client(gateway.url, { retry: { maxRetries: 0 } }).query({ mchOrderNo: 'order-1' }).catch((e: unknown) => e);
      const heapAfter = process.memoryUsage().heapUsed;
      console.log(`200 MiB body: ${(written / MiB).toFixed(1)} MiB sent before the client hung up, heap +${((heapAfter - heapBefore) / MiB).toFixed(1)} MiB`);
      expect(error).toBeInstanceOf(GatewayResponseTooLargeError);
      expect((error as GatewayResponseTooLargeError).maxBytes).toBe(MiB);
      expect((error as Error).message).toMatch(/larger than maxResponseBytes \(1048576 bytes\)/);
      // The socket's buffers may hold a few MiB in flight; 200 MiB were never sent, let alone kept.
      expect(written).toBeLessThan(32 * MiB);
      expect(heapAfter - heapBefore).toBeLessThan(32 * MiB);
    });

    it('the refusal drops the connection: the server sees its response closed, not a body queued forever', async () => {
      let closed!: () => void;
      const serverSawClose = new Promise<void>((resolve) => (closed = resolve));
      const chunk = Buffer.alloc(16 * 1024, 'a');
      const gateway = await serve((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.on('close', closed);
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
      });
      const error = await client(gateway.url, { maxResponseBytes: 100_000, retry: { maxRetries: 0 } }).query({ mchOrderNo: 'order-1' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayResponseTooLargeError);
      await serverSawClose;
    }, 5_000);

    it('a body nested 400,000 levels deep beside the data (under the cap) is judged, and a create is not sent again', async () => {
      const deep = `${'['.repeat(400_000)}${']'.repeat(400_000)}`;
      const gateway = await serve((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"code":200,"msg":"SUCCESS","x":${deep},"data":{"payOrderId":"P1"},"sign":"0123456789ABCDEF0123456789ABCDEF"}`);
      });
      const error = await client(gateway.url, { retry: { maxRetries: 2, initialDelayMs: 1 } }).unifiedOrder(ORDER).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayOutcomeUnknownError);
      expect(gateway.hits.filter((path) => path === '/api/pay/unifiedOrder')).toHaveLength(1);
    });

    it('a gzip bomb (64 KiB on the wire, 64 MiB inflated) is refused after 1 MiB of decoded text', async () => {
      const bomb = gzipSync(Buffer.concat([Buffer.from('{"code":200,"data":{"x":"'), Buffer.alloc(64 * MiB, '0'), Buffer.from('"}}')]));
      expect(bomb.length).toBeLessThan(128 * 1024);
      const gateway = await serve((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': bomb.length });
        res.end(bomb);
      });
      const error = await client(gateway.url, { retry: { maxRetries: 0 } }).query({ mchOrderNo: 'order-1' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayResponseTooLargeError);
    });

    it('a declared Content-Length over the cap is refused before reading (no wait for a body that never comes)', async () => {
      const gateway = await serve((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 5 * MiB });
        res.write('{');
      });
      const error = await client(gateway.url, { timeout: 60_000, retry: { maxRetries: 0 } }).query({ mchOrderNo: 'order-1' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayResponseTooLargeError);
    }, 10_000);

    it('maxResponseBytes is a client option: a genuine response over a small cap is refused, under it accepted', async () => {
      const body = signedEnvelope({ payOrderId: 'P1', mchNo: MERCHANT.mchNo, appId: MERCHANT.appId, mchOrderNo: 'order-1', ifCode: 'coin', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', state: 1, subject: 's', body: 'b', createdAt: 1_700_000_000_000 }, MERCHANT.secret);
      const gateway = await serve((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
      });
      const bytes = Buffer.byteLength(body);
      await expect(client(gateway.url, { maxResponseBytes: bytes - 1, retry: { maxRetries: 0 } }).query({ mchOrderNo: 'order-1' })).rejects.toBeInstanceOf(GatewayResponseTooLargeError);
      await expect(client(gateway.url, { maxResponseBytes: bytes }).query({ mchOrderNo: 'order-1' })).resolves.toMatchObject({ payOrderId: 'P1' });
    });

    it.each([0, -1, 1.5, '1024', null])('maxResponseBytes %j is refused at construction', (value) => {
      expect(() => client('http://127.0.0.1:1', { maxResponseBytes: value as number })).toThrow(GatewayValidationError);
    });

    it('a body that trickles forever is cut by the attempt timeout, whose message names the setting', async () => {
      const gateway = await serve((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const timer = setInterval(() => res.write(' '), 20);
        res.on('close', () => clearInterval(timer));
      });
      const error = await client(gateway.url, { timeout: 200, retry: { maxRetries: 0 } }).query({ mchOrderNo: 'order-1' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayTimeoutError);
      expect((error as Error).message).toMatch(/^query got no complete response within timeout \(200 ms\) \(\d attempts? in \d+ ms\)\. Nothing changed on the gateway/);
    });
  });
});
