/**
 * The division kind (the reference gateway's profit sharing, `shared/spec/division.md`), declared once: the rows of
 * `bindDivisionReceiver` and `executeDivision`, neither of which the gateway can de-duplicate or look up (`oneShot`).
 * Its schemas are beside it (`schemas.ts`, `share.ts`); it has no notification.
 *
 * @module
 */
import { divisionExecParamsSchema, divisionExecResultSchema, divisionReceiverBindParamsSchema, divisionReceiverBindResultSchema, mixedReceiversCaution } from './schemas.js';
import { maskPersonal } from '../../protocol/schemas/free-text.js';
import { defineOperation } from '../define-operation.js';
import { missingOrderId, orderNotFound } from '../refusals.js';


/** The division operations: rows of the operation table (`operations/table.ts`), checked by `defineOperation`. */
export const operations = {
  /**
   * Binds a division receiver into a receiver group (`POST /api/division/receiver/bind`); the method docs:
   * {@link GatewayClient.bindDivisionReceiver}.
   */
  bindDivisionReceiver: /* @__PURE__ */ defineOperation({
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
  executeDivision: /* @__PURE__ */ defineOperation({
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
