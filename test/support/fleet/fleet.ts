// The coordinator's side of the fleet test: worker processes (started, killed by themselves, restarted), the
// gateway's deliveries (concurrent copies to random workers, re-deliveries of whatever was not answered SUCCESS),
// and the reading of the workers' run logs (overlaps, completed runs per key).
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RunEvent, WorkerSettings } from './worker.js';

/** The campaign's seeded generator: a failing fleet run can be repeated with its seed. */
export { random as seededRandom } from '../campaign.js';

const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

interface Slot {
  /** The worker's URL; after it dies, still its old address (refused), as a balancer would keep sending there. */
  url: string;
  alive: boolean;
  child: ChildProcess | undefined;
  restarts: number;
}

/** Worker processes behind a pretend load balancer: `urls()` lists every slot, dead or alive, as a balancer would. */
export class Fleet {
  readonly slots: Slot[] = [];
  /** When each worker process died unasked (pid -> CLOCK_MONOTONIC ns, as the workers log). */
  readonly deaths = new Map<number, bigint>();
  kills = 0;
  readonly restartFailures: unknown[] = [];
  private stopping = false;
  private readonly restarting: Promise<void>[] = [];

  constructor(
    private readonly settings: (worker: number) => WorkerSettings,
    private readonly maxRestarts: number,
  ) {}

  async start(count: number): Promise<void> {
    for (let i = 0; i < count; i++) this.slots.push({ url: 'http://127.0.0.1:1/', alive: false, child: undefined, restarts: 0 });
    await Promise.all(this.slots.map((_, i) => this.launch(i)));
  }

  url(slot: number): string {
    return this.slots[slot]!.url;
  }

  private async launch(slot: number): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
      cwd: ROOT,
      env: { ...process.env, FLEET_WORKER: JSON.stringify(this.settings(slot)) },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const state = this.slots[slot]!;
    state.child = child;
    child.on('exit', () => {
      const diedAt = process.hrtime.bigint();
      state.alive = false;
      if (this.stopping) return;
      this.kills++;
      this.deaths.set(child.pid!, diedAt);
      // A killed instance comes back (as an orchestrator would restart it), up to maxRestarts times in all.
      if (this.restarts() < this.maxRestarts) {
        state.restarts++;
        this.restarting.push(this.launch(slot).catch((error: unknown) => void this.restartFailures.push(error)));
      }
    });
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (message: { ready: number }) => resolve(message.ready));
      child.once('exit', () => reject(new Error(`fleet worker ${slot} exited before it was ready`)));
    });
    state.url = `http://127.0.0.1:${port}/pay/notify`;
    state.alive = true;
  }

  restarts(): number {
    return this.slots.reduce((n, s) => n + s.restarts, 0);
  }

  alive(): number {
    return this.slots.filter((s) => s.alive).length;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled(this.restarting);
    await Promise.all(
      this.slots.map(async ({ child }) => {
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }),
    );
  }
}

/** What the gateway saw of one delivery: the body when it got an answer, else why not. */
export type DeliveryResult = { readonly status: number; readonly body: string } | { readonly status: 'no answer' };

export async function deliver(url: string, body: string): Promise<DeliveryResult> {
  try {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body, signal: AbortSignal.timeout(20_000) });
    return { status: response.status, body: await response.text() };
  } catch {
    return { status: 'no answer' }; // refused (a dead worker), reset (killed while answering) or timed out
  }
}

/** Runs `task` over `items`, at most `limit` at a time. */
export async function eachLimited<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await task(items[next++]!);
  }));
}

export interface Run {
  readonly key: string;
  /** The run's id, as onPaid logged it (and, with Postgres, wrote into its effect row). */
  readonly run: string;
  readonly pid: number;
  readonly start: bigint;
  /** When it ended: when the processor answered `processed`, when onPaid failed, or when its process died. */
  readonly end: bigint;
  /**
   * `completed`: onPaid returned and the processor answered `processed` (the store had recorded the key);
   * `returned`: onPaid returned, then its process died before the processor answered (whether the store had
   * recorded the key is for the store to tell); `failed`: onPaid threw; `crashed`: its process died in onPaid
   * (a kill takes every run in flight in that process, not only the one that killed it).
   */
  readonly outcome: 'completed' | 'returned' | 'failed' | 'crashed';
}

/** The runs of each key, in start order, from the workers' logs. */
export function readRuns(logs: readonly string[], deaths: ReadonlyMap<number, bigint>): Map<string, Run[]> {
  const events = logs
    .flatMap((file) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as RunEvent))
    .sort((a, b) => (BigInt(a.t) < BigInt(b.t) ? -1 : BigInt(a.t) > BigInt(b.t) ? 1 : 0));
  const started = new Map<string, RunEvent>();
  // Runs whose onPaid returned, by process and key, until the processor says the store recorded them.
  const returned = new Map<string, RunEvent>();
  const runs = new Map<string, Run[]>();
  const add = (start: RunEvent, end: bigint, outcome: Run['outcome']) => {
    const list = runs.get(start.key) ?? [];
    list.push({ key: start.key, run: start.run!, pid: start.pid, start: BigInt(start.t), end, outcome });
    runs.set(start.key, list);
  };
  // A worker logs `crash` and kills itself in the same synchronous step: no code of any of its runs runs after that
  // line, so it is when they all stopped (the coordinator learns of the exit later, once its own loop gets to it).
  const killedAt = new Map(events.filter((e) => e.e === 'crash').map((e) => [e.pid, BigInt(e.t)]));
  const deathOf = (start: RunEvent) => {
    const death = killedAt.get(start.pid) ?? deaths.get(start.pid);
    if (death === undefined) throw new Error(`a run of ${start.key} never ended, and its process ${start.pid} did not die`);
    return death;
  };
  for (const event of events) {
    const inProcess = `${event.pid} ${event.key}`;
    if (event.e === 'start') started.set(event.run!, event);
    if (event.e === 'end') {
      const start = started.get(event.run!)!;
      started.delete(event.run!);
      if (event.ok) returned.set(inProcess, start);
      else add(start, BigInt(event.t), 'failed');
    }
    if (event.e === 'done') {
      add(returned.get(inProcess)!, BigInt(event.t), 'completed');
      returned.delete(inProcess);
    }
  }
  for (const start of started.values()) add(start, deathOf(start), 'crashed');
  for (const start of returned.values()) add(start, deathOf(start), 'returned');
  for (const list of runs.values()) list.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  return runs;
}

/** Pairs of runs of one key that overlapped in time: a run started before the previous one had ended. */
export function overlaps(runs: ReadonlyMap<string, readonly Run[]>): [Run, Run][] {
  const found: [Run, Run][] = [];
  for (const list of runs.values()) {
    let latestEnd: Run | undefined;
    for (const run of list) {
      if (latestEnd && run.start < latestEnd.end) found.push([latestEnd, run]);
      if (!latestEnd || run.end > latestEnd.end) latestEnd = run;
    }
  }
  return found;
}
