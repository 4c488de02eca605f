// Shared by the real-server harnesses: a free loopback port, a temp dir, and a server process that dies with us.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A port on 127.0.0.1 that was free a moment ago (a server that loses the race fails to start and is retried). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

/** A fresh temp dir, owned by `user` when we are root (PostgreSQL refuses to run as root). */
export function tempDir(prefix: string, user?: string): string {
  const switching = user !== undefined && process.getuid?.() === 0;
  // Under /tmp when another user must reach it: a TMPDIR inside root's home would be closed to it.
  const dir = mkdtempSync(join(switching ? '/tmp' : tmpdir(), prefix));
  if (switching) {
    const id = (flag: string) => Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim());
    chownSync(dir, id('-u'), id('-g'));
  }
  return dir;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The command line that runs `command` as `user` when we are root (as ourselves otherwise), through util-linux's
 * setpriv, which execs without forking: with `dieWithUs`, the kernel sends the server `dieWithUs` if this process
 * dies without stopping it (a killed test run leaves no server behind).
 */
export function commandAs(user: string | undefined, command: string, args: readonly string[], dieWithUs?: NodeJS.Signals): [string, string[]] {
  const switchUser = user !== undefined && process.getuid?.() === 0 ? [`--reuid=${user}`, `--regid=${user}`, '--init-groups'] : [];
  const deathSignal = dieWithUs ? [`--pdeathsig=${dieWithUs.replace(/^SIG/, '')}`] : [];
  return ['setpriv', [...switchUser, ...deathSignal, '--', command, ...args]];
}

/** A server process whose output is kept (for the error when it does not start). */
export interface ServerProcess {
  readonly child: ChildProcess;
  output(): string;
  /** Sends `signal` and waits for the exit; SIGKILL after `graceMs`. */
  stop(signal: NodeJS.Signals, graceMs?: number): Promise<void>;
}

export function startProcess(command: string, args: readonly string[]): ServerProcess {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-8_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = once(child, 'exit');
  return {
    child,
    output: () => log,
    async stop(signal, graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls `ready` every 50 ms until it resolves true, the process exits, or `timeoutMs` passes. */
export async function waitUntilReady(server: ServerProcess, name: string, ready: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) throw new Error(`${name} exited before it was ready:\n${server.output()}`);
    if (await ready().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${name} was not ready within ${timeoutMs} ms:\n${server.output()}`);
}
