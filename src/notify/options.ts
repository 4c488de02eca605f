import * as z from 'zod/mini';
import { GatewayValidationError } from '../errors.js';
import { minorUnits, requiredText, safeInteger } from '../schemas/fields.js';
import { REPORT_INPUT, toValidationIssues } from '../schemas/issues.js';

const credentials = {
  /** The merchant application's signing secret. */
  secret: requiredText(),
  /** The merchant number the notification must be addressed to. */
  mchNo: requiredText(),
  /** The application id the notification must be addressed to. */
  appId: requiredText(),
};

const checks = {
  /** Unsigned fields to leave out: the query parameters of your own `notifyUrl`. */
  ignoreKeys: z.optional(z.array(requiredText(), { error: 'must be an array of field names' })),
  /** Opt-in: the largest distance of `reqTime` from `now()`, in milliseconds. */
  maxAgeMs: z.optional(safeInteger(1)),
  /** The most bytes of a body read; more is {@link GatewayPayloadTooLargeError}. Default 65536. */
  maxBodyBytes: z.optional(safeInteger(1)),
  /** The clock for `maxAgeMs`, milliseconds since the epoch. */
  now: z.optional(z.custom<() => number>((v) => typeof v === 'function', { error: 'must be a function returning milliseconds since the epoch' })),
};

/** The options of one kind of notification: the common ones, and the fields its `expect` can pin. */
function optionsExpecting<const Expect extends z.core.$ZodLooseShape>(expect: Expect) {
  return z.strictObject({ ...credentials, ...checks, expect: z.optional(z.strictObject(expect)) });
}

/**
 * Zod schema of {@link VerifyNotificationOptions}; unknown options are an error.
 *
 * @example
 * ```ts
 * verifyNotificationOptionsSchema.safeParse({ secret, mchNo, appId, maxAgeMs: 0 }).success; // false
 * ```
 */
export const verifyNotificationOptionsSchema = optionsExpecting({
  mchOrderNo: z.optional(requiredText()),
  amount: z.optional(minorUnits()),
  currency: z.optional(requiredText()),
});

/**
 * Options of {@link verifyNotification}. Only `secret`, `mchNo` and `appId` are required.
 *
 * | option | default | meaning |
 * |---|---|---|
 * | `secret`, `mchNo`, `appId` | (required) | the merchant application the notification must be signed for and addressed to |
 * | `ignoreKeys` | `[]` | fields to leave out of the signature check and the result: the query parameters of your own `notifyUrl`, which the gateway adds unsigned |
 * | `maxAgeMs` | none | reject a `reqTime` further than this from `now()`. **Off by default**: the gateway re-sends the original `reqTime` on every retry (minutes later) and on a manual re-send (any time later), so an age limit turns genuine deliveries away |
 * | `now` | `Date.now` | the clock for `maxAgeMs` |
 * | `maxBodyBytes` | `65536` | the most bytes of a body read: a stream or `Request` is cancelled as soon as it passes this, and a larger string, buffer or parsed object is refused, as {@link GatewayPayloadTooLargeError} |
 * | `expect` | none | `{ mchOrderNo, amount, currency }` the notification must match (currency case-insensitively), e.g. from your order record |
 *
 * @example
 * ```ts
 * const options: VerifyNotificationOptions = {
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9',
 *   ignoreKeys: ['shop'],                      // notifyUrl was https://shop.example.com/notify?shop=eu
 *   expect: { mchOrderNo: 'order-1001', amount: 1999, currency: 'USD' },
 * };
 * ```
 */
export type VerifyNotificationOptions = z.input<typeof verifyNotificationOptionsSchema>;

/**
 * Zod schema of {@link VerifySettlementNotificationOptions}; unknown options are an error.
 *
 * @example
 * ```ts
 * verifySettlementNotificationOptionsSchema.safeParse({ secret, mchNo, appId, expect: { requestId: 'settle-1' } }).success; // true
 * ```
 */
export const verifySettlementNotificationOptionsSchema = optionsExpecting({
  requestId: z.optional(requiredText()),
  amount: z.optional(minorUnits()),
  currency: z.optional(requiredText()),
  tokenId: z.optional(requiredText()),
});

/**
 * Options of {@link verifySettlementNotification}: those of {@link VerifyNotificationOptions}, with
 * `expect: { requestId, amount, currency, tokenId }`.
 *
 * @example
 * ```ts
 * const options: VerifySettlementNotificationOptions = {
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9',
 *   expect: { requestId: 'settle-2024-07', amount: 150000 },
 * };
 * ```
 */
export type VerifySettlementNotificationOptions = z.input<typeof verifySettlementNotificationOptionsSchema>;

/**
 * The options a {@link GatewayClient} takes for a notification: its own credentials are used.
 *
 * @example
 * ```ts
 * const checks: ClientNotificationOptions<VerifyNotificationOptions> = { expect: { amount: 1999 } };
 * await client.verifyNotification(body, checks);
 * ```
 */
export type ClientNotificationOptions<Options> = Omit<Options, 'secret' | 'mchNo' | 'appId'>;


/**
 * Validates options, never echoing the secret. `signedFields` are the fields the notification's schema
 * declares: ignoring one of them would return an unverified value as if it were signed, so it is refused.
 */
export function resolveNotificationOptions<Schema extends z.ZodMiniObject>(schema: Schema, options: unknown, signedFields: readonly string[]): z.output<Schema> {
  const parsed = schema.safeParse(options ?? {}, REPORT_INPUT);
  if (!parsed.success) {
    throw new GatewayValidationError('Invalid notification options', toValidationIssues(parsed.error.issues, { keys: Object.keys(schema.def.shape), of: 'options' }));
  }
  const ignored = (parsed.data as { ignoreKeys?: readonly string[] }).ignoreKeys ?? [];
  const refused = ignored.filter((key) => key === 'sign' || signedFields.includes(key));
  if (refused.length > 0) {
    throw new GatewayValidationError(
      'Invalid notification options',
      refused.map((key) => ({ path: ['ignoreKeys'], message: `cannot ignore '${key}': it is a field the gateway signs; list only the query parameters of your own notifyUrl` })),
    );
  }
  return parsed.data;
}
