// One cold start, run by cold-start.ts in a fresh `node` (plain JavaScript, so no TypeScript loader is
// timed): imports one SDK, then makes its first call against the loopback server. Prints
// {"importMs","firstCallMs"}, both measured from just before the import.
// Usage: node cold-start-probe.mjs <ours|stripe|openai> <json {origin, mchNo, appId, secret, mchOrderNo}>
const [sdk, json] = process.argv.slice(2);
const { origin, mchNo, appId, secret, mchOrderNo } = JSON.parse(json);
const { port } = new URL(origin);

const probes = {
  async ours() {
    const { GatewayClient } = await import('../dist/index.js');
    const imported = performance.now();
    const client = new GatewayClient({ baseUrl: origin, mchNo, appId, secret, retry: { maxRetries: 0 } });
    const order = await client.query({ mchOrderNo });
    return [imported, order.mchOrderNo === mchOrderNo];
  },
  async stripe() {
    const { default: Stripe } = await import('stripe');
    const imported = performance.now();
    const stripe = new Stripe('sk_test_bench', { host: '127.0.0.1', port: Number(port), protocol: 'http', maxNetworkRetries: 0, telemetry: false });
    const balance = await stripe.balance.retrieve();
    return [imported, balance.object === 'balance'];
  },
  async openai() {
    const { default: OpenAI } = await import('openai');
    const imported = performance.now();
    const openai = new OpenAI({ apiKey: 'sk-bench', baseURL: `${origin}/v1`, maxRetries: 0 });
    const models = await openai.models.list();
    return [imported, models.data[0]?.id === 'bench-model'];
  },
};

const started = performance.now();
const [imported, ok] = await probes[sdk]();
const done = performance.now();
if (!ok) throw new Error(`${sdk}: the first call returned an unexpected result`);
process.stdout.write(JSON.stringify({ importMs: imported - started, firstCallMs: done - started }));
// Keep-alive sockets would hold the process open; the measurement is over.
process.exit(0);
