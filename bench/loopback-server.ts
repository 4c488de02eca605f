/**
 * A stand-in gateway for the loopback benchmark and the cold-start probes, run in its own process (see
 * loopback.ts) so its work does not share the measured client's event loop. Listens on 127.0.0.1 at an
 * ephemeral port, prints the port on stdout, and exits when its stdin closes, so it cannot outlive the
 * bench even when the bench is killed.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { verifySign } from '../src/protocol/signing/verify.js';
import { PEER_PATH, QUERY_RESPONSE_BODY, SECRET } from './fixture.js';

const MAX_BODY_BYTES = 64 * 1024;

// Minimal valid bodies for the first calls of the cold-start probes of stripe-node and openai-node.
const STRIPE_BALANCE = JSON.stringify({ object: 'balance', available: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }], livemode: false, pending: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }] });
const OPENAI_MODELS = JSON.stringify({ object: 'list', data: [{ id: 'bench-model', object: 'model', created: 0, owned_by: 'bench' }] });

function reply(res: ServerResponse, status: number, body: string, type = 'application/json') {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

// The signed query is checked like the gateway would, so a client that signs wrongly fails the bench
// instead of being timed.
function isSignedQuery(text: string): boolean {
  try {
    const request = JSON.parse(text) as Record<string, string>;
    const { sign, ...params } = request;
    return typeof request.mchOrderNo === 'string' && verifySign(params, SECRET, sign);
  } catch {
    return false;
  }
}

const server = createServer({ keepAliveTimeout: 60_000 }, async (req, res) => {
  const body = await readBody(req);
  if (body === undefined) return reply(res, 413, 'too large', 'text/plain');
  if (req.method === 'POST' && req.url === '/api/pay/query') {
    return isSignedQuery(body) ? reply(res, 200, QUERY_RESPONSE_BODY) : reply(res, 400, 'bad signature', 'text/plain');
  }
  // The peer case (bench/peers/peers.ts): the same answer to any POST, for clients that do not sign.
  if (req.method === 'POST' && req.url === PEER_PATH) return reply(res, 200, QUERY_RESPONSE_BODY);
  if (req.method === 'GET' && req.url === '/v1/balance') return reply(res, 200, STRIPE_BALANCE);
  if (req.method === 'GET' && req.url?.startsWith('/v1/models')) return reply(res, 200, OPENAI_MODELS);
  reply(res, 404, 'not found', 'text/plain');
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the loopback server has no TCP port');
  process.stdout.write(`${address.port}\n`);
});
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
