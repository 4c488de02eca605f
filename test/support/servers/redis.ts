// A throwaway Redis server for tests: Debian's redis-server with its own config (127.0.0.1, a free port, no
// persistence, noeviction as the Redis store requires), in a temp dir.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { commandAs, freePort, removeDir, startProcess, tempDir, waitUntilReady } from './process.js';

export interface TestRedis {
  /** `redis://127.0.0.1:PORT`. */
  readonly url: string;
  stop(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } finally {
    client.disconnect();
  }
}

export async function startRedis(): Promise<TestRedis> {
  const dir = tempDir('pgsdk-redis-');
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const config = join(dir, 'redis.conf');
    writeFileSync(config, [`bind 127.0.0.1`, `port ${port}`, `dir ${dir}`, 'save ""', 'appendonly no', 'daemonize no', 'protected-mode yes', 'maxmemory-policy noeviction', 'loglevel warning'].join('\n'));
    const url = `redis://127.0.0.1:${port}`;
    const server = startProcess(...commandAs(undefined, 'redis-server', [config], 'SIGTERM'));
    try {
      await waitUntilReady(server, 'Redis', () => answers(url));
    } catch (error) {
      await server.stop('SIGTERM');
      if (attempt < 3) continue;
      removeDir(dir);
      throw error;
    }
    return {
      url,
      async stop() {
        await server.stop('SIGTERM');
        removeDir(dir);
      },
    };
  }
}
