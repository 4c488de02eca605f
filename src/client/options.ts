/**
 * The client's options and the per-call options: zod schemas that share their field rules, and the types
 * derived from them. Each is parsed once: the client's at construction, a call's when it starts.
 *
 * @module
 */
import * as z from 'zod/mini';
import { httpUrl, requiredText, secretText, safeInteger, timerDelayMs } from '../protocol/schemas/fields.js';
import { parseInput } from '../protocol/schemas/parse.js';
import { telemetryOption } from '../telemetry/option.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import type { FetchLike } from '../transport/http.js';
import { baseUrlMistake } from './base-url.js';
import type { GatewayHooks, ReconcileEvent, RequestEvent, ResponseEvent, RetryEvent } from './hooks.js';
import { consoleLogger, LOG_LEVELS, logLevelFromEnvironment, type GatewayLogger } from './logging.js';

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

/**
 * The defaults of the `retry` option.
 *
 * @example
 * ```ts
 * import { GatewayClient, RETRY_DEFAULTS } from 'payment-gateway-sdk';
 *
 * // Two more retries than usual for a batch job, whatever the default becomes.
 * const client = new GatewayClient({ ...credentials, retry: { maxRetries: RETRY_DEFAULTS.maxRetries + 2 } });
 * ```
 */
export const RETRY_DEFAULTS = { maxRetries: 2, initialDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 10_000 } as const;

const fn = <F>(error: string) => z.optional(z.custom<F>((v) => typeof v === 'function', { error }));
const isLogger = (v: unknown) => typeof v === 'object' && v !== null && (['error', 'warn', 'info', 'debug'] as const).every((m) => typeof (v as Record<string, unknown>)[m] === 'function');

// Field rules shared by the client's options and a call's, so a value means the same in both.
const timeoutOption = () => z.optional(timerDelayMs(1));
const maxRetriesOption = () => z.optional(safeInteger(0).check(z.refine((value: number) => value <= 100, { error: 'must be at most 100' })));

const retrySchema = z.strictObject({
  /** Retries after the first attempt (reads, close, and creates that provably did not reach the gateway). Default 2. */
  maxRetries: maxRetriesOption(),
  /** Delay before the first retry in ms; doubles each retry, with jitter. Default 500. */
  initialDelayMs: z.optional(timerDelayMs(0)),
  /** Upper bound of one backoff delay in ms. Default 8000. */
  maxDelayMs: z.optional(timerDelayMs(0)),
  /** Upper bound of a delay asked for by `Retry-After` in ms. Default 10000. */
  maxRetryAfterMs: z.optional(timerDelayMs(0)),
});

/**
 * Retry settings: how often and how patiently transient failures are retried. Only what you give changes;
 * the rest keeps {@link RETRY_DEFAULTS}. Retries stay within the call's `totalTimeout`.
 *
 * @interface
 * @example
 * ```ts
 * import { GatewayClient } from 'payment-gateway-sdk';
 * import { type RetryOptions } from './options.js'; // internal: not exported by the package
 *
 * // A nightly reconciliation job can wait longer than a payer at checkout.
 * const patient: RetryOptions = { maxRetries: 5, maxDelayMs: 30_000 };
 * const client = new GatewayClient({ ...credentials, retry: patient, totalTimeout: 300_000 });
 * ```
 */
export type RetryOptions = z.input<typeof retrySchema>;

/**
 * The `retry` option with every default applied.
 *
 * @example
 * ```ts
 * import { RETRY_DEFAULTS } from 'payment-gateway-sdk';
 * import { type RetryPolicy } from './options.js'; // internal: not exported by the package
 *
 * // The most each retry waits when the gateway sends no Retry-After: doubling from initialDelayMs up to maxDelayMs.
 * const backoffCeilings = (policy: RetryPolicy): number[] =>
 *   Array.from({ length: policy.maxRetries }, (_, i) => Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** i));
 * backoffCeilings(RETRY_DEFAULTS); // [500, 1000]
 * ```
 */
export type RetryPolicy = { readonly [K in keyof RetryOptions]-?: number };

const hooksSchema = z.strictObject({
  /** Before each HTTP attempt. Its `body` is a frozen copy: nothing a hook does to it changes what is sent. */
  onRequest: fn<(event: RequestEvent) => void>('must be a function'),
  /** After each HTTP attempt. */
  onResponse: fn<(event: ResponseEvent) => void>('must be a function'),
  /** Before waiting to retry. */
  onRetry: fn<(event: RetryEvent) => void>('must be a function'),
  /** After each lookup that settles an ambiguous create. */
  onReconcile: fn<(event: ReconcileEvent) => void>('must be a function'),
});

/** Checks {@link GatewayClientOptions}; unknown options are an error. */
export const gatewayClientOptionsSchema = z.strictObject({
  /**
   * The gateway's root URL, e.g. `https://pay.example.com`; each operation's path (`/api/pay/...`) is appended
   * to it. Refused: credentials (`user:password@`), a query or a fragment, and a path ending in the
   * operations' own prefix (`/api`, `/api/pay`, ...), which would double it.
   */
  baseUrl: httpUrl('https://pay.example.com').check(
    z.refine((value) => value !== '', { error: 'is required, e.g. https://pay.example.com' }),
    z.refine((value) => !URL.canParse(value) || baseUrlMistake(value) === undefined, { error: (issue) => baseUrlMistake(issue.input as string) }),
  ),
  /** Merchant number. */
  mchNo: requiredText(),
  /** Merchant application id. */
  appId: requiredText(),
  /** The application's signing secret; never logged, serialized or put in an error. */
  secret: secretText(),
  /** API version sent with every request. Default `'1.0.1'`. */
  version: z.optional(requiredText()),
  /** The envelope `code` that means success. Default `200`; open-source Jeepay uses `0`. */
  successCode: z.optional(safeInteger(Number.MIN_SAFE_INTEGER)),
  /** Milliseconds for one attempt, including reading the whole body. Default `15000`. */
  timeout: timeoutOption(),
  /** Milliseconds for a whole call: attempts, backoff and reconciliation. Default `60000`. */
  totalTimeout: timeoutOption(),
  /** How transient failures are retried; defaults in {@link RETRY_DEFAULTS}. */
  retry: z.optional(retrySchema),
  /** Observers of requests, responses, retries and reconciliations ({@link GatewayHooks}); they cannot change an outcome. */
  hooks: z.optional(hooksSchema),
  /** A fetch-compatible function (proxies, tests), called as `fetch(url, init)`. Default: the global `fetch`. */
  fetch: fn<FetchLike>('must be a fetch-compatible function'),
  /** The clock for `reqTime`, milliseconds since the epoch. Default `Date.now`. */
  now: fn<() => number>('must be a function returning milliseconds since the epoch'),
  /** Whether each response's `sign` is verified. Default `true`; `false` is unsafe: a forged or corrupted response would be accepted. */
  verifyResponses: z.optional(z.literal([true, false], { error: 'must be true or false' })),
  /**
   * The most bytes of a response body read, counted after decompression; a larger body is refused with
   * {@link GatewayResponseTooLargeError} as soon as it passes, without buffering it. Default `1048576` (1 MiB).
   */
  maxResponseBytes: z.optional(safeInteger(1)),
  /**
   * What the client logs ({@link LogLevel}); default `'off'`, or the `PAYMENT_GATEWAY_LOG` environment
   * variable when it holds a level. Never the secret, a `sign` or a body.
   */
  logLevel: z.optional(z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.map((l) => `'${l}'`).join(', ')}` })),
  /** Where log lines go ({@link GatewayLogger}). Default the console, one line per event. */
  logger: z.optional(z.custom<GatewayLogger>(isLogger, { error: 'must be an object with error, warn, info and debug methods, e.g. console' })),
  /** Traces and metrics of every call and attempt ({@link Telemetry}): `openTelemetry()` from `payment-gateway-sdk/opentelemetry`. Default none. */
  telemetry: telemetryOption(),
});

/**
 * Options of {@link GatewayClient}. Only `baseUrl`, `mchNo`, `appId` and `secret` are required; unknown
 * options are an error ({@link GatewayValidationError}), so a typo cannot be silently ignored.
 *
 * @interface
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
export type GatewayClientOptions = z.input<typeof gatewayClientOptionsSchema>;

/** Validated options with every default applied. */
export interface ResolvedOptions {
  readonly baseUrl: string;
  readonly mchNo: string;
  readonly appId: string;
  readonly secret: string;
  readonly version: string;
  readonly successCode: number;
  readonly timeout: number;
  readonly totalTimeout: number;
  readonly retry: RetryPolicy;
  readonly hooks: GatewayHooks;
  readonly fetch: FetchLike | undefined;
  readonly now: () => number;
  readonly verifyResponses: boolean;
  readonly maxResponseBytes: number;
  readonly logLevel: (typeof LOG_LEVELS)[number];
  readonly logger: GatewayLogger;
  readonly telemetry: Telemetry | undefined;
}

/** Parses the client's options once; every problem is reported at once, never echoing the secret. */
export function resolveOptions(options: GatewayClientOptions): ResolvedOptions {
  const o = parseInput(gatewayClientOptionsSchema, options ?? {}, 'Invalid GatewayClient options', 'options');
  // Defaults are applied here rather than in the schema: zod's default wrapper costs bundle size.
  return {
    baseUrl: o.baseUrl,
    mchNo: o.mchNo,
    appId: o.appId,
    secret: o.secret,
    version: o.version ?? CLIENT_DEFAULTS.version,
    successCode: o.successCode ?? CLIENT_DEFAULTS.successCode,
    timeout: o.timeout ?? CLIENT_DEFAULTS.timeout,
    totalTimeout: o.totalTimeout ?? CLIENT_DEFAULTS.totalTimeout,
    retry: {
      maxRetries: o.retry?.maxRetries ?? RETRY_DEFAULTS.maxRetries,
      initialDelayMs: o.retry?.initialDelayMs ?? RETRY_DEFAULTS.initialDelayMs,
      maxDelayMs: o.retry?.maxDelayMs ?? RETRY_DEFAULTS.maxDelayMs,
      maxRetryAfterMs: o.retry?.maxRetryAfterMs ?? RETRY_DEFAULTS.maxRetryAfterMs,
    },
    hooks: o.hooks ?? {},
    fetch: o.fetch,
    now: o.now ?? Date.now,
    verifyResponses: o.verifyResponses ?? CLIENT_DEFAULTS.verifyResponses,
    maxResponseBytes: o.maxResponseBytes ?? CLIENT_DEFAULTS.maxResponseBytes,
    logLevel: o.logLevel ?? logLevelFromEnvironment(),
    logger: o.logger ?? consoleLogger,
    telemetry: o.telemetry,
  };
}

// The fields of RequestOptions; its schema is callOptionsSchema's, which adds confirm.
const requestOptionsShape = {
  /** Aborts the call; it then rejects with {@link GatewayAbortError} (or {@link GatewayOutcomeUnknownError} for a create already sent). */
  signal: z.optional(z.custom<AbortSignal>((v) => v instanceof AbortSignal, { error: 'must be an AbortSignal' })),
  /** Milliseconds for one attempt, overriding the client's `timeout`. */
  timeout: timeoutOption(),
  /** Milliseconds for the whole call, retries and reconciliation included, overriding the client's `totalTimeout`. */
  totalTimeout: timeoutOption(),
  /** Retries after the first attempt, overriding the client's `retry.maxRetries`. */
  maxRetries: maxRetriesOption(),
};

/**
 * Per-call options, the optional last argument of every operation. They override the client's settings
 * for one call, e.g. a payer waiting at checkout gets a shorter budget than a background job.
 *
 * @interface
 * @example
 * ```ts
 * import type { RequestOptions } from 'payment-gateway-sdk';
 *
 * const atCheckout: RequestOptions = { totalTimeout: 8_000, maxRetries: 1 };
 * const order = await client.query({ mchOrderNo: 'order-1001' }, atCheckout);
 * ```
 */
export type RequestOptions = z.input<z.ZodMiniObject<typeof requestOptionsShape, z.core.$strict>>;

/** Checks a call's options: those of {@link RequestOptions} and `confirm`, which the runner offers where the table has it. */
export const callOptionsSchema = z.strictObject({
  ...requestOptionsShape,
  /** Read the record back after the call (one more request, bound to the same ids) and resolve to it. */
  confirm: z.optional(z.literal([true, false], { error: 'must be true or false' })),
});

/**
 * Per-call options of the operations whose answer proves nothing about the record ({@link GatewayClient.close}
 * answers an empty `data`, {@link GatewayClient.settleRequest} only `{ serverRequestId, status }`):
 * `confirm: true` reads the record back after the call and resolves to it.
 *
 * @interface
 * @example
 * ```ts
 * import type { GatewayClient } from 'payment-gateway-sdk';
 *
 * const confirmed: GatewayClient.ConfirmOptions & { confirm: true } = { confirm: true, totalTimeout: 20_000 };
 * const order = await client.close({ mchOrderNo: 'order-1001' }, confirmed); // the order as read after closing
 * ```
 */
export type ConfirmOptions = z.input<typeof callOptionsSchema>;
