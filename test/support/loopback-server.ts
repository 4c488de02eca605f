import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A merchant's server on loopback: the URL of its notify route, and how to stop it. */
export interface Running {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts `server` on 127.0.0.1 (an ephemeral port); closing it drops its open connections. */
export async function listenOnLoopback(server: Server, path = '/pay/notify'): Promise<Running> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
