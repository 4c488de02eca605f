import * as z from 'zod/mini';
import { GatewayValidationError } from '../errors.js';
import { httpUrl, requiredText, safeInteger } from '../schemas/fields.js';
import { toValidationIssues } from '../schemas/issues.js';
import type { FetchLike } from '../transport/http.js';

/** Defaults of the optional {@link GatewayClientOptions}. */
export const CLIENT_DEFAULTS = {
  version: '1.0.1',
  successCode: 200,
  timeout: 20_000,
  verifyResponses: true,
} as const;

/** Zod schema of {@link GatewayClientOptions}; unknown options are an error. */
export const gatewayClientOptionsSchema = z.strictObject({
  baseUrl: httpUrl().check(z.minLength(1, { error: 'is required, e.g. https://pay.example.com' })),
  mchNo: requiredText(),
  appId: requiredText(),
  secret: requiredText(),
  version: z._default(requiredText(), CLIENT_DEFAULTS.version),
  successCode: z._default(safeInteger(Number.MIN_SAFE_INTEGER), CLIENT_DEFAULTS.successCode),
  timeout: z._default(safeInteger(1).check(z.maximum(2_147_483_647, { error: 'must be at most 2147483647 ms' })), CLIENT_DEFAULTS.timeout),
  fetch: z.optional(z.custom<FetchLike>((v) => typeof v === 'function', { error: 'must be a fetch-compatible function' })),
  now: z._default(z.custom<() => number>((v) => typeof v === 'function', { error: 'must be a function returning milliseconds since the epoch' }), () => Date.now),
  verifyResponses: z._default(z.boolean({ error: 'must be true or false' }), CLIENT_DEFAULTS.verifyResponses),
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
 * | `timeout` | `20000` | milliseconds for one attempt, including reading the body |
 * | `fetch` | global `fetch` | a fetch-compatible function (proxies, tests) |
 * | `now` | `Date.now` | the clock for `reqTime` (milliseconds) |
 * | `verifyResponses` | `true` | check each response's signature; `false` is unsafe |
 */
export type GatewayClientOptions = z.input<typeof gatewayClientOptionsSchema>;

/** Validated options with defaults applied. */
export type ResolvedOptions = z.output<typeof gatewayClientOptionsSchema>;

/** Validates client options; every problem is reported at once, never echoing the secret. */
export function resolveOptions(options: GatewayClientOptions): ResolvedOptions {
  const parsed = gatewayClientOptionsSchema.safeParse(options ?? {}, { reportInput: true });
  if (!parsed.success) {
    throw new GatewayValidationError('Invalid GatewayClient options', toValidationIssues(parsed.error.issues, Object.keys(gatewayClientOptionsSchema.def.shape)));
  }
  return parsed.data;
}
