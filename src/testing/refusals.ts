/**
 * The gateway's error answers: `{ code, msg }` with HTTP 200. Texts the reference server is known to send
 * (protocol.md section 5) are reproduced exactly, so code that matches on them behaves as in production;
 * texts the reference does not document carry an English gloss after the Chinese.
 *
 * @module
 */

/** Business error code of the reference gateway. */
export const BUSINESS_ERROR = 9999;
/** Parameter error code (`参数有误[...]`), e.g. a body that is not JSON. */
export const PARAMETER_ERROR = 11;

/** A request the mock refuses; turned into the `{ code, msg }` envelope. */
export class Refusal extends Error {
  constructor(
    readonly code: number,
    readonly msg: string,
  ) {
    super(msg);
  }
}

/** A business refusal (code 9999). */
export const refuse = (msg: string): Refusal => new Refusal(BUSINESS_ERROR, msg);

/** A parameter refusal (code 11): the body or a value could not be read. */
export const refuseParameter = (detail: string, gloss: string): Refusal => new Refusal(PARAMETER_ERROR, `参数有误[${detail}] (${gloss})`);

/** The texts, in one place so tests and docs can refer to them. */
export const MESSAGES = {
  signatureMismatch: '验签失败',
  unknownMerchant: '商户或商户应用不存在',
  appIdMismatch: '参数appId与商户号不匹配',
  duplicateOrder: (mchOrderNo: string) => `商户订单[${mchOrderNo}]已存在`,
  missingOrderIds: 'mchOrderNo 和 payOrderId 不能同时为空',
  orderNotFound: '订单不存在',
  cannotClose: '当前订单不可关闭',
  amountMissing: '支付金额不能为空',
  unsupportedWayCode: '不支持的支付方式',
  authCodeMissing: '条码值不能为空',
  notifyUrlProtocol: '异步通知地址协议仅支持http:// 或 https:// !',
  returnUrlProtocol: '同步通知地址协议仅支持http:// 或 https:// !',
  required: (field: string) => `${field}不能为空 (${field} is required)`,
  signTypeUnsupported: '签名类型仅支持MD5 (signType must be MD5)',
  reqTimeFormat: 'reqTime格式错误 (reqTime must be a 13-digit millisecond timestamp)',
  divisionMode: '分账模式参数有误 (divisionMode must be 0, 1 or 2)',
  expiredTime: '订单有效时间参数有误 (expiredTime must be a whole number of seconds >= 1)',
  channelExtraFormat: 'channelExtra格式错误 (channelExtra must be a JSON object in a string)',
  channelExtraMember: (member: string) => `${member}不能为空 (channelExtra.${member} is required for this wayCode)`,
  payDataTypeUnsupported: (type: string) => `不支持的payDataType[${type}] (payDataType not available for this wayCode)`,
  duplicateRequestId: (requestId: string) => `请求[${requestId}]已存在 (duplicate requestId)`,
  settleAmount: '结算金额不能为空 (amount must be at least 1 minor unit)',
  payoutChannelUnsupported: '仅支持Crypto提现方式 (only payoutChannel Crypto is supported)',
  currencyUnsupported: '仅支持USD (only currency USD is supported)',
  addressChoice: 'addrServerRequestId 和 address 必须且只能传一个 (give exactly one of addrServerRequestId and address)',
  addressNotFound: '结算地址不存在 (no declared address with this addrServerRequestId)',
  addressNotApproved: '结算地址未审核通过 (the declared address is not approved)',
  addressTokenMismatch: '结算地址币种不匹配 (the declared address is for another tokenId)',
  settlementNotFound: '结算记录不存在 (no settlement with this requestId)',
} as const;
