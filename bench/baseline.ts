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
