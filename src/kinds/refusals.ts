/**
 * What a gateway refusal means, read from its `code` and `msg`: the rules every operation shares, and the rules
 * shared by several rows of the table (each row lists its own under `refusals`). The reference server answers in
 * Chinese (docs/reference/protocol.md section 5, refunds.md section 1); a deployment may answer in English, so each
 * rule knows both, case-insensitively. Words are matched as the gateways write them, one space apart.
 *
 * @module
 */

/** How one refusal is recognised in the gateway's `msg`, and what to do about it (leading the error's message). */
export interface RefusalRule {
  /** The reference text and its English equivalents. */
  readonly match: RegExp;
  /** What to do, in English: the error's message starts with it. */
  readonly advice: string;
}

/** The refusals of a row: reason to rule. A reason is a value a program branches on (`GatewayApiError.reason`). */
export type Refusals = Readonly<Record<string, RefusalRule>>;

/** Refusals any operation may get whose texts are specific: judged before an operation's own. */
export const LEADING_REFUSALS = {
  signature_invalid: {
    match: /验签失败|sign(?:ature)? (?:check|verification) failed|invalid sign|signature (?:is )?(?:invalid|mismatch|does not match)/i,
    advice: "the gateway could not verify the request's signature: check that secret is the signing secret of this appId, and that nothing rewrites the body on its way",
  },
  merchant_unknown: {
    // The reference's three texts: 商户或商户应用不存在, 商户信息不存在或商户状态不可用, 商户应用不存在或应用状态不可用.
    match: /商户(?:或商户应用|信息|应用)?不存在|merchant(?: or (?:merchant )?app(?:lication)?| app(?:lication)?)? (?:does not exist|not found|is disabled|is unavailable)|unknown merchant/i,
    advice: 'the gateway does not know this merchant or application, or it is disabled: check mchNo and appId, that baseUrl is the gateway they belong to (test or production), and that both are enabled in its portal',
  },
  app_mismatch: { match: /appId ?与商户号不匹配|appId (?:does not match|mismatch|does not belong)/i, advice: 'appId does not belong to mchNo: take both from the same merchant account' },
} as const satisfies Refusals;

/** Refusals any operation may get whose texts are broad (a parameter text contains 不支持): judged after an operation's own. */
export const TRAILING_REFUSALS = {
  system_error: { match: /系统异常|system (?:error|exception)/i, advice: 'the gateway had a system error: retry later (a create with the same key, never a new one)' },
  database_error: { match: /数据库|database/i, advice: 'the gateway had a database error: retry later (a create with the same key, never a new one)' },
  parameter_invalid: {
    match: /参数|不能为空|格式错误|仅支持|不支持|不匹配|必须|未审核通过|parameter|required|must be|exactly one|not supported|not approved|invalid/i,
    advice: 'the gateway refused a parameter: correct the one its message names',
  },
} as const satisfies Refusals;

/**
 * The shared refusals the gateway decides before it stores any record (the reference's shared checks of every
 * request: its fields, merchant, app and signature): a create refused so made nothing. Each create's row adds its
 * own (`refusedBeforeRecord`); every other refusal of a create is looked up by its key before it is believed.
 */
export const BEFORE_ANY_RECORD = ['signature_invalid', 'merchant_unknown', 'app_mismatch', 'parameter_invalid'] as const satisfies readonly (keyof typeof LEADING_REFUSALS | keyof typeof TRAILING_REFUSALS)[];

/** What to do about a refusal no rule describes. */
export const UNKNOWN_REFUSAL_ADVICE = "the gateway refused the request for a reason this SDK does not know: read the gateway's message";

// Rules several rows share, each written once.

/** No order under the ids given (query, close, refundOrder). */
export const orderNotFound: RefusalRule = {
  match: /订单不存在|order (?:does not exist|not found)|no such order/i,
  advice: 'the gateway has no such order for this merchant: check payOrderId or mchOrderNo, and that the order was created with this mchNo and appId',
};

/** Neither order id given (query, close, refundOrder): the SDK's own validation refuses this first. */
export const missingOrderId: RefusalRule = {
  match: /mchOrderNo ?和 ?payOrderId ?不能同时为空|(?:mchOrderNo|payOrderId) (?:and|or) (?:mchOrderNo|payOrderId) (?:cannot|must not) (?:both )?be empty/i,
  advice: 'give payOrderId or mchOrderNo',
};

/** A request id used before (settleAddressApply, settleRequest). */
export const duplicateRequest: RefusalRule = {
  match: /请求\[[^\]]*\]已存在|request ?(?:id ?)?\[[^\]]*\] ?already exists|duplicate request/i,
  advice: 'a request with this requestId exists already: look it up (settleRequestGet) before anything else; a new requestId is for a new settlement only, never for this one',
};

/**
 * The reason of a refusal with this `code` and `msg`, by an operation's own `refusals` between the shared
 * leading and trailing rules (first match wins). Codes 10, 11 and 12 mean one thing whatever the text.
 */
export function refusalReason(code: number, msg: string, own: Refusals): string {
  if (code === 10) return 'system_error';
  if (code === 11) return 'parameter_invalid';
  if (code === 12) return 'database_error';
  for (const rules of [LEADING_REFUSALS, own, TRAILING_REFUSALS] as readonly Refusals[]) {
    for (const [reason, rule] of Object.entries(rules)) if (rule.match.test(msg)) return reason;
  }
  return 'unknown';
}

const SHARED_REFUSALS: Refusals = { ...LEADING_REFUSALS, ...TRAILING_REFUSALS };

/** What to do about a refusal of `reason`, by the operation's own rules, then the shared ones. */
export function refusalAdvice(reason: string, own: Refusals): string {
  const shared = SHARED_REFUSALS;
  return (Object.hasOwn(own, reason) ? own[reason] : Object.hasOwn(shared, reason) ? shared[reason] : undefined)?.advice ?? UNKNOWN_REFUSAL_ADVICE;
}

const SUCCESS_TEXT = /^\s*(?:success|ok|成功)\s*$/i;

/**
 * When a refusal looks like the other convention's success (Jeepay answers `0`, the spec `200`), the
 * advice to fix `successCode`; otherwise `undefined`.
 */
export function successCodeAdvice(code: number, msg: string, successCode: number): string | undefined {
  if (!((code === 0 && successCode === 200) || (code === 200 && successCode === 0)) || !SUCCESS_TEXT.test(msg)) return undefined;
  return `the gateway probably succeeded: it answered code ${code} with a success message, the success code of ${code === 0 ? 'open-source Jeepay' : 'the spec'}, while this client expects ${successCode}; successCode is probably wrong: set successCode: ${code} (the result was not read, so query before repeating a create)`;
}
