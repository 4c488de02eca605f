/**
 * Sweep throughput (issue 26): how many tracked orders one processor checks per second against the mock gateway
 * (the built `payment-gateway-sdk mock`, in a child process on 127.0.0.1), at the default concurrency and above
 * it. A third of the orders are paid (their `onPaid` runs through the memory store's claim), the rest stay open,
 * so each sweep queries every order; a second sweep over the same orders measures the steady state (paid ones
 * forgotten, open ones checked again).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type * as Sdk from '../src/index.js';

export interface SweepCase {
  readonly concurrency: number;
  readonly orders: number;
  readonly checked: number;
  readonly paid: number;
  readonly ms: number;
  readonly ordersPerSecond: number;
}

const merchant = { mchNo: 'M1700000099', appId: 'app-bench-sweep', secret: 'bench-sweep-secret-0123456789' };

/** Starts the built mock command and resolves to its base URL, and a way to stop it. */
async function startMock(): Promise<{ url: string; stop(): void }> {
  const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
  const child = spawn(process.execPath, [cli, 'mock', '--port', '0', '--quiet', '--merchant', `${merchant.mchNo}:${merchant.appId}:${merchant.secret}`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
  };
  process.once('exit', stop);
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the mock command exited (${code}) before printing its URL`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(line.trim()));
  });
  return { url, stop };
}

export async function measureSweeps(sdk: typeof Sdk, orders = 1_500, concurrencies: readonly number[] = [8, 32]): Promise<SweepCase[]> {
  const mock = await startMock();
  try {
    const client = new sdk.GatewayClient({ baseUrl: mock.url, ...merchant });
    const results: SweepCase[] = [];
    for (const concurrency of concurrencies) {
      const processor = sdk.createNotificationProcessor({ ...merchant, store: sdk.memoryStore(), client, logLevel: 'off', expect: { amount: 100, currency: 'USD' }, onPaid: () => {} }); // as every order below is priced
      const created: string[] = [];
      // Set-up, not measured: create and track the orders, 16 at a time, and pay a third of them.
      for (let i = 0; i < orders; i += 16) {
        await Promise.all(
          Array.from({ length: Math.min(16, orders - i) }, async (_, j) => {
            const order = await client.unifiedOrder({ mchOrderNo: `bench-${concurrency}-${i + j}`, wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', subject: 's', body: 'b' });
            await processor.track(order);
            if ((i + j) % 3 === 0) await fetch(`${mock.url}/_mock/orders/${order.payOrderId}/pay`, { method: 'POST' });
            created.push(order.payOrderId);
          }),
        );
      }
      for (const round of ['first', 'steady'] as const) {
        const started = performance.now();
        const report = await processor.sweep({ olderThanMs: 0, concurrency });
        const ms = performance.now() - started;
        if (report.failed + report.mismatched + report.notFound > 0) throw new Error(`the bench sweep met failures: ${JSON.stringify(report.problems.slice(0, 3))}`);
        if (round === 'first') continue; // the first pays a third of the orders: the steady state is what a schedule meets
        results.push({ concurrency, orders, checked: report.checked, paid: report.paid, ms, ordersPerSecond: (report.checked / ms) * 1_000 });
      }
    }
    return results;
  } finally {
    mock.stop();
  }
}
