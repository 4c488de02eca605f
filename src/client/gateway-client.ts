import type { OperationName, ParamsOf, ResultOf } from '../operations/table.js';
import type { ClientNotificationOptions } from '../notify/options.js';
import type { NotificationInput } from '../notify/input.js';
import * as notify from '../notify/verify.js';
import type { CloseParams, PayOrder, QueryParams, RecoveredOrder, UnifiedOrderParams, UnifiedOrderResult } from '../kinds/payments/schemas.js';
import type { Refund, RefundOrderParams, RefundOrderResult, RefundQueryParams } from '../kinds/refunds/declaration.js';
import type { Transfer, TransferOrderParams, TransferOrderResult, TransferQueryParams } from '../kinds/transfers/declaration.js';
import type { DivisionExecParams, DivisionExecResult, DivisionReceiverBindParams, DivisionReceiverBindResult } from '../kinds/division/schemas.js';
import type { SettleAddressApplyParams, SettlementRecord, SettlementResult, SettleRequestGetParams, SettleRequestParams } from '../kinds/settlements/schemas.js';
import type { FetchLike, HttpExchange } from '../transport/http.js';
import type { ChannelUserUrlParams, UnsignedChannelUser } from '../protocol/schemas/channel-user.js';
import type { ClientCalls } from './calls.js';
import type { ChannelUserLinks, ReadChannelUserRedirectOptions } from './channel-user.js';
import { setUpClient } from './client-setup.js';
import type { OperationMethods } from './operation-methods.js';
import type { ConfirmOptions, GatewayClientOptions, RequestOptions } from './options.js';
import type { GatewayResponse } from './runner.js';
import { recordWait, type WaitForOrderOptions, type WaitOptions } from './wait-for-record.js';

export type { OperationMethods } from './operation-methods.js';

/**
 * The gateway client: one method per operation of the SDK's operation table (payments, crypto settlements,
 * refunds), each validating, signing and sending its request, verifying the response's signature and binding,
 * and resolving to the typed `data`; plus `waitForOrder`, `reissueOrder`, notification verification and
 * `withResponse`. One instance per merchant application; it holds no other state and is safe to share across
 * concurrent calls.
 *
 * @example
 * ```ts
 * import { GatewayClient } from 'payment-gateway-sdk';
 *
 * const client = new GatewayClient({
 *   baseUrl: 'https://pay.example.com',
 *   mchNo: process.env.GATEWAY_MCH_NO!,
 *   appId: process.env.GATEWAY_APP_ID!,
 *   secret: process.env.GATEWAY_SECRET!,
 * });
 * const order = await client.unifiedOrder({
 *   mchOrderNo: 'order-1001', wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD',
 *   subject: 'T-shirt', body: 'Blue T-shirt, size M', notifyUrl: 'https://shop.example.com/pay/notify',
 *   channelExtra: { payDataType: 'codeImgUrl' },
 * });
 * if (!order.recovered) console.log(order.payOrderId, order.payData); // recovered after a lost answer: no payData
 * ```
 */
export class GatewayClient implements OperationMethods {
  /** The gateway's base URL. */
  readonly baseUrl: string;
  /** The merchant number sent with every request. */
  readonly mchNo: string;
  /** The merchant application id sent with every request. */
  readonly appId: string;
  /** Whether answers' signatures are verified (the `verifyResponses` option): a sweep refuses a client that does not. */
  readonly verifyResponses: boolean;
  // Kept for verifying notifications; private, so it is in no enumeration, JSON or inspect output.
  readonly #credentials: { readonly secret: string; readonly mchNo: string; readonly appId: string };
  readonly #summary: Readonly<Record<string, unknown>>;
  readonly #calls: ClientCalls;
  readonly #channelUser: ChannelUserLinks;

  /**
   * @param options - see {@link GatewayClientOptions}; invalid options throw {@link GatewayValidationError}.
   */
  constructor(options: GatewayClientOptions) {
    const { options: resolved, summary, calls, channelUser } = setUpClient(options);
    this.baseUrl = resolved.baseUrl;
    this.mchNo = resolved.mchNo;
    this.appId = resolved.appId;
    this.verifyResponses = resolved.verifyResponses;
    this.#credentials = { secret: resolved.secret, mchNo: resolved.mchNo, appId: resolved.appId };
    this.#summary = summary;
    this.#calls = calls;
    this.#channelUser = channelUser;
  }

  /**
   * Creates a payment order (`POST /api/pay/unifiedOrder`) and returns the payment parameters. A channel
   * failure is a result (`orderState` 3 with `errCode`/`errMsg`), not an exception. `mchOrderNo` is your
   * idempotency key. After an ambiguous failure the order is looked up by it, never sent twice blindly: a
   * recovered result has no `payData` (see {@link GatewayClient.reissueOrder}).
   *
   * @throws {@link GatewayValidationError} for invalid parameters (nothing is sent)
   * @throws {@link GatewayApiError} when the gateway refuses and no order exists under your `mchOrderNo` (one found resolves the call, `replayed`)
   * @throws {@link GatewayOutcomeUnknownError} when the order may exist and no lookup could tell in time (`key` to reconcile by)
   * @throws {@link GatewayReconciliationMismatchError} when the lookup finds another order under your `mchOrderNo`
   * @throws {@link GatewayConnectionError}, {@link GatewayTimeoutError}, {@link GatewayAbortError} when every attempt was refused, `totalTimeout` ran out or your `signal` aborted before anything reached the gateway
   * @throws {@link GatewayHttpStatusError} for a redirect (never followed: check `baseUrl`)
   *
   * @example
   * ```ts
   * const result = await client.unifiedOrder({
   *   mchOrderNo: 'order-1001', wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD',
   *   subject: 'T-shirt', body: 'Blue T-shirt', channelExtra: { payDataType: 'codeImgUrl' },
   * });
   * if (result.orderState === PayOrderState.Failed) console.warn(result.errCode, result.errMsg);
   * else if (!result.recovered) showQrImage(result.payData);
   * else showPending(); // recovered after a lost answer: no payData (see reissueOrder)
   * ```
   */
  unifiedOrder(params: UnifiedOrderParams, options?: RequestOptions): Promise<UnifiedOrderResult> {
    return this.#calls.call('unifiedOrder', params, options);
  }

  /**
   * Reads an order's latest state (`POST /api/pay/query`) by `payOrderId` or `mchOrderNo`, with its on-chain
   * transactions (`orderTransactionList`, amounts as exact decimal strings). Retried on transient failures.
   * The record must be the one asked for, of this merchant application.
   *
   * @throws {@link GatewayValidationError} for invalid ids (nothing is sent)
   * @throws {@link GatewayApiError} when the gateway refuses, e.g. `order_not_found`
   * @throws {@link GatewayResponseMismatchError} when the signed answer is another order's (a replayed or substituted response)
   * @throws {@link GatewaySignatureError} when the answer's `sign` is missing or wrong
   * @throws {@link GatewayResponseValidationError} when the answer is not the documented shape, or readings of its signed text differ in a field that is not free text
   * @throws {@link GatewayResponseError} when the answer is unusable after the retries (an HTTP error status, empty, truncated, not JSON, too large)
   * @throws {@link GatewayConnectionError}, {@link GatewayTimeoutError} when the gateway could not be reached, or time ran out (`timeout`, `totalTimeout`)
   * @throws {@link GatewayAbortError} when your `signal` aborted
   *
   * @example
   * ```ts
   * const current = await client.query({ mchOrderNo: 'order-1001' });
   * if (current.state === PayOrderState.Succeeded) fulfil(current);
   * ```
   */
  query(params: QueryParams, options?: RequestOptions): Promise<PayOrder> {
    return this.#calls.call('query', params, options);
  }

  /**
   * Closes an unpaid order (states 0 and 1) with `POST /api/pay/close`; resolves when the gateway accepted the
   * close. That empty answer proves nothing about the order: with `{ confirm: true }` the order is read back and
   * the call resolves to it only in a final state (6, or 2 when the payer paid first). A repeat that finds the
   * order already closed is a success.
   *
   * @throws {@link GatewayOrderNotFinalError} with `confirm`, when the order read back is still 0 or 1: wait for its final state
   * @throws {@link GatewayApiError} when the order cannot be closed (`order_not_closable`, `order_not_found`)
   * @throws {@link GatewayEmptyResponseError} when the channel refused the close (the gateway sends an empty body)
   * @throws {@link GatewayValidationError} for invalid ids (nothing is sent)
   * @throws the transport errors of {@link GatewayClient.query}
   *
   * @example
   * ```ts
   * await client.close({ mchOrderNo: 'order-1001' });
   * const closed = await client.close({ mchOrderNo: 'order-1002' }, { confirm: true });
   * if (closed.state === PayOrderState.Succeeded) fulfil(closed); // paid just before the close
   * ```
   */
  close(params: CloseParams, options: ConfirmOptions & { confirm: true }): Promise<PayOrder>;
  close(params: CloseParams, options?: ConfirmOptions & { confirm?: false | undefined }): Promise<void>;
  close(params: CloseParams, options?: ConfirmOptions): Promise<PayOrder | void>;
  close(params: CloseParams, options?: ConfirmOptions): Promise<PayOrder | void> {
    return this.#calls.call('close', params, options);
  }

  /**
   * Declares a crypto address to receive settlements (`POST /api/channelbiz/coinpay/settleAddressApply`). The
   * platform reviews it; once approved, settle to it with `addrServerRequestId: result.serverRequestId`. The
   * gateway offers no lookup for declarations: an ambiguous failure ends in {@link GatewayOutcomeUnknownError}.
   *
   * @throws {@link GatewayValidationError} for invalid parameters (nothing is sent)
   * @throws {@link GatewayApiError} when the gateway refuses, e.g. a duplicate `requestId` (no lookup exists: any refusal but the shared checks is a {@link GatewayOutcomeUnknownError})
   * @throws {@link GatewayOutcomeUnknownError} after an ambiguous failure (`key` is your `requestId`)
   * @throws {@link GatewayConnectionError}, {@link GatewayTimeoutError}, {@link GatewayAbortError} as for {@link GatewayClient.unifiedOrder}
   *
   * @example
   * ```ts
   * const { serverRequestId, status } = await client.settleAddressApply({
   *   requestId: 'addr-2024-001', tokenId: 'TRON_USDT', address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', remark: 'treasury',
   * });
   * ```
   */
  settleAddressApply(params: SettleAddressApplyParams, options?: RequestOptions): Promise<SettlementResult> {
    return this.#calls.call('settleAddressApply', params, options);
  }

  /**
   * Requests a settlement of available balance (`POST /api/channelbiz/coinpay/settleRequest`) to a declared
   * address (`addrServerRequestId`) or a given one (`address`): exactly one. Only `payoutChannel: 'Crypto'` and
   * `currency: 'USD'`. `requestId` is your idempotency key. The answer repeats nothing of the request: with
   * `{ confirm: true }` the record is read back by `requestId`, must match the answer and the request, and the
   * call resolves to the {@link Settlements.Settlement}.
   *
   * @throws {@link GatewayValidationError} for invalid parameters (nothing is sent)
   * @throws {@link GatewayApiError} when the gateway refuses, e.g. an unapproved address, and no settlement exists under your `requestId` (a duplicate resolves to the record found, `replayed`)
   * @throws {@link GatewayOutcomeUnknownError} when the settlement may exist and no lookup could tell (`key` is your `requestId`)
   * @throws {@link GatewayReconciliationMismatchError} when the record under your `requestId` is another settlement
   * @throws {@link GatewayResponseMismatchError} with `confirm`, when the record read back is not the one answered
   * @throws {@link GatewayConnectionError}, {@link GatewayTimeoutError}, {@link GatewayAbortError} as for {@link GatewayClient.unifiedOrder}
   *
   * @example
   * ```ts
   * const monthly = {
   *   requestId: 'settle-2024-07', amount: 150000, tokenId: 'TRON_USDT',
   *   payoutChannel: 'Crypto', currency: 'USD', addrServerRequestId: 'SRV-ADDR-1',
   * } as const;
   * const result = await client.settleRequest(monthly);
   * const record = await client.settleRequest({ ...monthly, requestId: 'settle-2024-08' }, { confirm: true });
   * ```
   */
  settleRequest(params: SettleRequestParams, options: ConfirmOptions & { confirm: true }): Promise<SettlementRecord>;
  settleRequest(params: SettleRequestParams, options?: ConfirmOptions & { confirm?: false | undefined }): Promise<SettlementResult>;
  settleRequest(params: SettleRequestParams, options?: ConfirmOptions): Promise<SettlementResult | SettlementRecord>;
  settleRequest(params: SettleRequestParams, options?: ConfirmOptions): Promise<SettlementResult | SettlementRecord> {
    return this.#calls.call('settleRequest', params, options);
  }

  /**
   * Reads a settlement request by your `requestId` (`POST /api/channelbiz/coinpay/settleRequestGet`). The
   * record must be the one asked for. `status` values are not defined by the spec (see {@link Settlements.Result}).
   *
   * @throws {@link GatewayApiError} when the gateway refuses, e.g. `record_not_found`
   * @throws {@link GatewayResponseMismatchError} when the signed answer is another request's record
   * @throws {@link GatewayValidationError} for an invalid `requestId` (nothing is sent)
   * @throws the answer and transport errors of {@link GatewayClient.query}
   *
   * @example
   * ```ts
   * const record = await client.settleRequestGet({ requestId: 'settle-2024-07' });
   * console.log(record.status, record.amount);
   * ```
   */
  settleRequestGet(params: SettleRequestGetParams, options?: RequestOptions): Promise<SettlementRecord> {
    return this.#calls.call('settleRequestGet', params, options);
  }

  /**
   * Refunds a paid order, wholly or in part (`POST /api/refund/refundOrder`). The refund's `state` may be final
   * (2 refunded, 3 failed) or, usually, 1 (refunding: learn the end from the refund notification, a processor's
   * sweep or {@link GatewayClient.refundQuery}). `mchRefundNo` is your idempotency key: store it **before**
   * calling. After an ambiguous answer or a refusal not decided before a refund exists, the refund is looked up
   * by `mchRefundNo` and the call resolves to the one found (`replayed`). Never retry under a new number while
   * the first may exist: the payer would be refunded twice.
   *
   * @throws {@link GatewayValidationError} for invalid parameters, e.g. neither or both of `payOrderId` and `mchOrderNo` (nothing is sent)
   * @throws {@link GatewayApiError} when the gateway refuses and no refund exists under your `mchRefundNo`, e.g. `order_not_refundable`, `refund_exceeds_refundable`, `refund_in_progress` (try later with the same `mchRefundNo`)
   * @throws {@link GatewayOutcomeUnknownError} when the refund may exist and no lookup could tell in time (`key` is your `mchRefundNo`: retry with it later, or `processor.track` it)
   * @throws {@link GatewayReconciliationMismatchError} when your `mchRefundNo` is used by another refund (another order, amount or currency): `differences` names the fields
   * @throws {@link GatewayResponseContractError} when the gateway's signed answer breaks the documented shape (the refund was made: `lookup` says what was found)
   * @throws {@link GatewayConnectionError}, {@link GatewayTimeoutError}, {@link GatewayAbortError} as for {@link GatewayClient.unifiedOrder} (nothing was refunded)
   *
   * @example
   * ```ts
   * const refund = await client.refundOrder({
   *   payOrderId: 'P202406180001', mchRefundNo: 'refund-1001', refundAmount: 400, currency: 'USD',
   *   refundReason: 'Returned: wrong size', notifyUrl: 'https://shop.example.com/pay/notify',
   * });
   * if (refund.state === Refunds.State.Succeeded) markRefunded(refund.mchRefundNo);
   * ```
   */
  refundOrder(params: RefundOrderParams, options?: RequestOptions): Promise<RefundOrderResult> {
    return this.#calls.call('refundOrder', params, options);
  }

  /**
   * Reads a refund (`POST /api/refund/query`) by your `mchRefundNo` or the gateway's `refundOrderId`, with the order
   * it refunds (`payOrderId`) and its state: 2 refunded, 3 failed, 4 closed (no money moved), 0 or 1 still open.
   * Retried on transient failures. The record must be the one asked for, of this merchant application.
   *
   * @throws {@link GatewayValidationError} for invalid ids (nothing is sent)
   * @throws {@link GatewayApiError} when the gateway refuses, e.g. `refund_not_found`
   * @throws {@link GatewayResponseMismatchError} when the signed answer is another refund's (a replayed or substituted response)
   * @throws the answer and transport errors of {@link GatewayClient.query}
   *
   * @example
   * ```ts
   * const refund = await client.refundQuery({ mchRefundNo: 'refund-1001' });
   * if (refund.state === Refunds.State.Succeeded) console.log(`refunded ${refund.refundAmount} of ${refund.payAmount} ${refund.currency}`);
   * ```
   */
  refundQuery(params: RefundQueryParams, options?: RequestOptions): Promise<Refund> {
    return this.#calls.call('refundQuery', params, options);
  }

  /**
   * Pays out to a payee (`POST /api/transferOrder`): a WeChat wallet (`WX_CASH`), an Alipay account (`ALIPAY_CASH`) or
   * a bank card (`BANK_CARD`). `mchOrderNo` is your idempotency key among transfers: store it **before** calling. A
   * lost, unsigned or refused answer (but a refusal decided before any transfer is stored) is looked up by
   * `mchOrderNo` and resolves to the transfer found (`replayed`): the gateway may refuse after it stored one.
   * Never retry under a new number while the first may exist: the payee would be paid twice.
   *
   * @throws {@link GatewayValidationError} for invalid parameters, e.g. an `entryType` the channel cannot take (nothing is sent)
   * @throws {@link GatewayApiError} when the gateway refuses and no transfer exists under your `mchOrderNo`, e.g. `entry_type_unsupported`, `channel_not_configured`
   * @throws {@link GatewayOutcomeUnknownError} when the transfer may exist and no lookup could tell (`key` is your `mchOrderNo`: `processor.track` it)
   * @throws {@link GatewayReconciliationMismatchError} when your `mchOrderNo` is used by another transfer (the payee's data masked)
   * @throws the answer and transport errors of {@link GatewayClient.refundOrder}
   *
   * @example
   * ```ts
   * const transfer = await client.transferOrder({
   *   mchOrderNo: 'payout-1001', ifCode: 'wxpay', entryType: 'WX_CASH', amount: 1500, currency: 'CNY',
   *   accountNo: 'o8xYz0123456789', accountName: 'Li Lei', transferDesc: 'Supplier payout, November',
   *   notifyUrl: 'https://shop.example.com/pay/notify',
   * });
   * if (transfer.state === Transfers.State.Succeeded) markPaidOut(transfer.mchOrderNo);
   * ```
   */
  transferOrder(params: TransferOrderParams, options?: RequestOptions): Promise<TransferOrderResult> {
    return this.#calls.call('transferOrder', params, options);
  }

  /**
   * Reads a transfer (`POST /api/transfer/query`) by your `mchOrderNo` or the gateway's `transferId`: its payee and
   * state (2 paid out, 3 failed, 0 or 1 still open). The record must be the one asked for, of this application.
   *
   * @throws {@link GatewayValidationError} for invalid ids (nothing is sent)
   * @throws {@link GatewayApiError} when the gateway refuses, e.g. `transfer_not_found`
   * @throws the answer and transport errors of {@link GatewayClient.query}
   *
   * @example
   * ```ts
   * const transfer = await client.transferQuery({ mchOrderNo: 'payout-1001' });
   * if (transfer.state === Transfers.State.Failed) console.log(transfer.errMsg);
   * ```
   */
  transferQuery(params: TransferQueryParams, options?: RequestOptions): Promise<Transfer> {
    return this.#calls.call('transferQuery', params, options);
  }

  /**
   * Binds an account at the channel as a division receiver of one of your receiver groups
   * (`POST /api/division/receiver/bind`). Resolves to a {@link Divisions.BindResult}: `bindState` 1 with the new
   * `receiverId` (keep it: no API lists receivers), or `bindState` 0 when the channel refused the account, and
   * **nothing was stored**: the one outcome after which binding again is safe. The answer must repeat what was sent
   * (group, channel, account, type, relation, share), of this application.
   *
   * Never sent twice: the gateway cannot tell a repeat (each bind stores a new receiver, and a division by group pays
   * each) and offers no lookup. Any failure once the request may have arrived (a reset, a 5xx, a 408 or 429, a
   * timeout, an answer that cannot be trusted, a system error) rejects with {@link GatewayOutcomeUnknownError}
   * saying where to look: the group's receiver list in the merchant portal. Only a connection refused before
   * anything was sent is tried again.
   *
   * @throws {@link GatewayValidationError} for invalid parameters, e.g. a share above 1 or `CUSTOM` without `relationTypeName` (nothing is sent)
   * @throws {@link GatewayApiError} when the gateway refuses before binding, e.g. `receiver_group_not_found`, `channel_not_configured` (nothing was bound)
   * @throws {@link GatewayOutcomeUnknownError} when the account may have been bound (`key` is your `receiverGroupId`): look in the merchant portal, never bind again blindly
   * @throws {@link GatewayResponseContractError} when the gateway answered success with data that breaks the documented shape (do not bind again blindly either)
   * @throws {@link GatewayConnectionError}, {@link GatewayTimeoutError}, {@link GatewayAbortError} as for {@link GatewayClient.unifiedOrder}, when nothing was sent
   *
   * @example
   * ```ts
   * import { Divisions } from 'payment-gateway-sdk';
   *
   * const bound = await client.bindDivisionReceiver({
   *   ifCode: 'wxpay', receiverGroupId: 100001, accType: Divisions.AccountType.Person, accNo: 'o8xYz0123456789',
   *   accName: 'Li Lei', relationType: 'PARTNER', divisionProfit: '0.1',
   * });
   * if (bound.bindState === Divisions.BindState.Bound) console.log('receiver', bound.receiverId, 'share', bound.divisionProfit); // '0.1', as sent
   * else console.log('the channel refused, nothing stored:', bound.errCode, bound.errMsg);
   * ```
   */
  bindDivisionReceiver(params: DivisionReceiverBindParams, options?: RequestOptions): Promise<DivisionReceiverBindResult> {
    return this.#calls.call('bindDivisionReceiver', params, options);
  }

  /**
   * Divides a paid order among receivers (`POST /api/division/exec`), **once**: the order must be paid and created
   * with `divisionMode: 2`; a second call for it is refused (`division_not_allowed`) without a word on the first.
   * Give the order (`payOrderId` or `mchOrderNo`, not both) and exactly one of `receivers` (receivers and groups,
   * each once, shares as decimal strings summing to at most 1: the SDK refuses more before sending),
   * `useSysAutoDivisionReceivers: true`, or `releaseAllToMerchant: true` (nobody: the whole divisible amount is
   * released to you, irrevocably; an empty `receivers` alone is refused). Naming receivers by id and by group logs a
   * warning: an account in both is paid twice. Resolves to the {@link Divisions.ExecResult}: `state` 1 succeeded,
   * 2 failed (only the merchant portal can resend it), 3 accepted by the channel, result not known yet (the portal
   * shows it later; never a failure).
   *
   * Never sent twice and never looked up (no API can): any failure once the request may have arrived rejects with
   * {@link GatewayOutcomeUnknownError} naming the order, whose division records in the merchant portal tell.
   *
   * @throws {@link GatewayValidationError} for invalid parameters: an empty list, a receiver twice, shares over 1, a share of 0, both order ids (nothing is sent)
   * @throws {@link GatewayApiError} when the gateway refuses before dividing, e.g. `division_not_allowed`, `receiver_unavailable`, `order_not_found` (this call divided nothing)
   * @throws {@link GatewayOutcomeUnknownError} when the order may have been divided (`key` is the order id given): look in the merchant portal, never call again to find out
   * @throws {@link GatewayResponseContractError} when the gateway answered success with data that breaks the documented shape
   * @throws {@link GatewayConnectionError}, {@link GatewayTimeoutError}, {@link GatewayAbortError} as for {@link GatewayClient.unifiedOrder}, when nothing was sent
   *
   * @example
   * ```ts
   * import { Divisions } from 'payment-gateway-sdk';
   *
   * const division = await client.executeDivision({
   *   mchOrderNo: 'order-1001',
   *   receivers: [{ receiverId: 800001, divisionProfit: '0.25' }, { receiverId: 800002, divisionProfit: '0.05' }],
   * });
   * if (division.state === Divisions.ExecState.Accepted) console.log('accepted by the channel: the merchant portal shows the result later');
   * ```
   */
  executeDivision(params: DivisionExecParams, options?: RequestOptions): Promise<DivisionExecResult> {
    return this.#calls.call('executeDivision', params, options);
  }

  /**
   * Waits for a transfer's end: queries it until it leaves states 0 and 1 (or `options.until` holds) and resolves to
   * the {@link Transfers.Transfer}. Pauses, timeout and failures are {@link GatewayClient.waitForOrder}'s.
   *
   * @throws {@link GatewayWaitTimeoutError} after `timeout` (5 minutes), with `lastTransfer`
   * @throws any error of {@link GatewayClient.transferQuery} that a retry cannot cure, e.g. `transfer_not_found`
   *
   * @example
   * ```ts
   * const transfer = await client.waitForTransfer({ mchOrderNo: 'payout-1001' }, { intervalMs: 2_000, timeout: 60_000 });
   * ```
   */
  waitForTransfer(ids: TransferQueryParams, options?: WaitOptions<Transfer>): Promise<Transfer> {
    return this.#calls.wait(recordWait('transfer'), ids, options);
  }

  /**
   * Waits for an order's result without a notification: queries it (by `payOrderId` or `mchOrderNo`) until it
   * leaves states 0 and 1, or until `options.until` holds, and resolves to the {@link PayOrder}. The reference
   * gateway notifies only a success: a failure, a close or an expiry is learned by asking. The pause between
   * queries starts at `intervalMs` (1 s) and grows by half up to `maxIntervalMs` (10 s). A query that fails
   * transiently does not end the wait; any other failure rejects with it at once.
   *
   * @throws {@link GatewayWaitTimeoutError} (a {@link GatewayTimeoutError}) after `timeout` (5 minutes), with `lastOrder`
   * @throws {@link GatewayAbortError} when `signal` aborts
   * @throws any error of {@link GatewayClient.query} that a retry cannot cure, e.g. `order_not_found`
   *
   * @example
   * ```ts
   * // The payer came back from the payment page: give the result a few seconds, then show "pending".
   * try {
   *   const order = await client.waitForOrder({ mchOrderNo: 'order-1001' }, { intervalMs: 500, timeout: 8_000 });
   *   return order.state === PayOrderState.Succeeded ? showPaid(order) : showNotPaid(order);
   * } catch (error) {
   *   if (error instanceof GatewayWaitTimeoutError) return showPending();
   *   throw error;
   * }
   * ```
   */
  waitForOrder(ids: QueryParams, options?: WaitForOrderOptions): Promise<PayOrder> {
    return this.#calls.wait(recordWait('payment'), ids, options);
  }

  /**
   * Waits for a refund's end: queries it (by `mchRefundNo` or `refundOrderId`) until it leaves states 0 and 1, or
   * until `options.until` holds, and resolves to the {@link Refunds.Refund}: 2 refunded, 3 failed, 4 closed (still open two
   * hours after its creation; never notified). Pauses, timeout and failures are {@link GatewayClient.waitForOrder}'s.
   * In a server, prefer the refund notification and a processor's sweep (`processor.track(refund)`).
   *
   * @throws {@link GatewayWaitTimeoutError} after `timeout` (5 minutes), with `lastRefund`
   * @throws {@link GatewayAbortError} when `signal` aborts
   * @throws any error of {@link GatewayClient.refundQuery} that a retry cannot cure, e.g. `refund_not_found`
   *
   * @example
   * ```ts
   * const made = await client.refundOrder({ payOrderId, mchRefundNo: 'refund-1001', refundAmount: 400, currency: 'USD', refundReason: 'Returned' });
   * const refund = await client.waitForRefund({ refundOrderId: made.refundOrderId }, { intervalMs: 2_000, timeout: 60_000 });
   * if (refund.state === Refunds.State.Succeeded) log.info(`refunded ${refund.refundAmount} ${refund.currency}`);
   * ```
   */
  waitForRefund(ids: RefundQueryParams, options?: WaitForRefundOptions): Promise<Refund> {
    return this.#calls.wait(recordWait('refund'), ids, options);
  }

  /**
   * The way out of a recovered create (a {@link RecoveredOrder} has no `payData`): closes it (`close` with
   * `confirm: true`) unless it is already past paying, and only when a signed query then shows it closed, failed
   * or revoked (6, 3, 4) creates `params` under their new `mchOrderNo` and resolves to that result. Store the new
   * `mchOrderNo` with your order. The new create can itself be recovered (rarely): loop while `recovered`.
   *
   * @throws {@link GatewayOrderPaidError} when the recovered order was paid: fulfil it instead
   * @throws {@link GatewayOrderNotFinalError} when the recovered order is still open after the close (the payer may be paying): wait for its final state with {@link GatewayClient.waitForOrder}
   * @throws {@link GatewayValidationError} when `params.mchOrderNo` is the recovered order's own, or `recovered` is not a recovered result
   * @throws any error of {@link GatewayClient.close}, {@link GatewayClient.query} and {@link GatewayClient.unifiedOrder}
   *
   * @example
   * ```ts
   * let order = await client.unifiedOrder(params);
   * while (order.recovered) {
   *   order = await client.reissueOrder(order, { ...params, mchOrderNo: await orders.nextNumber(cartId) });
   * }
   * redirectTo(order.payData); // a CreatedOrder: the gateway's answer, with payData
   * ```
   */
  reissueOrder(recovered: RecoveredOrder, params: UnifiedOrderParams, options?: RequestOptions): Promise<UnifiedOrderResult> {
    return this.#calls.reissue(recovered, params, options);
  }

  /**
   * Verifies a payment notification with this client's `secret`, `mchNo` and `appId`; see
   * {@link verifyNotification} for the rules, the inputs and the errors.
   *
   * @example
   * ```ts
   * const notification = await client.verifyNotification(request, { expect: { mchOrderNo: 'order-1001', amount: 1999, currency: 'USD' } });
   * await fulfilOnce(notification.idempotencyKey); // a paid order: the default expect.state
   * return notificationAckResponse();
   * ```
   */
  verifyNotification(input: NotificationInput, options?: ClientNotificationOptions<notify.VerifyNotificationOptions>): Promise<notify.PayOrderNotification> {
    return notify.verifyNotification(input, { ...options, ...this.#credentials });
  }

  /**
   * Verifies a settlement notification with this client's credentials; see {@link verifySettlementNotification}.
   *
   * @example
   * ```ts
   * const settlement = await client.verifySettlementNotification(req.body, { expect: { requestId: 'settle-2024-07' } });
   * ```
   */
  verifySettlementNotification(input: NotificationInput, options?: ClientNotificationOptions<notify.VerifyOptionsOf<'settlement'>>): Promise<notify.KindNotification<'settlement'>> {
    return notify.verifyKind('settlement', input, { ...options, ...this.#credentials });
  }

  /**
   * Verifies a refund notification with this client's credentials; see {@link verifyRefundNotification}. A refund's
   * state 2 is money back to the payer, never a payment: a payment notification is refused here.
   *
   * @example
   * ```ts
   * const refund = await client.verifyRefundNotification(req.body, { expect: { mchRefundNo: 'refund-1001', refundAmount: 400, currency: 'USD' } });
   * if (refund.state === Refunds.State.Succeeded) await markRefunded(refund.mchRefundNo);
   * ```
   */
  verifyRefundNotification(input: NotificationInput, options?: ClientNotificationOptions<notify.KindVerifyOptions<'refund'>>): Promise<notify.KindNotification<'refund'>> {
    return notify.verifyKind('refund', input, { ...options, ...this.#credentials });
  }

  /**
   * Verifies a transfer notification with this client's credentials; see {@link verifyTransferNotification}. A
   * transfer's state 2 is money that left you, never a payment: a payment notification is refused here.
   *
   * @example
   * ```ts
   * const transfer = await client.verifyTransferNotification(req.body, { expect: { mchOrderNo: 'payout-1001', amount: 1500, currency: 'CNY' } });
   * ```
   */
  verifyTransferNotification(input: NotificationInput, options?: ClientNotificationOptions<notify.KindVerifyOptions<'transfer'>>): Promise<notify.KindNotification<'transfer'>> {
    return notify.verifyKind('transfer', input, { ...options, ...this.#credentials });
  }

  /**
   * Runs an operation by name and returns its data together with what was seen on the wire: the HTTP
   * exchange, whether the signature verified, how many attempts it took and whether a create's result
   * was recovered by a lookup.
   *
   * @example
   * ```ts
   * const { data, http, signatureVerified, attempts } = await client.withResponse('query', { mchOrderNo: 'order-1001' });
   * console.log(http.status, http.headers.get('date'), signatureVerified, attempts);
   * ```
   */
  withResponse<Op extends OperationName>(operation: Op, params: ParamsOf<Op>, options?: RequestOptions): Promise<GatewayResponse<ResultOf<Op>>> {
    return this.#calls.withResponse(operation, params, options);
  }

  /**
   * The signed URL (`GET {baseUrl}/api/channelUserId/jump?...`) to send the payer's browser to for their id at the
   * channel (WeChat `openid`, Alipay user id), which a JSAPI or mini-program order needs: the gateway runs the
   * channel's login and sends the browser back to `redirectUrl` with `channelUserId`, `appId` and your `extParam`
   * appended, **unsigned** (read them with {@link GatewayClient.readChannelUserRedirect}). Nothing is sent and nothing
   * is stored: build a fresh URL (a fresh `reqTime`) per attempt. The URL never expires at the gateway and shows your
   * `mchNo` and `appId` (never the secret): give it to this payer only.
   *
   * @throws {@link GatewayValidationError} when `redirectUrl` is not an absolute http(s) URL (or already holds one of
   * the appended names), `extParam` holds `&`, `=` or `+` (it would come back split: encode it as base64url) or is
   * empty, or `ifCode` is not `AUTO`, `wxpay` or `alipay` (no URL is built)
   *
   * @example
   * ```ts
   * import { randomBytes } from 'node:crypto';
   *
   * const state = randomBytes(16).toString('base64url'); // keep it in this payer's server-side session
   * const jump = client.channelUserUrl({ ifCode: 'wxpay', redirectUrl: 'https://shop.example.com/pay/openid', extParam: state });
   * redirectTo(jump); // a 302 for the payer's browser
   * ```
   */
  channelUserUrl(params: ChannelUserUrlParams): string {
    return this.#channelUser.url(params);
  }

  /**
   * Reads the way back of {@link GatewayClient.channelUserUrl}: the `channelUserId`, `appId` and `extParam` the gateway
   * appended to your `redirectUrl` (in its query, or after its `#fragment`). **Unsigned**: anyone can open your
   * `redirectUrl` with any id. It is checked for what can be: this client's `appId`, each name once, an id's shape,
   * at most 8192 characters, and your session's state (`expectExtParam`), compared in constant time; without it
   * (`{ acceptAnySession: true }`, said explicitly) the return is bound to no session.
   * Use the id only to name who pays in a JSAPI or mini-program order; never to credit, refund or transfer money.
   *
   * @param url - the URL the payer came back to: absolute, or the path with its query (`request.url` of Express)
   * @throws {@link GatewayValidationError} when `channelUserId` is missing (the channel's exchange failed: send the
   * payer to a fresh `channelUserUrl`, do not create the order), `extParam` differs from `expectExtParam` or is
   * missing (not this session's return: discard it), neither `expectExtParam` nor `acceptAnySession` is given, `appId` is missing or another application's, a name is
   * repeated, or the URL is too long or no URL
   *
   * @example
   * ```ts
   * const expectExtParam = 'kX9m2PqR7vT1wYz3bC5dEg'; // the state given to channelUserUrl, from this payer's session (then delete it there)
   * const payer = client.readChannelUserRedirect(request.url, { expectExtParam });
   * await client.unifiedOrder({ ...order, wayCode: 'WX_JSAPI', channelExtra: { openid: payer.channelUserId } });
   * ```
   */
  readChannelUserRedirect(url: string | URL, options: ReadChannelUserRedirectOptions): UnsignedChannelUser {
    return this.#channelUser.read(url, options);
  }

  /** A summary without the secret, so the client can be logged safely. */
  toJSON(): Record<string, unknown> {
    return { ...this.#summary };
  }

  /** Node's `util.inspect` shows the same redacted summary. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `GatewayClient ${JSON.stringify(this.toJSON())}`;
  }
}

/**
 * Options of {@link GatewayClient.waitForRefund}: those of {@link WaitForOrderOptions}, with `until` a function of the refund.
 *
 * @example
 * ```ts
 * const options: GatewayClient.WaitForRefundOptions = { intervalMs: 2_000, timeout: 60_000 };
 * const refund = await client.waitForRefund({ mchRefundNo: 'refund-1001' }, options);
 * ```
 */
export interface WaitForRefundOptions extends Omit<WaitForOrderOptions, 'until'> {
  /** When the wait is over, instead of the default: the refund has left states 0 and 1 (2 refunded, 3 failed, 4 closed). */
  until?: ((refund: Refund) => boolean) | undefined;
}

/**
 * The types of the client's options, calls and answers: `GatewayClient.ConfirmOptions`, `GatewayClient.FetchLike`,
 * `GatewayClient.GatewayResponse`, `GatewayClient.HttpExchange`, `GatewayClient.WaitForOrderOptions`, `GatewayClient.WaitForRefundOptions`,
 * and the payer's channel user id's: `GatewayClient.ChannelUserUrlParams`, `GatewayClient.ReadChannelUserRedirectOptions`,
 * `GatewayClient.UnsignedChannelUser`.
 */
export declare namespace GatewayClient {
  export {
    type ChannelUserUrlParams as ChannelUserUrlParams,
    type ReadChannelUserRedirectOptions as ReadChannelUserRedirectOptions,
    type UnsignedChannelUser as UnsignedChannelUser,
    type ConfirmOptions as ConfirmOptions,
    type FetchLike as FetchLike,
    type GatewayResponse as GatewayResponse,
    type HttpExchange as HttpExchange,
    type WaitForOrderOptions as WaitForOrderOptions,
    type WaitForRefundOptions as WaitForRefundOptions,
  };
}
