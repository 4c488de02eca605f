// A throwaway PostgreSQL server for tests: Debian's binaries, a temp data dir, 127.0.0.1 on a free port. As root it
// runs as the `postgres` user (PostgreSQL refuses root). fsync is off: these tests kill clients, never the server.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { commandAs, freePort, removeDir, startProcess, tempDir, waitUntilReady } from './process.js';

export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:PORT/postgres` (trust authentication on loopback). */
  readonly url: string;
  stop(): Promise<void>;
}

/** `PG_BINDIR`, or the newest /usr/lib/postgresql/N/bin (Debian's layout). */
function binDir(): string {
  if (process.env.PG_BINDIR) return process.env.PG_BINDIR;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'postgres'))).sort((a, b) => Number(b) - Number(a)) : [];
  if (versions[0] === undefined) throw new Error('PostgreSQL is not installed: apt-get install postgresql (or set PG_BINDIR)');
  return join(root, versions[0], 'bin');
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } finally {
    await client.end().catch(() => {});
  }
}

export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  const dir = tempDir('pgsdk-pg-', 'postgres');
  const data = join(dir, 'data');
  try {
    await promisify(execFile)(...commandAs('postgres', join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-sync', '--no-instructions']));
  } catch (error) {
    removeDir(dir);
    throw error;
  }
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const settings = ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'max_connections=200'].flatMap((s) => ['-c', s]);
    // SIGINT is PostgreSQL's fast shutdown: it disconnects clients instead of waiting for them.
    const server = startProcess(...commandAs('postgres', join(bin, 'postgres'), ['-D', data, '-k', dir, '-h', '127.0.0.1', '-p', String(port), ...settings], 'SIGINT'));
    try {
      await waitUntilReady(server, 'PostgreSQL', () => answers(url));
    } catch (error) {
      await server.stop('SIGINT');
      if (attempt < 3) continue; // most likely the port was taken meanwhile
      removeDir(dir);
      throw error;
    }
    return {
      url,
      async stop() {
        // Smart shutdown: it waits for the last clients to hang up (a pool's end() resolves before its sockets
        // close, and a fast shutdown would send them an error that nobody listens to any more).
        await server.stop('SIGTERM', 5_000);
        removeDir(dir);
      },
    };
  }
}
