/**
 * `listen()`: the mock on a real `node:http` server on loopback. `node:http` is loaded only here, through
 * `process.getBuiltinModule`, so the rest of the mock (its `fetch`) runs on runtimes without Node APIs.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Outcome } from './respond.js';

/**
 * Where {@link MockGateway.listen} listens. Defaults: `127.0.0.1`, an ephemeral port.
 *
 * @example
 * ```ts
 * const server = await gateway.listen({ port: 0 });
 * ```
 */
export interface ListenOptions {
  /** TCP port; `0` (default) picks a free one. */
  port?: number | undefined;
  /** Interface to bind; default `127.0.0.1` (loopback only). */
  host?: string | undefined;
}

/**
 * A running mock gateway server. Give `url` to the client as `baseUrl`; `close()` it when done.
 *
 * @example
 * ```ts
 * const server: MockGatewayServer = await gateway.listen();
 * const client = new GatewayClient({ baseUrl: server.url, mchNo, appId, secret });
 * await server.close();
 * ```
 */
export interface MockGatewayServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

type NodeHttp = typeof import('node:http');

/** Serves `handle` over HTTP until closed. */
export async function listenOnNode(handle: (request: Request) => Promise<Outcome>, options: ListenOptions = {}): Promise<MockGatewayServer> {
  const http = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:http') as NodeHttp | undefined;
  if (!http) throw new Error('gateway.listen() needs node:http (Node >= 22.12, Bun or Deno). On other runtimes use gateway.fetch.');
  const host = options.host ?? '127.0.0.1';
  const server = http.createServer((req, res) => {
    serve(handle, host, req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`mock gateway failure: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : Number(options.port);
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function serve(handle: (request: Request) => Promise<Outcome>, host: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const method = req.method ?? 'GET';
  const request = new Request(`http://${req.headers.host ?? host}${req.url ?? '/'}`, {
    method,
    headers,
    ...(method === 'GET' || method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }),
  });
  const outcome = await handle(request);
  if (outcome.kind === 'reset') {
    // An RST, not a polite FIN: the client sees ECONNRESET, as when a proxy or the network drops the line.
    req.socket.resetAndDestroy();
    return;
  }
  const { response } = outcome;
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}
