// `npm run size`: bundles a consumer of the main entry (esbuild, minified, gzip) and fails over budget;
// checks the testing entry stays out of it; reports the cold import time in fresh Node processes.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const BUDGET_BYTES = 20 * 1024;
const IMPORT_RUNS = 31;
const root = fileURLToPath(new URL('..', import.meta.url));
const work = `${root}.tmp/size`;
mkdirSync(work, { recursive: true });

execFileSync('npx', ['tsup', '--silent'], { cwd: root, stdio: 'inherit' });

// What a merchant's server does: construct a client, call every operation, verify a notification.
const consumer = `
import * as sdk from '${root}dist/index.js';
const client = new sdk.GatewayClient({ baseUrl: 'https://pay.example.com', mchNo: 'M1', appId: 'A1', secret: 's' });
export async function run(body) {
  await client.unifiedOrder({ mchOrderNo: 'o', wayCode: 'QR_CASHIER', amount: 1, currency: 'USD', subject: 's', body: 'b' });
  await client.query({ mchOrderNo: 'o' });
  await client.close({ mchOrderNo: 'o' });
  await client.settleAddressApply({ requestId: 'r', tokenId: 'TRON_USDT', address: 'T' });
  await client.settleRequest({ requestId: 'r', amount: 1, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: 'T' });
  await client.settleRequestGet({ requestId: 'r' });
  return 'verifyNotification' in client ? client.verifyNotification(body) : sdk.verifySign({}, 's', body);
}`;
writeFileSync(`${work}/consumer.mjs`, consumer);
const result = await build({ entryPoints: [`${work}/consumer.mjs`], bundle: true, minify: true, format: 'esm', platform: 'neutral', write: false, metafile: true, logLevel: 'silent' });
const code = result.outputFiles[0].contents;
const gz = gzipSync(code, { level: 9 }).length;

const byPackage = {};
for (const [file, info] of Object.entries(result.metafile.outputs[Object.keys(result.metafile.outputs)[0]].inputs)) {
  const pkg = file.includes('node_modules/') ? file.split('node_modules/')[1].split('/').slice(0, file.split('node_modules/')[1].startsWith('@') ? 2 : 1).join('/') : 'payment-gateway-sdk';
  byPackage[pkg] = (byPackage[pkg] ?? 0) + info.bytesInOutput;
}
const text = new TextDecoder().decode(code);
const testingLeaked = /createMockGateway|mock gateway/i.test(text);

const times = [];
for (let i = 0; i < IMPORT_RUNS; i++) {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', `const t = performance.now(); await import(${JSON.stringify(`${root}dist/index.js`)}); console.log(performance.now() - t);`], { encoding: 'utf8' });
  times.push(Number(run.stdout.trim()));
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`main entry, all six operations + notification verification, esbuild --minify + gzip -9: ${kb(gz)} (budget ${kb(BUDGET_BYTES)}; ${kb(code.length)} minified)`);
for (const [pkg, bytes] of Object.entries(byPackage).sort((a, b) => b[1] - a[1])) console.log(`  ${pkg.padEnd(22)} ${kb(bytes)} minified`);
console.log(`testing entry in the main bundle: ${testingLeaked ? 'YES (leak)' : 'no'}`);
console.log(`cold import of dist/index.js in a fresh Node ${process.version} process: median ${median.toFixed(1)} ms over ${IMPORT_RUNS} runs (min ${times[0].toFixed(1)}, max ${times.at(-1).toFixed(1)})`);
writeFileSync(`${work}/size.json`, JSON.stringify({ gzipBytes: gz, minifiedBytes: code.length, byPackage, importMedianMs: median }, null, 2));

if (gz > BUDGET_BYTES || testingLeaked) {
  console.error(gz > BUDGET_BYTES ? `Over budget by ${kb(gz - BUDGET_BYTES)}.` : 'The testing entry leaked into the main bundle.');
  process.exit(1);
}
