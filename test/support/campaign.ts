/**
 * The fault campaign: many `unifiedOrder` calls through a fault-injecting proxy in front of the mock
 * gateway on real loopback HTTP, faults drawn at random (reproducibly from a seed) for creates and for
 * the lookups that reconcile them alike. It then compares what every call said with what the gateway holds.
 */
import { GatewayApiError, GatewayClient, GatewayError, GatewayOutcomeUnknownError } from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';
import { PROXY_FAULTS, refusedPort, startFaultProxy, type ProxyFault } from './fault-proxy.js';

export interface CampaignOptions {
  seed: number;
  calls: number;
  /** Chance that one HTTP request meets a proxy fault. */
  faultRate?: number;
  /** Chance that one HTTP request is sent to a port that refuses connections. */
  refusedRate?: number;
  concurrency?: number;
}

export interface CampaignReport {
  seed: number;
  calls: number;
  resolved: number;
  resolvedByReconciliation: number;
  outcomeUnknown: number;
  outcomeUnknownButCreated: number;
  /** Calls that failed with another GatewayError, and the gateway holds no order for them: nothing was created, as the error implies. */
  failedNothingCreated: number;
  /** Calls that failed with another error while the gateway holds their order, or with a non-GatewayError: must be empty. */
  otherFailures: string[];
  /** Orders the gateway holds more than once for one mchOrderNo, or duplicate-key refusals a call surfaced. */
  duplicates: number;
  /** Orders the gateway holds that no call accounted for (neither resolved to it nor named its key). */
  lost: number;
  /** Calls that resolved to something other than the gateway's record. */
  wrongResults: number;
  faults: Record<string, number>;
  httpRequests: number;
  ms: number;
}

/** mulberry32: a tiny seeded PRNG, so a campaign can be replayed exactly. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A deterministic draw per (order, nth request of that order), so concurrency does not change the plan. */
function drawer(seed: number) {
  const counters = new Map<string, number>();
  return (body: string, salt: number): number => {
    const key = /"mchOrderNo":"([^"]+)"/.exec(body)?.[1] ?? '';
    const n = (counters.get(`${salt}:${key}`) ?? 0) + 1;
    counters.set(`${salt}:${key}`, n);
    let h = seed ^ salt;
    for (const c of `${key}#${n}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
    return random(h)();
  };
}

export async function runCampaign(options: CampaignOptions): Promise<CampaignReport> {
  const { seed, calls, faultRate = 0.3, refusedRate = 0.05, concurrency = 8 } = options;
  const merchant = { mchNo: 'M-CAMPAIGN', appId: 'app-campaign', secret: `campaign-secret-${seed}` };
  const gateway = createMockGateway({ merchants: [merchant] });
  const server = await gateway.listen({ port: 0 });
  const draw = drawer(seed);
  const proxy = await startFaultProxy(server.url, (_path, body): ProxyFault => {
    const u = draw(body, 1);
    return u < faultRate ? (PROXY_FAULTS[Math.floor((u / faultRate) * PROXY_FAULTS.length)] as ProxyFault) : 'none';
  });
  const deadPort = await refusedPort();
  let httpRequests = 0;
  let refused = 0;
  const fetch = (url: string, init: RequestInit) => {
    httpRequests++;
    if (draw(String(init.body), 2) < refusedRate) {
      refused++;
      return globalThis.fetch(url.replace(proxy.url, `http://127.0.0.1:${deadPort}`), init);
    }
    return globalThis.fetch(url, init);
  };
  const client = new GatewayClient({
    baseUrl: proxy.url,
    ...merchant,
    fetch,
    timeout: 150,
    totalTimeout: 4_000,
    retry: { maxRetries: 4, initialDelayMs: 2, maxDelayMs: 20 },
  });

  const started = performance.now();
  const outcomes: Array<{ mchOrderNo: string; payOrderId?: string; reconciled?: boolean; unknownKey?: string; failure?: string; gatewayError?: boolean }> = [];
  let next = 0;
  async function worker() {
    while (next < calls) {
      const i = next++;
      const mchOrderNo = `s${seed}-o${i}`;
      try {
        const result = await client.withResponse('unifiedOrder', { mchOrderNo, wayCode: 'QR_CASHIER', amount: 100 + i, currency: 'USD', subject: 'campaign', body: `order ${i}` });
        outcomes.push({ mchOrderNo, payOrderId: result.data.payOrderId, reconciled: result.reconciled });
      } catch (error) {
        if (error instanceof GatewayOutcomeUnknownError) outcomes.push({ mchOrderNo, unknownKey: error.key.value });
        else outcomes.push({ mchOrderNo, gatewayError: error instanceof GatewayError, failure: `${(error as Error).name}: ${(error as Error).message}${error instanceof GatewayApiError ? ` [${error.msg}]` : ''}` });
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const ms = performance.now() - started;
  await proxy.close();
  await server.close();

  const held = new Map<string, string[]>();
  for (const order of gateway.orders()) held.set(order.mchOrderNo, [...(held.get(order.mchOrderNo) ?? []), order.payOrderId]);
  const accounted = new Set<string>();
  let wrongResults = 0;
  let outcomeUnknownButCreated = 0;
  for (const o of outcomes) {
    const ids = held.get(o.mchOrderNo) ?? [];
    if (o.payOrderId !== undefined) {
      accounted.add(o.mchOrderNo);
      if (ids.length !== 1 || ids[0] !== o.payOrderId) wrongResults++;
    }
    if (o.unknownKey !== undefined) {
      accounted.add(o.unknownKey);
      if (ids.length > 0) outcomeUnknownButCreated++;
    }
  }
  const duplicateRefusals = outcomes.filter((o) => o.failure?.includes('已存在')).length;
  // A failure is clean when it is a GatewayError and the gateway holds nothing for the key.
  const cleanFailure = (o: (typeof outcomes)[number]) => o.failure !== undefined && o.gatewayError === true && !held.has(o.mchOrderNo) && !o.failure.includes('已存在');
  return {
    seed,
    calls,
    resolved: outcomes.filter((o) => o.payOrderId !== undefined).length,
    resolvedByReconciliation: outcomes.filter((o) => o.reconciled).length,
    outcomeUnknown: outcomes.filter((o) => o.unknownKey !== undefined).length,
    outcomeUnknownButCreated,
    failedNothingCreated: outcomes.filter(cleanFailure).length,
    otherFailures: outcomes.flatMap((o) => (o.failure && !cleanFailure(o) ? [`${o.mchOrderNo}: ${o.failure}`] : [])),
    duplicates: [...held.values()].filter((ids) => ids.length > 1).length + duplicateRefusals,
    lost: [...held.keys()].filter((k) => !accounted.has(k)).length,
    wrongResults,
    faults: { ...Object.fromEntries(proxy.struck), refused },
    httpRequests,
    ms: Math.round(ms),
  };
}
