import type * as z from 'zod/mini';
import { notificationKinds, type NotificationKindName } from './kinds.js';
import type { IgnoredClientOption, KindOptionsSchema } from './options.js';
import type { NotificationInput } from './input.js';
import { verifyReceived, type IdempotentNotification } from './verify-received.js';

const { payment, refund, settlement } = notificationKinds;

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
 * A verified settlement notification: the settlement-record fields (`amount` and `status` as numbers),
 * `mchNo`, `appId` and `reqTime` (required: a signed `settleRequestGet` answer lacks them), unknown extra
 * fields kept, and `idempotencyKey`
 * (`${serverRequestId}:${status}`).
 *
 * @interface
 * @example
 * ```ts
 * const s: SettlementNotification = await client.verifySettlementNotification(request);
 * console.log(s.requestId, s.status, s.amount);
 * ```
 */
export type SettlementNotification = KindNotification<'settlement'>;

/**
 * A verified refund notification: the refund's fields typed as the gateway's refund query returns them
 * (numbers for `refundAmount`, `payAmount`, `state`, `successTime`, `createdAt`), `reqTime`, unknown extra
 * fields kept, and `idempotencyKey` (`refund:${refundOrderId}:${state}`). Its `state` 2 is money going back to
 * the payer, never a payment.
 *
 * @interface
 * @example
 * ```ts
 * const refund: RefundNotification = await verifyRefundNotification(request, credentials);
 * if (refund.state === 2) await markRefunded(refund.mchRefundNo, refund.refundAmount); // 2: succeeded, 3: failed
 * ```
 */
export type RefundNotification = KindNotification<'refund'>;

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
export type PayOrderExpectation = z.input<typeof payment.expect>;

/** A kind's verify options, as a merchant writes them. */
type VerifyOptionsOf<Kind extends keyof typeof notificationKinds> = Omit<z.input<KindOptionsSchema<Kind>>, IgnoredClientOption>;

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
 * What a settlement notification must match, e.g. from your settlement record.
 *
 * @interface
 * @example
 * ```ts
 * import type { SettlementExpectation } from 'payment-gateway-sdk';
 *
 * const asRequested: SettlementExpectation = { requestId: 'settle-2024-07', amount: 150000, currency: 'USD', tokenId: 'TRON_USDT' };
 * ```
 */
export type SettlementExpectation = z.input<typeof settlement.expect>;

/**
 * Options of {@link verifySettlementNotification}: {@link NotificationOptions} and what the callback must
 * match (`expect`; a mismatch is a {@link GatewayValidationError}).
 *
 * @interface
 * @example
 * ```ts
 * const options: VerifySettlementNotificationOptions = {
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9',
 *   expect: { requestId: 'settle-2024-07', amount: 150000, currency: 'USD' },
 * };
 * ```
 */
export type VerifySettlementNotificationOptions = VerifyOptionsOf<'settlement'>;

/**
 * Options of {@link verifyRefundNotification}: {@link NotificationOptions} and what the refund must match
 * (`expect`: `mchRefundNo`, `refundAmount` with `currency`, `state`, by default 2 or 3, the states the gateway
 * notifies; a mismatch is a {@link GatewayValidationError}).
 *
 * @interface
 * @example
 * ```ts
 * const options: VerifyRefundNotificationOptions = {
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9',
 *   expect: { mchRefundNo: 'refund-1001-1', refundAmount: 500, currency: 'USD' },
 * };
 * ```
 */
export type VerifyRefundNotificationOptions = z.input<KindOptionsSchema<'refund'>>;

/**
 * Verifies a payment notification (the gateway's POST to your `notifyUrl`) and returns it typed.
 *
 * The signature is checked over **every field received** except `sign` and your `ignoreKeys`, in
 * constant time, with the gateway's MD5 rule; then `mchNo`/`appId`, the pay-order shape and your
 * `expect`. `reqTime` is not checked for age unless you set `maxAgeMs`: the gateway re-sends a
 * notification with its original `reqTime`. Replay protection is processing each `idempotencyKey` once.
 *
 * Free text holding `&name=` (`body: "Size=M&Color=Red"`) may let the signed text be read as other fields:
 * every reading the SDK would accept must agree on the ids, merchant, state, amount and currency, or the
 * notification is refused; free text they disagree on is left out and listed under `ambiguousFields`
 * (`ambiguousFields`). Every reading gets the same result.
 *
 * Answer a verified notification with {@link NOTIFICATION_ACK} (`SUCCESS`) once you have processed it;
 * anything else makes the gateway try again (up to 6 attempts).
 *
 * @param input - the raw body, `URLSearchParams`, `FormData`, a Web `Request` or a parsed form object;
 *   see {@link NotificationInput}. A `Request` is read from a clone: its own body stays unread.
 * @param options - the merchant application's credentials and optional checks; see {@link VerifyNotificationOptions}
 * @throws {@link GatewaySignatureError} when `sign` is missing or does not match (never contains the secret or the expected sign)
 * A message shaped as another kind is refused whatever `expect` says, as a processor refuses it: a refund or a
 * settlement, or a payment that also carries another kind's identifying field (`refundOrderId`, `mchRefundNo`,
 * `serverRequestId`); a refund's state 2 is money going back to the payer, never a paid order. The error names the
 * verifier of the kind it is shaped as.
 *
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
  return verifyReceived(payment, input, options);
}

/**
 * Verifies a settlement notification (the gateway's call to a settlement's `notifyUrl`) and returns it as
 * a settlement record. The gateway does not publish this callback's format: it is taken to be signed like
 * a payment notification and accepted as a form or a JSON body. The rules are those of
 * {@link verifyNotification}: it must carry `reqTime`, `mchNo` and `appId`, the client's own, as every
 * notification does, so a signed `settleRequestGet` answer (the same record without them) is refused.
 *
 * @throws {@link GatewaySignatureError} when `sign` is missing or does not match
 * @throws {@link GatewayValidationError} when the input cannot be read, is for another merchant application,
 *   is not a settlement record or is shaped as another kind, differs from `expect`, or fails `maxAgeMs`
 *
 * @example
 * ```ts
 * import { NOTIFICATION_ACK, verifySettlementNotification } from 'payment-gateway-sdk';
 *
 * const settlement = await verifySettlementNotification(request, {
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9',
 *   expect: { requestId: 'settle-2024-07' },
 * });
 * console.log(settlement.status, settlement.amount);
 * return new Response(NOTIFICATION_ACK);
 * ```
 */
export function verifySettlementNotification(input: NotificationInput, options: VerifySettlementNotificationOptions): Promise<SettlementNotification> {
  return verifyReceived(settlement, input, options);
}

/**
 * Verifies a refund notification (the gateway's POST to a refund's `notifyUrl`, sent when the refund succeeds,
 * state 2, or fails, state 3) and returns it typed. The rules are those of {@link verifyNotification}: the
 * signature over every field received, `mchNo` and `appId` (required: a signed `refundQuery` answer, the same
 * record without them, is refused), the refund's shape, `expect`. A payment notification is not a refund, nor is a
 * refund that also carries another kind's identifying field (`mchOrderNo`, `serverRequestId`): both are refused,
 * as a processor refuses them, naming the verifier of the kind the message is shaped as. Process each
 * `idempotencyKey` once.
 *
 * @throws {@link GatewaySignatureError} when `sign` is missing or does not match
 * @throws {@link GatewayValidationError} when the input cannot be read, is for another merchant application,
 *   is not a refund or is shaped as another kind, is of another state than `expect.state` (default 2 or 3), differs
 *   from `expect`, or fails `maxAgeMs`
 *
 * @example
 * ```ts
 * import { NOTIFICATION_ACK, verifyRefundNotification } from 'payment-gateway-sdk';
 *
 * const refund = await verifyRefundNotification(request, {
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9',
 *   expect: { mchRefundNo: 'refund-1001-1', refundAmount: 500, currency: 'USD' },
 * });
 * if (refund.state === 2) await markRefunded(refund.mchRefundNo); // 2: succeeded; 3: failed, no money moved
 * return new Response(NOTIFICATION_ACK);
 * ```
 */
export function verifyRefundNotification(input: NotificationInput, options: VerifyRefundNotificationOptions): Promise<RefundNotification> {
  return verifyReceived(refund, input, options);
}
