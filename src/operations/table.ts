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
import { GATEWAY_DEFAULT_EXPIRED_TIME_S, type PayOrder, type UnifiedOrderResult } from '../protocol/schemas/order.js';
import { refundOrderParamsSchema, refundOrderResultSchema, refundQueryParamsSchema, refundSchema, type Refund } from '../protocol/schemas/refund.js';
import type { SettlementRecord } from '../protocol/schemas/settlement.js';
import { divisionExecParamsSchema, divisionExecResultSchema, divisionReceiverBindParamsSchema, divisionReceiverBindResultSchema, mixedReceiversCaution } from '../protocol/schemas/division.js';
import { maskPersonal } from '../protocol/schemas/free-text.js';
import { transferOrderParamsSchema, transferOrderResultSchema, transferQueryParamsSchema, transferSchema, type Transfer } from '../protocol/schemas/transfer.js';

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
  /** Creates a payment order (`POST /api/pay/unifiedOrder`); the method docs: {@link GatewayClient.unifiedOrder}. */
  unifiedOrder: defineOperation({
    path: '/api/pay/unifiedOrder',
    get params() {
      return unifiedOrderParamsSchema();
    },
    get result() {
      return unifiedOrderResultSchema();
    },
    /** The gateway's own answer, marked apart from an order recovered by a lookup, with the validity sent (processor.track reads it). */
    answer: (data: z.output<ReturnType<typeof unifiedOrderResultSchema>>, params: z.output<ReturnType<typeof unifiedOrderParamsSchema>>): UnifiedOrderResult => ({
      ...data,
      recovered: false,
      sentExpiredTime: params.expiredTime ?? GATEWAY_DEFAULT_EXPIRED_TIME_S,
    }),
    retry: 'create',
    key: 'mchOrderNo',
    binds: ['mchOrderNo'],
    refusals: {
      duplicate_order: {
        match: /订单\[[^\]]*\]已存在|order (?:\[[^\]]*\] )?already exists|duplicate (?:mchOrderNo|(?:merchant )?order)/i,
        advice: 'an order with this mchOrderNo exists already: query it by mchOrderNo; a new mchOrderNo is for a new purchase only, never for this one',
      },
      amount_invalid: { match: /金额不能为空|amount (?:cannot be empty|is (?:invalid|required))|invalid amount/i, advice: 'the gateway refused the amount: send a whole number of minor units, at least 1' },
      way_code_unsupported: {
        match: /不支持的支付方式|unsupported (?:payment )?(?:way(?: ?code)?|method)|way ?code (?:is )?not supported/i,
        advice: 'this application cannot take payments with this wayCode: use a way code configured for it at the gateway',
      },
    },
    // Decided by the request's own fields, whatever exists under its key: a repeat is refused as duplicate_order.
    refusedBeforeRecord: ['amount_invalid', 'way_code_unsupported'],
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

  /** Reads an order (`POST /api/pay/query`); the method docs: {@link GatewayClient.query}. */
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

  /** Closes an unpaid order (`POST /api/pay/close`); the method docs: {@link GatewayClient.close}. */
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

  /** Declares a settlement address (`POST /api/channelbiz/coinpay/settleAddressApply`); the method docs: {@link GatewayClient.settleAddressApply}. */
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

  /** Requests a settlement (`POST /api/channelbiz/coinpay/settleRequest`); the method docs: {@link GatewayClient.settleRequest}. */
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
    // The destination's checks: the request's own address, whatever exists under its requestId.
    refusedBeforeRecord: ['address_not_approved', 'address_token_mismatch', 'address_not_found'],
    reconcile: {
      lookup: 'settleRequestGet',
      by: ['requestId'],
      toResult: (record: SettlementRecord) => pick(record, ['serverRequestId', 'status']),
      decisive: ['amount', 'tokenId', 'currency', 'address', 'addrServerRequestId'],
    },
    confirm: { lookup: 'settleRequestGet', by: ['requestId'], answered: ['serverRequestId'] },
    logged: ['serverRequestId', 'status'],
    summary: 'Settles available balance to a declared or given crypto address. Resolves to `{ serverRequestId, status }`; with `{ confirm: true }`, to the `Settlements.Settlement` read back and checked.',
  }),

  /** Reads a settlement (`POST /api/channelbiz/coinpay/settleRequestGet`); the method docs: {@link GatewayClient.settleRequestGet}. */
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
    summary: 'Reads a settlement by your `requestId`. Resolves to the `Settlements.Settlement` asked for.',
  }),

  /**
   * Refunds a paid order, wholly or in part (`POST /api/refund/refundOrder`). `mchRefundNo` is the key a lost answer
   * is looked up by; the method docs: {@link GatewayClient.refundOrder}.
   */
  refundOrder: defineOperation({
    path: '/api/refund/refundOrder',
    get params() {
      return refundOrderParamsSchema();
    },
    get result() {
      return refundOrderResultSchema();
    },
    retry: 'create',
    key: 'mchRefundNo',
    // The answer has no order id: it is bound by what it has.
    binds: ['mchRefundNo', 'refundAmount'],
    // In the reference server's order (docs/reference/refunds.md section 1).
    refusals: {
      missing_order_id: missingOrderId,
      order_not_found: orderNotFound,
      order_not_refundable: {
        match: /订单状态不正确|已全额退款|已完成全部订单退款|order (?:is )?not (?:paid|refundable)|(?:already )?fully refunded|cannot be refunded/i,
        advice: 'the order cannot be refunded: it is not paid (state 2), or it is refunded in full already (state 5); query it to learn its state',
      },
      refund_exceeds_refundable: {
        match: /超出.*可退款|exceeds? (?:the )?(?:refundable|remaining)|more than (?:is )?(?:left|refundable)/i,
        advice: 'no refund was made under this mchRefundNo, and this one is larger than what is left to refund of the order: refund at most the amount paid less what was refunded',
      },
      refund_in_progress: {
        match: /在途退款|refund (?:is )?(?:already )?in progress|refunding (?:in progress|already)/i,
        advice: 'another refund of this order is still in progress (state 1): try again later with the same mchRefundNo, never under a new one',
      },
      duplicate_refund: {
        match: /退款订单号\[[^\]]*\]已存在|mchRefundNo (?:\[[^\]]*\] )?already exists|duplicate (?:mchRefundNo|refund)|refund (?:\[[^\]]*\] )?already exists/i,
        advice: 'a refund with this mchRefundNo exists already: look it up (refundQuery by mchRefundNo); never refund the same thing under a new mchRefundNo',
      },
      refund_unsupported: {
        match: /不支持退款|(?:channel|interface) (?:does not support|cannot) refunds?|refunds? (?:are |is )?not supported/i,
        advice: "this order's payment channel cannot refund through the gateway: refund the payer another way",
      },
    },
    // The order's existence first, the channel last (after the duplicate check): neither can be caused by a refund
    // under this mchRefundNo. The state and sum checks and the duplicate come before it, so a repeat of a refund
    // made is refused by them: those are looked up by mchRefundNo.
    refusedBeforeRecord: ['missing_order_id', 'order_not_found', 'refund_unsupported'],
    reconcile: {
      lookup: 'refundQuery',
      by: ['mchRefundNo'],
      toResult: (refund: Refund) => pick(refund, ['refundOrderId', 'mchRefundNo', 'payAmount', 'refundAmount', 'state', 'channelOrderNo', 'errCode', 'errMsg']),
      decisive: ['refundAmount', 'currency', 'payOrderId', 'mchOrderNo'],
      // The record names its order by payOrderId only: a refund asked by mchOrderNo is compared with the payOrderId
      // a signed query of that order gives (bound to the mchOrderNo asked), never taken on its number alone.
      resolve: { lookup: 'query', by: ['mchOrderNo'], gives: ['payOrderId'] },
    },
    logged: ['refundOrderId', 'state'],
    summary: 'Refunds a paid order, wholly or in part. Resolves to the `Refunds.CreateResult` (its `state` may be final already), or after a lost answer the refund found by `mchRefundNo`: never refunded twice.',
  }),

  /** Reads a refund by `mchRefundNo` or `refundOrderId` (`POST /api/refund/query`); the method docs: {@link GatewayClient.refundQuery}. */
  refundQuery: defineOperation({
    path: '/api/refund/query',
    get params() {
      return refundQueryParamsSchema();
    },
    get result() {
      return refundSchema();
    },
    retry: 'read',
    binds: ['mchRefundNo', 'refundOrderId'],
    refusals: {
      refund_not_found: {
        match: /订单不存在|refund(?: order)? (?:does not exist|not found)|no such refund|order does not exist/i,
        advice: 'the gateway has no such refund for this merchant: check mchRefundNo or refundOrderId (a refund whose create was lost and is not found was never made)',
      },
    },
    notFound: ['refund_not_found'],
    logged: ['refundOrderId', 'state'],
    summary: 'Reads a refund by `mchRefundNo` or `refundOrderId`. Resolves to the `Refunds.Refund` asked for, with its order and state.',
  }),

  /**
   * Pays out to a payee's account (`POST /api/transferOrder`). `mchOrderNo`, unique among your transfers, is the key a
   * lost answer is looked up by; the method docs: {@link GatewayClient.transferOrder}.
   */
  transferOrder: defineOperation({
    path: '/api/transferOrder',
    get params() {
      return transferOrderParamsSchema();
    },
    get result() {
      return transferOrderResultSchema();
    },
    retry: 'create',
    key: 'mchOrderNo',
    // The payee's account is not bound: a mismatch would print it.
    binds: ['mchOrderNo', 'amount'],
    // In the reference server's order (shared/spec/transfers.md section 1): the duplicate first, then steps 3-7. The SDK
    // refuses before sending what steps 0 and 2 check (an amount below 1, a notifyUrl not http(s)): parameter_invalid.
    refusals: {
      duplicate_transfer: {
        match: /商户订单\[[^\]]*\]已存在/,
        advice: 'a transfer with this mchOrderNo exists (it may have paid out): look it up; never pay it again under a new mchOrderNo',
      },
      app_config_unavailable: { match: /获取商户应用信息失败/, advice: 'nothing was transferred; retry later with the same mchOrderNo' },
      channel_not_configured: { match: /应用未开通此接口配置/, advice: 'nothing was transferred: this application has no configuration for this ifCode' },
      transfer_channel_unknown: { match: /无此转账通道接口/, advice: 'nothing was transferred: the gateway cannot transfer by this ifCode' },
      entry_type_unsupported: { match: /该接口不支持该入账方式/, advice: 'nothing was transferred: this channel cannot pay to this entryType' },
      transfer_channel_refused: { match: /暂不支持转账业务/, advice: "nothing was transferred: the channel's own check refused it" },
    },
    // Decided after the duplicate check (so no transfer is under this mchOrderNo) and before the transfer is stored.
    // A system error may come after it is stored (state 0): any other refusal is looked up by mchOrderNo.
    refusedBeforeRecord: ['app_config_unavailable', 'channel_not_configured', 'transfer_channel_unknown', 'entry_type_unsupported', 'transfer_channel_refused'],
    reconcile: {
      lookup: 'transferQuery',
      by: ['mchOrderNo'],
      // The record has every field of the answer: it is the result as found (with the query's fields besides).
      toResult: (transfer: Transfer) => transfer,
      decisive: ['amount', 'currency', 'ifCode', 'entryType', 'accountNo'],
    },
    logged: ['transferId', 'state'],
    summary: 'Pays out to a payee. Resolves to the `Transfers.CreateResult`, or the transfer found by `mchOrderNo`: never paid twice.',
  }),

  /** Reads a transfer by `mchOrderNo` or `transferId` (`POST /api/transfer/query`); the method docs: {@link GatewayClient.transferQuery}. */
  transferQuery: defineOperation({
    path: '/api/transfer/query',
    get params() {
      return transferQueryParamsSchema();
    },
    get result() {
      return transferSchema();
    },
    retry: 'read',
    binds: ['mchOrderNo', 'transferId'],
    refusals: {
      transfer_not_found: { match: /订单不存在|transfer (?:does not exist|not found)/i, advice: 'the gateway has no such transfer for this merchant: check mchOrderNo or transferId' },
    },
    notFound: ['transfer_not_found'],
    logged: ['transferId', 'state'],
    summary: 'Reads a transfer by `mchOrderNo` or `transferId`. Resolves to the `Transfers.Transfer`.',
  }),

  /**
   * Binds a division receiver into a receiver group (`POST /api/division/receiver/bind`); the method docs:
   * {@link GatewayClient.bindDivisionReceiver}.
   */
  bindDivisionReceiver: defineOperation({
    path: '/api/division/receiver/bind',
    get params() {
      return divisionReceiverBindParamsSchema();
    },
    get result() {
      return divisionReceiverBindResultSchema();
    },
    // The gateway has no duplicate check and no lookup: a bind sent again stores the account a second time.
    retry: 'create',
    // The answer echoes the request (copied from the record made): another request's answer is refused. accNo is
    // personal data: a mismatch names it masked.
    binds: ['ifCode', 'receiverGroupId', 'accType', 'accNo', 'relationType', 'divisionProfit'],
    // In the reference server's order (shared/spec/division.md section 1), after its field rules and shared checks.
    refusals: {
      account_type_invalid: { match: /分账接收账号类型设置有误/, advice: 'nothing was bound: accType must be 0 (a person) or 1 (a merchant)' },
      app_config_unavailable: { match: /获取商户应用信息失败/, advice: 'nothing was bound; bind again later' },
      channel_not_configured: { match: /商户应用的支付配置不存在或已关闭/, advice: 'nothing was bound: this application has no enabled configuration for this ifCode' },
      receiver_group_not_found: {
        match: /商户分账账号组不存在/,
        advice: 'nothing was bound: the gateway has no receiver group with this receiverGroupId for this merchant; create groups in the merchant portal (there is no API for them)',
      },
      division_profit_invalid: { match: /账号分账比例有误/, advice: 'nothing was bound: divisionProfit must be a decimal above 0 and at most 1' },
      division_channel_unsupported: { match: /系统不支持该分账接口/, advice: 'nothing was bound: the gateway cannot divide through this ifCode (wxpay and alipay can)' },
    },
    // All decided before the channel is called and anything is stored. A system error may come after the channel
    // bound the account (its database failing): the outcome is then unknown.
    refusedBeforeRecord: ['account_type_invalid', 'app_config_unavailable', 'channel_not_configured', 'receiver_group_not_found', 'division_profit_invalid', 'division_channel_unsupported'],
    oneShot: {
      named: ['receiverGroupId'],
      findOut: (p) =>
        `the receiver list of group ${p.receiverGroupId} in the merchant portal shows whether the account (${String(p.ifCode)}, ${maskPersonal(p.accNo)}) was bound; bind it again only if it is not there: the gateway stores every bind as a new receiver, and a group division pays each`,
    },
    logged: ['receiverId', 'bindState'],
    summary: 'Binds an account at the channel as a division receiver of one of your groups. Resolves to the `Divisions.BindResult`: `bindState` 1 with its `receiverId`, or 0 (the channel refused, nothing stored). Never sent twice.',
  }),

  /**
   * Divides a paid order among receivers, once (`POST /api/division/exec`); the method docs:
   * {@link GatewayClient.executeDivision}.
   */
  executeDivision: defineOperation({
    path: '/api/division/exec',
    get params() {
      return divisionExecParamsSchema();
    },
    get result() {
      return divisionExecResultSchema();
    },
    // Once per order, and no lookup: a second exec is refused (当前订单状态不支持分账) without a word on the first.
    retry: 'create',
    // The answer is { state, channelBatchOrderId, errCode, errMsg }: nothing of the request to bind.
    binds: [],
    // In the reference server's order (shared/spec/division.md section 2, steps 2-9).
    refusals: {
      missing_order_id: missingOrderId,
      order_not_found: orderNotFound,
      division_not_allowed: {
        match: /当前订单状态不支持分账/,
        advice:
          "this call divided nothing: the order is not paid, was not created with divisionMode 2, or was divided already (perhaps by an earlier executeDivision whose answer was lost). The gateway does not say which: the order's division records in the merchant portal do; never call executeDivision for it again to find out",
      },
      receiver_id_missing: { match: /receiverId 和 与receiverGroupId 必填一项/, advice: 'nothing was divided: each receivers element needs receiverId or receiverGroupId' },
      division_profit_invalid: { match: /分账比例不得(?:小于0%|高于100%)/, advice: 'nothing was divided: each divisionProfit must be a decimal from 0 to 1' },
      receiver_unavailable: {
        match: /分账\[用户\]中包含不存在或渠道不可用账号/,
        advice: "nothing was divided: a receiverId is unknown, paused, or bound for another application or channel than the order's; check the receivers in the merchant portal",
      },
      receiver_group_unavailable: { match: /分账\[账号组\]中包含不存在或不可用组/, advice: 'nothing was divided: a receiverGroupId is not one of your groups' },
      app_config_unavailable: { match: /获取商户应用信息失败/, advice: 'nothing was divided; try again later' },
      division_contended: {
        match: /分账状态不正确|更新支付订单为分账处理中异常/,
        advice: "this call divided nothing: another division of the order ran at the same moment. Its outcome is in the order's division records in the merchant portal; never call executeDivision for it again to find out",
      },
    },
    // Decided before the order's division state moves (steps 2-9): this call changed nothing. A system error may come
    // after the division started: the outcome is then unknown.
    refusedBeforeRecord: [
      'missing_order_id',
      'order_not_found',
      'division_not_allowed',
      'receiver_id_missing',
      'division_profit_invalid',
      'receiver_unavailable',
      'receiver_group_unavailable',
      'app_config_unavailable',
      'division_contended',
    ],
    oneShot: {
      named: ['payOrderId', 'mchOrderNo'],
      findOut: (p) =>
        `the division records of order ${p.payOrderId === undefined ? `mchOrderNo '${p.mchOrderNo}'` : `payOrderId '${p.payOrderId}'`} in the merchant portal show whether it was divided and how (a failed division is resent there); never call executeDivision for it again: the gateway refuses a second one without a word on the first`,
    },
    caution: mixedReceiversCaution,
    logged: ['state'],
    summary: 'Divides a paid order (`divisionMode` 2) among receivers, once: a second call is refused. Resolves to the `Divisions.ExecResult`, whose `state` 3 is accepted, result not known yet. Never sent twice.',
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
        readonly answer: (data: never, params: never) => infer Result;
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
