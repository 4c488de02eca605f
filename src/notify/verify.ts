import type * as z from 'zod/mini';
import { notificationKinds, type NotificationKindName } from './kinds.js';
import type { IgnoredClientOption, KindOptionsSchema } from './options.js';
import type { NotificationInput } from './input.js';
import { verifyReceived, type IdempotentNotification } from './verify-received.js';

const { payment, refund, settlement, transfer } = notificationKinds;

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
 * const s: Settlements.Notification = await client.verifySettlementNotification(request);
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
 * const refund: Refunds.Notification = await verifyRefundNotification(request, credentials);
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
 * import type { Settlements } from 'payment-gateway-sdk';
 *
 * const asRequested: Settlements.Expectation = { requestId: 'settle-2024-07', amount: 150000, currency: 'USD', tokenId: 'TRON_USDT' };
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
 * const options: Settlements.VerifyOptions = {
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
 * const options: Refunds.VerifyOptions = {
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9',
 *   expect: { mchRefundNo: 'refund-1001-1', refundAmount: 500, currency: 'USD' },
 * };
 * ```
 */
export type VerifyRefundNotificationOptions = z.input<KindOptionsSchema<'refund'>>;

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
 * state 2, or fails, state 3) and returns it typed. The rules are those of {@link verifyNotification}; `mchNo`
 * and `appId` are required (a signed `refundQuery` answer, the same record without them, is refused), and a
 * payment notification, or a refund carrying another kind's field, is refused. Process each `idempotencyKey` once.
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

/**
 * A verified transfer notification: the transfer's fields typed as `transferQuery` returns them, `reqTime`, and
 * `idempotencyKey` (`transfer:${transferId}:${state}`). Its `state` 2 is money that **left** you, never a payment.
 *
 * @interface
 * @example
 * ```ts
 * const transfer: Transfers.Notification = await client.verifyTransferNotification(request);
 * if (transfer.state === 2) await markPaidOut(transfer.mchOrderNo); // 2: succeeded, 3: failed
 * ```
 */
export type TransferNotification = KindNotification<'transfer'>;

/**
 * Options of {@link verifyTransferNotification}: {@link NotificationOptions} and what the transfer must match
 * (`expect`: `mchOrderNo`, `amount` with `currency`, `state`, by default 2 or 3).
 *
 * @interface
 * @example
 * ```ts
 * const options: Transfers.VerifyOptions = {
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9',
 *   expect: { mchOrderNo: 'payout-1001', amount: 1500, currency: 'CNY' },
 * };
 * ```
 */
export type VerifyTransferNotificationOptions = z.input<KindOptionsSchema<'transfer'>>;

/**
 * Verifies a transfer notification (the gateway's POST to a transfer's `notifyUrl`, sent once when the transfer
 * succeeds, 2, or fails, 3) and returns it typed. The rules are those of {@link verifyNotification}; a payment or a
 * refund notification is refused here, and a transfer notification by theirs. Process each `idempotencyKey` once.
 *
 * @throws {@link GatewaySignatureError} when `sign` is missing or does not match
 * @throws {@link GatewayValidationError} when the input cannot be read, is for another merchant application, is not a
 *   transfer or is shaped as another kind, differs from `expect`, or fails `maxAgeMs`
 *
 * @example
 * ```ts
 * import { NOTIFICATION_ACK, verifyTransferNotification } from 'payment-gateway-sdk';
 *
 * const transfer = await verifyTransferNotification(request, {
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9',
 *   expect: { mchOrderNo: 'payout-1001', amount: 1500, currency: 'CNY' },
 * });
 * if (transfer.state === 2) await markPaidOut(transfer.mchOrderNo);
 * return new Response(NOTIFICATION_ACK);
 * ```
 */
export function verifyTransferNotification(input: NotificationInput, options: VerifyTransferNotificationOptions): Promise<TransferNotification> {
  return verifyReceived(transfer, input, options);
}
