/**
 * What a gateway refusal means, read from its `code` and `msg`. The reference server answers in Chinese
 * (docs/reference/protocol.md section 5); a deployment may answer in English, so each rule knows both, case-insensitively.
 *
 * @module
 */

/**
 * Why the gateway refused a request, as {@link GatewayApiError.reason} reports it: a value a program can
 * branch on, whatever language the gateway answered in. `unknown` is a refusal none of the others describe
 * (read {@link GatewayApiError.msg}).
 *
 * | reason | the gateway said (reference text / English) |
 * |---|---|
 * | `signature_invalid` | `验签失败` / signature check failed |
 * | `merchant_unknown` | `商户或商户应用不存在` / merchant or app does not exist |
 * | `app_mismatch` | `参数appId与商户号不匹配` / appId does not match mchNo |
 * | `duplicate_order` | `商户订单[…]已存在` / merchant order […] already exists |
 * | `duplicate_request` | `请求[…]已存在` / request […] already exists |
 * | `order_not_found` | `订单不存在` / order does not exist |
 * | `record_not_found` | `结算记录不存在` / settlement or record not found |
 * | `address_not_found` | `结算地址不存在` / no declared address with this `addrServerRequestId` |
 * | `address_not_approved` | `结算地址未审核通过` / the declared address is not approved (under review or rejected) |
 * | `address_token_mismatch` | `结算地址币种不匹配` / the declared address is for another token |
 * | `missing_order_id` | `mchOrderNo 和 payOrderId 不能同时为空` / mchOrderNo and payOrderId cannot both be empty |
 * | `order_not_closable` | `当前订单不可关闭` / the order cannot be closed |
 * | `amount_invalid` | `支付金额不能为空` / amount cannot be empty |
 * | `way_code_unsupported` | `不支持的支付方式` / unsupported way code |
 * | `parameter_invalid` | code 11, `参数有误[…]`, `…不能为空` / invalid parameter, … is required |
 * | `system_error` | code 10, `系统异常` / system error |
 * | `database_error` | code 12 / database error |
 * | `unknown` | anything else |
 *
 * @example
 * ```ts
 * import { GatewayApiError, type GatewayApiErrorReason } from 'payment-gateway-sdk';
 *
 * const retryLater: GatewayApiErrorReason[] = ['system_error', 'database_error'];
 * try {
 *   await client.unifiedOrder(order);
 * } catch (error) {
 *   if (error instanceof GatewayApiError && error.reason === 'duplicate_order') return client.query({ mchOrderNo: order.mchOrderNo });
 *   if (error instanceof GatewayApiError && retryLater.includes(error.reason)) return scheduleRetry(order);
 *   throw error;
 * }
 * ```
 */
export type GatewayApiErrorReason =
  | 'signature_invalid'
  | 'merchant_unknown'
  | 'app_mismatch'
  | 'duplicate_order'
  | 'duplicate_request'
  | 'order_not_found'
  | 'record_not_found'
  | 'address_not_found'
  | 'address_not_approved'
  | 'address_token_mismatch'
  | 'missing_order_id'
  | 'order_not_closable'
  | 'amount_invalid'
  | 'way_code_unsupported'
  | 'parameter_invalid'
  | 'system_error'
  | 'database_error'
  | 'unknown';

// First match wins: the specific rules come before the broad ones (a duplicate request whose id contains
// "order", an unknown merchant whose text contains 不存在, a parameter text that contains 不支持). Words are
// matched as the gateways write them, one space apart.
const RULES: readonly (readonly [GatewayApiErrorReason, RegExp])[] = [
  ['signature_invalid', /验签失败|sign(?:ature)? (?:check|verification) failed|invalid sign|signature (?:is )?(?:invalid|mismatch|does not match)/i],
  ['merchant_unknown', /商户(?:或商户应用)?不存在|merchant(?: or (?:merchant )?app(?:lication)?| app(?:lication)?)? (?:does not exist|not found)|unknown merchant/i],
  ['app_mismatch', /appId ?与商户号不匹配|appId (?:does not match|mismatch|does not belong)/i],
  ['duplicate_request', /请求\[[^\]]*\]已存在|request ?(?:id ?)?\[[^\]]*\] ?already exists|duplicate request/i],
  ['duplicate_order', /订单\[[^\]]*\]已存在|order (?:\[[^\]]*\] )?already exists|duplicate (?:mchOrderNo|(?:merchant )?order)/i],
  ['missing_order_id', /mchOrderNo ?和 ?payOrderId ?不能同时为空|(?:mchOrderNo|payOrderId) (?:and|or) (?:mchOrderNo|payOrderId) (?:cannot|must not) (?:both )?be empty/i],
  ['order_not_closable', /不可关闭|cannot be closed|not closable/i],
  ['order_not_found', /订单不存在|order (?:does not exist|not found)|no such order/i],
  ['address_not_approved', /地址未审核通过|address (?:is )?(?:not (?:yet )?approved|under review|rejected)/i],
  ['address_token_mismatch', /地址币种不匹配|address (?:is )?for another token|address token (?:does not match|mismatch)/i],
  ['address_not_found', /地址不存在|(?:declared )?address (?:does not exist|not found)|no (?:such |declared )?address/i],
  ['record_not_found', /记录不存在|(?:record|settlement|request) (?:does not exist|not found)|no (?:such )?(?:record|settlement)/i],
  ['amount_invalid', /金额不能为空|amount (?:cannot be empty|is (?:invalid|required))|invalid amount/i],
  ['way_code_unsupported', /不支持的支付方式|unsupported (?:payment )?(?:way(?: ?code)?|method)|way ?code (?:is )?not supported/i],
  ['system_error', /系统异常|system (?:error|exception)/i],
  ['database_error', /数据库|database/i],
  ['parameter_invalid', /参数|不能为空|格式错误|仅支持|不支持|不匹配|必须|未审核通过|parameter|required|must be|exactly one|not supported|not approved|invalid/i],
];

/** The reason of a refusal with this `code` and `msg`. Codes 10, 11 and 12 mean one thing whatever the text. */
export function apiErrorReason(code: number, msg: string): GatewayApiErrorReason {
  if (code === 10) return 'system_error';
  if (code === 11) return 'parameter_invalid';
  if (code === 12) return 'database_error';
  for (const [reason, pattern] of RULES) if (pattern.test(msg)) return reason;
  return 'unknown';
}

/** What to do, leading each refusal's message. */
export const REASON_ADVICE: Readonly<Record<GatewayApiErrorReason, string>> = {
  signature_invalid: "the gateway could not verify the request's signature: check that secret is the signing secret of this appId, and that nothing rewrites the body on its way",
  merchant_unknown: 'the gateway does not know this merchant or application: check mchNo and appId, and that baseUrl is the gateway they belong to (test or production)',
  app_mismatch: 'appId does not belong to mchNo: take both from the same merchant account',
  duplicate_order: 'an order with this mchOrderNo already exists: query it by mchOrderNo instead of creating it again, or give a new order a new mchOrderNo',
  duplicate_request: 'a request with this requestId already exists: look it up (settleRequestGet) instead of sending it again, or give a new request a new requestId',
  order_not_found: 'the gateway has no such order for this merchant: check payOrderId or mchOrderNo, and that the order was created with this mchNo and appId',
  record_not_found: 'the gateway has no such record: check requestId',
  address_not_found: 'the gateway has no declared address with this addrServerRequestId for this merchant: use the serverRequestId that settleAddressApply answered',
  address_not_approved: 'the declared address is not approved: the platform has not reviewed it yet, or rejected it; settle to it once approved, or declare another address',
  address_token_mismatch: 'the declared address was declared for another tokenId: settle with the token it was declared for, or declare this address for this token',
  missing_order_id: 'give payOrderId or mchOrderNo',
  order_not_closable: 'the order cannot be closed in its state (only unpaid orders, states 0 and 1, can be): query it to learn its state',
  amount_invalid: 'the gateway refused the amount: send a whole number of minor units, at least 1',
  way_code_unsupported: 'this application cannot take payments with this wayCode: use a way code configured for it at the gateway',
  parameter_invalid: "the gateway refused a parameter: correct the one its message names",
  system_error: 'the gateway had a system error: retry later',
  database_error: 'the gateway had a database error: retry later',
  unknown: "the gateway refused the request for a reason this SDK does not know: read the gateway's message",
};

const SUCCESS_TEXT = /^\s*(?:success|ok|成功)\s*$/i;

/**
 * When a refusal looks like the other convention's success (Jeepay answers `0`, the spec `200`), the
 * advice to fix `successCode`; otherwise `undefined`.
 */
export function successCodeAdvice(code: number, msg: string, successCode: number): string | undefined {
  if (!((code === 0 && successCode === 200) || (code === 200 && successCode === 0)) || !SUCCESS_TEXT.test(msg)) return undefined;
  return `the gateway probably succeeded: it answered code ${code} with a success message, the success code of ${code === 0 ? 'open-source Jeepay' : 'the spec'}, while this client expects ${successCode}; successCode is probably wrong: set successCode: ${code} (the result was not read, so query before repeating a create)`;
}
