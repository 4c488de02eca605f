/** Starts bench/loopback-server.ts in a child process and hands back its port and a way to stop it. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

export interface LoopbackServer {
  readonly port: number;
  readonly origin: string;
  stop(): void;
}

export async function startLoopbackServer(): Promise<LoopbackServer> {
  // This process's execArgv carries tsx's loader, so the child runs the .ts file directly.
  const script = fileURLToPath(new URL('./loopback-server.ts', import.meta.url));
  const child = spawn(process.execPath, [...process.execArgv, script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
  };
  // Killed on any exit of the bench, even a thrown error; if the bench is killed outright, the child sees
  // its stdin close and exits on its own.
  process.once('exit', stop);
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => reject(new Error(`the loopback server exited before listening (${signal ?? code})`)));
      createInterface({ input: child.stdout! }).once('line', (line) => resolve(Number(line)));
    });
    return { port, origin: `http://127.0.0.1:${port}`, stop };
  } catch (error) {
    stop();
    throw error;
  }
}
