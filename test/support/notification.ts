import { sign } from '../../src/protocol/signing/sign.js';
import { vector } from './vectors.js';

/** The shared "pay notification" vector: the fields the gateway posts (every value a string) and their sign. */
export const PAY_NOTIFICATION = vector('pay notification');

/** The vector's fields, as strings. */
export const PAY_FIELDS: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(PAY_NOTIFICATION.params).map(([k, v]) => [k, String(v)]));

/** The merchant application the vector is addressed to. */
export const MERCHANT = {
  secret: PAY_NOTIFICATION.secret,
  mchNo: PAY_FIELDS.mchNo as string,
  appId: PAY_FIELDS.appId as string,
} as const;

/**
 * A notification as the gateway would post it: `fields` (the vector's, changed by `changes`; `undefined`
 * removes a field) signed with `secret`.
 */
export function signedFields(changes: Record<string, string | undefined> = {}, base: Readonly<Record<string, string>> = PAY_FIELDS, secret = MERCHANT.secret): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...base, ...changes })) if (value !== undefined) fields[key] = value;
  return { ...fields, sign: sign(fields, secret) };
}

/**
 * {@link signedFields} of an event that happened now (`reqTime`, and a payment's `successTime` and `createdAt`,
 * are the current time): an event a processor's store can vouch for, since a store refuses events older than
 * its horizon (a new memory store's is its creation).
 */
export function freshFields(changes: Record<string, string | undefined> = {}, base: Readonly<Record<string, string>> = PAY_FIELDS, secret = MERCHANT.secret): Record<string, string> {
  const now = String(Date.now());
  const times = Object.fromEntries(['reqTime', 'successTime', 'createdAt'].filter((field) => field === 'reqTime' || field in base).map((field) => [field, now]));
  return signedFields({ ...times, ...changes }, base, secret);
}

/** A form body of `fields`, encoded as browsers and Java's URLEncoder do (space as `+`). */
export function formBody(fields: Readonly<Record<string, string>>): string {
  return new URLSearchParams(fields).toString();
}

/** A form POST of `fields` as a Web Request. */
export function formRequest(fields: Readonly<Record<string, string>>, url = 'http://127.0.0.1/pay/notify'): Request {
  return new Request(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: formBody(fields) });
}

/** A settlement record as the gateway might post it (its callback format is not published). */
export const SETTLEMENT_FIELDS: Readonly<Record<string, string>> = {
  serverRequestId: 'SRV-SETTLE-1',
  requestId: 'settle-2024-07',
  tokenId: 'TRON_USDT',
  currency: 'USD',
  amount: '150000',
  status: '1',
  address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
  mchNo: MERCHANT.mchNo,
  appId: MERCHANT.appId,
  reqTime: '1700000000123',
};

/**
 * A refund notification as the gateway posts it (docs/reference/refunds.md, section 4): the refund query's fields
 * plus `reqTime`, every value a string; state 2 (succeeded). A failed one (state 3) has no successTime.
 */
export const REFUND_FIELDS: Readonly<Record<string, string>> = {
  refundOrderId: 'R1623985459000001',
  payOrderId: 'P202106181104177050002',
  mchNo: MERCHANT.mchNo,
  appId: MERCHANT.appId,
  mchRefundNo: 'refund-1001-1',
  payAmount: '1999',
  refundAmount: '500',
  currency: 'USD',
  state: '2',
  channelOrderNo: 'CH-R-1',
  successTime: '1623985459000',
  createdAt: '1623985400000',
  reqTime: '1623985459123',
};

/** {@link REFUND_FIELDS} of a refund that failed: state 3, the channel's error, no successTime. */
export const FAILED_REFUND_FIELDS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(REFUND_FIELDS).filter(([name]) => name !== 'successTime')),
  state: '3',
  errCode: 'REFUND_FAIL',
  errMsg: 'insufficient merchant balance',
};

/** A transfer notification as the gateway posts it (spec section 4): the transfer query's fields plus reqTime, every value a string. */
export const TRANSFER_FIELDS: Readonly<Record<string, string>> = {
  transferId: 'T1623985459000001',
  mchNo: MERCHANT.mchNo,
  appId: MERCHANT.appId,
  mchOrderNo: 'payout-1001',
  ifCode: 'wxpay',
  entryType: 'WX_CASH',
  amount: '1500',
  currency: 'CNY',
  accountNo: 'o8xYz0123456789',
  accountName: 'Li Lei',
  transferDesc: 'Supplier payout',
  state: '2',
  successTime: '1623985459000',
  createdAt: '1623985400000',
  reqTime: '1623985459123',
};
