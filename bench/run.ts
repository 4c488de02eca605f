/**
 * `npm run bench`: the SDK against a raw baseline written here, side by side, in one process.
 * Prints a table, writes bench/RESULTS.md, and exits 1 when a target ratio is missed.
 */
import { writeFileSync } from 'node:fs';
import { cpus, totalmem, platform, arch } from 'node:os';
import { md5Hex, portableMd5Hex } from '../src/internal/signing/md5.js';
import { baselineCall, baselineSign, baselineVerifyForm } from './baseline.js';
import { asyncBatch, compare, rate, syncBatch, type Comparison } from './harness.js';
import { signedEnvelope } from '../test/support/wire.js';
import { formBody, MERCHANT, signedFields } from '../test/support/notification.js';

// Measure what ships: the built bundle (npm run bench builds it first), typed from the sources.
const DIST = new URL('../dist/index.js', import.meta.url).href;
const { GatewayClient, sign, verifyNotification } = (await import(DIST)) as typeof import('../src/index.js');

const secret = 'jeepay-test-secret-0123456789';
const requestParams = {
  mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9', mchOrderNo: 'mho1623985457320', version: '1.0.1', signType: 'MD5', reqTime: '1623985460123',
};
const payOrder = {
  payOrderId: 'P202106181104177050002', mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9', mchOrderNo: 'mho1623985457320', ifCode: 'alipay',
  wayCode: 'ALI_BAR', amount: 58, currency: 'USD', state: 2, clientIp: '192.166.1.132', subject: 'T-shirt', body: 'Blue T-shirt',
  channelOrderNo: '2021061822001423031419593035', successTime: 1623985459000, createdAt: 1623985457705,
};
const responseBody = signedEnvelope(payOrder, secret);
// The same in-process stub for both sides: it answers a signed query response.
const stubFetch = async (_url: string, _init: RequestInit) => new Response(responseBody, { status: 200, headers: { 'content-type': 'application/json' } });
const client = new GatewayClient({ baseUrl: 'https://gateway.bench', mchNo: payOrder.mchNo, appId: payOrder.appId, secret, fetch: stubFetch });

interface Row {
  name: string;
  target: number;
  result: Comparison;
}

const rows: Row[] = [];
rows.push({ name: 'sign()', target: 0.8, result: await compare(syncBatch(() => sign(requestParams, secret)), syncBatch(() => baselineSign(requestParams, secret))) });
rows.push({
  name: 'full call: query (validate, sign, send, parse, verify)',
  target: 0.5,
  result: await compare(asyncBatch(() => client.query({ mchOrderNo: payOrder.mchOrderNo })), asyncBatch(() => baselineCall(stubFetch, requestParams, secret))),
});
// The shared notification vector, as the form body the gateway posts.
const notificationBody = formBody(signedFields());
if (!baselineVerifyForm(notificationBody, MERCHANT.secret)) throw new Error('the baseline must accept the genuine notification');
rows.push({
  name: 'verifyNotification (raw form body)',
  target: 0.7,
  result: await compare(asyncBatch(() => verifyNotification(notificationBody, MERCHANT)), syncBatch(() => baselineVerifyForm(notificationBody, MERCHANT.secret))),
});

// Hostile shapes: case twins whose 1 MiB values differ everywhere (é/É) or only at the end. Java's order
// compares them char by char; the cost must stay linear in the bytes, like hashing them.
const MiB = 1024 * 1024;
const msPerCall = (run: () => void) => {
  run();
  const started = performance.now();
  for (let i = 0; i < 5; i++) run();
  return (performance.now() - started) / 5;
};
const twinRows = ([
  ['ASCII twins A/a, values equal but for the last char', 'x'.repeat(MiB) + '1', 'x'.repeat(MiB) + '2'],
  ['non-ASCII twins, values differing in case everywhere (é/É)', 'é'.repeat(MiB), 'É'.repeat(MiB)],
] as const).map(([name, a, b]) => ({ name, twins: msPerCall(() => sign({ A: a, a: b }, secret)), plain: msPerCall(() => sign({ A: a, b }, secret)) }));

const md5Text = `${Object.entries(requestParams).map(([k, v]) => `${k}=${v}&`).join('')}key=${secret}`;
const nodeMd5 = await rate(syncBatch(() => md5Hex(md5Text)));
const pureMd5 = await rate(syncBatch(() => portableMd5Hex(md5Text)));

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const table = [
  '| case | SDK ops/s | baseline ops/s | ratio | target | |',
  '|---|---:|---:|---:|---:|---|',
  ...rows.map((r) => `| ${r.name} | ${fmt(r.result.sdkOpsPerSec)} | ${fmt(r.result.baselineOpsPerSec)} | ${r.result.ratio.toFixed(2)}x | >= ${r.target}x | ${r.result.ratio >= r.target ? 'ok' : 'BELOW TARGET'} |`),
].join('\n');
const md5Table = ['| MD5 path | ops/s |', '|---|---:|', `| node:crypto | ${fmt(nodeMd5)} |`, `| portable (runtimes without node:crypto) | ${fmt(pureMd5)} |`].join('\n');
const twinTable = [
  '| sign() of two 1 MiB values | with case-twin keys (A, a) | same values, keys A, b |',
  '|---|---:|---:|',
  ...twinRows.map((r) => `| ${r.name} | ${r.twins.toFixed(1)} ms | ${r.plain.toFixed(1)} ms |`),
].join('\n');
const cpu = cpus();
const machine = `${cpu[0]?.model ?? 'unknown CPU'} (${cpu.length} cores), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${platform()} ${arch()}, Node ${process.version}`;

console.log(`\n${machine}\n\n${table}\n\n${md5Table}\n\n${twinTable}\n`);
writeFileSync(
  new URL('./RESULTS.md', import.meta.url),
  `# Benchmark results\n\nWritten by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}.\n\nMachine: ${machine}.\n\n` +
    `SDK and baseline run in alternating batches of about 60 ms after calibration and warm-up, 21 rounds, in one process; ` +
    `rates are medians, the ratio is the median of the per-round ratios. ` +
    `The baseline (bench/baseline.ts) does the least any client must: a plain sorted \`k=v&\` string, node:crypto's one-shot MD5, ` +
    `JSON.stringify, the same in-process stub fetch, JSON.parse; no validation, no response verification, no error handling.\n\n` +
    `${table}\n\n${md5Table}\n\n` +
    `Hostile shapes (issue 9): two fields of 1 MiB each, MD5 included. Case twins cost a char-by-char comparison of the values as far as they are equal or fold equal, linear in their size (a notification is capped at maxBodyBytes, 64 KiB by default); the signer before issue 9 folded whole values char by char (measured on its sources on 2026-11-23: 13 ms for the ASCII row, 496 ms for the é/É row).\n\n${twinTable}\n`,
);
if (rows.some((r) => r.result.ratio < r.target)) {
  console.error('A benchmark is below its target ratio.');
  process.exitCode = 1;
}
