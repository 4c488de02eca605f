import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningMock {
  url: string;
  child: ChildProcess;
  /** Everything printed so far. */
  output(): string;
  /** Sends the signal and resolves to the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** `payment-gateway-sdk …args` from the source (through tsx), as a child process, with `env` added to this one's. */
export function runCommand(args: readonly string[], env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
}

/** Starts `payment-gateway-sdk mock --port 0 …args` and resolves once the first line (the base URL) is out. */
export async function startMockCommand(args: readonly string[] = [], env: Record<string, string> = {}): Promise<RunningMock> {
  const child = runCommand(['mock', '--port', '0', ...args], env);
  let out = '';
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      // The first line is the URL; wait for the end of the summary too, so a test can read it.
      if (out.includes('Ctrl-C stops.')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.once('exit', (code) => reject(new Error(`the mock command exited (${code}) before printing its URL: ${out}`)));
  });
  return {
    url,
    child,
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill(signal);
      const [code] = (await exited) as [number | null];
      return code;
    },
  };
}

/** Runs the command to its end: exit code, stdout, stderr. */
export async function runToEnd(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = runCommand(args);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

/** Polls `check` until it returns a value (not undefined) or `ms` pass. */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
