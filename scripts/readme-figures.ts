/**
 * The README's figures, generated from the last recorded bench (bench/results.json, written by `npm run bench`),
 * never typed by hand: `npm run docs:bench` (and every `npm run bench`) writes them between the README's
 * `bench:` markers; test/docs/readme-figures.test.ts fails when the README and bench/results.json disagree.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Side = 'ours' | 'oursFetch' | 'rawFetch' | 'rawNodeHttp' | 'stripe' | 'openai' | 'ky';
type ColdSdk = 'ours' | 'stripe' | 'openai' | 'fetch' | 'nodeHttp';

/** One side of the peer case. */
interface PeerFigures {
  readonly callsPerSec: number;
  readonly cpuUsPerCall: number;
  readonly vsRawFetch: number;
}

/** What `npm run bench` records of one run (bench/results.json). */
export interface BenchResults {
  readonly date: string;
  readonly machine: { readonly cpu: string; readonly cores: number; readonly node: string; readonly loadBefore: string };
  readonly budgets: readonly { readonly id: string; readonly name: string; readonly measured: string; readonly target: string; readonly met: boolean }[];
  /** SDK against its raw baseline, in process: sign, stub (a full call on a stub fetch), notification. */
  readonly inProcess: Readonly<Record<string, number>>;
  readonly peers: Readonly<Partial<Record<'oursFetch', PeerFigures>> & Record<Exclude<Side, 'oursFetch'>, PeerFigures>>;
  /** Ours against stripe-node's POST, as medians of per-round ratios: CPU per call and calls/s (issue 39's budgets). */
  readonly vsStripe?: { readonly cpu: number; readonly calls: number };
  /** Ours against openai-node's POST: calls/s. */
  readonly callsVsOpenai?: number;
  readonly cpuVsOpenai: number;
  readonly coldStart: Readonly<Record<ColdSdk, { readonly importMs: number; readonly firstCallMs: number }>>;
  readonly size: { readonly gzipBytes: number; readonly stripeGzipBytes: number; readonly byPackageGzipBytes: Readonly<Record<string, number>> };
  /** `openTelemetry()` on the real SDK against the same client without it (absent from runs before it was measured). */
  readonly telemetry?: { readonly ownCpuUs: number; readonly cpuRatio: number; readonly plainCpuUs: number; readonly tracedCpuUs: number };
  /** Orders one processor checked per second against the mock on loopback, by sweep concurrency (absent from runs before it was recorded). */
  readonly sweep?: readonly { readonly concurrency: number; readonly ordersPerSecond: number }[];
}

const RESULTS = new URL('../bench/results.json', import.meta.url);
const README = new URL('../README.md', import.meta.url);

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const ms = (n: number) => `${Math.round(n)} ms`;
const x = (n: number, digits = 2) => `${n.toFixed(digits)}x`;

function verdict(results: BenchResults, id: string): string {
  const budget = results.budgets.find((b) => b.id === id);
  if (!budget) throw new Error(`bench/results.json has no budget ${id}`);
  return budget.met ? 'met' : '**missed**';
}

/** The intro's one line of figures. */
export function introFigures(r: BenchResults): string {
  return `${kb(r.size.gzipBytes)} min+gz with zod and ky bundled in (stripe-node: ${kb(r.size.stripeGzipBytes)}), a cold import and first call in ${ms(r.coldStart.ours.firstCallMs)} (stripe-node: ${ms(r.coldStart.stripe.firstCallMs)})`;
}

/** The "Performance and size" section's paragraph and table. */
export function performanceSection(r: BenchResults): string {
  const p = r.peers;
  const missed = r.budgets.filter((b) => !b.met).length;
  const packages = Object.entries(r.size.byPackageGzipBytes).map(([name, bytes]) => `${name === 'payment-gateway-sdk' ? 'ours' : name} ${kb(bytes)}`).join(', ');
  const cold = r.coldStart;
  return [
    `Measured by one run of \`npm run bench\` (${r.date}, ${r.machine.cpu}, ${r.machine.cores} cores, Node ${r.machine.node.replace(/^v/, '')}, load average ${r.machine.loadBefore} before the run), each figure next to its peers in the same run; \`bench/RESULTS.md\` has the whole run, and why each missed budget is missed. ${missed === 0 ? 'Every budget is met.' : `${missed} of the ${r.budgets.length} budgets ${missed === 1 ? 'is' : 'are'} missed.`} On Node the client sends over \`node:http\` with a keep-alive agent, under ky${p.oursFetch ? ` (${int(p.ours.cpuUsPerCall)} µs of CPU per call, against ${int(p.oursFetch.cpuUsPerCall)} µs when it is given \`fetch\`)` : ''}; a \`fetch\` you give it, and every other runtime, keeps fetch. stripe-node stays ahead on throughput and CPU: the same signed query costs ${int(p.rawNodeHttp.cpuUsPerCall)} µs over bare \`node:http\`, and the rest of ours is ky's per-attempt layer and the SDK's checks of each answer.`,
    '',
    '| | payment-gateway-sdk | peers, same run | budget |',
    '|---|---|---|---|',
    `| client CPU per call, same POST to one loopback server, 16 in flight | **${int(p.ours.cpuUsPerCall)} µs** | stripe-node ${int(p.stripe.cpuUsPerCall)} µs (node:http), openai-node ${int(p.openai.cpuUsPerCall)}, plain ky ${int(p.ky.cpuUsPerCall)}, raw fetch ${int(p.rawFetch.cpuUsPerCall)}, raw node:http ${int(p.rawNodeHttp.cpuUsPerCall)} | <= 1.1x stripe-node: ${verdict(r, 'cpu')}${r.vsStripe ? ` (${x(r.vsStripe.cpu)})` : ''} |`,
    `| calls/s, same server | **${int(p.ours.callsPerSec)}** (${x(p.ours.vsRawFetch)} raw fetch) | stripe-node ${int(p.stripe.callsPerSec)}, openai-node ${int(p.openai.callsPerSec)}, plain ky ${int(p.ky.callsPerSec)}, raw fetch ${int(p.rawFetch.callsPerSec)} | >= stripe-node: ${verdict(r, 'loopback')}${r.vsStripe ? ` (${x(r.vsStripe.calls)})` : ''}; >= 1.5x openai-node: ${r.budgets.some((b) => b.id === 'loopbackOpenai') ? verdict(r, 'loopbackOpenai') : 'not in this run'}${r.callsVsOpenai ? ` (${x(r.callsVsOpenai)})` : ''} |`,
    `| full call on a stub fetch (validate, sign, send, parse, verify) | ${x(r.inProcess.stub ?? Number.NaN)} a baseline that signs, sorts case-insensitively and verifies the response | | >= 0.4x: ${verdict(r, 'stub')} |`,
    `| bundle, min+gz (the client with its operations, notification verification; esbuild, worker/browser conditions) | **${int(r.size.gzipBytes)} B** (${packages}) | stripe-node ${int(r.size.stripeGzipBytes)} B, the same calls bundled the same way | <= 50,000 B: ${verdict(r, 'bundle')} |`,
    `| cold \`import\` + first call, fresh Node process (median of 21) | **${ms(cold.ours.firstCallMs)}** (\`import\` ${ms(cold.ours.importMs)}) | stripe-node ${ms(cold.stripe.firstCallMs)}, openai-node ${ms(cold.openai.firstCallMs)}; one bare fetch POST ${ms(cold.fetch.firstCallMs)} | <= 0.5x stripe-node: ${verdict(r, 'coldStart')} (${x(cold.ours.firstCallMs / cold.stripe.firstCallMs)}); <= 1.3x a bare fetch: ${verdict(r, 'coldStartFetch')} (${x(cold.ours.firstCallMs / cold.fetch.firstCallMs)}) |`,
    `| \`sign()\` | ${x(r.inProcess.sign ?? Number.NaN)} a bare sort + MD5 baseline | | >= 0.8x: ${verdict(r, 'sign')} |`,
    `| \`verifyNotification\` on a form body | ${x(r.inProcess.notification ?? Number.NaN)} a bare split-sort-hash baseline | | >= 0.7x: ${verdict(r, 'notification')} |`,
    r.telemetry
      ? `| client CPU per call with \`openTelemetry()\` on the real OpenTelemetry SDK | **${int(r.telemetry.tracedCpuUs)} µs** (the telemetry alone ${r.telemetry.ownCpuUs.toFixed(1)} µs: two spans, two histogram points) | the same client without telemetry ${int(r.telemetry.plainCpuUs)} µs | <= 1.10x: ${verdict(r, 'telemetry')} (${x(r.telemetry.cpuRatio)}) |`
      : '| client CPU per call with `openTelemetry()` on the real OpenTelemetry SDK | not in this run (measured from 2026-11-26 on) | the same client without telemetry | <= 1.10x |',
  ].join('\n');
}

/** The sweep's throughput against the mock, at the default concurrency (8), in the "No paid order left behind" section. */
export function sweepFigures(r: BenchResults): string {
  const atDefault = r.sweep?.find((s) => s.concurrency === 8);
  if (!atDefault) return 'the sweep was not measured in the last recorded run of `npm run bench`';
  return `against the mock on loopback one worker checked ${int(atDefault.ordersPerSecond)} orders a second at the default concurrency of 8 (\`npm run bench\`, ${r.date}, ${r.machine.cores} cores): sweeping every minute, it keeps up with about ${int(Math.floor((atDefault.ordersPerSecond * 60) / 1000) * 1000)} open tracked orders at the mock's speed`;
}

const REGIONS = { intro: introFigures, performance: performanceSection, sweep: sweepFigures } as const;

/** The marker pair of a region: `<!-- bench:name -->` ... `<!-- /bench:name -->`. */
export const markers = (name: keyof typeof REGIONS) => [`<!-- bench:${name} (npm run docs:bench writes this from bench/results.json) -->`, `<!-- /bench:${name} -->`] as const;

/** `readme` with every generated region replaced by the figures of `results`. */
export function withReadmeFigures(readme: string, results: BenchResults): string {
  let out = readme;
  for (const [name, generate] of Object.entries(REGIONS) as [keyof typeof REGIONS, (r: BenchResults) => string][]) {
    const [start, end] = markers(name);
    const from = out.indexOf(start);
    const to = out.indexOf(end);
    if (from === -1 || to < from) throw new Error(`README.md has no ${start} ... ${end} region`);
    const body = generate(results);
    // An inline region (inside a sentence) stays inline; a block region keeps its blank lines.
    const block = out.slice(from + start.length, to).startsWith('\n');
    out = `${out.slice(0, from + start.length)}${block ? `\n${body}\n` : body}${out.slice(to)}`;
  }
  return out;
}

/** The last recorded bench. */
export function readResults(): BenchResults {
  return JSON.parse(readFileSync(RESULTS, 'utf8')) as BenchResults;
}

/** Writes the figures of `results` into README.md. */
export function writeReadmeFigures(results: BenchResults): void {
  writeFileSync(README, withReadmeFigures(readFileSync(README, 'utf8'), results));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeReadmeFigures(readResults());
