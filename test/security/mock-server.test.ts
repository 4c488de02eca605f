// Attacks on the mock's HTTP server (gateway.listen, which `payment-gateway-sdk mock` runs) from web pages
// on the same machine, through real HTTP on 127.0.0.1 with forged headers (issue 16, item 7): DNS
// rebinding (a foreign Host), cross-site requests (a foreign Origin), oversized bodies, and links built from
// the request's Host.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient, PayOrderState } from '../../src/index.js';
import { AddressPolicy } from '../../src/testing/http/address-policy.js';
import { createMockGateway, type MockGateway, type MockGatewayServer } from '../../src/testing/index.js';
import { common, MERCHANT, orderFields, PATHS, signed, START } from '../support/raw-gateway.js';

interface Sent {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Leave the Host header out. */
  noHost?: boolean;
}

/** One request with exactly these headers (fetch would not let a page, or a test, choose Host). */
function send(server: MockGatewayServer, path: string, { method = 'GET', headers = {}, body, noHost = false }: Sent = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, method, path, headers, setHost: !noHost && !('host' in headers) }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const EVIL_PAGE = { origin: 'https://evil.example', 'content-type': 'text/plain' };
const signedBody = (fields: Parameters<typeof signed>[0]) => JSON.stringify(signed({ ...common(), ...fields }));

let gateway: MockGateway;
let server: MockGatewayServer;
let own: string;
beforeAll(async () => {
  gateway = createMockGateway({ merchants: [MERCHANT], startTime: START });
  server = await gateway.listen();
  own = `127.0.0.1:${server.port}`;
});
afterAll(() => server?.close());

async function newOrder(mchOrderNo: string, headers: Record<string, string> = {}): Promise<{ payOrderId: string; payData: string }> {
  const answer = await send(server, PATHS.unifiedOrder, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: signedBody(orderFields({ mchOrderNo })) });
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.text) as { data: { payOrderId: string; payData: string } }).data;
}

describe('DNS rebinding: only requests addressed to the mock itself are answered', () => {
  it('a foreign Host cannot read /_mock/state, the dashboard or a cashier page (403 naming the accepted hosts)', async () => {
    const order = await newOrder('rebind-1');
    for (const host of ['evil.example', `evil.example:${server.port}`, `127.0.0.1.evil.example:${server.port}`, `127.0.0.1:${server.port + 1}`, `localhost:${server.port}.evil.example`]) {
      for (const path of ['/_mock/state', '/', `/cashier/${order.payOrderId}`]) {
        const answer = await send(server, path, { headers: { host } });
        expect(answer.status, `${host} ${path}`).toBe(403);
        expect(answer.text).toContain(`this mock answers only requests addressed to itself: 127.0.0.1:${server.port}, localhost:${server.port}`);
        expect(answer.text).not.toContain('rebind-1');
      }
    }
    // Without a Host header (node:http itself refuses an HTTP/1.1 request without one).
    const hostless = await send(server, '/_mock/state', { noHost: true });
    expect(hostless.status).toBeGreaterThanOrEqual(400);
    expect(hostless.text).not.toContain('rebind-1');
    // An absolute-form target names another host inside the request line.
    expect((await send(server, 'http://evil.example/_mock/state', { headers: { host: own } })).status).toBe(403);
  });

  it('the listen address and localhost (any case) are answered', async () => {
    for (const host of [own, `localhost:${server.port}`, `LocalHost:${server.port}`]) {
      const answer = await send(server, '/_mock/state', { headers: { host } });
      expect(answer.status, host).toBe(200);
      expect(answer.text).toContain('rebind-1');
    }
  });
});

describe('cross-site requests: a state-changing request from another origin is refused', () => {
  it('Pay, Fail, faults, the clock, notifications, the cashier and the operations: 403 each, and nothing changes', async () => {
    const order = await newOrder('csrf-1');
    const armed = gateway.injectFault({ kind: 'html502', operation: 'settleRequestGet' });
    const clock = gateway.now();
    const attacks: [string, string, string?][] = [
      ['POST', `/_mock/orders/${order.payOrderId}/pay`],
      ['POST', `/_mock/orders/${order.payOrderId}/fail`, '{"errCode":"X"}'],
      ['POST', '/_mock/faults', '{"kind":"wrongSign","times":1000}'],
      ['DELETE', '/_mock/faults'],
      ['POST', '/_mock/clock/advance', '{"ms":86400000}'],
      ['POST', '/_mock/notifications/deliver'],
      ['POST', `/cashier/${order.payOrderId}/pay`],
      ['POST', `/cashier/${order.payOrderId}/fail`],
      ['POST', PATHS.close, signedBody({ mchOrderNo: 'csrf-1' })],
      ['POST', PATHS.unifiedOrder, signedBody(orderFields({ mchOrderNo: 'csrf-2' }))],
    ];
    for (const origin of ['https://evil.example', 'null', `http://127.0.0.1:${server.port + 1}`, `https://127.0.0.1:${server.port}`, `http://localhost.evil.example:${server.port}`]) {
      for (const [method, path, body] of attacks) {
        const answer = await send(server, path, { method, headers: { ...EVIL_PAGE, origin }, ...(body ? { body } : {}) });
        expect(answer.status, `${origin} ${method} ${path}`).toBe(403);
        expect(answer.text).toContain(`only the mock's own pages (http://127.0.0.1:${server.port}, http://localhost:${server.port}) may change its state`);
      }
    }
    expect(gateway.order('csrf-1')?.state).toBe(PayOrderState.Generated);
    expect(gateway.order('csrf-2')).toBeUndefined();
    expect(gateway.now()).toBe(clock);
    expect(armed.remaining).toBe(1);
    // No wrongSign fault was armed: the SDK's signed query verifies.
    const client = new GatewayClient({ baseUrl: server.url, ...MERCHANT });
    expect((await client.query({ mchOrderNo: 'csrf-1' })).state).toBe(PayOrderState.Generated);
    armed.cancel();
  });

  it("the mock's own pages (same origin, either host) and clients without Origin keep working; reads from any page are answered", async () => {
    const first = await newOrder('own-1', { origin: `http://${own}` });
    expect((await send(server, `/_mock/orders/${first.payOrderId}/pay`, { method: 'POST', headers: { origin: `http://${own}` } })).status).toBe(200);
    const second = await newOrder('own-2');
    const viaLocalhost = await send(server, `/cashier/${second.payOrderId}/fail`, { method: 'POST', headers: { host: `localhost:${server.port}`, origin: `http://localhost:${server.port}` } });
    expect(viaLocalhost.status).toBe(303);
    const third = await newOrder('own-3');
    expect((await send(server, `/_mock/orders/${third.payOrderId}/pay`, { method: 'POST' })).status).toBe(200);
    expect([gateway.order('own-1')?.state, gateway.order('own-2')?.state, gateway.order('own-3')?.state]).toEqual([2, 3, 2]);
    expect((await send(server, '/_mock/state', { headers: EVIL_PAGE })).status).toBe(200);
  });
});

describe('links and payData use the listen address or the public URL, never the Host header', () => {
  it('an order created through localhost gets a payData on the listen address; the pages link there too', async () => {
    const order = await newOrder('links-1', { host: `localhost:${server.port}` });
    expect(order.payData).toBe(`http://${own}/cashier/${order.payOrderId}`);
    const dashboard = await send(server, '/', { headers: { host: `localhost:${server.port}` } });
    expect(dashboard.text).toContain(`href="http://${own}/cashier/${order.payOrderId}"`);
    expect(dashboard.text).not.toContain(`localhost:${server.port}/cashier`);
  });

  it('listen({ publicUrl }): payData and links use it, its host and origin are accepted; a URL with a path is refused', async () => {
    const shared = createMockGateway({ merchants: [MERCHANT], startTime: START });
    const tunnel = await shared.listen({ publicUrl: 'https://Mock.Example' });
    try {
      const created = await send(tunnel, PATHS.unifiedOrder, { method: 'POST', headers: { host: 'mock.example', origin: 'https://mock.example' }, body: signedBody(orderFields({ mchOrderNo: 'pub-1' })) });
      const { payOrderId, payData } = (JSON.parse(created.text) as { data: { payOrderId: string; payData: string } }).data;
      expect(payData).toBe(`https://mock.example/cashier/${payOrderId}`);
      expect((await send(tunnel, `/cashier/${payOrderId}`, { headers: { host: `127.0.0.1:${tunnel.port}` } })).text).toContain(`action="https://mock.example/cashier/${payOrderId}/pay"`);
      expect((await send(tunnel, '/_mock/state', { headers: { host: 'evil.example' } })).text).toContain(`127.0.0.1:${tunnel.port}, localhost:${tunnel.port}, mock.example`);
    } finally {
      await tunnel.close();
    }
    for (const bad of ['https://mock.example/gateway', 'ftp://mock.example', 'https://user:pw@mock.example', 'mock.example']) {
      await expect(shared.listen({ publicUrl: bad }), bad).rejects.toThrow(/Invalid listen options: publicUrl: must be an http\(s\) origin/);
    }
  });

  // Tests listen on 127.0.0.1 only: binding 0.0.0.0 would expose the mock and its control API to the LAN
  // while they run. The wildcard logic is the AddressPolicy's, given the interfaces a machine could have.
  it("on a wildcard address (AddressPolicy, nothing bound): the machine's own addresses and localhost are answered, other names are not; payData uses the address the connection came in on", () => {
    let interfaces = ['127.0.0.1', '192.168.1.20', 'fe80::1'];
    const policy = new AddressPolicy('0.0.0.0', 4010, undefined, () => interfaces);
    for (const host of ['127.0.0.1:4010', '192.168.1.20:4010', '[fe80::1]:4010', 'LOCALHOST:4010', '0.0.0.0:4010']) {
      expect(policy.refusal('GET', '/_mock/state', host, undefined), host).toBeUndefined();
    }
    expect(policy.refusal('POST', '/_mock/clock/advance', '192.168.1.20:4010', 'http://192.168.1.20:4010'), 'its own page, on the LAN address').toBeUndefined();
    for (const host of ['evil.example:4010', '192.168.1.21:4010', '192.168.1.20:4011', '192.168.1.20']) {
      expect(policy.refusal('GET', '/_mock/state', host, undefined), host).toMatch(/^mock gateway: refused: the Host header/);
    }
    expect(policy.refusal('GET', '/', 'evil.example:4010', undefined)).toContain('addressed to itself: 0.0.0.0:4010, localhost:4010, 127.0.0.1:4010, 192.168.1.20:4010, [fe80::1]:4010.');
    expect(policy.refusal('POST', '/_mock/clock/advance', '192.168.1.20:4010', 'http://evil.example')).toMatch(/refused: a POST from the web page at "http:\/\/evil\.example"/);
    // Asked on each request: an address the machine gets later (a new DHCP lease) is its own too, an old one no longer.
    interfaces = ['127.0.0.1', '10.0.0.7'];
    expect(policy.refusal('GET', '/', '10.0.0.7:4010', undefined)).toBeUndefined();
    expect(policy.refusal('GET', '/', '192.168.1.20:4010', undefined)).toBeDefined();
    // payData and links: the address the connection came in on (an IPv4 client of a `::` server unmapped).
    expect(policy.origin('192.168.1.20')).toBe('http://192.168.1.20:4010');
    expect(policy.origin('127.0.0.1')).toBe('http://127.0.0.1:4010');
    expect(new AddressPolicy('::', 4010, undefined, () => interfaces).origin('::ffff:10.0.0.7')).toBe('http://10.0.0.7:4010');
    expect(new AddressPolicy('::', 4010, undefined, () => interfaces).origin('fe80::1')).toBe('http://[fe80::1]:4010');
    // Not on a wildcard address: the interfaces are not its own, and links stay on the listen address.
    const loopback = new AddressPolicy('127.0.0.1', 4010, undefined, () => interfaces);
    expect(loopback.refusal('GET', '/', '10.0.0.7:4010', undefined)).toBeDefined();
    expect(loopback.origin('10.0.0.7')).toBe('http://127.0.0.1:4010');
  });

  it('the listen and public origins: an IPv6 address in brackets once, however it was given; the public URL as an origin', () => {
    for (const host of ['::1', '[::1]']) expect(new AddressPolicy(host, 4010, undefined, () => []).listenOrigin, host).toBe('http://[::1]:4010');
    const tunnel = new AddressPolicy('127.0.0.1', 4010, new URL('https://Mock.Example/'), () => []);
    expect(tunnel).toMatchObject({ listenOrigin: 'http://127.0.0.1:4010', publicOrigin: 'https://mock.example' });
    expect(tunnel.origin('127.0.0.1')).toBe('https://mock.example');
    expect(new AddressPolicy('0.0.0.0', 4010, new URL('https://mock.example'), () => []).origin('192.168.1.20')).toBe('https://mock.example');
  });
});

describe('request bodies are capped', () => {
  const MiB = 1024 * 1024;

  /** Streams `total` bytes in 64 KiB chunks (one buffer reused) until the server answers; what it wrote and got. */
  function stream(total: number, headers: Record<string, string>): Promise<{ status: number; text: string; written: number; peakMemory: number }> {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const memory = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    const before = memory();
    let peak = before;
    let written = 0;
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: server.port, method: 'POST', path: PATHS.unifiedOrder, headers });
      let answered = false;
      req.on('response', (res) => {
        answered = true;
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, text, written, peakMemory: peak - before });
          req.destroy();
        });
      });
      req.on('error', (error) => (answered ? undefined : reject(error)));
      const pump = () => {
        while (!answered && written < total) {
          written += chunk.length;
          peak = Math.max(peak, memory());
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        if (!answered) req.end();
      };
      pump();
    });
  }

  it('a 400 MiB chunked body: 413, reading stops just past 1 MiB, memory stays flat, and the mock goes on', async () => {
    const answer = await stream(400 * MiB, { 'content-type': 'application/json' });
    expect(answer.status).toBe(413);
    expect(answer.text).toContain('the request body is over 1048576 bytes');
    console.log(`400 MiB chunked: ${(answer.written / MiB).toFixed(1)} MiB written before the 413, memory peak +${(answer.peakMemory / MiB).toFixed(1)} MiB`);
    // What the sockets buffer on both sides, and not more: the server stopped reading.
    expect(answer.written).toBeLessThan(32 * MiB);
    expect(answer.peakMemory).toBeLessThan(48 * MiB);
    expect((await send(server, '/_mock/state')).status).toBe(200);
  });

  it('a declared Content-Length over 1 MiB is answered 413 before the body is read', async () => {
    const answer = await stream(400 * MiB, { 'content-type': 'application/json', 'content-length': String(400 * MiB) });
    expect(answer.status).toBe(413);
    expect(answer.written).toBeLessThan(32 * MiB);
  });

  it('the control API keeps its 16 KiB; an operation body under 1 MiB is still read', async () => {
    const control = await send(server, '/_mock/clock/advance', { method: 'POST', body: JSON.stringify({ ms: 1, pad: 'x'.repeat(20_000) }) });
    expect(control.status).toBe(413);
    const padded = await send(server, PATHS.query, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...signed({ ...common(), mchOrderNo: 'csrf-1' }), pad: 'x'.repeat(900_000) }) });
    expect(padded.status).toBe(200);
    expect(JSON.parse(padded.text)).toMatchObject({ code: 200, data: { mchOrderNo: 'csrf-1' } });
  });
});
