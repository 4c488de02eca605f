import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { GatewayClient } from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

// Collect, then give finalizers and pending callbacks (undici's, ky's aborted timers) a few turns of
// the event loop, and collect again: only what is still reachable counts.
async function settledHeap(): Promise<number> {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  gc();
  return process.memoryUsage().heapUsed;
}

describe('soak: 10,000 calls against the mock gateway over loopback HTTP', () => {
  it('keeps the heap stable', { timeout: 120_000 }, async () => {
    const merchant = { mchNo: 'M-SOAK', appId: 'app-soak', secret: 'soak-secret-0123456789' };
    const gateway = createMockGateway({ merchants: [merchant] });
    const server = await gateway.listen({ port: 0 });
    const client = new GatewayClient({ baseUrl: server.url, ...merchant });
    try {
      const created = await client.unifiedOrder({ mchOrderNo: 'soak-0', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', subject: 's', body: 'b' });
      // Warm up (JIT, connection pool), then measure across the soak.
      for (let i = 0; i < 500; i++) await client.query({ payOrderId: created.payOrderId });
      const before = await settledHeap();
      const calls = 10_000;
      for (let i = 0; i < calls; i++) {
        // Mostly reads, with creates and closes mixed in, as a merchant's traffic is.
        if (i % 10 === 0) {
          const order = await client.unifiedOrder({ mchOrderNo: `soak-${i + 1}`, wayCode: 'QR_CASHIER', amount: 100 + i, currency: 'USD', subject: 's', body: 'b' });
          if (i % 20 === 0) await client.close({ payOrderId: order.payOrderId });
        } else {
          await client.query({ payOrderId: created.payOrderId });
        }
      }
      const after = await settledHeap();
      const growth = after - before;
      console.log(`soak: ${calls} calls, heap before ${(before / 2 ** 20).toFixed(1)} MiB, after ${(after / 2 ** 20).toFixed(1)} MiB, growth ${(growth / 2 ** 20).toFixed(2)} MiB`);
      // The mock keeps ~1,000 orders (its own state); a client leak of even 500 bytes per call would add ~5 MiB.
      expect(growth).toBeLessThan(4 * 2 ** 20);
    } finally {
      await server.close();
    }
  });
});
