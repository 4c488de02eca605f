// One cold start, run by cold-start.ts in a fresh `node` (plain JavaScript, so no TypeScript loader is
// timed): imports one SDK, then makes its first call against the loopback server. Prints
// {"importMs","firstCallMs"}, both measured from just before the import.
// The two raw probes are the floor of each HTTP stack: one POST to the server's peer path and its JSON
// parsed, with no SDK: fetch (undici, loaded on first use) and node:http (in Node's snapshot).
// Usage: node cold-start-probe.mjs <ours|stripe|openai|fetch|nodeHttp> <json {origin, mchNo, appId, secret, mchOrderNo, peerPath}>
const [sdk, json] = process.argv.slice(2);
const { origin, mchNo, appId, secret, mchOrderNo, peerPath } = JSON.parse(json);
const { port } = new URL(origin);

const probes = {
  async ours() {
    const { GatewayClient } = await import('../../dist/index.js');
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
  async fetch() {
    const imported = performance.now();
    const response = await fetch(`${origin}${peerPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mchOrderNo }) });
    return [imported, JSON.parse(await response.text()).data?.mchOrderNo === mchOrderNo];
  },
  async nodeHttp() {
    const { request } = await import('node:http');
    const imported = performance.now();
    const text = await new Promise((resolve, reject) => {
      const body = JSON.stringify({ mchOrderNo });
      const req = request(`${origin}${peerPath}`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
    return [imported, JSON.parse(text).data?.mchOrderNo === mchOrderNo];
  },
};

const started = performance.now();
const [imported, ok] = await probes[sdk]();
const done = performance.now();
if (!ok) throw new Error(`${sdk}: the first call returned an unexpected result`);
process.stdout.write(JSON.stringify({ importMs: imported - started, firstCallMs: done - started }));
// Keep-alive sockets would hold the process open; the measurement is over.
process.exit(0);
