// `npm run size`: bundles a consumer of the main entry (esbuild, minified, gzip) and fails over budget;
// splits the size by package; checks the testing entry stays out of it. Writes .tmp/size/size.json, which
// `npm run bench` reports. `--built` skips the build (the bench has just built dist). Cold start is
// measured by the bench, next to stripe-node and openai-node.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

// Issue 10: ky and zod in, and still under stripe-node (31-32 KB) and openai-node (35 KB).
const BUDGET_BYTES = 29 * 1024;
const root = fileURLToPath(new URL('..', import.meta.url));
const work = `${root}.tmp/size`;
mkdirSync(work, { recursive: true });

if (!process.argv.includes('--built')) execFileSync('npx', ['tsup', '--silent'], { cwd: root, stdio: 'inherit' });

// What a merchant's server does: construct a client, call every operation, verify a notification.
const consumer = (entry) => `
import * as sdk from '${entry}';
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

async function bundle(name, entry, external = []) {
  writeFileSync(`${work}/${name}.mjs`, consumer(entry));
  const result = await build({ entryPoints: [`${work}/${name}.mjs`], bundle: true, minify: true, format: 'esm', platform: 'neutral', external, write: false, metafile: true, logLevel: 'silent' });
  const code = result.outputFiles[0].contents;
  const packages = new Set();
  for (const file of Object.keys(result.metafile.inputs)) {
    const inside = file.split('node_modules/')[1];
    if (inside !== undefined) packages.add(inside.split('/').slice(0, inside.startsWith('@') ? 2 : 1).join('/'));
  }
  return { code, gz: gzipSync(code, { level: 9 }).length, packages: [...packages] };
}

// The budget holds for what ships: the consumer bundled from dist.
const shipped = await bundle('consumer', `${root}dist/index.js`);
const testingLeaked = /createMockGateway|mock gateway/i.test(new TextDecoder().decode(shipped.code));

// dist may inline its dependencies, so the split comes from the same consumer bundled from src, where
// each package is its own input. Gzip compresses across package boundaries, so a package's share is
// its marginal cost: the bundle with it minus the bundle without it (left external).
const fromSrc = await bundle('consumer-src', `${root}src/index.ts`);
const byPackage = { 'payment-gateway-sdk': (await bundle('consumer-own', `${root}src/index.ts`, fromSrc.packages.flatMap((p) => [p, `${p}/*`]))).gz };
for (const pkg of fromSrc.packages) byPackage[pkg] = fromSrc.gz - (await bundle(`consumer-no-${pkg.replace('/', '_')}`, `${root}src/index.ts`, [pkg, `${pkg}/*`])).gz;

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`main entry, all six operations + notification verification, esbuild --minify + gzip -9: ${kb(shipped.gz)} (budget ${kb(BUDGET_BYTES)}; ${kb(shipped.code.length)} minified)`);
console.log(`by package, min+gz (bundled from src: ${kb(fromSrc.gz)} in all; a dependency's share is what leaving it out saves):`);
for (const [pkg, bytes] of Object.entries(byPackage)) console.log(`  ${pkg.padEnd(22)} ${kb(bytes)}`);
console.log('for comparison (figures of issue 10, not measured here): stripe-node 31-32 KB, openai-node 35 KB min+gz');
console.log(`testing entry in the main bundle: ${testingLeaked ? 'YES (leak)' : 'no'}`);
writeFileSync(`${work}/size.json`, JSON.stringify({ gzipBytes: shipped.gz, minifiedBytes: shipped.code.length, budgetBytes: BUDGET_BYTES, srcGzipBytes: fromSrc.gz, byPackageGzipBytes: byPackage, testingLeaked }, null, 2));

if (shipped.gz > BUDGET_BYTES || testingLeaked) {
  console.error(shipped.gz > BUDGET_BYTES ? `Over budget by ${kb(shipped.gz - BUDGET_BYTES)}.` : 'The testing entry leaked into the main bundle.');
  process.exit(1);
}
