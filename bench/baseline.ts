/**
 * The raw baselines: the least work a correct client must do, written plainly. They sign like the
 * gateway (`k=v&` fragments sorted case-insensitively, then `key=SECRET`, node:crypto's one-shot MD5,
 * the fastest it has) and verify what comes back, but validate nothing else and handle no errors.
 * Correct for the bench's ASCII fields; the SDK also handles what these skip (Java's order beyond ASCII,
 * decimals such as `10.50` that JSON.parse would rewrite, hostile bodies).
 */
import { hash } from 'node:crypto';
import { request as httpRequest, type Agent } from 'node:http';

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

// For ASCII, Java's String.CASE_INSENSITIVE_ORDER is the order of the lower-cased strings.
const byFolded = (a: readonly [string, string], b: readonly [string, string]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

export function baselineSign(params: Record<string, string | number>, secret: string): string {
  const fragments = Object.keys(params).map((k) => `${k}=${params[k]}&`);
  const text = fragments.map((f) => [f.toLowerCase(), f] as const).sort(byFolded).map(([, f]) => f).join('') + `key=${secret}`;
  return hash('md5', text, 'hex').toUpperCase();
}

/** Verifying a form notification the minimal way: split, decode, sort, hash, compare. */
export function baselineVerifyForm(body: string, secret: string): boolean {
  const fields: Record<string, string> = {};
  for (const pair of body.split('&')) {
    const i = pair.indexOf('=');
    fields[decodeURIComponent(pair.slice(0, i).replace(/\+/g, ' '))] = decodeURIComponent(pair.slice(i + 1).replace(/\+/g, ' '));
  }
  const { sign, ...rest } = fields;
  for (const k of Object.keys(rest)) if (rest[k] === '') delete rest[k];
  return baselineSign(rest, secret) === sign;
}

interface Envelope {
  code?: unknown;
  data?: Record<string, unknown> | null;
  sign?: unknown;
}

/**
 * Verifying a parsed response envelope's `sign` the minimal way: each member of `data` as the gateway's
 * `toString()` (strings as themselves, other values as their JSON text), empty ones left out, sort, hash,
 * compare.
 */
export function baselineVerifyEnvelope(envelope: Envelope, secret: string): boolean {
  if (envelope.code !== 200 || typeof envelope.data !== 'object' || envelope.data === null) return false;
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(envelope.data)) {
    if (v === null || v === '') continue;
    fields[k] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  return baselineSign(fields, secret) === envelope.sign;
}

/** A query's body, signed with a fresh reqTime, as JSON text. */
function signedQueryText(params: Record<string, string>, secret: string): string {
  const body: Record<string, string> = { ...params, reqTime: String(Date.now()) };
  body.sign = baselineSign(body, secret);
  return JSON.stringify(body);
}

/** The answer's `data`, once the status is 200 and the response sign verifies. */
function verifiedData(status: number, text: string, secret: string): unknown {
  const envelope = JSON.parse(text) as Envelope;
  if (status !== 200 || !baselineVerifyEnvelope(envelope, secret)) throw new Error(`the baseline query was refused or its response did not verify (HTTP ${status})`);
  return envelope.data;
}

/**
 * A query with the least correct work, the same on the stub and over HTTP: sign with a fresh reqTime,
 * POST the JSON with a fetch, check the status, parse, verify the response sign.
 */
export async function baselineQuery(fetch: Fetch, origin: string, params: Record<string, string>, secret: string): Promise<unknown> {
  const response = await fetch(`${origin}/api/pay/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: signedQueryText(params, secret) });
  return verifiedData(response.status, await response.text(), secret);
}

/** The same query over node:http instead of fetch (undici): what stripe-node's transport costs, with no SDK on it. */
export function baselineQueryNodeHttp(agent: Agent, origin: URL, params: Record<string, string>, secret: string): Promise<unknown> {
  const text = signedQueryText(params, secret);
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) };
    const request = httpRequest({ host: origin.hostname, port: origin.port, path: '/api/pay/query', method: 'POST', agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        try {
          resolve(verifiedData(response.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'), secret));
        } catch (error) {
          reject(error);
        }
      });
    });
    request.on('error', reject);
    request.end(text);
  });
}
