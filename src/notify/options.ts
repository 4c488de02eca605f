import * as z from 'zod/mini';
import { GatewayValidationError } from '../errors/index.js';
import { minorUnits, requiredText, safeInteger } from '../protocol/schemas/fields.js';
import { PayOrderState } from '../protocol/schemas/enums.js';
import { REPORT_INPUT, toValidationIssues } from '../protocol/schemas/issues.js';
import type { Assert, SameShape } from '../protocol/schemas/shape-check.js';

const credentials = {
  secret: requiredText(),
  mchNo: requiredText(),
  appId: requiredText(),
};

const checks = {
  ignoreKeys: z.optional(z.array(requiredText(), { error: 'must be an array of field names' })),
  maxAgeMs: z.optional(safeInteger(1)),
  maxBodyBytes: z.optional(safeInteger(1)),
  now: z.optional(z.custom<() => number>((v) => typeof v === 'function', { error: 'must be a function returning milliseconds since the epoch' })),
};

/** The options of one kind of notification: the common ones, and the fields its `expect` can pin. */
function optionsExpecting<const Expect extends z.core.$ZodLooseShape>(expect: Expect) {
  return z.strictObject({ ...credentials, ...checks, expect: z.optional(z.strictObject(expect)) });
}

const STATES: ReadonlySet<unknown> = new Set(Object.values(PayOrderState));
// One state or a non-empty list of them; a check rather than a zod union, which would cost bundle size.
const expectedState = () =>
  z.custom<PayOrderState | readonly PayOrderState[]>((v) => STATES.has(v) || (Array.isArray(v) && v.length > 0 && v.every((s) => STATES.has(s))), {
    error: 'must be a pay-order state (0 to 6) or a non-empty list of them, e.g. PayOrderState.Succeeded',
  });

/** Checks {@link VerifyNotificationOptions}; unknown options are an error. */
export const verifyNotificationOptionsSchema = optionsExpecting({
  mchOrderNo: z.optional(requiredText()),
  amount: z.optional(minorUnits()),
  currency: z.optional(requiredText()),
  state: z.optional(expectedState()),
});

/**
 * What both kinds of notification verification take: the merchant application the notification must be
 * signed for and addressed to, and the optional checks.
 *
 * @example
 * ```ts
 * import type { NotificationOptions } from 'payment-gateway-sdk';
 *
 * // One place for the credentials of both verifiers.
 * const merchant: NotificationOptions = {
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9', ignoreKeys: ['shop'],
 * };
 * await verifyNotification(body, { ...merchant, expect: { amount: 1999 } });
 * ```
 */
export interface NotificationOptions {
  /** The merchant application's signing secret. */
  secret: string;
  /** The merchant number the notification must be addressed to. */
  mchNo: string;
  /** The application id the notification must be addressed to. */
  appId: string;
  /**
   * Fields to leave out of the signature check and the result: the query parameters of your own
   * `notifyUrl`, which the gateway adds unsigned. A field the gateway signs cannot be ignored. Default `[]`.
   */
  ignoreKeys?: string[] | undefined;
  /**
   * Reject a `reqTime` further than this many milliseconds from `now()`. **Off by default**: the gateway
   * re-sends the original `reqTime` on every retry (minutes later) and on a manual re-send (any time
   * later), so an age limit turns genuine deliveries away.
   */
  maxAgeMs?: number | undefined;
  /** The clock for `maxAgeMs`, milliseconds since the epoch. Default `Date.now`. */
  now?: (() => number) | undefined;
  /**
   * The most bytes of a body read. A stream or `Request` is cancelled as soon as it passes this, and a
   * larger string, buffer or parsed object is refused, as {@link GatewayPayloadTooLargeError}. Default `65536`.
   */
  maxBodyBytes?: number | undefined;
}

/**
 * What a payment notification must match, e.g. from your order record (`currency` case-insensitively).
 * `state` defaults to `PayOrderState.Succeeded`: the gateway notifies only paid orders, so a signed
 * message of an unpaid order (the payer's browser brings one back from the cashier's `returnUrl`) is
 * refused unless you list its state.
 *
 * @example
 * ```ts
 * import { PayOrderState, type PayOrderExpectation } from 'payment-gateway-sdk';
 *
 * const fromOrderRecord = (row: { number: string; totalMinor: number }): PayOrderExpectation => ({ mchOrderNo: row.number, amount: row.totalMinor, currency: 'USD' });
 * // A handler that also records refunds (state 5) next to payments:
 * const paidOrRefunded: PayOrderExpectation = { state: [PayOrderState.Succeeded, PayOrderState.Refunded] };
 * ```
 */
export interface PayOrderExpectation {
  /** Your order number. */
  mchOrderNo?: string | undefined;
  /** The amount in integer minor units. */
  amount?: number | undefined;
  /** The currency code, compared case-insensitively. */
  currency?: string | undefined;
  /** The state, or the states, the notification may carry. Default `PayOrderState.Succeeded` (2) only. */
  state?: PayOrderState | readonly PayOrderState[] | undefined;
}

/**
 * Options of {@link verifyNotification}: {@link NotificationOptions} and what the notification must match.
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
export interface VerifyNotificationOptions extends NotificationOptions {
  /** What the notification must match; a mismatch is a {@link GatewayValidationError}. */
  expect?: PayOrderExpectation | undefined;
}
type _VerifyNotificationOptionsMatch = Assert<SameShape<VerifyNotificationOptions, z.input<typeof verifyNotificationOptionsSchema>>>;

/** Checks {@link VerifySettlementNotificationOptions}; unknown options are an error. */
export const verifySettlementNotificationOptionsSchema = optionsExpecting({
  requestId: z.optional(requiredText()),
  amount: z.optional(minorUnits()),
  currency: z.optional(requiredText()),
  tokenId: z.optional(requiredText()),
});

/**
 * What a settlement notification must match, e.g. from your settlement record.
 *
 * @example
 * ```ts
 * import type { SettlementExpectation } from 'payment-gateway-sdk';
 *
 * const asRequested: SettlementExpectation = { requestId: 'settle-2024-07', amount: 150000, currency: 'USD', tokenId: 'TRON_USDT' };
 * ```
 */
export interface SettlementExpectation {
  /** Your settlement `requestId`. */
  requestId?: string | undefined;
  /** The amount in integer minor units. */
  amount?: number | undefined;
  /** The currency code, compared case-insensitively. */
  currency?: string | undefined;
  /** The settlement token id, e.g. `TRON_USDT`. */
  tokenId?: string | undefined;
}

/**
 * Options of {@link verifySettlementNotification}: {@link NotificationOptions} and what the callback must match.
 *
 * @example
 * ```ts
 * const options: VerifySettlementNotificationOptions = {
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9',
 *   expect: { requestId: 'settle-2024-07', amount: 150000 },
 * };
 * ```
 */
export interface VerifySettlementNotificationOptions extends NotificationOptions {
  /** What the callback must match; a mismatch is a {@link GatewayValidationError}. */
  expect?: SettlementExpectation | undefined;
}
type _VerifySettlementNotificationOptionsMatch = Assert<SameShape<VerifySettlementNotificationOptions, z.input<typeof verifySettlementNotificationOptionsSchema>>>;

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
