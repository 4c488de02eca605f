// `npm run size`: bundles what a merchant's server imports, ours and stripe-node's the same way (esbuild,
// minified, gzip -9, the worker/browser conditions), and fails when ours is the larger; splits our size
// by package; checks the testing entry stays out. Writes .tmp/size/size.json, which `npm run bench`
// reports. `--built` skips the build (the bench has just built dist). Cold start is measured by the
// bench, next to stripe-node and openai-node.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const work = `${root}.tmp/size`;
// stripe-node comes from the bench's own install (bench/peers, installed by `npm run size` first).
const peers = `${root}bench/peers/node_modules`;
mkdirSync(work, { recursive: true });

if (!process.argv.includes('--built')) execFileSync('npx', ['tsup', '--silent'], { cwd: root, stdio: 'inherit' });

// What a merchant's server does: construct a client, call every operation, verify a notification.
const ours = (entry) => `
import { GatewayClient } from '${entry}';
const client = new GatewayClient({ baseUrl: 'https://pay.example.com', mchNo: 'M1', appId: 'A1', secret: 's' });
export async function run(body) {
  await client.unifiedOrder({ mchOrderNo: 'o', wayCode: 'QR_CASHIER', amount: 1, currency: 'USD', subject: 's', body: 'b' });
  await client.query({ mchOrderNo: 'o' });
  await client.close({ mchOrderNo: 'o' });
  await client.settleAddressApply({ requestId: 'r', tokenId: 'TRON_USDT', address: 'T' });
  await client.settleRequest({ requestId: 'r', amount: 1, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: 'T' });
  await client.settleRequestGet({ requestId: 'r' });
  return client.verifyNotification(body);
}`;

// The same merchant on stripe-node, call for call (stripe-node bundles every resource whichever are called).
const stripe = `
import Stripe from 'stripe';
const stripe = new Stripe('sk_test_x');
export async function run(body, signature) {
  await stripe.paymentIntents.create({ amount: 1, currency: 'usd' });
  await stripe.paymentIntents.retrieve('pi_1');
  await stripe.paymentIntents.cancel('pi_1');
  await stripe.accounts.createExternalAccount('acct_1', { external_account: 'btok_1' });
  await stripe.payouts.create({ amount: 1, currency: 'usd' });
  await stripe.payouts.retrieve('po_1');
  return stripe.webhooks.constructEventAsync(body, signature, 'whsec_x');
}`;

async function bundle(name, source, external = []) {
  writeFileSync(`${work}/${name}.mjs`, source);
  const result = await build({
    entryPoints: [`${work}/${name}.mjs`], bundle: true, minify: true, format: 'esm', platform: 'neutral', conditions: ['worker', 'browser'],
    external, nodePaths: [peers], write: false, metafile: true, logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  const packages = new Set();
  for (const file of Object.keys(result.metafile.inputs)) {
    const inside = file.split('node_modules/')[1];
    if (inside !== undefined) packages.add(inside.split('/').slice(0, inside.startsWith('@') ? 2 : 1).join('/'));
  }
  return { code, gz: gzipSync(code, { level: 9 }).length, packages: [...packages] };
}

// The budget holds for what ships: the consumer bundled from dist, against stripe-node's in this run.
const shipped = await bundle('consumer', ours(`${root}dist/index.js`));
const peer = await bundle('consumer-stripe', stripe);
const stripeVersion = JSON.parse(readFileSync(`${peers}/stripe/package.json`, 'utf8')).version;
const testingLeaked = /createMockGateway|mock gateway/i.test(new TextDecoder().decode(shipped.code));

// dist may inline its dependencies, so the split comes from the same consumer bundled from src, where
// each package is its own input. Gzip compresses across package boundaries, so a package's share is
// its marginal cost: the bundle with it minus the bundle without it (left external).
const fromSrc = await bundle('consumer-src', ours(`${root}src/index.ts`));
const byPackage = { 'payment-gateway-sdk': (await bundle('consumer-own', ours(`${root}src/index.ts`), fromSrc.packages.flatMap((p) => [p, `${p}/*`]))).gz };
for (const pkg of fromSrc.packages) byPackage[pkg] = fromSrc.gz - (await bundle(`consumer-no-${pkg.replace('/', '_')}`, ours(`${root}src/index.ts`), [pkg, `${pkg}/*`])).gz;

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const bytes = (n) => `${n.toLocaleString('en-US')} B`;
console.log('consumer bundles (client, six operations, notification verification), esbuild --minify, gzip -9, conditions worker+browser:');
console.log(`  payment-gateway-sdk ${bytes(shipped.gz)} (${kb(shipped.gz)}; ${kb(shipped.code.length)} minified)`);
console.log(`  stripe-node ${stripeVersion}  ${bytes(peer.gz)} (${kb(peer.gz)}; ${kb(peer.code.length)} minified)`);
console.log(`  budget: ours <= stripe-node's: ${shipped.gz <= peer.gz ? 'met' : 'MISSED'} (${(shipped.gz / peer.gz).toFixed(3)}x)`);
console.log(`ours by package, min+gz (bundled from src: ${kb(fromSrc.gz)} in all; a dependency's share is what leaving it out saves):`);
for (const [pkg, n] of Object.entries(byPackage)) console.log(`  ${pkg.padEnd(22)} ${kb(n)}`);
console.log(`testing entry in the main bundle: ${testingLeaked ? 'YES (leak)' : 'no'}`);
writeFileSync(`${work}/size.json`, JSON.stringify({
  gzipBytes: shipped.gz, minifiedBytes: shipped.code.length, stripe: { version: stripeVersion, gzipBytes: peer.gz, minifiedBytes: peer.code.length },
  srcGzipBytes: fromSrc.gz, byPackageGzipBytes: byPackage, testingLeaked,
}, null, 2));

if (shipped.gz > peer.gz || testingLeaked) {
  console.error(shipped.gz > peer.gz ? `Over budget: ${bytes(shipped.gz - peer.gz)} more than stripe-node's bundle.` : 'The testing entry leaked into the main bundle.');
  process.exit(1);
}
