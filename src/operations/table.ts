/**
 * The operations of the gateway, each declared once. Everything else is derived from this table: the
 * client's methods and their types (each entry's TSDoc is its method's documentation), the mock gateway's
 * routing and field binding, the README's operation table and the public-surface test. Adding an
 * operation: CONTRIBUTING.md.
 *
 * @module
 */
import type * as z from 'zod/mini';
import { defineOperation, pick, type OperationDefinition } from './define.js';
import { duplicateRequest, missingOrderId, orderNotFound } from './refusals.js';
import { PayOrderState } from '../protocol/schemas/enums.js';
import {
  closeParamsSchema,
  closeResultSchema,
  payOrderSchema,
  queryParamsSchema,
  unifiedOrderParamsSchema,
  unifiedOrderResultSchema,
} from '../protocol/schemas/order.js';
import {
  settleAddressApplyParamsSchema,
  settlementRecordSchema,
  settlementResultSchema,
  settleRequestGetParamsSchema,
  settleRequestParamsSchema,
} from '../protocol/schemas/settlement.js';
import type { NamedInput, NamedOutput } from '../protocol/schemas/fields.js';
import type { PayOrder, UnifiedOrderResult } from '../protocol/schemas/order.js';
import type { SettlementRecord } from '../protocol/schemas/settlement.js';

/**
 * The operation table: each operation's path, schemas, retry class, key, binding and reconciliation.
 *
 * @example
 * ```ts
 * import { operations } from '../operations/table.js'; // internal: the SDK's own code, scripts and the mock
 * operations.query.path;          // '/api/pay/query'
 * operations.unifiedOrder.retry;  // 'create'
 * operations.unifiedOrder.key;    // 'mchOrderNo'
 * ```
 */
// Each row reads its schemas through getters: a schema is built on the first call that needs it
// (protocol/schemas/lazy.ts), so a cold start builds only its first operation's.
export const operations = {
  /**
   * Creates a payment order (`POST /api/pay/unifiedOrder`) and returns the payment parameters. A channel
   * failure is a result (`orderState` 3 with `errCode`/`errMsg`), not an exception. `mchOrderNo` is your
   * idempotency key: the gateway refuses a second order with it. A create is never sent twice blindly:
   * after an ambiguous failure the order is looked up by `mchOrderNo`, and a recovered result has no
   * `payData` (the query does not carry it).
   *
   * @throws {@link GatewayValidationError} for invalid parameters (nothing is sent)
   * @throws {@link GatewayApiError} when the gateway refuses, e.g. a duplicate `mchOrderNo` (`reason` says which)
   * @throws {@link GatewayOutcomeUnknownError} when the order may exist and no lookup could tell in time (`key` to reconcile by)
   * @throws {@link GatewayReconciliationMismatchError} when the lookup finds another order under your `mchOrderNo`
   * @throws {@link GatewayConnectionError} when every attempt was refused before reaching the gateway (nothing was created)
   * @throws {@link GatewayTimeoutError} when `totalTimeout` ran out before anything reached the gateway
   * @throws {@link GatewayAbortError} when your `signal` aborted before anything reached the gateway
   * @throws {@link GatewayHttpStatusError} for a redirect (never followed: check `baseUrl`)
   *
   * @example
   * ```ts
   * const result = await client.unifiedOrder({
   *   mchOrderNo: 'order-1001', wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD',
   *   subject: 'T-shirt', body: 'Blue T-shirt', channelExtra: { payDataType: 'codeImgUrl' },
   * });
   * if (result.orderState === PayOrderState.Failed) console.warn(result.errCode, result.errMsg);
   * else showQrImage(result.payData);
   * ```
   */
  unifiedOrder: defineOperation({
    path: '/api/pay/unifiedOrder',
    get params() {
      return unifiedOrderParamsSchema();
    },
    get result() {
      return unifiedOrderResultSchema();
    },
    /** The gateway's own answer, marked apart from an order recovered by a lookup. */
    answer: (data: z.output<ReturnType<typeof unifiedOrderResultSchema>>): UnifiedOrderResult => ({ ...data, recovered: false }),
    retry: 'create',
    key: 'mchOrderNo',
    binds: ['mchOrderNo'],
    refusals: {
      duplicate_order: {
        match: /订单\[[^\]]*\]已存在|order (?:\[[^\]]*\] )?already exists|duplicate (?:mchOrderNo|(?:merchant )?order)/i,
        advice: 'an order with this mchOrderNo already exists: query it by mchOrderNo instead of creating it again, or give a new order a new mchOrderNo',
      },
      amount_invalid: { match: /金额不能为空|amount (?:cannot be empty|is (?:invalid|required))|invalid amount/i, advice: 'the gateway refused the amount: send a whole number of minor units, at least 1' },
      way_code_unsupported: {
        match: /不支持的支付方式|unsupported (?:payment )?(?:way(?: ?code)?|method)|way ?code (?:is )?not supported/i,
        advice: 'this application cannot take payments with this wayCode: use a way code configured for it at the gateway',
      },
    },
    // A recovered result has payOrderId, mchOrderNo, orderState, errCode, errMsg: the query has no payData.
    reconcile: {
      lookup: 'query',
      by: ['mchOrderNo'],
      toResult: (order: PayOrder) => ({ ...pick(order, ['payOrderId', 'mchOrderNo', 'errCode', 'errMsg']), orderState: order.state, recovered: true }),
      decisive: ['amount', 'currency', 'wayCode'],
    },
    logged: ['payOrderId', 'orderState'],
    summary: 'Creates a payment order. Resolves to a `CreatedOrder` (`recovered: false`, with `payData`) or, after a lost answer, the `RecoveredOrder` found by `mchOrderNo` (no `payData`: see `reissueOrder`).',
  }),

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
   * @throws {@link GatewayConnectionError} when the gateway could not be reached after the retries
   * @throws {@link GatewayTimeoutError} when an attempt or the call ran out of time (`timeout`, `totalTimeout`)
   * @throws {@link GatewayAbortError} when your `signal` aborted
   *
   * @example
   * ```ts
   * const order = await client.query({ mchOrderNo: 'order-1001' });
   * if (order.state === PayOrderState.Succeeded) fulfil(order);
   * ```
   */
  query: defineOperation({
    path: '/api/pay/query',
    get params() {
      return queryParamsSchema();
    },
    get result() {
      return payOrderSchema();
    },
    retry: 'read',
    binds: ['payOrderId', 'mchOrderNo'],
    refusals: { missing_order_id: missingOrderId, order_not_found: orderNotFound },
    notFound: ['order_not_found'],
    logged: ['payOrderId', 'state'],
    summary: 'Reads an order by `payOrderId` or `mchOrderNo`. Resolves to the `PayOrder` asked for, with its on-chain transactions (amounts as exact decimal strings).',
  }),

  /**
   * Closes an unpaid order (`POST /api/pay/close`); resolves when the gateway accepted the close. Only states
   * 0 and 1 can be closed; a paying order may still become paid. The gateway answers an empty `data`, which
   * proves nothing about the order (the reference answers it even when a payer moved the order to 1 meanwhile
   * and nothing was closed): with `{ confirm: true }` the order is queried by the same ids afterwards and the
   * call resolves to it only in a final state (6, or 2 when the payer paid first); an order still 0 or 1 is
   * a {@link GatewayOrderNotFinalError}. A repeat that finds the order already closed is a success.
   *
   * @throws {@link GatewayOrderNotFinalError} with `confirm`, when the order read back is still 0 or 1: wait for its final state
   * @throws {@link GatewayApiError} when the order cannot be closed (`order_not_closable`, `order_not_found`)
   * @throws {@link GatewayEmptyResponseError} when the channel refused the close (the gateway sends an empty body)
   * @throws {@link GatewayValidationError} for invalid ids (nothing is sent)
   * @throws {@link GatewayResponseError} when the answer is unusable after the retries (see {@link GatewayClient.query})
   * @throws {@link GatewayConnectionError} when the gateway could not be reached after the retries
   * @throws {@link GatewayTimeoutError} when an attempt or the call ran out of time
   * @throws {@link GatewayAbortError} when your `signal` aborted
   *
   * @example
   * ```ts
   * await client.close({ mchOrderNo: 'order-1001' });
   * const order = await client.close({ mchOrderNo: 'order-1002' }, { confirm: true });
   * if (order.state === PayOrderState.Succeeded) fulfil(order); // paid just before the close
   * ```
   */
  close: defineOperation({
    path: '/api/pay/close',
    get params() {
      return closeParamsSchema();
    },
    get result() {
      return closeResultSchema();
    },
    retry: 'idempotent',
    resolves: 'nothing',
    refusals: {
      missing_order_id: missingOrderId,
      order_not_closable: { match: /不可关闭|cannot be closed|not closable/i, advice: 'the order cannot be closed in its state (only unpaid orders, states 0 and 1, can be): query it to learn its state' },
      order_not_found: orderNotFound,
    },
    // The gateway answers an empty data: nothing to bind; confirm queries the order by the same ids.
    binds: [],
    emptyAnswer: 'The gateway does this when the channel refuses the close: query the order to learn its state.',
    // A refused close of an order already closed is a repeat that already took effect. Its success answer is
    // no proof: the reference answers it when a payer moved the order to 1 meanwhile, so confirm asks a final state.
    confirm: {
      lookup: 'query',
      by: ['payOrderId', 'mchOrderNo'],
      done: (order: PayOrder) => order.state === PayOrderState.Closed,
      settled: (order: PayOrder) => order.state !== PayOrderState.Generated && order.state !== PayOrderState.Paying,
    },
    summary: 'Closes an unpaid order (state 0 or 1). Resolves to nothing; with `{ confirm: true }`, to the `PayOrder` queried afterwards, which must be final (not 0 or 1).',
  }),

  /**
   * Declares a crypto address to receive settlements (`POST /api/channelbiz/coinpay/settleAddressApply`). The
   * platform reviews it; once approved, settle to it with `addrServerRequestId: result.serverRequestId`. The
   * gateway offers no lookup for declarations: an ambiguous failure ends in {@link GatewayOutcomeUnknownError}.
   *
   * @throws {@link GatewayValidationError} for invalid parameters (nothing is sent)
   * @throws {@link GatewayApiError} when the gateway refuses, e.g. a duplicate `requestId`
   * @throws {@link GatewayOutcomeUnknownError} after an ambiguous failure (`key` is your `requestId`)
   * @throws {@link GatewayConnectionError} when every attempt was refused before reaching the gateway
   * @throws {@link GatewayTimeoutError} when `totalTimeout` ran out before anything reached the gateway
   * @throws {@link GatewayAbortError} when your `signal` aborted before anything reached the gateway
   *
   * @example
   * ```ts
   * const { serverRequestId, status } = await client.settleAddressApply({
   *   requestId: 'addr-2024-001', tokenId: 'TRON_USDT', address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', remark: 'treasury',
   * });
   * ```
   */
  settleAddressApply: defineOperation({
    path: '/api/channelbiz/coinpay/settleAddressApply',
    get params() {
      return settleAddressApplyParamsSchema();
    },
    get result() {
      return settlementResultSchema();
    },
    retry: 'create',
    key: 'requestId',
    // The answer is { serverRequestId, status }: nothing of the request to bind, and no lookup.
    binds: [],
    refusals: { duplicate_request: duplicateRequest },
    logged: ['serverRequestId', 'status'],
    summary: 'Declares a crypto address for settlements, reviewed by the platform. Resolves to `{ serverRequestId, status }`.',
  }),

  /**
   * Requests a settlement of available balance (`POST /api/channelbiz/coinpay/settleRequest`) to a declared
   * address (`addrServerRequestId`) or a given one (`address`): exactly one of the two. Only
   * `payoutChannel: 'Crypto'` and `currency: 'USD'` are supported. `requestId` is your idempotency key. The
   * answer, `{ serverRequestId, status }`, repeats nothing of the request: with `{ confirm: true }` the record
   * is read back by `requestId` and must carry the `serverRequestId` answered and every field sent that it
   * shows; the call then resolves to the {@link SettlementRecord} (for a declared address, compare its
   * `address` with the one you declared).
   *
   * @throws {@link GatewayValidationError} for invalid parameters (nothing is sent)
   * @throws {@link GatewayApiError} when the gateway refuses, e.g. an unapproved address or a duplicate `requestId`
   * @throws {@link GatewayOutcomeUnknownError} when the settlement may exist and no lookup could tell (`key` is your `requestId`)
   * @throws {@link GatewayReconciliationMismatchError} when the record under your `requestId` is another settlement
   * @throws {@link GatewayResponseMismatchError} with `confirm`, when the record read back is not the one answered
   * @throws {@link GatewayConnectionError} when every attempt was refused before reaching the gateway
   * @throws {@link GatewayTimeoutError} when `totalTimeout` ran out before anything reached the gateway
   * @throws {@link GatewayAbortError} when your `signal` aborted before anything reached the gateway
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
  settleRequest: defineOperation({
    path: '/api/channelbiz/coinpay/settleRequest',
    get params() {
      return settleRequestParamsSchema();
    },
    get result() {
      return settlementResultSchema();
    },
    retry: 'create',
    key: 'requestId',
    // The answer is { serverRequestId, status }: nothing to bind; confirm reads the record by requestId.
    binds: [],
    refusals: {
      duplicate_request: duplicateRequest,
      address_not_approved: {
        match: /地址未审核通过|address (?:is )?(?:not (?:yet )?approved|under review|rejected)/i,
        advice: 'the declared address is not approved: the platform has not reviewed it yet, or rejected it; settle to it once approved, or declare another address',
      },
      address_token_mismatch: {
        match: /地址币种不匹配|address (?:is )?for another token|address token (?:does not match|mismatch)/i,
        advice: 'the declared address was declared for another tokenId: settle with the token it was declared for, or declare this address for this token',
      },
      address_not_found: {
        match: /地址不存在|(?:declared )?address (?:does not exist|not found)|no (?:such |declared )?address/i,
        advice: 'the gateway has no declared address with this addrServerRequestId for this merchant: use the serverRequestId that settleAddressApply answered',
      },
    },
    reconcile: {
      lookup: 'settleRequestGet',
      by: ['requestId'],
      toResult: (record: SettlementRecord) => pick(record, ['serverRequestId', 'status']),
      decisive: ['amount', 'tokenId', 'currency', 'address', 'addrServerRequestId'],
    },
    confirm: { lookup: 'settleRequestGet', by: ['requestId'], answered: ['serverRequestId'] },
    logged: ['serverRequestId', 'status'],
    summary: 'Settles available balance to a declared or given crypto address. Resolves to `{ serverRequestId, status }`; with `{ confirm: true }`, to the `SettlementRecord` read back and checked.',
  }),

  /**
   * Reads a settlement request by your `requestId` (`POST /api/channelbiz/coinpay/settleRequestGet`). The
   * record must be the one asked for. `status` values are not defined by the spec (see {@link SettlementResult}).
   *
   * @throws {@link GatewayApiError} when the gateway refuses, e.g. `record_not_found`
   * @throws {@link GatewayResponseMismatchError} when the signed answer is another request's record
   * @throws {@link GatewayValidationError} for an invalid `requestId` (nothing is sent)
   * @throws {@link GatewayResponseError} when the answer is unusable after the retries (see {@link GatewayClient.query})
   * @throws {@link GatewayConnectionError} when the gateway could not be reached after the retries
   * @throws {@link GatewayTimeoutError} when an attempt or the call ran out of time
   * @throws {@link GatewayAbortError} when your `signal` aborted
   *
   * @example
   * ```ts
   * const record = await client.settleRequestGet({ requestId: 'settle-2024-07' });
   * console.log(record.status, record.amount);
   * ```
   */
  settleRequestGet: defineOperation({
    path: '/api/channelbiz/coinpay/settleRequestGet',
    get params() {
      return settleRequestGetParamsSchema();
    },
    get result() {
      return settlementRecordSchema();
    },
    retry: 'read',
    binds: ['requestId'],
    refusals: {
      record_not_found: { match: /记录不存在|(?:record|settlement|request) (?:does not exist|not found)|no (?:such )?(?:record|settlement)/i, advice: 'the gateway has no such record: check requestId' },
    },
    notFound: ['record_not_found'],
    logged: ['serverRequestId', 'status'],
    summary: 'Reads a settlement by your `requestId`. Resolves to the `SettlementRecord` asked for.',
  }),
};

/**
 * The name of an operation: a key of the SDK's operation table and the name of its {@link GatewayClient} method.
 *
 * @example
 * ```ts
 * import type { OperationName } from 'payment-gateway-sdk';
 *
 * // Every call's outcome, counted by operation (e.g. from a GatewayError's `operation`).
 * const outcomes = new Map<OperationName, number>();
 * const count = (operation: OperationName) => outcomes.set(operation, (outcomes.get(operation) ?? 0) + 1);
 * count('unifiedOrder');
 * ```
 */
export type OperationName = keyof typeof operations;

/**
 * What an operation's method takes: the input type of its parameter schema.
 *
 * @example
 * ```ts
 * import type { ParamsOf } from './table.js'; // internal: not exported by the package
 *
 * const lookup: ParamsOf<'query'> = { mchOrderNo: 'order-1001' }; // the same as QueryParams
 * ```
 */
export type ParamsOf<Op extends OperationName> = NamedInput<(typeof operations)[Op]['params']>;

/**
 * What an operation's method resolves to: its response's typed `data`, or nothing where the table says so (close).
 *
 * @example
 * ```ts
 * import type { ResultOf } from './table.js'; // internal: not exported by the package
 *
 * const keep = (order: ResultOf<'query'>) => order.state; // the same as PayOrder
 * ```
 */
export type ResultOf<Op extends OperationName> = (typeof operations)[Op] extends { readonly resolves: 'nothing' }
  ? void
  : (typeof operations)[Op] extends {
        /** The operation's own result, where it differs from `data`. */
        readonly answer: (data: never) => infer Result;
      }
    ? Result
    : NamedOutput<(typeof operations)[Op]['result']>; // the named results carry NotUniquelySigned themselves

/**
 * The record `confirm: true` resolves to: the data of the operation's confirming lookup.
 *
 * @example
 * ```ts
 * import type { ConfirmedOf } from './table.js'; // internal: not exported by the package
 *
 * const closed = (order: ConfirmedOf<'close'>) => order.state === PayOrderState.Closed; // a PayOrder
 * ```
 */
export type ConfirmedOf<Op extends OperationName> = (typeof operations)[Op] extends { readonly confirm: { readonly lookup: infer Lookup extends OperationName } } ? NamedOutput<(typeof operations)[Lookup]['result']> : never;

/** The names of the operations, in the table's order. */
export const OPERATION_NAMES = Object.keys(operations) as OperationName[];

/** An operation's declaration as generic code reads it (the table itself keeps each entry's literal types). */
export function definitionOf(operation: OperationName): OperationDefinition<OperationName> {
  return operations[operation];
}
