// Build, pack and install the package the way a merchant receives it, so the checks run what ships
// (the tarball), not the source tree. Shared by check-package.mjs and runtimes/run.mjs.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** A step that failed; its message says what to look at. */
export class StepError extends Error {}

/**
 * Runs a command to completion and resolves with its output and exit code; rejects with a StepError that
 * carries the command and its output when it cannot start, or exits non-zero unless `allowFailure`.
 */
export function run(command, args, { cwd = repoRoot, env = process.env, input, stdio = 'pipe', timeoutMs = 300_000, allowFailure = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: stdio === 'inherit' ? 'inherit' : ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => (stdout += chunk));
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new StepError(`\`${command} ${args.join(' ')}\` could not start: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0 || (allowFailure && code !== null)) return resolve({ code, stdout, stderr });
      const why = signal ? `was killed (${signal}${signal === 'SIGKILL' ? `, over ${timeoutMs} ms` : ''})` : `exited with ${code}`;
      reject(new StepError(`\`${command} ${args.join(' ')}\` ${why}\n${`${stdout}\n${stderr}`.trim()}`));
    });
    child.stdin?.end(input);
  });
}

/** npm's own CLI, as the npm script that started us knows it (npm_execpath), else `npm` from PATH. */
export function npm(args, options) {
  const cli = process.env.npm_execpath;
  return cli ? run(process.execPath, [cli, ...args], options) : run('npm', args, options);
}

export const readJson = async (file) => JSON.parse(await readFile(file, 'utf8'));
export const writeJson = (file, value) => writeFile(file, `${JSON.stringify(value, null, 2)}\n`);

/** A fresh temporary directory, removed by `dispose()` unless KEEP_TMP is set (for debugging). */
export async function scratchDir(prefix) {
  const dir = await mkdtemp(join(tmpdir(), `pgsdk-${prefix}-`));
  return {
    dir,
    dispose: () => (process.env.KEEP_TMP ? (console.log(`kept ${dir}`), Promise.resolve()) : rm(dir, { recursive: true, force: true })),
  };
}

/**
 * `npm pack` of the project in `cwd` (this repository by default) into `dir`: its `prepack` script builds
 * `dist` first. Resolves with the tarball's path, its file list and its size in bytes.
 */
export async function buildAndPack(dir, { cwd = repoRoot } = {}) {
  const { stdout } = await npm(['pack', '--json', '--pack-destination', dir], { cwd });
  const [packed] = JSON.parse(stdout);
  return { tarball: join(dir, packed.filename), files: packed.files.map((f) => f.path), size: packed.size };
}

/**
 * Installs the tarball into a new consumer project in `dir` (its dependencies come from the npm registry,
 * or npm's cache) and resolves with the installed package's manifest.
 */
export async function installTarball(dir, tarball, { type = 'module' } = {}) {
  await writeJson(join(dir, 'package.json'), { name: 'scratch-consumer', private: true, type });
  await npm(['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', tarball], { cwd: dir });
  return readJson(join(dir, 'node_modules', 'payment-gateway-sdk', 'package.json'));
}

/** The package's entry points (`.`, `./testing`, ...) from its exports map, without `./package.json`. */
export function entryPoints(manifest) {
  return Object.keys(manifest.exports).filter((key) => key !== './package.json');
}

/** The import specifier of an entry point: `.` -> `payment-gateway-sdk`, `./testing` -> `payment-gateway-sdk/testing`. */
export const specifierOf = (manifest, entry) => (entry === '.' ? manifest.name : `${manifest.name}/${entry.slice(2)}`);
