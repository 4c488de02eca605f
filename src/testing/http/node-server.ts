/**
 * `listen()`: the mock on a real `node:http` server on loopback. `node:http` is loaded only here, through
 * `process.getBuiltinModule`, so the rest of the mock (its `fetch`) runs on runtimes without Node APIs.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as z from 'zod/mini';
import { readCappedStream } from '../../util/read-capped-stream.js';
import { requiredText, safeInteger } from '../../protocol/schemas/fields.js';
import { parseInput } from '../../protocol/schemas/parse.js';
import { AddressPolicy, publicOriginSchema } from './address-policy.js';
import { BodyTooLarge, declaresTooMuch, MAX_OPERATION_BODY_BYTES, tooLargeResponse } from './request-body.js';
import type { Outcome } from './respond.js';

/**
 * Where {@link MockGateway.listen} listens, and the URL it gives out. Defaults: `127.0.0.1`, an ephemeral
 * port, links and `payData` on the listen address.
 *
 * The server answers only requests addressed to itself: a `Host` other than the listen address
 * (`host:port`), `localhost:port` or the public URL's host is refused (403), so a web page whose name
 * resolves to this machine (DNS rebinding) cannot read the mock; on a wildcard address (`0.0.0.0`, `::`) the
 * machine's own interface addresses are accepted too. A request that changes state (any method but GET
 * and HEAD) sent by a web page of another origin (an `Origin` header that is not the mock's own, `null`
 * included) is refused (403); requests without `Origin` (your backend, the SDK, curl) are not. Bodies are
 * capped at 1 MiB (413).
 *
 * @example
 * ```ts
 * const server = await gateway.listen({ port: 0 });
 * // Reached through a tunnel or from a phone on the LAN: links and payData use that URL.
 * const shared = await gateway.listen({ host: '0.0.0.0', port: 4010, publicUrl: 'http://192.168.1.20:4010' });
 * ```
 */
export interface ListenOptions {
  /** TCP port; `0` (default) picks a free one. */
  port?: number | undefined;
  /** Interface to bind; default `127.0.0.1` (loopback only). */
  host?: string | undefined;
  /**
   * The origin people and clients reach the mock by, when it is not the listen address (a LAN address, a
   * tunnel, a reverse proxy): an http(s) origin without a path, e.g. `https://mock.example`. Pages and
   * `payData` use it, and its host is accepted in `Host` and `Origin`. Default: the listen address.
   */
  publicUrl?: string | undefined;
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
  /** The listen address, `http://127.0.0.1:<port>` by default (links and `payData` use {@link ListenOptions.publicUrl} when given). */
  readonly url: string;
  /** Where people reach it, as an origin: {@link ListenOptions.publicUrl} when given, else {@link MockGatewayServer.url}. The command prints its dashboard there. */
  readonly publicUrl: string;
  readonly port: number;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** Checks {@link ListenOptions}. */
const listenOptionsSchema = z.strictObject({
  port: z.optional(safeInteger(0).check(z.maximum(65535, { error: 'must be at most 65535' }))),
  host: z.optional(requiredText()),
  publicUrl: z.optional(publicOriginSchema),
});

type NodeHttp = typeof import('node:http');

/** Serves `handle` over HTTP until closed. */
export async function listenOnNode(handle: (request: Request) => Promise<Outcome>, options: ListenOptions = {}): Promise<MockGatewayServer> {
  const { host = '127.0.0.1', port: requested = 0, publicUrl: publicText } = parseInput(listenOptionsSchema, options, 'Invalid listen options', 'options');
  const http = builtin<NodeHttp>('node:http');
  if (!http) throw new Error('gateway.listen() needs node:http (Node >= 22.12, Bun or Deno). On other runtimes use gateway.fetch.');
  const publicUrl = publicText === undefined ? undefined : new URL(publicText);
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(requested, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : requested;
  // Known once listening (port 0 picks one); requests are served from then on.
  const policy = new AddressPolicy(host, port, publicUrl, interfaceAddresses);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    serve(handle, policy, req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`mock gateway failure: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  return {
    url: policy.listenOrigin,
    publicUrl: policy.publicOrigin,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function serve(handle: (request: Request) => Promise<Outcome>, policy: AddressPolicy, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  const target = req.url ?? '/';
  const refusal = policy.refusal(method, target, req.headers.host, req.headers.origin);
  if (refusal !== undefined) return send(res, new Response(refusal, { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8', connection: 'close' } }));
  if (declaresTooMuch(req.headers['content-length'], MAX_OPERATION_BODY_BYTES)) return send(res, tooLargeResponse(new BodyTooLarge(MAX_OPERATION_BODY_BYTES)));
  // Read through an iterator without return(): leaving the loop early must not destroy the socket before
  // the 413 is written. Unread, the rest of the body waits in the socket: TCP stops the sender.
  const chunks = req[Symbol.asyncIterator]();
  const body = await readCappedStream({ [Symbol.asyncIterator]: () => ({ next: () => chunks.next() }) }, MAX_OPERATION_BODY_BYTES);
  if (!body.complete) return send(res, tooLargeResponse(new BodyTooLarge(MAX_OPERATION_BODY_BYTES)));
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  // The URL the mock sees, and builds its links and payData from, is its own address, never the Host header.
  // The client hanging up aborts the request: a stalled answer (the `stall` fault) then ends.
  const hungUp = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) hungUp.abort();
  });
  const request = new Request(`${policy.origin(req.socket.localAddress)}${target}`, {
    method,
    headers,
    signal: hungUp.signal,
    ...(method === 'GET' || method === 'HEAD' ? {} : { body: body.bytes as Uint8Array<ArrayBuffer> }),
  });
  const outcome = await handle(request);
  if (outcome.kind === 'reset') {
    // An RST, not a polite FIN: the client sees ECONNRESET, as when a proxy or the network drops the line.
    req.socket.resetAndDestroy();
    return;
  }
  await send(res, outcome.response);
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

/** The machine's interface addresses, for a server on a wildcard address. */
function interfaceAddresses(): string[] {
  const os = builtin<typeof import('node:os')>('node:os');
  return Object.values(os?.networkInterfaces() ?? {}).flatMap((entries) => (entries ?? []).map((entry) => entry.address));
}

/** A Node built-in module, or `undefined` on runtimes without them. */
function builtin<T>(id: string): T | undefined {
  return (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(id) as T | undefined;
}
