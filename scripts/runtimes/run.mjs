// `npm run test:runtimes [-- name ...]`: the end-to-end scenario (scenario.mjs) on Node 22, Node 24, Bun,
// Deno and workerd, each from its npm package (this folder's package.json), against the packed tarball
// installed in a scratch project and a gateway on 127.0.0.1. One line per runtime; exit 1 if any fails.
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildAndPack, installTarball, repoRoot, run, scratchDir, StepError } from '../lib/shipped-package.mjs';
import { installOnDemand } from '../lib/install-on-demand.mjs';
import { runInWorkerd } from './workerd.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const bin = (name) => join(here, 'node_modules', '.bin', name);
const SCENARIO_FILES = ['scenario.mjs', 'cli-entry.mjs', 'worker-entry.mjs', 'gateway.mjs'];
const TIMEOUT_MS = 60_000;

/** A runtime: how to read its version, how to run the scenario on it, and what it calls itself inside. */
const RUNTIMES = [
  { name: 'node22', version: [bin('node'), '--version'], cli: [bin('node')], userAgent: /^Node\.js\/22\b/ },
  { name: 'node24', version: [process.execPath, '--version'], cli: [process.execPath], userAgent: /^Node\.js\/24\b/ },
  { name: 'bun', version: [bin('bun'), '--version'], cli: [bin('bun'), 'run'], userAgent: /^Bun\// },
  {
    name: 'deno',
    version: [bin('deno'), '--version'],
    // Permissions: the input variable, loopback, and reading the project (its node_modules) only.
    cli: [bin('deno'), 'run', '--node-modules-dir=manual', '--allow-env=E2E_INPUT', '--allow-net=127.0.0.1', '--allow-read=.'],
    userAgent: /^Deno\//,
  },
  { name: 'workerd', version: [bin('workerd'), '--version'], workerd: ['nodejs_compat'], userAgent: /^Cloudflare-Workers$/ },
  { name: 'workerd-nocompat', version: [bin('workerd'), '--version'], workerd: [], userAgent: /^Cloudflare-Workers$/ },
];

// `npm install --no-save`, not `npm ci`: the lockfile lacks the optional binaries of platforms the registry
// reachable here does not serve (e.g. @deno/darwin-arm64), which npm ci refuses as "not in sync".
const ensureRuntimes = () => installOnDemand(here, 'the runtimes', ['install', '--no-save']);

async function runOne(runtime, dir, input) {
  let version;
  try {
    const { stdout } = await run(runtime.version[0], runtime.version.slice(1), { cwd: dir });
    version = stdout.match(/\d+\.\d+\.\d+|\d{4}-\d{2}-\d{2}/)?.[0] ?? stdout.trim();
  } catch (error) {
    return { version: '-', ms: 0, ok: false, error: `cannot run: ${error.message}` };
  }
  const started = performance.now();
  const runtimeInput = { ...input, runId: `${runtime.name}-${Date.now()}` };
  let result;
  if (runtime.workerd) {
    result = await runInWorkerd({ workerd: bin('workerd'), dir, input: runtimeInput, flags: runtime.workerd, timeoutMs: TIMEOUT_MS });
  } else {
    const env = { ...process.env, E2E_INPUT: JSON.stringify(runtimeInput), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
    const { code, stdout, stderr } = await run(runtime.cli[0], [...runtime.cli.slice(1), 'cli-entry.mjs'], { cwd: dir, env, timeoutMs: TIMEOUT_MS, allowFailure: true }).catch((e) => ({ code: -1, stdout: '', stderr: e.message }));
    const last = stdout.trim().split('\n').pop() ?? '';
    try {
      result = JSON.parse(last);
    } catch {
      result = { ok: false, error: `exited with ${code} without a result:\n${`${stdout}\n${stderr}`.trim()}` };
    }
  }
  const ms = Math.round(performance.now() - started);
  if (result.ok && !runtime.userAgent.test(result.userAgent)) {
    result = { ok: false, error: `ran on "${result.userAgent}", not on ${runtime.name}` };
  }
  return { version, ms, ...result };
}

async function main() {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !RUNTIMES.some((r) => r.name === name));
  if (unknown.length > 0) throw new StepError(`unknown runtime(s) ${unknown.join(', ')}; known: ${RUNTIMES.map((r) => r.name).join(', ')}`);
  const selected = wanted.length > 0 ? RUNTIMES.filter((r) => wanted.includes(r.name)) : RUNTIMES;

  console.log('test:runtimes');
  await ensureRuntimes();
  const vectorsFile = join(repoRoot, 'test', 'fixtures', 'sign-vectors.json');
  const vectors = JSON.parse(await readFile(vectorsFile, 'utf8').catch(() => {
    throw new StepError(`the signature vectors are missing: ${vectorsFile}`);
  })).cases;

  const packDir = await scratchDir('runtimes-pack');
  const project = await scratchDir('runtimes');
  let gateway;
  try {
    const { tarball } = await buildAndPack(packDir.dir);
    await installTarball(project.dir, tarball);
    for (const file of SCENARIO_FILES) await copyFile(join(here, file), join(project.dir, file));
    const { startGateway } = await import(pathToFileURL(join(project.dir, 'gateway.mjs')).href);
    gateway = await startGateway();
    console.log(`  package: ${tarball.split('/').pop()} (packed, installed in a scratch project); gateway: ${gateway.name} at ${gateway.input.baseUrl}`);

    const failures = [];
    let steps = [];
    for (const runtime of selected) {
      const result = await runOne(runtime, project.dir, { ...gateway.input, vectors });
      const status = result.ok ? 'pass' : 'FAIL';
      const detail = result.ok ? `${result.checked.length} steps, MD5 via ${result.md5}` : result.error.split('\n')[0];
      console.log(`  ${runtime.name.padEnd(17)} ${result.version.padEnd(11)} ${status}  ${String(result.ms).padStart(6)} ms  ${detail}`);
      if (result.ok) steps = result.checked;
      else failures.push(`${runtime.name}: ${result.error}`);
    }
    if (failures.length > 0) throw new StepError(failures.join('\n\n'));
    console.log(`test:runtimes: OK, ${selected.length} runtimes; each ran: ${steps.join(', ')}`);
  } finally {
    await gateway?.close();
    await packDir.dispose();
    await project.dispose();
  }
}

main().catch((error) => {
  console.error(`\ntest:runtimes FAILED:\n${error instanceof StepError ? error.message : error?.stack ?? error}`);
  process.exit(1);
});
