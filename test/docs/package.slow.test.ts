// `npm pack` from a clean clone, as a merchant or CI would run it: the committed HEAD is cloned, installed
// from the lockfile, packed (prepare builds dist/), and the tarball is installed into a fresh consumer
// project, where import, require and the command must work. Then the same clone is installed by its git URL
// into an empty project (npm clones it, installs its devDependencies, runs prepare and packs it), and a first
// order runs against the mock there. Uncommitted changes are not in the clone.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAndPack, installTarball, npm, readJson, repoRoot, run, scratchDir, writeJson } from '../../scripts/lib/shipped-package.mjs';

const consumerFixtures = join(repoRoot, 'scripts', 'package-consumer');
const scratch: { dispose(): Promise<void> }[] = [];
let packed: { tarball: string; files: string[]; size: number };
let consumer: string;
let cloneDir: string;
let head: string;
let manifest: { name: string; version: string; bin: Record<string, string>; exports: Record<string, unknown> };

beforeAll(async () => {
  const [clone, packDir, consumerDir] = await Promise.all([scratchDir('clone'), scratchDir('pack'), scratchDir('consumer')]);
  scratch.push(clone, packDir, consumerDir);
  head = (await run('git', ['rev-parse', 'HEAD'], { cwd: repoRoot })).stdout.trim();
  cloneDir = clone.dir;
  await run('git', ['clone', '--quiet', '--no-checkout', repoRoot, clone.dir]);
  await run('git', ['checkout', '--quiet', '--detach', head], { cwd: clone.dir });
  // The npm cache holds every package of the lockfile already: nothing is downloaded.
  await npm(['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: clone.dir });
  // npm ci built dist/ (prepare); without it, the pack must build it itself (prepack).
  await rm(join(clone.dir, 'dist'), { recursive: true });
  packed = await buildAndPack(packDir.dir, { cwd: clone.dir });
  manifest = await installTarball(consumerDir.dir, packed.tarball);
  consumer = consumerDir.dir;
  console.log(`packed ${packed.tarball.split('/').pop()}: ${packed.files.length} files, ${(packed.size / 1024).toFixed(1)} KiB\n  ${packed.files.join('\n  ')}`);
}, 600_000);
afterAll(async () => {
  await Promise.all(scratch.map((dir) => dir.dispose()));
});

describe('npm pack in a fresh clone without npm ci', () => {
  it('fails, saying to run npm ci, and writes no tarball: a package without dist/ never ships', async () => {
    const [bare, destination] = await Promise.all([scratchDir('bare-clone'), scratchDir('bare-pack')]);
    scratch.push(bare, destination);
    await run('git', ['clone', '--quiet', '--no-checkout', repoRoot, bare.dir]);
    await run('git', ['checkout', '--quiet', '--detach', head], { cwd: bare.dir });
    const { code, stderr } = await npm(['pack', '--pack-destination', destination.dir], { cwd: bare.dir, allowFailure: true });
    expect(code).not.toBe(0);
    expect(stderr).toContain('cannot pack: dist/ is built first, and the build tools (the devDependencies) are not installed. Run `npm ci`, then pack again.');
    expect(await readdir(destination.dir)).toEqual([]);
  });
});

describe('npm pack in a clean clone', () => {
  it('ships dist/ (built by prepack, dist/ removed first): every file the exports map and the bin point at', () => {
    const targets = new Set([...JSON.stringify(Object.values(manifest.exports)).matchAll(/"\.\/([^"]+)"/g)].map(([, path]) => path!).filter((path) => path !== 'package.json'));
    for (const bin of Object.values(manifest.bin)) targets.add(bin.replace(/^\.\//, ''));
    expect(targets).toContain('dist/cli.js');
    expect([...targets].filter((file) => !packed.files.includes(file))).toEqual([]);
    expect(packed.files).toContain('docs/guides/signing.md');
    expect(packed.files).toEqual(expect.arrayContaining(['SECURITY.md', 'LICENSE', 'README.md', 'CHANGELOG.md']));
  });

  it('says where it comes from: repository, homepage, bugs and keywords, as the README installs it', async () => {
    const installed = (await readJson(join(consumer, 'node_modules', 'payment-gateway-sdk', 'package.json'))) as { repository: { type: string; url: string }; homepage: string; bugs: { url: string }; keywords: string[] };
    expect(installed.repository.type).toBe('git');
    const web = installed.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    expect(installed.homepage).toBe(`${web}#readme`);
    expect(installed.bugs.url).toBe(`${web}/issues`);
    expect(installed.keywords).toEqual(expect.arrayContaining(['payment-gateway', 'jeepay', 'sdk']));
    const readme = await readFile(join(consumer, 'node_modules', 'payment-gateway-sdk', 'README.md'), 'utf8');
    expect(readme).toContain(`npm install ${installed.repository.url}`);
  });

  it('import and require of the package and of payment-gateway-sdk/testing work in a consumer project', async () => {
    for (const file of ['smoke.mjs', 'smoke.cjs', 'exercise.cjs']) await copyFile(join(consumerFixtures, file), join(consumer, file));
    const specifiers = ['payment-gateway-sdk', 'payment-gateway-sdk/testing'];
    for (const script of ['smoke.mjs', 'smoke.cjs']) {
      const report = JSON.parse((await run(process.execPath, [script, ...specifiers], { cwd: consumer })).stdout);
      expect(report['payment-gateway-sdk'].exports).toContain('GatewayClient');
      expect(report['payment-gateway-sdk'].exercised).toEqual(['sign', 'new GatewayClient', 'GatewayValidationError']);
      expect(report['payment-gateway-sdk/testing'].exports).toContain('createMockGateway');
    }
  });

  it('payment-gateway-sdk/stores/sqlite runs from the tarball, by import and by require (node:sqlite named as such)', async () => {
    const body = (load: string) => `${load}
const store = sqliteStore({ path: process.argv[2] });
const first = await store.runOnce('k', async () => {});
const again = await store.runOnce('k', async () => {});
store.close();
console.log(JSON.stringify([first.status, again.status]));`;
    await writeFile(join(consumer, 'sqlite.mjs'), body("import { sqliteStore } from 'payment-gateway-sdk/stores/sqlite';"));
    await writeFile(join(consumer, 'sqlite.cjs'), `(async () => {\n${body("const { sqliteStore } = require('payment-gateway-sdk/stores/sqlite');")}\n})();`);
    for (const script of ['sqlite.mjs', 'sqlite.cjs']) {
      const { stdout } = await run(process.execPath, [script, join(consumer, `${script}.sqlite`)], { cwd: consumer });
      expect(JSON.parse(stdout), script).toEqual(['ran', 'done']);
    }
  });

  it('the bin runs: --version, and sign through node_modules/.bin', async () => {
    const bin = join(consumer, 'node_modules', '.bin', 'payment-gateway-sdk');
    // The bin's shebang finds `node` on PATH: put the one running these tests first.
    const env = { ...process.env, PATH: `${join(process.execPath, '..')}:${process.env.PATH ?? ''}`, GATEWAY_SECRET: 'test-api-key' };
    expect((await run(bin, ['--version'], { cwd: consumer, env })).stdout).toBe(`${manifest.version}\n`);
    const signed = await run(bin, ['sign'], { cwd: consumer, env, input: '{"mchNo":"M1621873433953","appId":"60cc09bce4b0f1c0b83761c9","amount":100}' });
    expect(signed.stdout).toContain('sign:      9717AAF3E5A9D564ED93559644E8D620\n');
  });
});

/** `npx payment-gateway-sdk mock` in the consumer project, in a process group of its own (as a terminal starts it). */
async function startThroughNpx(): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const env = { ...process.env, PATH: `${join(process.execPath, '..')}:${process.env.PATH ?? ''}` };
  const child = spawn('npx', ['--no-install', 'payment-gateway-sdk', 'mock', '--port', '0', '--quiet'], { cwd: consumer, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', () => {
      if (out.includes('Ctrl-C stops.')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.once('exit', (code) => reject(new Error(`npx exited (${code}) before the mock printed its URL: ${out}`)));
  });
  return { child, url, output: () => out };
}

/** Whether any process is left in the group `pgid`. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(url: string, pgid: number): Promise<void> {
  const end = Date.now() + 5000;
  while (groupAlive(pgid) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  expect(groupAlive(pgid), 'a process of the group is still running').toBe(false);
  await expect(fetch(`${url}/_mock/state`)).rejects.toThrow();
}

describe('npx payment-gateway-sdk mock stops cleanly, leaving nothing listening', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)('%s to the process group (Ctrl-C in a terminal, a test runner killing the group)', async (signal) => {
    const { child, url, output } = await startThroughNpx();
    const pid = child.pid!;
    const exited = once(child, 'exit');
    process.kill(-pid, signal);
    await exited;
    await gone(url, pid);
    expect(output()).toContain(`${signal}: stopping the mock gateway`);
  });

  it('SIGTERM to npx alone (npx does not pass it on): the mock sees its launcher exit and stops', async () => {
    const { child, url } = await startThroughNpx();
    const pid = child.pid!;
    const exited = once(child, 'exit');
    process.kill(pid, 'SIGTERM');
    await exited;
    await gone(url, pid);
  });
});

describe('npm install git+file:// of a fresh clone, into an empty project', () => {
  let project: string;
  beforeAll(async () => {
    const dir = await scratchDir('git-consumer');
    scratch.push(dir);
    project = dir.dir;
    await writeJson(join(project, 'package.json'), { name: 'first-week-shop', private: true, type: 'module' });
    // npm clones the URL, installs the package's devDependencies (from npm's cache), runs prepare (the build) and packs it.
    await npm(['install', '--no-audit', '--no-fund', '--prefer-offline', `git+file://${cloneDir}#${head}`], { cwd: project, timeoutMs: 900_000 });
  }, 900_000);

  it('installs a package with dist/, SECURITY.md and LICENSE', async () => {
    const installed = join(project, 'node_modules', 'payment-gateway-sdk');
    const { stdout } = await run('ls', ['-1', installed, join(installed, 'dist')]);
    expect(stdout.split('\n')).toEqual(expect.arrayContaining(['dist', 'SECURITY.md', 'LICENSE', 'README.md', 'index.js', 'index.cjs', 'cli.js', 'testing.js']));
  });

  it('runs a first order against the mock: created, paid, the notification verified', async () => {
    await copyFile(join(consumerFixtures, 'first-order.mjs'), join(project, 'first-order.mjs'));
    const { stdout } = await run(process.execPath, ['first-order.mjs'], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({ created: true, payDataType: 'codeUrl', notified: [2], paid: true });
  });
});
