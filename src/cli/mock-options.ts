/**
 * The options of `payment-gateway-sdk mock`, from flags (node:util parseArgs) and an optional JSON config
 * file, both checked by one zod schema; flags win. Every mistake is a {@link UsageError} naming the flag or
 * the config member and what to give.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import * as z from 'zod/mini';
import { GatewayValidationError } from '../errors/index.js';
import { requiredText, safeInteger, timerDelayMs } from '../protocol/schemas/fields.js';
import { parseInput } from '../protocol/schemas/parse.js';
import { merchantsSchema } from '../testing/domain/merchants.js';
import { notificationRoutingSchema } from '../testing/domain/notifier.js';
import { publicOriginSchema } from '../testing/http/address-policy.js';
import type { MockMerchant } from '../testing/index.js';
import { DEFAULT_SECRET_ENV, readSecret, SECRET_FLAGS, secretSource } from './secret-source.js';
import { unknownOptionMistake, UsageError } from './usage-error.js';

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
  /** No request log on the terminal. */
  quiet: boolean;
}

const MOCK_FLAGS = {
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  merchant: { type: 'string', short: 'm', multiple: true },
  ...SECRET_FLAGS,
  'forward-to': { type: 'string' },
  'public-url': { type: 'string' },
  config: { type: 'string', short: 'c' },
  clock: { type: 'string' },
  'notify-retry-ms': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** What the config file may hold; the flags are checked by the same schema. */
const commandSchema = z.strictObject({
  merchants: z.optional(merchantsSchema),
  port: z.optional(safeInteger(0).check(z.maximum(65535, { error: 'must be at most 65535' }))),
  host: z.optional(requiredText()),
  publicUrl: z.optional(publicOriginSchema),
  forwardTo: notificationRoutingSchema.def.shape.forwardTo,
  clock: z.optional(z.enum(['real', 'manual'], { error: 'must be real or manual' })),
  notifyRetryMs: z.optional(timerDelayMs(0)),
  quiet: z.optional(z.boolean({ error: 'must be true or false' })),
});
type CommandInput = z.input<typeof commandSchema>;

/** The flag that sets each member, for messages. */
const FLAG_OF: Readonly<Record<keyof CommandInput, string>> = {
  merchants: '--merchant', port: '--port', host: '--host', publicUrl: '--public-url', forwardTo: '--forward-to', clock: '--clock', notifyRetryMs: '--notify-retry-ms', quiet: '--quiet',
};

/**
 * The options of `mock` from its arguments (after the word `mock`); a `--merchant MCHNO:APPID` without a secret
 * takes it from `--secret-file` or the environment (`env`), which `ps` does not show.
 */
export function readMockOptions(args: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): MockCommandOptions & { help: boolean } {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: MOCK_FLAGS, strict: true, allowPositionals: false });
  } catch (error) {
    throw new UsageError(argumentMistake(error));
  }
  const flags = parsed.values;
  const source = secretSource(flags);
  const secretless = flags.merchant?.filter((text) => text.split(':').length === 2).length ?? 0;
  if (secretless === 0 && (flags['secret-file'] !== undefined || flags['secret-env'] !== undefined)) {
    throw new UsageError('--secret-file and --secret-env give the secret of a --merchant MCHNO:APPID written without one, and every --merchant has its own: leave them out, or the secret out of --merchant');
  }
  // Read once, and only when a merchant needs it: a missing variable is no mistake when every secret is given.
  const sharedSecret = secretless > 0 ? withContext('a --merchant MCHNO:APPID has no secret of its own', () => readSecret(source, env)) : undefined;
  const config = flags.config === undefined ? {} : check(readConfig(flags.config), (path) => `--config file: ${path}`);
  const given = check(
    {
      merchants: flags.merchant?.map((text, i) => parseMerchant(text, i, flags.merchant?.length ?? 1, sharedSecret)),
      port: wholeNumber(flags.port),
      host: flags.host,
      publicUrl: flags['public-url'],
      forwardTo: flags['forward-to'],
      clock: flags.clock,
      notifyRetryMs: wholeNumber(flags['notify-retry-ms']),
      quiet: flags.quiet,
    },
    (path) => FLAG_OF[path.split('.')[0] as keyof CommandInput] ?? path,
  );
  const merchants = [...(given.merchants ?? config.merchants ?? [])];
  const generated = merchants.length === 0;
  if (generated) merchants.push(generateMerchant());
  return {
    help: flags.help ?? false,
    port: given.port ?? config.port ?? 4010,
    host: given.host ?? config.host ?? '127.0.0.1',
    merchants,
    generated,
    forwardTo: given.forwardTo ?? config.forwardTo,
    publicUrl: given.publicUrl ?? config.publicUrl,
    clock: given.clock ?? config.clock ?? 'real',
    retryStepMs: given.notifyRetryMs ?? config.notifyRetryMs,
    quiet: given.quiet ?? config.quiet ?? false,
  };
}

/** What `read` returns; its usage mistake prefixed with `context`. */
function withContext<T>(context: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw error instanceof UsageError ? new UsageError(`${context}: ${error.message}`) : error;
  }
}

/** `value` as the command's schema reads it; `label` names where a problem is (a flag, or the config member). */
function check(value: unknown, label: (path: string) => string): z.output<typeof commandSchema> {
  try {
    return parseInput(commandSchema, value, 'Invalid options', 'options');
  } catch (error) {
    if (!(error instanceof GatewayValidationError)) throw error;
    throw new UsageError(error.issues.map((issue) => `${label(issue.path.join('.'))}: ${issue.message}`).join('\n'));
  }
}

function readConfig(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--config: cannot read the file it names (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}; the path is not repeated here: no error repeats an option's value)`);
  }
  try {
    return JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text around the mistake, which holds the merchants' secrets.
    throw new UsageError('--config: the file it names is not JSON (its text is not repeated here, as it holds the merchants\' secrets): check it with a JSON validator');
  }
}

/**
 * What parseArgs refused, said without repeating a value: a stray word is most often the rest of an
 * unquoted `--merchant` secret that holds a space.
 */
function argumentMistake(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const unknown = unknownOptionMistake(error, MOCK_FLAGS);
  if (unknown !== undefined) return unknown;
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    return 'mock takes options only, and a word was given without one (not repeated here, in case it is part of a secret); quote a value that holds a space, e.g. --merchant "M1:app-1:my secret"';
  }
  return String(message ?? error);
}

/**
 * `MCHNO:APPID:SECRET`, the secret possibly holding colons, or `MCHNO:APPID` with `sharedSecret` (from a file or the
 * environment). The value is never repeated: it holds the secret.
 */
function parseMerchant(text: string, index: number, count: number, sharedSecret: string | undefined): MockMerchant {
  const [mchNo = '', appId = '', ...rest] = text.split(':');
  const secret = rest.length === 0 && sharedSecret !== undefined ? sharedSecret : rest.join(':');
  const missing = [!mchNo && 'MCHNO', !appId && 'APPID', !secret && 'SECRET'].filter((part) => part !== false);
  if (missing.length > 0) {
    const which = count > 1 ? `--merchant number ${index + 1}` : 'the --merchant value';
    throw new UsageError(
      `--merchant must be MCHNO:APPID:SECRET, or MCHNO:APPID with the secret in ${DEFAULT_SECRET_ENV} or --secret-file FILE, e.g. --merchant M1700000001:app-1; ${which} has no ${missing.join(' and no ')} ` +
        `(${text.includes(':') ? 'a part between or after its colons is empty' : 'it has no colon'}; the value is not repeated here, as it holds the secret)`,
    );
  }
  return { mchNo, appId, secret };
}

function generateMerchant(): MockMerchant {
  return { mchNo: `M${Date.now()}`, appId: `app-${randomBytes(4).toString('hex')}`, secret: randomBytes(24).toString('base64url') };
}

/** A flag's digits as a number; anything else is left for the schema to refuse. */
function wholeNumber(text: string | undefined): number | string | undefined {
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : text;
}
