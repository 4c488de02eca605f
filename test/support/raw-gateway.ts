/**
 * Talks to the mock gateway the way a hand-written client would: raw JSON bodies signed with `sign()`,
 * posted with `fetch`. The SDK's GatewayClient is deliberately not used, so a bug shared by the client
 * and the mock cannot hide.
 */
import { sign } from '../../src/protocol/signing/sign.js';
import type { MockGateway } from '../../src/testing/index.js';

export const MERCHANT = { mchNo: 'M1700000001', appId: 'app-0001', secret: 'mock-test-secret-1' } as const;
export const OTHER_MERCHANT = { mchNo: 'M1700000002', appId: 'app-0002', secret: 'mock-test-secret-2' } as const;
export const START = 1_700_000_000_000;
export const ORIGIN = 'https://gateway.test';

export const PATHS = {
  unifiedOrder: '/api/pay/unifiedOrder',
  query: '/api/pay/query',
  close: '/api/pay/close',
  settleAddressApply: '/api/channelbiz/coinpay/settleAddressApply',
  settleRequest: '/api/channelbiz/coinpay/settleRequest',
  settleRequestGet: '/api/channelbiz/coinpay/settleRequestGet',
  refundOrder: '/api/refund/refundOrder',
  refundQuery: '/api/refund/query',
  transferOrder: '/api/transferOrder',
  transferQuery: '/api/transfer/query',
  bindDivisionReceiver: '/api/division/receiver/bind',
  executeDivision: '/api/division/exec',
} as const;

type Merchant = { mchNo: string; appId: string; secret: string };
type Fields = Record<string, string | number | null | undefined>;

/** The common fields of a request from `merchant`. */
export function common(merchant: Merchant = MERCHANT, reqTime = '1700000000123'): Fields {
  return { version: '1.0.1', signType: 'MD5', reqTime, mchNo: merchant.mchNo, appId: merchant.appId };
}

/** `fields` plus their signature. */
export function signed(fields: Fields, secret: string = MERCHANT.secret): Fields {
  const { sign: _ignored, ...rest } = fields;
  return { ...rest, sign: sign(rest, secret) };
}

export interface RawAnswer {
  status: number;
  text: string;
  /** JSON.parse of the body (fine for answers without decimals). */
  json: { code: number; msg: string; data?: Record<string, unknown>; sign?: string };
}

/** POSTs a body (an object as JSON, or text as given) to the mock's fetch. */
export async function post(gateway: MockGateway, path: string, body: object | string, contentType = 'application/json'): Promise<RawAnswer> {
  const response = await gateway.fetch(
    new Request(`${ORIGIN}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body: typeof body === 'string' ? body : JSON.stringify(body) }),
  );
  const text = await response.text();
  let json: RawAnswer['json'];
  try {
    json = JSON.parse(text) as RawAnswer['json'];
  } catch {
    json = { code: Number.NaN, msg: '(not JSON)' };
  }
  return { status: response.status, text, json };
}

/** Sends an operation signed by `merchant` with its own fields. */
export function call(gateway: MockGateway, operation: keyof typeof PATHS, fields: Fields, merchant: Merchant = MERCHANT): Promise<RawAnswer> {
  return post(gateway, PATHS[operation], signed({ ...common(merchant), ...fields }, merchant.secret));
}

/** A valid unifiedOrder parameter set; override what a test is about. */
export function orderFields(overrides: Fields = {}): Fields {
  return { mchOrderNo: 'order-1', wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: 'T-shirt', body: 'Blue, M', ...overrides };
}

/** A valid refundOrder parameter set for `order-1` (of orderFields); override what a test is about. */
export function refundFields(overrides: Fields = {}): Fields {
  return { mchOrderNo: 'order-1', mchRefundNo: 'refund-1', refundAmount: 500, currency: 'USD', refundReason: 'Returned', ...overrides };
}

/** The signature the merchant expects over `data` when every member is a string or an integer. */
export function expectedSign(data: Record<string, unknown>, secret: string = MERCHANT.secret): string {
  return sign(Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)])), secret);
}
