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
  await client.refundOrder({ mchOrderNo: 'o', mchRefundNo: 'r', refundAmount: 1, currency: 'USD', refundReason: 'r' });
  await client.refundQuery({ mchRefundNo: 'r' });
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
  await stripe.refunds.create({ payment_intent: 'pi_1', amount: 1 });
  await stripe.refunds.retrieve('re_1');
  return stripe.webhooks.constructEventAsync(body, signature, 'whsec_x');
}`;

async function bundle(name, source, external = [], plugins = []) {
  writeFileSync(`${work}/${name}.mjs`, source);
  const result = await build({
    entryPoints: [`${work}/${name}.mjs`], bundle: true, minify: true, format: 'esm', platform: 'neutral', conditions: ['worker', 'browser'],
    external, nodePaths: [peers], write: false, metafile: true, logLevel: 'silent', plugins,
  });
  const code = result.outputFiles[0].contents;
  const packages = new Set();
  for (const file of Object.keys(result.metafile.inputs)) {
    const inside = file.split('node_modules/')[1];
    if (inside !== undefined) packages.add(inside.split('/').slice(0, inside.startsWith('@') ? 2 : 1).join('/'));
  }
  const modules = {};
  for (const output of Object.values(result.metafile.outputs)) for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) modules[file] = bytesInOutput;
  return { code, gz: gzipSync(code, { level: 9 }).length, packages: [...packages], modules };
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
console.log(`  ours against stripe-node's: ${(shipped.gz / peer.gz).toFixed(3)}x`);
console.log(`ours by package, min+gz (bundled from src: ${kb(fromSrc.gz)} in all; a dependency's share is what leaving it out saves):`);
for (const [pkg, n] of Object.entries(byPackage)) console.log(`  ${pkg.padEnd(22)} ${kb(n)}`);
console.log(`testing entry in the main bundle: ${testingLeaked ? 'YES (leak)' : 'no'}`);

// Where our bytes go, per module of src (minified bytes in the bundle; the gzip share is pro rata, as gzip compresses
// across modules), and per record kind: the modules whose file is named for it. A new kind's cost shows in review.
const ownModules = Object.entries(fromSrc.modules).filter(([file]) => !file.includes('node_modules/'));
const ownMinified = ownModules.reduce((sum, [, n]) => sum + n, 0);
const gzShare = (n) => Math.round((n / ownMinified) * byPackage['payment-gateway-sdk']);
// A kind's cost is marginal, as a package's: the bundle minus the same bundle with the kind's operations left out of
// the registry's list (src/kinds/index.ts; its schemas, refusals and advice go with them; the client's methods stay, a few
// bytes each). The kinds are the registry's: one folder each.
const registryPath = `${root}src/kinds/index.ts`;
const registrySource = readFileSync(registryPath, 'utf8');
const kindNames = [...registrySource.matchAll(/^import \* as (\w+) from '\.\/\w+\/declaration\.js';$/gm)].map((match) => match[1]);
const byKind = {};
for (const kind of kindNames) {
  const text = registrySource.replace(new RegExp(`(?<=\\[|, )${kind}\\.operations(?:, )?`), '');
  if (text === registrySource) throw new Error(`size: src/kinds/index.ts no longer lists ${kind}.operations`);
  const plugin = { name: 'without-kind', setup: (b) => b.onLoad({ filter: /src[\\/]kinds[\\/]index\.ts$/ }, () => ({ contents: text, loader: 'ts', resolveDir: `${root}src/kinds` })) };
  byKind[kind] = fromSrc.gz - (await bundle(`consumer-no-${kind}`, ours(`${root}src/index.ts`), [], [plugin])).gz;
}
console.log(`ours by module (of ${kb(ownMinified)} minified; gzip shares pro rata):`);
for (const [file, n] of ownModules.sort((a, b) => b[1] - a[1])) console.log(`  ${file.replace(/^.*?src\//, 'src/').padEnd(48)} ${kb(n).padStart(8)} min  ~${kb(gzShare(n)).padStart(7)} gz`);
console.log('by record kind (what leaving its operations out of the registry, src/kinds/index.ts, saves), gzip:');
for (const [kind, n] of Object.entries(byKind)) console.log(`  ${kind.padEnd(12)} ~${kb(n)}`);
writeFileSync(`${work}/size.json`, JSON.stringify({
  gzipBytes: shipped.gz, minifiedBytes: shipped.code.length, stripe: { version: stripeVersion, gzipBytes: peer.gz, minifiedBytes: peer.code.length },
  srcGzipBytes: fromSrc.gz, byPackageGzipBytes: byPackage, byKindGzipBytes: byKind, testingLeaked,
}, null, 2));

// Issue 39: the whole at most 50,000 B, each record kind at most 1.5 KB.
const BUNDLE_BUDGET = 50_000;
const KIND_BUDGET = 1536;
const overKinds = Object.entries(byKind).filter(([, n]) => n > KIND_BUDGET);
if (shipped.gz > BUNDLE_BUDGET || overKinds.length > 0 || testingLeaked) {
  if (shipped.gz > BUNDLE_BUDGET) console.error(`Over budget: ${bytes(shipped.gz)}, more than ${bytes(BUNDLE_BUDGET)}.`);
  for (const [kind, n] of overKinds) console.error(`Over budget: the ${kind} kind costs ~${kb(n)}, more than ${kb(KIND_BUDGET)}.`);
  if (testingLeaked) console.error('The testing entry leaked into the main bundle.');
  process.exit(1);
}
