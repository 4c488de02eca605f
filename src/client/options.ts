import * as z from 'zod/mini';
import { GatewayValidationError } from '../errors.js';
import { httpUrl, requiredText, safeInteger } from '../schemas/fields.js';
import { toValidationIssues } from '../schemas/issues.js';
import type { FetchLike } from '../transport/http.js';
import type { GatewayHooks } from './hooks.js';
import { RETRY_DEFAULTS, type RetryPolicy } from './retry-policy.js';

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
} as const;

const timerMs = (min: number) => safeInteger(min).check(z.maximum(2_147_483_647, { error: 'must be at most 2147483647 ms' }));
const hook = () => z.optional(z.custom<(event: never) => void>((v) => typeof v === 'function', { error: 'must be a function' }));

/**
 * Zod schema of {@link GatewayClientOptions}; unknown options are an error. The constructor applies it;
 * use it yourself to check configuration at startup without creating a client.
 *
 * @example
 * ```ts
 * import { gatewayClientOptionsSchema } from 'payment-gateway-sdk';
 *
 * const config = gatewayClientOptionsSchema.safeParse({
 *   baseUrl: process.env.GATEWAY_URL, mchNo: process.env.GATEWAY_MCH_NO, appId: process.env.GATEWAY_APP_ID,
 *   secret: process.env.GATEWAY_SECRET,
 * });
 * if (!config.success) {
 *   throw new Error(`gateway settings invalid: ${config.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
 * }
 * ```
 */
export const gatewayClientOptionsSchema = z.strictObject({
  baseUrl: httpUrl().check(z.minLength(1, { error: 'is required, e.g. https://pay.example.com' })),
  mchNo: requiredText(),
  appId: requiredText(),
  secret: requiredText(),
  version: z.optional(requiredText()),
  successCode: z.optional(safeInteger(Number.MIN_SAFE_INTEGER)),
  timeout: z.optional(timerMs(1)),
  totalTimeout: z.optional(timerMs(1)),
  retry: z.optional(
    z.strictObject({
      maxRetries: z.optional(safeInteger(0).check(z.maximum(100, { error: 'must be at most 100' }))),
      initialDelayMs: z.optional(timerMs(0)),
      maxDelayMs: z.optional(timerMs(0)),
      maxRetryAfterMs: z.optional(timerMs(0)),
    }),
  ),
  /** Observers of requests, responses and retries ({@link GatewayHooks}). */
  hooks: z.optional(
    z.strictObject({
      /** Before each HTTP attempt. */
      onRequest: hook(),
      /** After each HTTP attempt. */
      onResponse: hook(),
      /** Before waiting to retry. */
      onRetry: hook(),
    }),
  ),
  /** A fetch-compatible function; the global `fetch` by default. */
  fetch: z.optional(z.custom<FetchLike>((v) => typeof v === 'function', { error: 'must be a fetch-compatible function' })),
  /** The clock for `reqTime`, in milliseconds since the epoch. */
  now: z.optional(z.custom<() => number>((v) => typeof v === 'function', { error: 'must be a function returning milliseconds since the epoch' })),
  verifyResponses: z.optional(z.literal([true, false], { error: 'must be true or false' })),
});

/**
 * Options of {@link GatewayClient}. Only `baseUrl`, `mchNo`, `appId` and `secret` are required.
 *
 * | option | default | meaning |
 * |---|---|---|
 * | `baseUrl` | (required) | the gateway's base URL; operation paths are appended to it |
 * | `mchNo`, `appId` | (required) | merchant number and application id |
 * | `secret` | (required) | the application's signing secret; never logged or serialized |
 * | `version` | `'1.0.1'` | API version sent in every request |
 * | `successCode` | `200` | the envelope `code` that means success |
 * | `timeout` | `15000` | milliseconds for one attempt, including reading the body |
 * | `totalTimeout` | `60000` | milliseconds for a whole call: retries, backoff and reconciliation |
 * | `retry.maxRetries` | `2` | retries after the first attempt (never a blind replay of a create) |
 * | `retry.initialDelayMs` / `retry.maxDelayMs` | `500` / `8000` | exponential backoff with jitter |
 * | `retry.maxRetryAfterMs` | `10000` | cap on a delay asked for by `Retry-After` (429/503) |
 * | `hooks` | none | {@link GatewayHooks}: `onRequest`, `onResponse`, `onRetry` |
 * | `fetch` | global `fetch` | a fetch-compatible function (proxies, tests) |
 * | `now` | `Date.now` | the clock for `reqTime` (milliseconds) |
 * | `verifyResponses` | `true` | check each response's signature; `false` is unsafe |
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
export type GatewayClientOptions = Omit<z.input<typeof gatewayClientOptionsSchema>, 'hooks'> & {
  /** Observers of requests, responses and retries. */
  hooks?: GatewayHooks | undefined;
};

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
  };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
