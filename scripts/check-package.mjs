// `npm run check:package`: is what we publish installable and correct for every consumer?
// Builds and packs the tarball, lints it (publint, attw), installs it into a scratch project and proves
// that `import`, `require` and TypeScript (module nodenext, as ESM and as CommonJS) all work there, and that
// `npx payment-gateway-sdk mock` serves from it. The linters are one-off tools, run pinned through npx (fetched
// once into npx's cache), not devDependencies every clone installs.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bareImportsOf, packageNameOf } from './lib/declaration-imports.mjs';
import {
  buildAndPack,
  entryPoints,
  installTarball,
  npm,
  readJson,
  repoRoot,
  run,
  scratchDir,
  specifierOf,
  StepError,
  writeJson,
} from './lib/shipped-package.mjs';

const consumerFixtures = new URL('./package-consumer/', import.meta.url);
const PUBLINT = 'publint@0.3.25';
const ATTW = '@arethetypeswrong/cli@0.18.5';
const report = (step, outcome) => console.log(`  ${step.padEnd(15)} ${outcome}`);

/** A pinned one-off tool through npx; its exit code is the caller's to judge. */
const npxTool = (spec, bin, args) => run('npx', ['--yes', '-p', spec, '--', bin, ...args], { allowFailure: true });

/** publint over the tarball's own bytes: every message (suggestions included) is a failure. */
async function lintWithPublint(tarball) {
  const { code, stdout, stderr } = await npxTool(PUBLINT, 'publint', ['run', tarball, '--level', 'suggestion', '--strict']);
  if (code !== 0 || !stdout.includes('All good!')) throw new StepError(`publint found problems:\n${stdout}\n${stderr}`.trim());
  return 'clean';
}

/** attw over the tarball, offline (no @types lookup); any problem is a failure, shown as attw's table. */
async function lintWithAttw(tarball) {
  const args = [tarball, '--no-definitely-typed', '--no-color'];
  const { stdout, stderr } = await npxTool(ATTW, 'attw', [...args, '--format', 'json']);
  if (!stdout.trim().startsWith('{')) throw new StepError(`attw did not produce a report:\n${stdout}\n${stderr}`);
  const { analysis, problems } = JSON.parse(stdout);
  const count = Object.values(problems).flat().length;
  if (count > 0) {
    const table = (await npxTool(ATTW, 'attw', [...args, '--format', 'ascii'])).stdout;
    throw new StepError(`attw found ${count} problem(s):\n${table}`);
  }
  const entries = Object.keys(analysis.entrypoints);
  const modes = Object.keys(analysis.entrypoints['.'].resolutions);
  return `clean (${entries.join(', ')} under ${modes.join(', ')})`;
}

/** The tarball must hold both builds and both declaration files of every entry point. */
function checkFileList(manifest, files) {
  const missing = [];
  for (const entry of entryPoints(manifest)) {
    const targets = JSON.stringify(manifest.exports[entry]).match(/\.\/[^"]+/g) ?? [];
    for (const target of targets) if (!files.includes(target.slice(2))) missing.push(`${entry} -> ${target}`);
  }
  if (missing.length > 0) throw new StepError(`the tarball lacks files its exports map points at:\n  ${missing.join('\n  ')}`);
}

/** Runs the ESM and the CJS smoke consumer; both must see the same exports for every entry point. */
async function importAndRequire(dir, specifiers) {
  for (const file of ['smoke.mjs', 'smoke.cjs', 'exercise.cjs']) await copyFile(new URL(file, consumerFixtures), join(dir, file));
  const esm = JSON.parse((await run(process.execPath, ['smoke.mjs', ...specifiers], { cwd: dir })).stdout);
  const cjs = JSON.parse((await run(process.execPath, ['smoke.cjs', ...specifiers], { cwd: dir })).stdout);
  for (const specifier of specifiers) {
    const onlyEsm = esm[specifier].exports.filter((name) => !cjs[specifier].exports.includes(name));
    const onlyCjs = cjs[specifier].exports.filter((name) => !esm[specifier].exports.includes(name) && name !== 'default');
    if (onlyEsm.length + onlyCjs.length > 0) {
      throw new StepError(`${specifier}: ESM and CommonJS builds export different names (only ESM: ${onlyEsm.join(', ') || '-'}; only CJS: ${onlyCjs.join(', ') || '-'})`);
    }
  }
  const counts = specifiers.map((s) => `${s} (${esm[s].exports.length} exports)`).join(', ');
  return { esm: `${counts}; ${esm[specifiers[0]].exercised.join(', ')}`, cjs: `same exports as ESM; ${cjs[specifiers[0]].exercised.join(', ')}` };
}

// What a consumer does with each further entry point; an entry without a line here is only imported.
const entryUsage = {
  './testing': `const mock: entry.MockGateway = entry.createMockGateway({ merchants: [{ mchNo: 'M1', appId: 'app-1', secret: 'test-secret' }] });
export const server: Promise<{ url: string; close(): Promise<void> }> = mock.listen({ port: 0 });`,
};

// TypeScript consumers, each written once and checked as .mts (ESM: the `import` condition's types) and as
// .cts (CommonJS: the `require` condition's types).
const mainConsumer = (manifest) => `import {
  GatewayClient, GatewayValidationError, sign, verifyNotification, type GatewayError, type PayOrder, type PayOrderNotification, type UnifiedOrderResult,
} from '${manifest.name}';

const client = new GatewayClient({ baseUrl: 'http://127.0.0.1:9', mchNo: 'M1', appId: 'app-1', secret: 'not-a-real-secret' });
export const order: Promise<PayOrder> = client.query({ mchOrderNo: 'order-1' });
export const created: Promise<UnifiedOrderResult> = client.unifiedOrder({
  mchOrderNo: 'order-1', wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: 'T-shirt', body: 'Blue T-shirt',
});
export const signature: string = sign({ amount: 100 }, 'not-a-real-secret');
export const isValidationError = (e: unknown): e is GatewayError => e instanceof GatewayValidationError;
export const notification: Promise<PayOrderNotification> = verifyNotification('payOrderId=P1&sign=00', { secret: 's', mchNo: 'M1', appId: 'app-1' });

// The declarations are real, not \`any\`: these must not compile.
// @ts-expect-error unknown parameter
export const wrongParam = client.query({ orderNumber: 'order-1' });
// @ts-expect-error a query result is not a string
export const wrongResult: Promise<string> = client.query({ mchOrderNo: 'order-1' });
`;
const entryConsumer = (manifest, entry) => `import * as entry from '${specifierOf(manifest, entry)}';
${entryUsage[entry] ?? 'export const names: string[] = Object.keys(entry);'}
`;

// A Node server project (@types/node, the strictest options) and an edge/browser-style one (DOM lib, no
// Node types, default options).
const NODE = { lib: ['es2023'], types: ['node'], exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true };
const DOM = { lib: ['es2023', 'dom'], types: [] };

/**
 * The optional peer dependencies whose types an entry's declaration files import: their real imports (parsed,
 * never a TSDoc example), through the declaration chunks they import and the package's other entries they
 * import by name (`payment-gateway-sdk/testing`).
 */
async function optionalPeersImported(dir, manifest, entry, visited = new Set([entry])) {
  const optional = Object.keys(manifest.peerDependenciesMeta ?? {}).filter((name) => manifest.peerDependenciesMeta[name].optional);
  const found = new Set();
  for (const condition of ['import', 'require']) {
    const specifiers = await bareImportsOf(join(dir, 'node_modules', manifest.name), manifest.exports[entry][condition].types).catch((error) => {
      throw new StepError(`${entry} (${condition}): ${error.message}`);
    });
    for (const specifier of specifiers) {
      const name = packageNameOf(specifier);
      if (optional.includes(name)) found.add(name);
      const self = name === manifest.name ? `.${specifier.slice(name.length)}` : undefined;
      if (self && manifest.exports[self] && !visited.has(self)) {
        visited.add(self);
        for (const peer of await optionalPeersImported(dir, manifest, self, visited)) found.add(peer);
      }
    }
  }
  return [...found];
}

/** Runs tsc over one consumer; it must compile and must have loaded the entry's declaration for each condition. */
async function compile(dir, manifest, { entry, base, source, label, options }) {
  await writeFile(join(dir, `${base}.mts`), source);
  await writeFile(join(dir, `${base}.cts`), source);
  const config = `tsconfig.${base}.${label.replace(/\W+/g, '-')}.json`;
  await writeJson(join(dir, config), {
    compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2023', strict: true, noEmit: true, skipLibCheck: false, ...options },
    files: [`${base}.mts`, `${base}.cts`],
  });
  const { stdout } = await run(process.execPath, [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config, '--listFiles'], { cwd: dir }).catch((error) => {
    const errors = error.message.split('\n').filter((line) => /error TS\d+/.test(line));
    throw new StepError(`TypeScript rejected the ${entry} consumer (${label}: ${JSON.stringify(options)}):\n${errors.join('\n') || error.message}`);
  });
  const listed = stdout.split('\n').map((line) => line.trim());
  for (const [condition, file] of [['import', `${base}.mts`], ['require', `${base}.cts`]]) {
    const declaration = manifest.exports[entry][condition].types.slice(2);
    if (!listed.some((line) => line.endsWith(`node_modules/${manifest.name}/${declaration}`))) {
      throw new StepError(`TypeScript did not load ${declaration} for ${file} (${label}); is the "${condition}" condition's "types" right?`);
    }
  }
}

// The entries that load an optional peer at run time (the others only take what the merchant passes in).
const RUNTIME_PEERS = { './opentelemetry': '@opentelemetry/api' };

// The entries whose declarations may import an optional peer's types: they exist for its users. Any other
// entry must compile for a consumer that lacks every optional peer.
const PEER_TYPED_ENTRIES = { './testing/msw': ['msw'], './stores/postgres': ['pg'], './stores/redis': ['ioredis'], './opentelemetry': ['@opentelemetry/api'] };

/**
 * Type-checks the consumers with library checking on (the shipped .d.ts must compile), except for an entry
 * whose declarations import an optional peer: without that peer installed only skipLibCheck compiles them,
 * so it is checked that way and reported as a note.
 */
async function typeCheck(dir, manifest) {
  const typesNode = (await readJson(join(repoRoot, 'node_modules', '@types', 'node', 'package.json'))).version;
  await npm(['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', `@types/node@${typesNode}`], { cwd: dir });
  const done = [];
  const notes = [];
  await compile(dir, manifest, { entry: '.', base: 'main', source: mainConsumer(manifest), label: 'Node types', options: NODE });
  await compile(dir, manifest, { entry: '.', base: 'main', source: mainConsumer(manifest), label: 'DOM lib only', options: DOM });
  done.push(`. (Node types; DOM lib only)`);
  for (const [i, entry] of entryPoints(manifest).filter((e) => e !== '.').entries()) {
    const peers = await optionalPeersImported(dir, manifest, entry);
    const unexpected = peers.filter((peer) => !(PEER_TYPED_ENTRIES[entry] ?? []).includes(peer));
    if (unexpected.length > 0) {
      throw new StepError(`${entry}: its declarations import types from optional peer ${unexpected.join(', ')}, so a strict consumer without it fails to compile (TS2307); keep those types in an entry of their own`);
    }
    await compile(dir, manifest, { entry, base: `entry${i}`, source: entryConsumer(manifest, entry), label: 'Node types', options: { ...NODE, skipLibCheck: peers.length > 0 } });
    done.push(`${entry} (Node types${peers.length > 0 ? ', skipLibCheck' : ''})`);
    if (peers.length > 0) {
      notes.push(`${entry}: its declarations import types from optional peer ${peers.join(', ')}; a consumer without it needs skipLibCheck (TS2307 otherwise)`);
    }
  }
  const { version } = await readJson(join(repoRoot, 'node_modules', 'typescript', 'package.json'));
  return { summary: `tsc ${version}, nodenext as ESM (.mts) and CommonJS (.cts): ${done.join(', ')}`, notes };
}

/**
 * `payment-gateway-sdk mock --port 0` through the consumer's node_modules/.bin link (what npx runs; run
 * directly so that SIGTERM reaches it): the first line is a URL that serves, SIGTERM ends it with 0.
 */
async function runBin(dir) {
  const child = spawn(join(dir, 'node_modules', '.bin', 'payment-gateway-sdk'), ['mock', '--port', '0'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new StepError(`payment-gateway-sdk mock printed no URL within 30 s: ${out}${err}`)), 30_000);
      child.stdout.on('data', (c) => {
        out += c;
        if (out.includes('\n')) {
          clearTimeout(timer);
          resolve(out.slice(0, out.indexOf('\n')));
        }
      });
      child.once('exit', (code) => reject(new StepError(`payment-gateway-sdk mock exited with ${code}: ${err}`)));
    });
    const state = await (await fetch(`${url}/_mock/state`)).json();
    if (!Array.isArray(state.merchants) || state.merchants.length !== 1) throw new StepError(`${url}/_mock/state answered ${JSON.stringify(state)}`);
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = await exited;
    if (code !== 0) throw new StepError(`payment-gateway-sdk mock exited with ${code} on SIGTERM`);
    return `node_modules/.bin/payment-gateway-sdk mock served ${url}, closed on SIGTERM`;
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

async function main() {
  console.log('check:package');
  const packDir = await scratchDir('pack');
  const consumer = await scratchDir('consumer');
  try {
    const { tarball, files, size } = await buildAndPack(packDir.dir);
    report('build + pack', `${tarball.split('/').pop()}, ${files.length} files, ${(size / 1024).toFixed(1)} KiB`);
    report('publint', await lintWithPublint(tarball));
    report('attw', await lintWithAttw(tarball));
    const manifest = await installTarball(consumer.dir, tarball);
    checkFileList(manifest, files);
    const zod = await readJson(join(consumer.dir, 'node_modules', 'zod', 'package.json'));
    const ky = await readJson(join(consumer.dir, 'node_modules', 'ky', 'package.json'));
    report('install', `scratch project; dependencies: zod ${zod.version}, ky ${ky.version}`);
    const specifiers = entryPoints(manifest).map((entry) => specifierOf(manifest, entry));
    // Every entry but those that load an optional peer imports without any peer installed; their users install it.
    await importAndRequire(consumer.dir, entryPoints(manifest).filter((entry) => !RUNTIME_PEERS[entry]).map((entry) => specifierOf(manifest, entry)));
    for (const peer of new Set(Object.values(RUNTIME_PEERS))) {
      const { version } = await readJson(join(repoRoot, 'node_modules', peer, 'package.json'));
      await npm(['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', `${peer}@${version}`], { cwd: consumer.dir });
    }
    const { esm, cjs } = await importAndRequire(consumer.dir, specifiers);
    report('import (ESM)', `node ${process.version}: ${esm}`);
    report('require (CJS)', `node ${process.version}: ${cjs}`);
    const types = await typeCheck(consumer.dir, manifest);
    report('types', types.summary);
    for (const note of types.notes) report('note', note);
    report('bin', await runBin(consumer.dir));
    console.log('check:package: OK');
  } finally {
    await packDir.dispose();
    await consumer.dispose();
  }
}

main().catch((error) => {
  console.error(`\ncheck:package FAILED: ${error instanceof StepError ? error.message : error?.stack ?? error}`);
  process.exit(1);
});
