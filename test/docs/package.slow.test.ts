// `npm pack` from a clean clone, as a merchant or CI would run it: the committed HEAD is cloned, installed
// from the lockfile, packed (prepack builds dist/), and the tarball is installed into a fresh consumer
// project, where import, require and the command must work. Uncommitted changes are not in the clone.
import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAndPack, installTarball, npm, repoRoot, run, scratchDir } from '../../scripts/lib/shipped-package.mjs';

const consumerFixtures = join(repoRoot, 'scripts', 'package-consumer');
const scratch: { dispose(): Promise<void> }[] = [];
let packed: { tarball: string; files: string[]; size: number };
let consumer: string;
let manifest: { name: string; version: string; bin: Record<string, string>; exports: Record<string, unknown> };

beforeAll(async () => {
  const [clone, packDir, consumerDir] = await Promise.all([scratchDir('clone'), scratchDir('pack'), scratchDir('consumer')]);
  scratch.push(clone, packDir, consumerDir);
  const head = (await run('git', ['rev-parse', 'HEAD'], { cwd: repoRoot })).stdout.trim();
  await run('git', ['clone', '--quiet', '--no-checkout', repoRoot, clone.dir]);
  await run('git', ['checkout', '--quiet', '--detach', head], { cwd: clone.dir });
  // The npm cache holds every package of the lockfile already: nothing is downloaded.
  await npm(['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: clone.dir });
  packed = await buildAndPack(packDir.dir, { cwd: clone.dir });
  manifest = await installTarball(consumerDir.dir, packed.tarball);
  consumer = consumerDir.dir;
  console.log(`packed ${packed.tarball.split('/').pop()}: ${packed.files.length} files, ${(packed.size / 1024).toFixed(1)} KiB\n  ${packed.files.join('\n  ')}`);
}, 600_000);
afterAll(async () => {
  await Promise.all(scratch.map((dir) => dir.dispose()));
});

describe('npm pack in a clean clone', () => {
  it('ships dist/ (built by prepack): every file the exports map and the bin point at', () => {
    const targets = new Set([...JSON.stringify(Object.values(manifest.exports)).matchAll(/"\.\/([^"]+)"/g)].map(([, path]) => path!).filter((path) => path !== 'package.json'));
    for (const bin of Object.values(manifest.bin)) targets.add(bin.replace(/^\.\//, ''));
    expect(targets).toContain('dist/cli.js');
    expect([...targets].filter((file) => !packed.files.includes(file))).toEqual([]);
    expect(packed.files).toContain('docs/guides/signing.md');
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
