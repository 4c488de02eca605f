import * as z from 'zod/mini';
import { GatewayValidationError } from '../errors/index.js';
import { httpUrl, requiredText, safeInteger, timerDelayMs } from '../protocol/schemas/fields.js';
import { toValidationIssues } from '../protocol/schemas/issues.js';
import type { Assert, SameShape } from '../protocol/schemas/shape-check.js';
import type { FetchLike } from '../transport/http.js';
import type { GatewayHooks } from './hooks.js';
import { consoleLogger, LOG_LEVELS, logLevelFromEnvironment, type GatewayLogger, type LogLevel } from './logging.js';
import { RETRY_DEFAULTS, type RetryOptions, type RetryPolicy } from './retry-policy.js';

/**
 * Defaults of the optional {@link GatewayClientOptions}.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { CLIENT_DEFAULTS } from 'payment-gateway-sdk';
 *
 * const server = createServer(app);
 * // A checkout request must outlive the gateway call it waits for, retries included.
 * server.requestTimeout = CLIENT_DEFAULTS.totalTimeout + 5_000;
 * ```
 */
export const CLIENT_DEFAULTS = {
  /** API version sent with every request. */
  version: '1.0.1',
  /** Envelope code of success. */
  successCode: 200,
  /** Milliseconds for one attempt. */
  timeout: 15_000,
  /** Milliseconds for a whole call. */
  totalTimeout: 60_000,
  /** Whether response signatures are verified. */
  verifyResponses: true,
  /** Bytes of a response body read at most (after decompression), 1 MiB. */
  maxResponseBytes: 1_048_576,
} as const;

const isLogger = (v: unknown) => typeof v === 'object' && v !== null && (['error', 'warn', 'info', 'debug'] as const).every((m) => typeof (v as Record<string, unknown>)[m] === 'function');
const hook = () => z.optional(z.custom<(event: never) => void>((v) => typeof v === 'function', { error: 'must be a function' }));

/** Checks {@link GatewayClientOptions}; unknown options are an error. */
export const gatewayClientOptionsSchema = z.strictObject({
  baseUrl: httpUrl().check(z.minLength(1, { error: 'is required, e.g. https://pay.example.com' })),
  mchNo: requiredText(),
  appId: requiredText(),
  secret: requiredText(),
  version: z.optional(requiredText()),
  successCode: z.optional(safeInteger(Number.MIN_SAFE_INTEGER)),
  timeout: z.optional(timerDelayMs(1)),
  totalTimeout: z.optional(timerDelayMs(1)),
  retry: z.optional(
    z.strictObject({
      maxRetries: z.optional(safeInteger(0).check(z.maximum(100, { error: 'must be at most 100' }))),
      initialDelayMs: z.optional(timerDelayMs(0)),
      maxDelayMs: z.optional(timerDelayMs(0)),
      maxRetryAfterMs: z.optional(timerDelayMs(0)),
    }),
  ),
  hooks: z.optional(
    z.strictObject({
      onRequest: hook(),
      onResponse: hook(),
      onRetry: hook(),
      /** After each lookup that settles an ambiguous create. */
      onReconcile: hook(),
    }),
  ),
  fetch: z.optional(z.custom<FetchLike>((v) => typeof v === 'function', { error: 'must be a fetch-compatible function' })),
  now: z.optional(z.custom<() => number>((v) => typeof v === 'function', { error: 'must be a function returning milliseconds since the epoch' })),
  verifyResponses: z.optional(z.literal([true, false], { error: 'must be true or false' })),
  maxResponseBytes: z.optional(safeInteger(1)),
  logLevel: z.optional(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.map((l) => `'${l}'`).join(', ')}` })),
  logger: z.optional(z.custom<GatewayLogger>(isLogger, { error: 'must be an object with error, warn, info and debug methods, e.g. console' })),
});

/**
 * Options of {@link GatewayClient}. Only `baseUrl`, `mchNo`, `appId` and `secret` are required; unknown
 * options are an error ({@link GatewayValidationError}), so a typo cannot be silently ignored.
 *
 * @example
 * ```ts
 * import { GatewayClient, type GatewayClientOptions } from 'payment-gateway-sdk';
 *
 * const options: GatewayClientOptions = {
 *   baseUrl: 'https://pay.example.com',
 *   mchNo: process.env.GATEWAY_MCH_NO!,
 *   appId: process.env.GATEWAY_APP_ID!,
 *   secret: process.env.GATEWAY_SECRET!,
 *   timeout: 10_000,
 * };
 * const client = new GatewayClient(options);
 * ```
 */
export interface GatewayClientOptions {
  /** The gateway's base URL, e.g. `https://pay.example.com`; each operation's path is appended to it. */
  baseUrl: string;
  /** Merchant number. */
  mchNo: string;
  /** Merchant application id. */
  appId: string;
  /** The application's signing secret; never logged, serialized or put in an error. */
  secret: string;
  /** API version sent with every request. Default `'1.0.1'`. */
  version?: string | undefined;
  /** The envelope `code` that means success. Default `200`; open-source Jeepay uses `0`. */
  successCode?: number | undefined;
  /** Milliseconds for one attempt, including reading the whole body. Default `15000`. */
  timeout?: number | undefined;
  /** Milliseconds for a whole call: attempts, backoff and reconciliation. Default `60000`. */
  totalTimeout?: number | undefined;
  /** How transient failures are retried; see {@link RetryOptions} and {@link RETRY_DEFAULTS}. */
  retry?: RetryOptions | undefined;
  /** Observers of requests, responses, retries and reconciliations ({@link GatewayHooks}); they cannot change an outcome. */
  hooks?: GatewayHooks | undefined;
  /** A fetch-compatible function (proxies, tests). Default: the global `fetch`. */
  fetch?: FetchLike | undefined;
  /** The clock for `reqTime`, milliseconds since the epoch. Default `Date.now`. */
  now?: (() => number) | undefined;
  /** Whether each response's `sign` is verified. Default `true`; `false` is unsafe: a forged or corrupted response would be accepted. */
  verifyResponses?: boolean | undefined;
  /**
   * The most bytes of a response body read, counted after decompression; a larger body is refused with
   * {@link GatewayResponseTooLargeError} as soon as it passes, without buffering it. Default `1048576` (1 MiB).
   */
  maxResponseBytes?: number | undefined;
  /**
   * What the client logs ({@link LogLevel}); default `'off'`, or the `PAYMENT_GATEWAY_LOG` environment
   * variable when it holds a level. Never the secret, a `sign` or a body.
   */
  logLevel?: LogLevel | undefined;
  /** Where log lines go ({@link GatewayLogger}). Default the console, one line per event. */
  logger?: GatewayLogger | undefined;
}
type _ClientOptionsMatch = Assert<SameShape<Omit<GatewayClientOptions, 'hooks' | 'retry'>, Omit<z.input<typeof gatewayClientOptionsSchema>, 'hooks' | 'retry'>>>;
type _RetryOptionsFit = Assert<[RetryOptions] extends [z.input<typeof gatewayClientOptionsSchema>['retry']] ? true : false>;

/** Validated options with defaults applied. */
type Defined<T> = { readonly [K in keyof T]-?: Exclude<T[K], undefined> };

export interface ResolvedOptions extends Defined<Omit<z.output<typeof gatewayClientOptionsSchema>, 'hooks' | 'retry' | 'fetch'>> {
  readonly retry: RetryPolicy;
  readonly hooks: GatewayHooks;
  readonly fetch: FetchLike | undefined;
}

/** Validates client options; every problem is reported at once, never echoing the secret. */
export function resolveOptions(options: GatewayClientOptions): ResolvedOptions {
  const parsed = gatewayClientOptionsSchema.safeParse(options ?? {}, { reportInput: true });
  if (!parsed.success) {
    throw new GatewayValidationError('Invalid GatewayClient options', toValidationIssues(parsed.error.issues, { keys: Object.keys(gatewayClientOptionsSchema.def.shape), of: 'options' }));
  }
  // Defaults are applied here rather than in the schema: zod's default wrapper costs bundle size.
  const o = parsed.data;
  return {
    ...o,
    version: o.version ?? CLIENT_DEFAULTS.version,
    successCode: o.successCode ?? CLIENT_DEFAULTS.successCode,
    timeout: o.timeout ?? CLIENT_DEFAULTS.timeout,
    totalTimeout: o.totalTimeout ?? CLIENT_DEFAULTS.totalTimeout,
    retry: { ...RETRY_DEFAULTS, ...withoutUndefined(o.retry ?? {}) } as RetryPolicy,
    hooks: (o.hooks ?? {}) as GatewayHooks,
    fetch: o.fetch,
    now: o.now ?? Date.now,
    verifyResponses: o.verifyResponses ?? CLIENT_DEFAULTS.verifyResponses,
    maxResponseBytes: o.maxResponseBytes ?? CLIENT_DEFAULTS.maxResponseBytes,
    logLevel: o.logLevel ?? logLevelFromEnvironment(),
    logger: o.logger ?? consoleLogger,
  };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
