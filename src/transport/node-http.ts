/**
 * The exchange on Node over node:http(s) with a keep-alive agent (issue 39): the same request and answer as the
 * fetch path (a status, headers and a capped body), at a fraction of fetch's cost. Loaded through
 * `process.getBuiltinModule`, so the bundle stays platform neutral and other runtimes keep `fetch`.
 *
 * @module
 */
import type { CappedRead } from '../util/read-capped-stream.js';
import { readCappedStream } from '../util/read-capped-stream.js';

/** An answer whose body is read at most once, capped, or dropped. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  /** Reads the decoded body (after any Content-Encoding), stopping past `maxBytes`; read errors are the caller's to word. */
  read(maxBytes: number): Promise<CappedRead>;
  /** Drops the body unread (a redirect, a body declared too large). */
  discard(): void;
}

/**
 * Sends the signed JSON text and resolves to the answer's head; a failure rejects with the socket's error (its
 * `code`), marked {@link failedAfterConnect} once the connection was made. `fresh`: on a new connection, closed
 * after the answer, never a pooled one.
 */
export type NodeSend = (url: string, body: string, signal: AbortSignal, fresh?: boolean) => Promise<Answer>;

type Http = typeof import('node:http');
type Https = typeof import('node:https');
type Zlib = typeof import('node:zlib');
type IncomingMessage = import('node:http').IncomingMessage;

/** `process.getBuiltinModule` on Node itself; `undefined` elsewhere (Bun, Deno and workerd keep fetch). */
function nodeBuiltins(): ((id: string) => unknown) | undefined {
  const userAgent = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent;
  if (typeof userAgent !== 'string' || !userAgent.startsWith('Node.js/')) return undefined;
  return (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
}

// One keep-alive agent per scheme for the process, as fetch has one dispatcher: a client made per request must not
// keep idle sockets of its own. Each made on the first call of its scheme, so an http:// gateway never loads
// node:https (and TLS); pooled by the baseUrl's host (config, nothing received).
let httpAgent: import('node:http').Agent | undefined;
let httpsAgent: import('node:https').Agent | undefined;

/**
 * A sender over node:http(s), or `undefined` when this is not Node. The process's agents keep connections alive
 * between calls (idle sockets do not hold the process open).
 */
export function createNodeSend(): NodeSend | undefined {
  const builtin = nodeBuiltins();
  if (!builtin) return undefined;
  return (url, body, signal, fresh = false) => {
    const secure = url.startsWith('https:');
    const scheme = builtin(secure ? 'node:https' : 'node:http') as Http | Https;
    const agent = secure ? (httpsAgent ??= new (scheme as Https).Agent({ keepAlive: true })) : (httpAgent ??= new (scheme as Http).Agent({ keepAlive: true }));
    const length = Buffer.byteLength(body);
    return new Promise<Answer>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const headers = { 'content-type': 'application/json', accept: 'application/json', 'content-length': String(length) };
      // agent false: a one-off agent, `Connection: close`, so no idle socket the server is closing is written to.
      const request = scheme.request(url, { method: 'POST', headers, agent: fresh ? false : agent, signal }, (response) => {
        resolve(answerOf(response, builtin));
      });
      let connected = false;
      request.on('socket', (socket) => {
        if (socket.connecting) socket.once('connect', () => (connected = true));
        else connected = true; // a pooled connection
      });
      // After the answer too: a reset mid-body is the body read's to report.
      request.on('error', (error) => reject(connected ? Object.assign(error, { [AFTER_CONNECT]: true }) : error));
      request.end(body);
    });
  };
}

const AFTER_CONNECT = Symbol('failed after the connection was made');

/**
 * Whether a failure came once the connection was made: the request's bytes may have left, whatever its code says
 * (a host unreachable reported minutes after the connection, as Linux does once retransmissions give up).
 */
export function failedAfterConnect(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { [AFTER_CONNECT]?: boolean })[AFTER_CONNECT] === true;
}

// What the fetch path decodes: a server that compresses anyway is read decoded, and capped after decoding.
const DECODERS = { gzip: 'createGunzip', 'x-gzip': 'createGunzip', deflate: 'createInflate', br: 'createBrotliDecompress' } as const;

function answerOf(response: IncomingMessage, builtin: (id: string) => unknown): Answer {
  const headers = new Headers();
  const raw = response.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return {
    status: response.statusCode ?? 0,
    headers,
    read(maxBytes) {
      const encoding = headers.get('content-encoding')?.trim().toLowerCase();
      if (!encoding || encoding === 'identity') return readCappedStream(response, maxBytes);
      const decoder = DECODERS[encoding as keyof typeof DECODERS];
      if (!decoder) return Promise.reject(new Error(`unsupported content-encoding ${JSON.stringify(encoding.slice(0, 40))}`));
      const decoded = (builtin('node:zlib') as Zlib)[decoder]();
      response.on('error', (error) => decoded.destroy(error));
      return readCappedStream(response.pipe(decoded), maxBytes).finally(() => {
        decoded.destroy();
        response.destroy();
      });
    },
    discard: () => response.destroy(),
  };
}

