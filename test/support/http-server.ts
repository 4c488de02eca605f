import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** A node:http server on 127.0.0.1 with an ephemeral port; it records each request's path and arrival time. */
export interface TestServer {
  readonly url: string;
  readonly hits: string[];
  readonly arrivals: number[];
  close(): Promise<void>;
}

/** Starts servers that are closed after each test of the file that calls it. */
export function useServers(): (handler: (req: IncomingMessage, res: ServerResponse, hit: number) => void) => Promise<TestServer> {
  const open: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  return async (handler) => {
    const hits: string[] = [];
    const arrivals: number[] = [];
    const server = createServer((req, res) => {
      hits.push(req.url ?? '');
      arrivals.push(performance.now());
      handler(req, res, hits.length);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const running: TestServer = {
      url: `http://127.0.0.1:${port}`,
      hits,
      arrivals,
      close: () => new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    };
    open.push(running);
    return running;
  };
}
