/**
 * A node:http proxy on loopback in front of the mock gateway that breaks requests the way networks do:
 * before the gateway sees them, or after it has processed them. Each incoming request asks `decide()`
 * what to do to it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type ProxyFault =
  | 'none'
  | 'resetBefore' // connection reset before the gateway saw the request
  | 'resetAfter' // processed, then the connection is reset
  | 'stallBefore' // never answers, never forwards
  | 'stallAfter' // processed, then never answers
  | 'html502Before' // a proxy 502 page without forwarding
  | 'html502After' // processed, answered with a 502 page
  | 'truncatedAfter' // processed, the body cut in the middle
  | 'emptyAfter' // processed, an empty 200
  | 'wrongSignAfter' // processed, the sign altered
  | 'status408Before' // an unsigned 408 without forwarding (a proxy's request timeout)
  | 'status408After' // processed, then an unsigned 408
  | 'status429Before' // an unsigned 429 without forwarding (a rate limiter)
  | 'status429After' // processed, then an unsigned 429 (a rate limiter behind the gateway, or the gateway itself)
  | `refusedAfter:${string}` // processed (the record stored), then refused with this text, as the reference can
  | `refusedBefore:${string}`; // refused with this text without forwarding (nothing stored)

export const PROXY_FAULTS: readonly ProxyFault[] = [
  'resetBefore', 'resetAfter', 'stallBefore', 'stallAfter', 'html502Before', 'html502After', 'truncatedAfter', 'emptyAfter', 'wrongSignAfter',
];

export interface FaultProxy {
  readonly url: string;
  /** How often each fault struck. */
  readonly struck: Map<ProxyFault, number>;
  close(): Promise<void>;
}

export async function startFaultProxy(target: string, decide: (path: string, body: string) => ProxyFault): Promise<FaultProxy> {
  const struck = new Map<ProxyFault, number>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.socket?.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const fault = decide(req.url ?? '', Buffer.concat(chunks).toString('utf8'));
    struck.set(fault, (struck.get(fault) ?? 0) + 1);
    if (fault === 'resetBefore') return void req.socket.destroy();
    if (fault === 'stallBefore') return;
    if (fault === 'html502Before') return void res.writeHead(502, { 'content-type': 'text/html' }).end('<html><h1>502 Bad Gateway</h1></html>');
    const before = unsignedStatus(fault, 'Before') ?? refusal(fault, 'refusedBefore:');
    if (before) return void res.writeHead(before.status, before.headers).end(before.body);
    const upstream = await fetch(target + (req.url ?? ''), { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) });
    const body = await upstream.text();
    switch (fault) {
      case 'resetAfter':
        return void req.socket.destroy();
      case 'stallAfter':
        return;
      case 'html502After':
        return void res.writeHead(502, { 'content-type': 'text/html' }).end('<html><h1>502 Bad Gateway</h1></html>');
      case 'truncatedAfter':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
        res.write(body.slice(0, Math.floor(body.length / 2)));
        return void setTimeout(() => req.socket.destroy(), 1);
      case 'emptyAfter':
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('');
      case 'wrongSignAfter':
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(body.replace(/"sign":"([0-9A-F])/, (_m, c: string) => `"sign":"${c === '0' ? '1' : '0'}`));
      default: {
        const after = unsignedStatus(fault, 'After') ?? refusal(fault, 'refusedAfter:');
        if (after) return void res.writeHead(after.status, after.headers).end(after.body);
        return void res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(body);
      }
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    struck,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port that refuses connections: bound, then released. */
export async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An answer a fault puts in place of the gateway's. */
interface CannedAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** The unsigned 408 or 429 a `status…` fault answers at this moment, as a proxy or rate limiter would. */
function unsignedStatus(fault: ProxyFault, when: 'Before' | 'After'): CannedAnswer | undefined {
  if (fault === `status408${when}`) return { status: 408, headers: { 'content-type': 'text/plain', connection: 'close' }, body: 'Request Timeout' };
  if (fault === `status429${when}`) return { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '1' }, body: '{"error":"rate limited"}' };
  return undefined;
}

/** The reference's unsigned refusal envelope that a `refusedBefore:` or `refusedAfter:` fault answers. */
function refusal(fault: ProxyFault, prefix: 'refusedBefore:' | 'refusedAfter:'): CannedAnswer | undefined {
  if (!fault.startsWith(prefix)) return undefined;
  return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: 9999, msg: fault.slice(prefix.length) }) };
}

/**
 * The same faults in process, around a `fetch` (the mock's): for the tests that run a client without sockets. A
 * reset is the network error `fetch` throws; stalls are not offered here.
 */
export function faultyFetch(target: typeof fetch, decide: (path: string, body: string) => ProxyFault): typeof fetch {
  const canned = ({ status, headers, body }: CannedAnswer) => new Response(body, { status, headers });
  return async (input, init) => {
    const request = new Request(input, init);
    const body = await request.clone().text();
    const fault = decide(new URL(request.url).pathname, body);
    if (fault === 'resetBefore') throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    if (fault === 'html502Before') return new Response('<html><h1>502 Bad Gateway</h1></html>', { status: 502, headers: { 'content-type': 'text/html' } });
    const before = unsignedStatus(fault, 'Before') ?? refusal(fault, 'refusedBefore:');
    if (before) return canned(before);
    const upstream = await target(request);
    if (fault === 'resetAfter') throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    if (fault === 'html502After') return new Response('<html><h1>502 Bad Gateway</h1></html>', { status: 502, headers: { 'content-type': 'text/html' } });
    const after = unsignedStatus(fault, 'After') ?? refusal(fault, 'refusedAfter:');
    return after ? canned(after) : upstream;
  };
}
