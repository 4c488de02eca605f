import type * as z from 'zod/mini';
import { notificationKinds, type DeclaredKind, type NotificationKindName } from './kinds.js';
import type { IgnoredClientOption, KindOptionsSchema } from './options.js';
import type { NotificationInput } from './input.js';
import { verifyReceived, type IdempotentNotification } from './verify-received.js';

/** A verified notification of a kind, by the kind's name: its schema's output and its `idempotencyKey`. */
export type KindNotification<Name extends NotificationKindName> = z.output<(typeof notificationKinds)[Name]['schema']> & IdempotentNotification;

/**
 * A verified payment notification: the pay-order fields typed as {@link GatewayClient.query} returns them
 * (numbers for `amount`, `state`, `successTime`, `createdAt`; unknown extra fields kept as strings; only
 * signed members), `reqTime`, and `idempotencyKey` (`${payOrderId}:${state}`), the same on every delivery.
 *
 * @interface
 * @example
 * ```ts
 * const n: PayOrderNotification = await client.verifyNotification(request);
 * n.amount;          // 58 (minor units, a number)
 * n.state;           // 2 (PayOrderState.Succeeded)
 * n.idempotencyKey;  // 'P202106181104177050002:2'
 * ```
 */
export type PayOrderNotification = KindNotification<'payment'>;

/**
 * What a payment notification must match, e.g. from your order record (`currency` case-insensitively).
 * `state` defaults to `PayOrderState.Succeeded`: the gateway notifies only paid orders, so a signed
 * message of an unpaid order (the payer's browser brings one back from the cashier's `returnUrl`) is
 * refused unless you list its state.
 *
 * @interface
 * @example
 * ```ts
 * import { PayOrderState, type PayOrderExpectation } from 'payment-gateway-sdk';
 *
 * const fromOrderRecord = (row: { number: string; totalMinor: number }): PayOrderExpectation => ({ mchOrderNo: row.number, amount: row.totalMinor, currency: 'USD' });
 * // A handler that also records refunds (state 5) next to payments:
 * const paidOrRefunded: PayOrderExpectation = { state: [PayOrderState.Succeeded, PayOrderState.Refunded] };
 * ```
 */
export type PayOrderExpectation = KindExpectation<'payment'>;

/** A kind's verify options as its verifier takes them: its options schema's input, the client's options it ignores included. */
export type KindVerifyOptions<Name extends NotificationKindName> = z.input<KindOptionsSchema<Name>>;

/** A kind's verify options, as a merchant writes them (without the client's options it ignores). */
export type VerifyOptionsOf<Name extends NotificationKindName> = Omit<KindVerifyOptions<Name>, IgnoredClientOption>;

/** What a kind's `expect` may pin, as a merchant writes it: its row's `expect` schema's input. */
export type KindExpectation<Name extends NotificationKindName> = z.input<(typeof notificationKinds)[Name]['expect']>;

/**
 * Verifies a notification as the kind of that name, by its row in kinds.ts: what each kind's verifier
 * (`verifyRefundNotification`...) and the client's method of the same name run.
 */
export function verifyKind<Name extends NotificationKindName>(name: Name, input: NotificationInput, options: KindVerifyOptions<Name>): Promise<KindNotification<Name>> {
  return verifyReceived(notificationKinds[name] as DeclaredKind, input, options) as Promise<KindNotification<Name>>;
}

/**
 * Options of {@link verifyNotification}: {@link NotificationOptions} and what the notification must match
 * (`expect`; a mismatch is a {@link GatewayValidationError}).
 *
 * @interface
 * @example
 * ```ts
 * const options: VerifyNotificationOptions = {
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9',
 *   ignoreKeys: ['shop'],                      // notifyUrl was https://shop.example.com/notify?shop=eu
 *   expect: { mchOrderNo: 'order-1001', amount: 1999, currency: 'USD' },
 * };
 * ```
 */
export type VerifyNotificationOptions = VerifyOptionsOf<'payment'>;

/**
 * Verifies a payment notification (the gateway's POST to your `notifyUrl`) and returns it typed: the signature
 * over **every field received** but `sign` and your `ignoreKeys` (constant time, the gateway's MD5 rule), then
 * `mchNo`/`appId`, the pay-order shape and your `expect`. `reqTime` is checked for age only with `maxAgeMs`;
 * replay protection is processing each `idempotencyKey` once. Free text whose `&name=` lets the signed text be
 * read otherwise is left out (`ambiguousFields`) unless every reading agrees; a message shaped as another kind
 * (a refund, a settlement) is refused. Answer {@link NOTIFICATION_ACK} once processed. The guide
 * "Notifications" says what is checked, and why.
 *
 * @param input - the raw body, `URLSearchParams`, `FormData`, a Web `Request` (read from a clone) or a parsed form object
 * @param options - the merchant application's credentials and optional checks; see {@link VerifyNotificationOptions}
 * @throws {@link GatewaySignatureError} when `sign` is missing or does not match (never contains the secret or the expected sign)
 * @throws {@link GatewayValidationError} when the input cannot be read, is for another merchant application,
 *   is shaped as another kind, has fields of the wrong type, differs from `expect`, or fails `maxAgeMs`; also for invalid options
 *
 * @example
 * ```ts
 * import { NOTIFICATION_ACK, PayOrderState, verifyNotification } from 'payment-gateway-sdk';
 *
 * // rawBody: the request body as received, e.g. 'payOrderId=P2021...&amount=58&state=2&...&sign=98A8...'
 * const notification = await verifyNotification(rawBody, {
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9',
 * });
 * if (notification.state === PayOrderState.Succeeded && !(await alreadyProcessed(notification.idempotencyKey))) {
 *   await fulfil(notification.mchOrderNo, notification.amount);
 * }
 * return new Response(NOTIFICATION_ACK); // 'SUCCESS', nothing else
 * ```
 */
export function verifyNotification(input: NotificationInput, options: VerifyNotificationOptions): Promise<PayOrderNotification> {
  return verifyKind('payment', input, options);
}

