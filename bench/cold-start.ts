/**
 * Cold start of the SDK next to stripe-node and openai-node, and the floor of the two HTTP stacks (a first
 * POST with no SDK, over fetch and over node:http): each probe is a fresh `node` process that imports one
 * SDK and makes its first call against the loopback server (bench/peers/cold-start-probe.mjs). The probes take
 * turns within each round so that load on the machine hits them alike.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
const RUNS = 21;
const PROBE = fileURLToPath(new URL('./peers/cold-start-probe.mjs', import.meta.url));

export const COLD_START_SDKS = ['ours', 'stripe', 'openai', 'fetch', 'nodeHttp'] as const;
export type ColdStartSdk = (typeof COLD_START_SDKS)[number];

export interface ColdStart {
  readonly sdk: ColdStartSdk;
  readonly version: string;
  readonly importMs: number;
  readonly firstCallMs: number;
}

export interface ProbeTarget {
  readonly origin: string;
  readonly mchNo: string;
  readonly appId: string;
  readonly secret: string;
  readonly mchOrderNo: string;
  readonly peerPath: string;
}

// Nothing from the environment may send a probe elsewhere than the loopback server (a proxy, an
// OPENAI_BASE_URL) or load code into it (NODE_OPTIONS).
function probeEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/proxy|^OPENAI_|^STRIPE_|^NODE_OPTIONS$/i.test(name)));
}

async function probe(sdk: ColdStartSdk, target: ProbeTarget): Promise<{ importMs: number; firstCallMs: number }> {
  const { stdout } = await run(process.execPath, [PROBE, sdk, JSON.stringify(target)], { env: probeEnv() });
  return JSON.parse(stdout) as { importMs: number; firstCallMs: number };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
// Read from disk: stripe's `exports` does not expose its package.json. The raw probes are Node's own.
const versionOf = (sdk: ColdStartSdk) =>
  sdk === 'fetch' || sdk === 'nodeHttp'
    ? `Node ${process.versions.node}`
    : (JSON.parse(readFileSync(new URL(sdk === 'ours' ? '../package.json' : `./peers/node_modules/${sdk}/package.json`, import.meta.url), 'utf8')) as { version: string }).version;

export async function measureColdStarts(target: ProbeTarget): Promise<ColdStart[]> {
  // One discarded run each first: it fills the OS file cache, which every later run then finds warm.
  for (const sdk of COLD_START_SDKS) await probe(sdk, target);
  const samples = new Map(COLD_START_SDKS.map((sdk) => [sdk, { importMs: [] as number[], firstCallMs: [] as number[] }]));
  for (let round = 0; round < RUNS; round++) {
    for (const sdk of COLD_START_SDKS) {
      const { importMs, firstCallMs } = await probe(sdk, target);
      samples.get(sdk)!.importMs.push(importMs);
      samples.get(sdk)!.firstCallMs.push(firstCallMs);
    }
  }
  return COLD_START_SDKS.map((sdk) => ({ sdk, version: versionOf(sdk), importMs: median(samples.get(sdk)!.importMs), firstCallMs: median(samples.get(sdk)!.firstCallMs) }));
}

export const COLD_START_RUNS = RUNS;
