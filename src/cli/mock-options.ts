/**
 * The options of `payment-gateway-sdk mock`, from flags (node:util parseArgs) and an optional JSON config
 * file; flags win. Every mistake is a {@link UsageError} whose message says how to fix it.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { publicOriginSchema } from '../testing/http/address-policy.js';
import type { MockMerchant } from '../testing/index.js';

/** A mistake in the command line or the config file: printed with the usage, exit code 2. */
export class UsageError extends Error {}

export interface MockCommandOptions {
  port: number;
  host: string;
  merchants: MockMerchant[];
  /** Whether the merchant was generated (its secret is printed). */
  generated: boolean;
  forwardTo: string | undefined;
  /** The origin the pages and payData use, when it is not the listen address. */
  publicUrl: string | undefined;
  clock: 'real' | 'manual';
  retryStepMs: number | undefined;
}

export const MOCK_FLAGS = {
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  merchant: { type: 'string', short: 'm', multiple: true },
  'forward-to': { type: 'string' },
  'public-url': { type: 'string' },
  config: { type: 'string', short: 'c' },
  clock: { type: 'string' },
  'notify-retry-ms': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The options of `mock` from its arguments (after the word `mock`). */
export function readMockOptions(args: readonly string[]): MockCommandOptions & { help: boolean } {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: MOCK_FLAGS, strict: true, allowPositionals: false });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const flags = parsed.values;
  const config = flags.config === undefined ? {} : readConfig(flags.config);
  const merchantTexts = flags.merchant ?? [];
  const merchants = merchantTexts.length > 0 ? merchantTexts.map(parseMerchant) : configMerchants(config.merchants);
  const generated = merchants.length === 0;
  if (generated) merchants.push(generateMerchant());
  const clock = flags.clock ?? stringOf(config.clock, 'clock') ?? 'real';
  if (clock !== 'real' && clock !== 'manual') throw new UsageError(`--clock must be real or manual, not ${JSON.stringify(clock)}`);
  const forwardTo = flags['forward-to'] ?? stringOf(config.forwardTo, 'forwardTo');
  if (forwardTo !== undefined && !(URL.canParse(forwardTo) && /^https?:$/.test(new URL(forwardTo).protocol))) {
    throw new UsageError(`--forward-to must be an http(s) URL such as http://127.0.0.1:3000/notify, not ${JSON.stringify(forwardTo)}`);
  }
  const publicUrl = flags['public-url'] ?? stringOf(config.publicUrl, 'publicUrl');
  if (publicUrl !== undefined && !publicOriginSchema.safeParse(publicUrl).success) {
    throw new UsageError(`--public-url must be an http(s) origin such as http://192.168.1.20:4010 or https://mock.example (no path, query or credentials), not ${JSON.stringify(publicUrl)}`);
  }
  return {
    help: flags.help ?? false,
    port: wholeNumber(flags.port ?? config.port, '--port', 4010, 65535),
    host: flags.host ?? stringOf(config.host, 'host') ?? '127.0.0.1',
    merchants,
    generated,
    forwardTo,
    publicUrl,
    clock,
    retryStepMs: wholeNumber(flags['notify-retry-ms'] ?? config.notifyRetryMs, '--notify-retry-ms', undefined, 2 ** 31 - 1),
  };
}

function readConfig(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--config: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--config: ${file} is not JSON: ${(error as Error).message}`);
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) throw new UsageError(`--config: ${file} must hold a JSON object such as {"merchants":[{"mchNo":"M1","appId":"app-1","secret":"s"}]}`);
  return config as Record<string, unknown>;
}

function configMerchants(value: unknown): MockMerchant[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new UsageError('--config: merchants must be an array of { mchNo, appId, secret }');
  return value.map((m: unknown, i) => {
    const { mchNo, appId, secret } = (m ?? {}) as Record<string, unknown>;
    if (typeof mchNo !== 'string' || typeof appId !== 'string' || typeof secret !== 'string' || !mchNo || !appId || !secret) {
      throw new UsageError(`--config: merchants[${i}] needs non-empty strings mchNo, appId and secret`);
    }
    return { mchNo, appId, secret };
  });
}

/** `MCHNO:APPID:SECRET`; the secret may itself contain colons. */
function parseMerchant(text: string): MockMerchant {
  const [mchNo = '', appId = '', ...rest] = text.split(':');
  const secret = rest.join(':');
  if (!mchNo || !appId || !secret) throw new UsageError(`--merchant must be MCHNO:APPID:SECRET, e.g. --merchant M1700000001:app-1:my-test-secret (received ${JSON.stringify(text.replace(/:[^:]*$/, ':…'))})`);
  return { mchNo, appId, secret };
}

function generateMerchant(): MockMerchant {
  return { mchNo: `M${Date.now()}`, appId: `app-${randomBytes(4).toString('hex')}`, secret: randomBytes(24).toString('base64url') };
}

function stringOf(value: unknown, name: string): string | undefined {
  if (value !== undefined && typeof value !== 'string') throw new UsageError(`--config: ${name} must be a string`);
  return value;
}

function wholeNumber<D extends number | undefined>(value: unknown, flag: string, fallback: D, max: number): number | D {
  if (value === undefined) return fallback;
  const n = typeof value === 'number' ? value : /^\d+$/.test(String(value)) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 0 || n > max) throw new UsageError(`${flag} must be a whole number from 0 to ${max}, not ${JSON.stringify(value)}`);
  return n;
}
