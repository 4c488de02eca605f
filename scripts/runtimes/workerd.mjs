// Runs the scenario in Cloudflare's workerd (from the npm package `workerd`): bundles the worker entry with
// esbuild as wrangler would, writes a workerd config and serves it on an ephemeral loopback port.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';

export const WORKERD_COMPATIBILITY_DATE = '2025-09-01';

// workerd's default outbound network only reaches public addresses ("connecting to 127.0.0.1:PORT is not
// allowed"); the gateway is on loopback, so the worker's global fetch goes through a network service that
// allows "local" addresses and nothing else.
const config = ({ flags }) => `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .scenario),
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);
const scenario :Workerd.Worker = (
  modules = [(name = "worker.mjs", esModule = embed "worker.bundle.mjs")],
  compatibilityDate = "${WORKERD_COMPATIBILITY_DATE}",
  compatibilityFlags = [${flags.map((f) => `"${f}"`).join(', ')}],
  bindings = [(name = "E2E_INPUT", json = embed "input.json")],
  globalOutbound = "loopback",
);
`;

/** Waits for workerd's "listen" event on its control pipe (fd 3) and resolves with the port. */
function listeningPort(child) {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdio[3] });
    lines.on('line', (line) => {
      const event = JSON.parse(line);
      if (event.event === 'listen' && event.socket === 'http') resolve(event.port);
    });
    child.once('exit', (code) => reject(new Error(`workerd exited with ${code} before listening`)));
    child.once('error', reject);
  });
}

/**
 * Serves the scenario worker with the given compatibility flags and resolves with its JSON answer.
 * `dir` is the scratch consumer project (the tarball installed, the scenario files copied in).
 */
export async function runInWorkerd({ workerd, dir, input, flags, timeoutMs }) {
  await build({
    entryPoints: [join(dir, 'worker-entry.mjs')],
    outfile: join(dir, 'worker.bundle.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    external: ['node:*', 'cloudflare:*'],
    logLevel: 'error',
  });
  await writeFile(join(dir, 'input.json'), JSON.stringify(input));
  await writeFile(join(dir, 'workerd.capnp'), config({ flags }));

  const child = spawn(workerd, ['serve', 'workerd.capnp', '--control-fd=3'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const port = await listeningPort(child);
    const response = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    try {
      return JSON.parse(text);
    } catch {
      return { ok: false, error: `workerd answered ${response.status}: ${text.slice(0, 500)}\n${output.trim()}` };
    }
  } catch (error) {
    return { ok: false, error: `${error.message}\n${output.trim()}` };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}
