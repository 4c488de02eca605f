// GatewayApiError.reason: every refusal text of the reference server and of the mock, and its plain English
// equivalent, maps to the reason a program branches on; anything else is 'unknown'.
import { describe, expect, it } from 'vitest';
import { GatewayApiError, GatewayClient, GatewayReconciliationMismatchError, type GatewayApiErrorReason } from '../../src/index.js';
import { createMockGateway, MOCK_MESSAGES } from '../../src/testing/index.js';

const reasonOf = (code: number, msg: string): GatewayApiErrorReason => new GatewayApiError(code, msg).reason;

// [reason, the reference server's text (docs/reference/protocol.md section 5), English equivalents a deployment may send]
const TEXTS: [GatewayApiErrorReason, string, string[]][] = [
  ['signature_invalid', '验签失败', ['signature check failed', 'Sign verification failed', 'invalid signature', 'SIGNATURE DOES NOT MATCH']],
  ['merchant_unknown', '商户或商户应用不存在', ['merchant or merchant app does not exist', 'Merchant not found', 'unknown merchant', 'merchant application does not exist']],
  ['app_mismatch', '参数appId与商户号不匹配', ['appId does not match mchNo', 'APPID MISMATCH', 'appId does not belong to this merchant']],
  ['duplicate_order', '商户订单[order-1001]已存在', ['merchant order [order-1001] already exists', 'Order already exists', 'duplicate mchOrderNo']],
  ['duplicate_request', '请求[settle-7]已存在', ['request [settle-7] already exists', 'request [order-7] already exists', 'Duplicate requestId']],
  ['order_not_found', '订单不存在', ['order does not exist', 'Order not found', 'no such order', 'merchant order does not exist']],
  ['record_not_found', '结算记录不存在', ['record does not exist', 'settlement not found', 'no such record']],
  ['address_not_found', '结算地址不存在', ['address not found', 'no declared address with this addrServerRequestId']],
  ['address_not_approved', '结算地址未审核通过', ['the declared address is not approved', 'address is under review', 'address rejected']],
  ['address_token_mismatch', '结算地址币种不匹配', ['the declared address is for another tokenId', 'address token mismatch']],
  ['missing_order_id', 'mchOrderNo 和 payOrderId 不能同时为空', ['mchOrderNo and payOrderId cannot both be empty', 'payOrderId or mchOrderNo must not be empty']],
  ['order_not_closable', '当前订单不可关闭', ['the order cannot be closed', 'Order is not closable']],
  ['amount_invalid', '支付金额不能为空', ['amount cannot be empty', 'Invalid amount', 'amount is required']],
  ['way_code_unsupported', '不支持的支付方式', ['unsupported way code', 'Unsupported payment method', 'wayCode not supported']],
  ['parameter_invalid', '参数有误[body]', ['parameter error', 'clientIp is required', 'invalid notifyUrl']],
  ['system_error', '系统异常[NullPointerException]', ['system error', 'System exception, try later']],
  ['database_error', '数据库异常', ['database error']],
];

describe('GatewayApiError.reason', () => {
  it("reads each of the reference's texts for an unknown or disabled merchant or application", () => {
    for (const text of ['商户或商户应用不存在', '商户信息不存在或商户状态不可用', '商户应用不存在或应用状态不可用', 'merchant is disabled', 'merchant application is unavailable']) {
      expect(reasonOf(9999, text), text).toBe('merchant_unknown');
    }
  });

  describe.each(TEXTS)('%s', (reason, reference, english) => {
    it(`from the reference text ${reference} (code 9999)`, () => {
      expect(reasonOf(9999, reference)).toBe(reason);
    });
    it.each(english)('from the English %j, in any case', (text) => {
      expect(reasonOf(9999, text)).toBe(reason);
      expect(reasonOf(9999, text.toUpperCase())).toBe(reason);
      expect(reasonOf(9999, text.toLowerCase())).toBe(reason);
    });
  });

  it('codes 10, 11 and 12 mean a system, parameter and database error whatever the text', () => {
    expect(reasonOf(10, '系统异常[java.lang.NullPointerException]')).toBe('system_error');
    expect(reasonOf(11, '参数有误[amount]')).toBe('parameter_invalid');
    expect(reasonOf(12, 'oops')).toBe('database_error');
  });

  it('anything else is unknown', () => {
    for (const text of ['', 'rate limited', '请稍后再试', 'the moon is full']) expect(reasonOf(9999, text)).toBe('unknown');
  });

  // Every text the mock answers with, so a test against the mock branches as it would in production.
  const MOCK: [keyof typeof MOCK_MESSAGES, string, GatewayApiErrorReason, string?][] = [
    ['signatureMismatch', MOCK_MESSAGES.signatureMismatch, 'signature_invalid'],
    ['unknownMerchant', MOCK_MESSAGES.unknownMerchant, 'merchant_unknown'],
    ['appIdMismatch', MOCK_MESSAGES.appIdMismatch, 'app_mismatch'],
    ['duplicateOrder', MOCK_MESSAGES.duplicateOrder('order-1'), 'duplicate_order'],
    ['missingOrderIds', MOCK_MESSAGES.missingOrderIds, 'missing_order_id'],
    ['orderNotFound', MOCK_MESSAGES.orderNotFound, 'order_not_found'],
    ['cannotClose', MOCK_MESSAGES.cannotClose, 'order_not_closable'],
    ['amountMissing', MOCK_MESSAGES.amountMissing, 'amount_invalid'],
    ['unsupportedWayCode', MOCK_MESSAGES.unsupportedWayCode, 'way_code_unsupported'],
    ['authCodeMissing', MOCK_MESSAGES.authCodeMissing, 'parameter_invalid'],
    ['notifyUrlProtocol', MOCK_MESSAGES.notifyUrlProtocol, 'parameter_invalid'],
    ['returnUrlProtocol', MOCK_MESSAGES.returnUrlProtocol, 'parameter_invalid'],
    ['required', MOCK_MESSAGES.required('subject'), 'parameter_invalid'],
    ['signTypeUnsupported', MOCK_MESSAGES.signTypeUnsupported, 'parameter_invalid'],
    ['reqTimeFormat', MOCK_MESSAGES.reqTimeFormat, 'parameter_invalid'],
    ['divisionMode', MOCK_MESSAGES.divisionMode, 'parameter_invalid'],
    ['expiredTime', MOCK_MESSAGES.expiredTime, 'parameter_invalid'],
    ['channelExtraFormat', MOCK_MESSAGES.channelExtraFormat, 'parameter_invalid'],
    ['channelExtraMember', MOCK_MESSAGES.channelExtraMember('openid'), 'parameter_invalid'],
    ['payDataTypeUnsupported', MOCK_MESSAGES.payDataTypeUnsupported('form'), 'parameter_invalid'],
    ['duplicateRequestId', MOCK_MESSAGES.duplicateRequestId('order-7'), 'duplicate_request'],
    ['settleAmount', MOCK_MESSAGES.settleAmount, 'amount_invalid'],
    ['payoutChannelUnsupported', MOCK_MESSAGES.payoutChannelUnsupported, 'parameter_invalid'],
    ['currencyUnsupported', MOCK_MESSAGES.currencyUnsupported, 'parameter_invalid'],
    ['addressChoice', MOCK_MESSAGES.addressChoice, 'parameter_invalid'],
    ['addressNotFound', MOCK_MESSAGES.addressNotFound, 'address_not_found'],
    ['addressNotApproved', MOCK_MESSAGES.addressNotApproved, 'address_not_approved'],
    ['addressTokenMismatch', MOCK_MESSAGES.addressTokenMismatch, 'address_token_mismatch'],
    ['settlementNotFound', MOCK_MESSAGES.settlementNotFound, 'record_not_found'],
    // A refusal is read by its operation's rules: the same text means another thing in another operation.
    ['missingRefundOrderIds', MOCK_MESSAGES.missingRefundOrderIds, 'missing_order_id', 'refundOrder'],
    ['refundOrderNotFound', MOCK_MESSAGES.refundOrderNotFound, 'order_not_found', 'refundOrder'],
    ['refundOrderState', MOCK_MESSAGES.refundOrderState, 'order_not_refundable', 'refundOrder'],
    ['refundedInFull', MOCK_MESSAGES.refundedInFull, 'order_not_refundable', 'refundOrder'],
    ['refundExceeds', MOCK_MESSAGES.refundExceeds, 'refund_exceeds_refundable', 'refundOrder'],
    ['refundInProgress', MOCK_MESSAGES.refundInProgress, 'refund_in_progress', 'refundOrder'],
    ['duplicateRefund', MOCK_MESSAGES.duplicateRefund('refund-7'), 'duplicate_refund', 'refundOrder'],
    ['refundUnsupported', MOCK_MESSAGES.refundUnsupported, 'refund_unsupported', 'refundOrder'],
    // The channel user jump's refusals go to the payer's browser, never to a client call: read as any operation's.
    ['unsupportedClient', MOCK_MESSAGES.unsupportedClient, 'parameter_invalid'],
    ['badRedirectUrl', MOCK_MESSAGES.badRedirectUrl, 'unknown'],
    ['refundNotFound', MOCK_MESSAGES.refundNotFound, 'refund_not_found', 'refundQuery'],
  ];

  it('covers every MOCK_MESSAGES entry', () => {
    expect(MOCK.map(([name]) => name).sort()).toEqual(Object.keys(MOCK_MESSAGES).sort());
  });

  it.each(MOCK)('the mock text %s is %s', (_name, text, reason, operation) => {
    expect(new GatewayApiError(9999, text, { operation }).reason).toBe(reason);
  });

  it('reads "订单不存在" by the operation refused: an order in query, a refund in refundQuery', () => {
    expect(new GatewayApiError(9999, '订单不存在', { operation: 'query' }).reason).toBe('order_not_found');
    expect(new GatewayApiError(9999, '订单不存在', { operation: 'refundQuery' }).reason).toBe('refund_not_found');
  });

  it('advises by the operation: a duplicate refund is looked up by mchRefundNo, never refunded under a new number', () => {
    const { message } = new GatewayApiError(9999, MOCK_MESSAGES.duplicateRefund('refund-7'), { operation: 'refundOrder' });
    expect(message).toMatch(/^A refund with this mchRefundNo exists already: look it up \(refundQuery by mchRefundNo\)/);
    expect(message).toMatch(/never refund the same thing under a new mchRefundNo/);
    expect(message).not.toMatch(/mchOrderNo/);
  });
});

describe('the message of a refusal', () => {
  it('leads with what to do in English and keeps the gateway msg verbatim', () => {
    const error = new GatewayApiError(9999, '验签失败', { operation: 'query' });
    expect(error.message).toBe(
      "The gateway could not verify the request's signature: check that secret is the signing secret of this appId, and that nothing rewrites the body on its way. The gateway answered query with code 9999: 验签失败",
    );
  });

  it.each(TEXTS)('for %s starts with an English sentence and ends with the gateway text', (_reason, reference) => {
    const { message } = new GatewayApiError(9999, reference, { operation: 'unifiedOrder' });
    expect(message).toMatch(/^[A-Z][a-z ]/);
    expect(message.endsWith(`code 9999: ${reference}`)).toBe(true);
  });
});

describe('refusals from the mock gateway, through the client', () => {
  const merchant = { mchNo: 'M1', appId: 'app-1', secret: 'right-secret' };
  const gateway = createMockGateway({ merchants: [merchant, { mchNo: 'M2', appId: 'app-2', secret: 's2' }] });
  const clientWith = (overrides: Partial<typeof merchant> = {}) =>
    new GatewayClient({ baseUrl: 'https://gateway.test', ...merchant, ...overrides, fetch: gateway.fetch, retry: { maxRetries: 0 } });
  const order = { mchOrderNo: 'r-1', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', subject: 's', body: 'b' };
  const reasonOf = (error: unknown) => (error instanceof GatewayApiError ? error.reason : error);
  const reasonOfCall = (call: Promise<unknown>) => call.then(() => 'resolved', reasonOf);

  it.each([
    ['a wrong secret', () => clientWith({ secret: 'wrong' }).query({ mchOrderNo: 'x' }), 'signature_invalid'],
    ['an unknown merchant', () => clientWith({ mchNo: 'M9' }).query({ mchOrderNo: 'x' }), 'merchant_unknown'],
    ["another merchant's appId", () => clientWith({ appId: 'app-2' }).query({ mchOrderNo: 'x' }), 'app_mismatch'],
    ['an unknown order', () => clientWith().query({ mchOrderNo: 'nope' }), 'order_not_found'],
    ['an unknown settlement', () => clientWith().settleRequestGet({ requestId: 'nope' }), 'record_not_found'],
  ] as const)('%s is %s', async (_name, call, reason) => {
    expect(await reasonOfCall(call())).toBe(reason);
  });

  it('a duplicate mchOrderNo is duplicate_order, looked up before it is believed; closing a paid order is order_not_closable', async () => {
    const client = clientWith();
    await client.unifiedOrder(order);
    const otherAmount = await client.unifiedOrder({ ...order, amount: 200 }).catch((e: unknown) => e);
    expect(otherAmount).toBeInstanceOf(GatewayReconciliationMismatchError);
    expect(reasonOf((otherAmount as Error).cause)).toBe('duplicate_order');
    gateway.payOrder('r-1');
    expect(await reasonOfCall(client.close({ mchOrderNo: 'r-1' }))).toBe('order_not_closable');
  });
});

describe('a success code of the other convention', () => {
  const answering = (code: number, msg: string, successCode: number) =>
    new GatewayClient({ baseUrl: 'https://gateway.test', mchNo: 'M1', appId: 'app-1', secret: 's', successCode, fetch: async () => Response.json({ code, msg }) })
      .query({ mchOrderNo: 'o-1' })
      .then(
        () => expect.unreachable('the query resolved'),
        (error: unknown) => error as GatewayApiError,
      );

  it.each([
    [0, 'SUCCESS', 200],
    [0, 'success', 200],
    [200, 'OK', 0],
    [0, '成功', 200],
  ])('code %s with msg %j against successCode %s says successCode is probably wrong', async (code, msg, successCode) => {
    const error = await answering(code, msg, successCode);
    expect(error).toBeInstanceOf(GatewayApiError);
    expect(error.message).toMatch(new RegExp(`^The gateway probably succeeded: .*successCode is probably wrong: set successCode: ${code}`));
    expect(error.message.endsWith(`code ${code}: ${msg}`)).toBe(true);
  });

  it('says nothing of successCode for a refusal, or for another code', async () => {
    expect((await answering(0, '订单不存在', 200)).message).not.toContain('successCode');
    expect((await answering(1, 'SUCCESS', 200)).message).not.toContain('successCode');
  });
});
