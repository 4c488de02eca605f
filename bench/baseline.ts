/**
 * The raw baseline: the least work any client must do. A plain code-unit sort (not the gateway's
 * case-insensitive order), node:crypto's one-shot MD5 (the fastest it has), JSON.stringify, a stub fetch
 * and JSON.parse; no validation, no response verification, no error handling.
 */
import { hash } from 'node:crypto';

export function baselineSign(params: Record<string, string | number>, secret: string): string {
  const text = Object.keys(params).sort().map((k) => `${k}=${params[k]}&`).join('') + `key=${secret}`;
  return hash('md5', text, 'hex').toUpperCase();
}

export async function baselineCall(fetch: (url: string, init: RequestInit) => Promise<Response>, params: Record<string, string | number>, secret: string): Promise<unknown> {
  const body = { ...params, sign: baselineSign(params, secret) };
  const response = await fetch('https://gateway.bench/api/pay/query', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return JSON.parse(await response.text());
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
 * compare. Correct for the bench's response, which has no decimal such as `10.50` that JSON.parse would
 * rewrite; the SDK also handles those.
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

/**
 * A query over real HTTP with the least correct work: sign with a fresh reqTime, POST with the global
 * fetch, check the status, parse, verify the response sign.
 */
export async function baselineQuery(origin: string, params: Record<string, string>, secret: string): Promise<unknown> {
  const body: Record<string, string> = { ...params, reqTime: String(Date.now()) };
  body.sign = baselineSign(body, secret);
  const response = await fetch(`${origin}/api/pay/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const envelope = JSON.parse(await response.text()) as Envelope;
  if (response.status !== 200 || !baselineVerifyEnvelope(envelope, secret)) throw new Error(`the baseline query was refused or its response did not verify (HTTP ${response.status})`);
  return envelope.data;
}
