/**
 * The gateway's error answers, `{ code, msg }` with HTTP 200: the reference's texts exactly
 * (docs/reference/protocol.md section 5), the mock's own with an English gloss.
 *
 * @module
 */
import type { MockSignatureRefusal } from './request-log.js';

/** Business error code of the reference gateway. */
export const BUSINESS_ERROR = 9999;
/** Parameter error code (`参数有误[...]`), e.g. a body that is not JSON. */
export const PARAMETER_ERROR = 11;

/** A request the mock refuses; turned into the `{ code, msg }` envelope. */
export class Refusal extends Error {
  constructor(
    readonly code: number,
    readonly msg: string,
    /** Why a signature was refused: for the mock's log and state, never for the answer. */
    readonly signature?: MockSignatureRefusal,
  ) {
    super(msg);
  }
}

/** A business refusal (code 9999). */
export const refuse = (msg: string): Refusal => new Refusal(BUSINESS_ERROR, msg);

/** A callback address that is not http(s) gets the reference's text (`notifyUrlProtocol` or `returnUrlProtocol`); else `undefined`. */
export const urlProtocolRefusal = (url: string | undefined, text: string): string | undefined => (url !== undefined && !/^https?:\/\//.test(url) ? text : undefined);

/** A parameter refusal (code 11): the body or a value could not be read. */
export const refuseParameter = (detail: string, gloss: string): Refusal => new Refusal(PARAMETER_ERROR, `参数有误[${detail}] (${gloss})`);

/**
 * The `msg` texts the mock answers with, but those of a declared kind (its own `messages`): `MOCK_MESSAGES`
 * (`messages.ts`) lists them all. Reference texts (docs/reference/protocol.md section 5) are exact; the others end
 * with an English gloss.
 */
export const MESSAGES = {
  /** The signature does not match the fields the operation knows (reference text). */
  signatureMismatch: '验签失败',
  /** Unknown `mchNo` or `appId` (reference text). */
  unknownMerchant: '商户或商户应用不存在',
  /** The `appId` belongs to another merchant (reference text). */
  appIdMismatch: '参数appId与商户号不匹配',
  /** A second order with the same `mchOrderNo` (reference text). */
  duplicateOrder: (mchOrderNo: string) => `商户订单[${mchOrderNo}]已存在`,
  /** query/close without `payOrderId` and `mchOrderNo` (reference text). */
  missingOrderIds: 'mchOrderNo 和 payOrderId 不能同时为空',
  /** No such order for this merchant (reference text). */
  orderNotFound: '订单不存在',
  /** close of an order not in state 0 or 1 (reference text). */
  cannotClose: '当前订单不可关闭',
  /** `amount` missing or below 1 in unifiedOrder (reference text). */
  amountMissing: '支付金额不能为空',
  /** A way code the gateway does not offer (reference text). */
  unsupportedWayCode: '不支持的支付方式',
  /** A barcode way without `channelExtra.authCode` (Jeepay's text). */
  authCodeMissing: '条码值不能为空',
  /** A `notifyUrl` that is not http(s) (Jeepay's text). */
  notifyUrlProtocol: '异步通知地址协议仅支持http:// 或 https:// !',
  /** A `returnUrl` that is not http(s) (Jeepay's text). */
  returnUrlProtocol: '同步通知地址协议仅支持http:// 或 https:// !',
  /** A required field is missing or blank. */
  required: (field: string) => `${field}不能为空 (${field} is required)`,
  /** `signType` other than MD5. */
  signTypeUnsupported: '签名类型仅支持MD5 (signType must be MD5)',
  /** `reqTime` that is not 13 digits. */
  reqTimeFormat: 'reqTime格式错误 (reqTime must be a 13-digit millisecond timestamp)',
  /** `divisionMode` other than 0, 1, 2 (the reference's text, glossed). */
  divisionMode: '分账模式设置值有误 (divisionMode must be 0, 1 or 2)',
  /** `expiredTime` below 1. */
  expiredTime: '订单有效时间参数有误 (expiredTime must be a whole number of seconds >= 1)',
  /** `channelExtra` that is not a JSON object in a string. */
  channelExtraFormat: 'channelExtra格式错误 (channelExtra must be a JSON object in a string)',
  /** A `channelExtra` member the way code requires (`openid`, `buyerUserId`). */
  channelExtraMember: (member: string) => `${member}不能为空 (channelExtra.${member} is required for this wayCode)`,
  /** A `channelExtra.payDataType` the way code cannot give. */
  payDataTypeUnsupported: (type: string) => `不支持的payDataType[${type}] (payDataType not available for this wayCode)`,
  /** A second address declaration or settlement with the same `requestId`. */
  duplicateRequestId: (requestId: string) => `请求[${requestId}]已存在 (duplicate requestId)`,
  /** A settlement `amount` below 1. */
  settleAmount: '结算金额不能为空 (amount must be at least 1 minor unit)',
  /** `payoutChannel` other than Crypto. */
  payoutChannelUnsupported: '仅支持Crypto提现方式 (only payoutChannel Crypto is supported)',
  /** `currency` other than USD in a settlement. */
  currencyUnsupported: '仅支持USD (only currency USD is supported)',
  /** Neither or both of `addrServerRequestId` and `address`. */
  addressChoice: 'addrServerRequestId 和 address 必须且只能传一个 (give exactly one of addrServerRequestId and address)',
  /** An `addrServerRequestId` the merchant never declared. */
  addressNotFound: '结算地址不存在 (no declared address with this addrServerRequestId)',
  /** A declared address still under review, or rejected. */
  addressNotApproved: '结算地址未审核通过 (the declared address is not approved)',
  /** A declared address of another token than the settlement's `tokenId`. */
  addressTokenMismatch: '结算地址币种不匹配 (the declared address is for another tokenId)',
  /** The channel user jump's `ifCode` names no channel, or `AUTO` in a browser that is neither WeChat nor Alipay (reference text). */
  unsupportedClient: '不支持的客户端',
  /** The channel user jump's `redirectUrl` does not start with `http://` or `https://` (reference text). */
  badRedirectUrl: '跳转地址有误！',
  /** No settlement with this `requestId` for the merchant (reason `record_not_found`, so the client's reconciliation reads it as "absent"). */
  settlementNotFound: '结算记录不存在 (no settlement with this requestId)',
} as const;
