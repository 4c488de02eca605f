// Wrong calls must not compile: for the client options, every operation's parameters and the notification
// options, each line below holds exactly one mistake against a valid call (checked by tsc through vitest).
import { describe, it } from 'vitest';
import { GatewayClient, verifyNotification, verifySettlementNotification } from '../../src/index.js';

declare const client: GatewayClient;
/** The argument without one key, as a caller who forgot it would pass. */
declare function without<T, K extends keyof T>(value: T, key: K): Omit<T, K>;

const credentials = { baseUrl: 'https://pay.example.com', mchNo: 'M1', appId: 'app-1', secret: 's' } as const;
const order = { mchOrderNo: 'o-1', wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: 's', body: 'b' } as const;
const address = { requestId: 'addr-1', tokenId: 'TRON_USDT', address: 'T1' } as const;
const settlement = { requestId: 'r-1', amount: 1, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: 'T1' } as const;
const merchant = { secret: 's', mchNo: 'M1', appId: 'app-1' } as const;
const hook = () => {};

describe('GatewayClient options', () => {
  it('valid calls compile', () => {
    new GatewayClient(credentials);
    new GatewayClient({ ...credentials, version: '1.0.1', successCode: 0, timeout: 1, totalTimeout: 2, retry: { maxRetries: 0, initialDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 3 } });
    new GatewayClient({ ...credentials, hooks: { onRequest: ({ operation }) => void operation, onResponse: hook, onRetry: hook }, fetch, now: Date.now, verifyResponses: false });
    new GatewayClient({ ...credentials, logLevel: 'debug', logger: console, hooks: { onReconcile: ({ key, outcome }) => void [key.name, outcome] } });
    new GatewayClient({ ...credentials, logLevel: 'off', logger: { error: hook, warn: hook, info: hook, debug: (message: string, fields: Readonly<Record<string, unknown>>) => void [message, fields] } });
  });

  it('each required field missing', () => {
    // @ts-expect-error baseUrl is required
    new GatewayClient(without(credentials, 'baseUrl'));
    // @ts-expect-error mchNo is required
    new GatewayClient(without(credentials, 'mchNo'));
    // @ts-expect-error appId is required
    new GatewayClient(without(credentials, 'appId'));
    // @ts-expect-error secret is required
    new GatewayClient(without(credentials, 'secret'));
  });

  it('each field of the wrong type', () => {
    // @ts-expect-error baseUrl: a number
    new GatewayClient({ ...credentials, baseUrl: 1 });
    // @ts-expect-error baseUrl: null
    new GatewayClient({ ...credentials, baseUrl: null });
    // @ts-expect-error baseUrl: an object
    new GatewayClient({ ...credentials, baseUrl: {} });
    // @ts-expect-error mchNo: a number
    new GatewayClient({ ...credentials, mchNo: 1 });
    // @ts-expect-error mchNo: null
    new GatewayClient({ ...credentials, mchNo: null });
    // @ts-expect-error mchNo: an object
    new GatewayClient({ ...credentials, mchNo: {} });
    // @ts-expect-error appId: a number
    new GatewayClient({ ...credentials, appId: 1 });
    // @ts-expect-error appId: null
    new GatewayClient({ ...credentials, appId: null });
    // @ts-expect-error appId: an object
    new GatewayClient({ ...credentials, appId: {} });
    // @ts-expect-error secret: a number
    new GatewayClient({ ...credentials, secret: 1 });
    // @ts-expect-error secret: null
    new GatewayClient({ ...credentials, secret: null });
    // @ts-expect-error secret: an object
    new GatewayClient({ ...credentials, secret: {} });
    // @ts-expect-error version: a number
    new GatewayClient({ ...credentials, version: 1 });
    // @ts-expect-error version: null
    new GatewayClient({ ...credentials, version: null });
    // @ts-expect-error version: an object
    new GatewayClient({ ...credentials, version: {} });
    // @ts-expect-error successCode: a string
    new GatewayClient({ ...credentials, successCode: '1' });
    // @ts-expect-error successCode: null
    new GatewayClient({ ...credentials, successCode: null });
    // @ts-expect-error successCode: an object
    new GatewayClient({ ...credentials, successCode: {} });
    // @ts-expect-error timeout: a string
    new GatewayClient({ ...credentials, timeout: '1' });
    // @ts-expect-error timeout: null
    new GatewayClient({ ...credentials, timeout: null });
    // @ts-expect-error timeout: an object
    new GatewayClient({ ...credentials, timeout: {} });
    // @ts-expect-error totalTimeout: a string
    new GatewayClient({ ...credentials, totalTimeout: '1' });
    // @ts-expect-error totalTimeout: null
    new GatewayClient({ ...credentials, totalTimeout: null });
    // @ts-expect-error totalTimeout: an object
    new GatewayClient({ ...credentials, totalTimeout: {} });
    // @ts-expect-error retry: a number
    new GatewayClient({ ...credentials, retry: 1 });
    // @ts-expect-error retry: null
    new GatewayClient({ ...credentials, retry: null });
    // @ts-expect-error hooks: a number
    new GatewayClient({ ...credentials, hooks: 1 });
    // @ts-expect-error hooks: null
    new GatewayClient({ ...credentials, hooks: null });
    // @ts-expect-error fetch: a string
    new GatewayClient({ ...credentials, fetch: '1' });
    // @ts-expect-error fetch: null
    new GatewayClient({ ...credentials, fetch: null });
    // @ts-expect-error fetch: an object
    new GatewayClient({ ...credentials, fetch: {} });
    // @ts-expect-error now: a number
    new GatewayClient({ ...credentials, now: 1 });
    // @ts-expect-error now: null
    new GatewayClient({ ...credentials, now: null });
    // @ts-expect-error now: an object
    new GatewayClient({ ...credentials, now: {} });
    // @ts-expect-error verifyResponses: a string
    new GatewayClient({ ...credentials, verifyResponses: '1' });
    // @ts-expect-error verifyResponses: a number
    new GatewayClient({ ...credentials, verifyResponses: 1 });
    // @ts-expect-error verifyResponses: null
    new GatewayClient({ ...credentials, verifyResponses: null });
    // @ts-expect-error retry.maxRetries: a string
    new GatewayClient({ ...credentials, retry: { maxRetries: '2' } });
    // @ts-expect-error hooks.onRequest: a number
    new GatewayClient({ ...credentials, hooks: { onRequest: 1 } });
    // @ts-expect-error hooks.onReconcile: a string
    new GatewayClient({ ...credentials, hooks: { onReconcile: 'log' } });
    // @ts-expect-error logLevel: not a level
    new GatewayClient({ ...credentials, logLevel: 'verbose' });
    // @ts-expect-error logLevel: levels are lower case
    new GatewayClient({ ...credentials, logLevel: 'DEBUG' });
    // @ts-expect-error logLevel: a number
    new GatewayClient({ ...credentials, logLevel: 4 });
    // @ts-expect-error logLevel: null
    new GatewayClient({ ...credentials, logLevel: null });
    // @ts-expect-error logLevel: a boolean
    new GatewayClient({ ...credentials, logLevel: true });
    // @ts-expect-error logger: a function, not an object of methods
    new GatewayClient({ ...credentials, logger: console.log });
    // @ts-expect-error logger: without debug
    new GatewayClient({ ...credentials, logger: { error: hook, warn: hook, info: hook } });
    // @ts-expect-error logger: null
    new GatewayClient({ ...credentials, logger: null });
    // @ts-expect-error logger: a string
    new GatewayClient({ ...credentials, logger: 'console' });
  });

  it('unknown keys', () => {
    // @ts-expect-error ky 1's prefixUrl
    new GatewayClient({ ...credentials, prefixUrl: 'https://pay.example.com' });
    // @ts-expect-error a typo
    new GatewayClient({ ...credentials, secretKey: 's' });
    // @ts-expect-error an unknown retry setting
    new GatewayClient({ ...credentials, retry: { retries: 2 } });
    // @ts-expect-error an unknown hook
    new GatewayClient({ ...credentials, hooks: { onError: hook } });
  });
});

describe('unifiedOrder parameters', () => {
  it('valid calls compile', () => {
    client.unifiedOrder(order);
    client.unifiedOrder({ ...order, wayCode: 'COIN_TRON_USDT', clientIp: '203.0.113.7', notifyUrl: 'https://shop.example.com/n', returnUrl: 'https://shop.example.com/r', expiredTime: 600 });
    client.unifiedOrder({ ...order, channelExtra: { payDataType: 'codeImgUrl', custom: 1 }, extParam: { any: 'thing' }, divisionMode: 2, channelUserId: 'u' });
    client.unifiedOrder({ ...order, wayCode: 'WX_BAR', channelExtra: '{"authCode":"1"}', extParam: '{}', divisionMode: 0 });
  });

  it('each required field missing', () => {
    // @ts-expect-error mchOrderNo is required
    client.unifiedOrder(without(order, 'mchOrderNo'));
    // @ts-expect-error wayCode is required
    client.unifiedOrder(without(order, 'wayCode'));
    // @ts-expect-error amount is required
    client.unifiedOrder(without(order, 'amount'));
    // @ts-expect-error currency is required
    client.unifiedOrder(without(order, 'currency'));
    // @ts-expect-error subject is required
    client.unifiedOrder(without(order, 'subject'));
    // @ts-expect-error body is required
    client.unifiedOrder(without(order, 'body'));
  });

  it('each field of the wrong type', () => {
    // @ts-expect-error mchOrderNo: a number
    client.unifiedOrder({ ...order, mchOrderNo: 1 });
    // @ts-expect-error mchOrderNo: null
    client.unifiedOrder({ ...order, mchOrderNo: null });
    // @ts-expect-error mchOrderNo: an object
    client.unifiedOrder({ ...order, mchOrderNo: {} });
    // @ts-expect-error wayCode: a number
    client.unifiedOrder({ ...order, wayCode: 1 });
    // @ts-expect-error wayCode: null
    client.unifiedOrder({ ...order, wayCode: null });
    // @ts-expect-error wayCode: an object
    client.unifiedOrder({ ...order, wayCode: {} });
    // @ts-expect-error amount: a string
    client.unifiedOrder({ ...order, amount: '1' });
    // @ts-expect-error amount: null
    client.unifiedOrder({ ...order, amount: null });
    // @ts-expect-error amount: an object
    client.unifiedOrder({ ...order, amount: {} });
    // @ts-expect-error currency: a number
    client.unifiedOrder({ ...order, currency: 1 });
    // @ts-expect-error currency: null
    client.unifiedOrder({ ...order, currency: null });
    // @ts-expect-error currency: an object
    client.unifiedOrder({ ...order, currency: {} });
    // @ts-expect-error subject: a number
    client.unifiedOrder({ ...order, subject: 1 });
    // @ts-expect-error subject: null
    client.unifiedOrder({ ...order, subject: null });
    // @ts-expect-error subject: an object
    client.unifiedOrder({ ...order, subject: {} });
    // @ts-expect-error body: a number
    client.unifiedOrder({ ...order, body: 1 });
    // @ts-expect-error body: null
    client.unifiedOrder({ ...order, body: null });
    // @ts-expect-error body: an object
    client.unifiedOrder({ ...order, body: {} });
    // @ts-expect-error clientIp: a number
    client.unifiedOrder({ ...order, clientIp: 1 });
    // @ts-expect-error clientIp: null
    client.unifiedOrder({ ...order, clientIp: null });
    // @ts-expect-error clientIp: an object
    client.unifiedOrder({ ...order, clientIp: {} });
    // @ts-expect-error notifyUrl: a number
    client.unifiedOrder({ ...order, notifyUrl: 1 });
    // @ts-expect-error notifyUrl: null
    client.unifiedOrder({ ...order, notifyUrl: null });
    // @ts-expect-error notifyUrl: an object
    client.unifiedOrder({ ...order, notifyUrl: {} });
    // @ts-expect-error returnUrl: a number
    client.unifiedOrder({ ...order, returnUrl: 1 });
    // @ts-expect-error returnUrl: null
    client.unifiedOrder({ ...order, returnUrl: null });
    // @ts-expect-error returnUrl: an object
    client.unifiedOrder({ ...order, returnUrl: {} });
    // @ts-expect-error expiredTime: a string
    client.unifiedOrder({ ...order, expiredTime: '1' });
    // @ts-expect-error expiredTime: null
    client.unifiedOrder({ ...order, expiredTime: null });
    // @ts-expect-error expiredTime: an object
    client.unifiedOrder({ ...order, expiredTime: {} });
    // @ts-expect-error channelExtra: a number
    client.unifiedOrder({ ...order, channelExtra: 1 });
    // @ts-expect-error channelExtra: null
    client.unifiedOrder({ ...order, channelExtra: null });
    // @ts-expect-error extParam: a number
    client.unifiedOrder({ ...order, extParam: 1 });
    // @ts-expect-error extParam: null
    client.unifiedOrder({ ...order, extParam: null });
    // @ts-expect-error divisionMode: a string
    client.unifiedOrder({ ...order, divisionMode: '1' });
    // @ts-expect-error divisionMode: null
    client.unifiedOrder({ ...order, divisionMode: null });
    // @ts-expect-error divisionMode: an object
    client.unifiedOrder({ ...order, divisionMode: {} });
    // @ts-expect-error channelUserId: a number
    client.unifiedOrder({ ...order, channelUserId: 1 });
    // @ts-expect-error channelUserId: null
    client.unifiedOrder({ ...order, channelUserId: null });
    // @ts-expect-error channelUserId: an object
    client.unifiedOrder({ ...order, channelUserId: {} });
    // @ts-expect-error mchOrderNo: undefined
    client.unifiedOrder({ ...order, mchOrderNo: undefined });
    // @ts-expect-error divisionMode: 3 (only 0, 1, 2)
    client.unifiedOrder({ ...order, divisionMode: 3 });
    // @ts-expect-error divisionMode: -1
    client.unifiedOrder({ ...order, divisionMode: -1 });
    // @ts-expect-error channelExtra.payDataType: not a known value
    client.unifiedOrder({ ...order, channelExtra: { payDataType: 'qr' } });
    // @ts-expect-error channelExtra.authCode: a number
    client.unifiedOrder({ ...order, channelExtra: { authCode: 1 } });
    // @ts-expect-error channelExtra.isSubOpenId: 2 (only 0, 1)
    client.unifiedOrder({ ...order, channelExtra: { isSubOpenId: 2 } });
  });

  it('unknown keys', () => {
    // @ts-expect-error notifyURL, a typo of notifyUrl
    client.unifiedOrder({ ...order, notifyURL: 'https://shop.example.com/n' });
    // @ts-expect-error a field the gateway does not know
    client.unifiedOrder({ ...order, tip: 100 });
  });
});

describe('query parameters', () => {
  it('valid calls compile', () => {
    client.query({ payOrderId: 'P1' });
    client.query({ mchOrderNo: 'o-1' });
    client.query({ payOrderId: 'P1', mchOrderNo: 'o-1' });
  });

  it('each required field missing', () => {
    // @ts-expect-error payOrderId or mchOrderNo is required
    client.query({});
    // @ts-expect-error payOrderId or mchOrderNo (undefined is not an id) is required
    client.query({ payOrderId: undefined });
  });

  it('each field of the wrong type', () => {
    // @ts-expect-error payOrderId: a number
    client.query({ payOrderId: 123 });
    // @ts-expect-error payOrderId: null
    client.query({ payOrderId: null });
    // @ts-expect-error payOrderId: an object
    client.query({ payOrderId: {} });
    // @ts-expect-error mchOrderNo: a number
    client.query({ mchOrderNo: 1001 });
    // @ts-expect-error mchOrderNo: null
    client.query({ mchOrderNo: null });
    // @ts-expect-error mchOrderNo: an object
    client.query({ mchOrderNo: {} });
    // @ts-expect-error mchOrderNo: a number beside a valid payOrderId
    client.query({ payOrderId: 'P1', mchOrderNo: 1001 });
  });

  it('unknown keys', () => {
    // @ts-expect-error orderNo
    client.query({ mchOrderNo: 'o-1', orderNo: 'o-1' });
    // @ts-expect-error only an unknown key
    client.query({ orderId: 'o-1' });
  });
});

describe('close parameters', () => {
  it('valid calls compile', () => {
    client.close({ payOrderId: 'P1' });
    client.close({ mchOrderNo: 'o-1' });
    client.close({ payOrderId: 'P1', mchOrderNo: 'o-1' });
  });

  it('each required field missing', () => {
    // @ts-expect-error payOrderId or mchOrderNo is required
    client.close({});
    // @ts-expect-error payOrderId or mchOrderNo (undefined is not an id) is required
    client.close({ payOrderId: undefined });
  });

  it('each field of the wrong type', () => {
    // @ts-expect-error payOrderId: a number
    client.close({ payOrderId: 123 });
    // @ts-expect-error payOrderId: null
    client.close({ payOrderId: null });
    // @ts-expect-error payOrderId: an object
    client.close({ payOrderId: {} });
    // @ts-expect-error mchOrderNo: a number
    client.close({ mchOrderNo: 1001 });
    // @ts-expect-error mchOrderNo: null
    client.close({ mchOrderNo: null });
    // @ts-expect-error mchOrderNo: an object
    client.close({ mchOrderNo: {} });
    // @ts-expect-error mchOrderNo: a number beside a valid payOrderId
    client.close({ payOrderId: 'P1', mchOrderNo: 1001 });
  });

  it('unknown keys', () => {
    // @ts-expect-error orderNo
    client.close({ mchOrderNo: 'o-1', orderNo: 'o-1' });
    // @ts-expect-error only an unknown key
    client.close({ orderId: 'o-1' });
  });
});

describe('settleAddressApply parameters', () => {
  it('valid calls compile', () => {
    client.settleAddressApply(address);
    client.settleAddressApply({ ...address, remark: 'treasury' });
  });

  it('each required field missing', () => {
    // @ts-expect-error requestId is required
    client.settleAddressApply(without(address, 'requestId'));
    // @ts-expect-error tokenId is required
    client.settleAddressApply(without(address, 'tokenId'));
    // @ts-expect-error address is required
    client.settleAddressApply(without(address, 'address'));
  });

  it('each field of the wrong type', () => {
    // @ts-expect-error requestId: a number
    client.settleAddressApply({ ...address, requestId: 1 });
    // @ts-expect-error requestId: null
    client.settleAddressApply({ ...address, requestId: null });
    // @ts-expect-error requestId: an object
    client.settleAddressApply({ ...address, requestId: {} });
    // @ts-expect-error tokenId: a number
    client.settleAddressApply({ ...address, tokenId: 1 });
    // @ts-expect-error tokenId: null
    client.settleAddressApply({ ...address, tokenId: null });
    // @ts-expect-error tokenId: an object
    client.settleAddressApply({ ...address, tokenId: {} });
    // @ts-expect-error address: a number
    client.settleAddressApply({ ...address, address: 1 });
    // @ts-expect-error address: null
    client.settleAddressApply({ ...address, address: null });
    // @ts-expect-error address: an object
    client.settleAddressApply({ ...address, address: {} });
    // @ts-expect-error remark: a number
    client.settleAddressApply({ ...address, remark: 1 });
    // @ts-expect-error remark: null
    client.settleAddressApply({ ...address, remark: null });
    // @ts-expect-error remark: an object
    client.settleAddressApply({ ...address, remark: {} });
  });

  it('unknown keys', () => {
    // @ts-expect-error a typo
    client.settleAddressApply({ ...address, remarks: 'x' });
  });
});

describe('settleRequest parameters', () => {
  it('valid calls compile', () => {
    client.settleRequest(settlement);
    client.settleRequest({ ...without(settlement, 'address'), addrServerRequestId: 'SRV-1', notifyUrl: 'https://shop.example.com/s' });
  });

  it('each required field missing', () => {
    // @ts-expect-error requestId is required
    client.settleRequest(without(settlement, 'requestId'));
    // @ts-expect-error amount is required
    client.settleRequest(without(settlement, 'amount'));
    // @ts-expect-error tokenId is required
    client.settleRequest(without(settlement, 'tokenId'));
    // @ts-expect-error payoutChannel is required
    client.settleRequest(without(settlement, 'payoutChannel'));
    // @ts-expect-error currency is required
    client.settleRequest(without(settlement, 'currency'));
    // @ts-expect-error no parameters at all
    client.settleRequest(undefined);
    // @ts-expect-error addrServerRequestId or address (neither given) is required
    client.settleRequest(without(settlement, 'address'));
  });

  it('each field of the wrong type', () => {
    // @ts-expect-error requestId: a number
    client.settleRequest({ ...settlement, requestId: 1 });
    // @ts-expect-error requestId: null
    client.settleRequest({ ...settlement, requestId: null });
    // @ts-expect-error requestId: an object
    client.settleRequest({ ...settlement, requestId: {} });
    // @ts-expect-error amount: a string
    client.settleRequest({ ...settlement, amount: '1' });
    // @ts-expect-error amount: null
    client.settleRequest({ ...settlement, amount: null });
    // @ts-expect-error amount: an object
    client.settleRequest({ ...settlement, amount: {} });
    // @ts-expect-error tokenId: a number
    client.settleRequest({ ...settlement, tokenId: 1 });
    // @ts-expect-error tokenId: null
    client.settleRequest({ ...settlement, tokenId: null });
    // @ts-expect-error tokenId: an object
    client.settleRequest({ ...settlement, tokenId: {} });
    // @ts-expect-error payoutChannel: a number
    client.settleRequest({ ...settlement, payoutChannel: 1 });
    // @ts-expect-error payoutChannel: null
    client.settleRequest({ ...settlement, payoutChannel: null });
    // @ts-expect-error payoutChannel: an object
    client.settleRequest({ ...settlement, payoutChannel: {} });
    // @ts-expect-error currency: a number
    client.settleRequest({ ...settlement, currency: 1 });
    // @ts-expect-error currency: null
    client.settleRequest({ ...settlement, currency: null });
    // @ts-expect-error currency: an object
    client.settleRequest({ ...settlement, currency: {} });
    // @ts-expect-error notifyUrl: a number
    client.settleRequest({ ...settlement, notifyUrl: 1 });
    // @ts-expect-error notifyUrl: null
    client.settleRequest({ ...settlement, notifyUrl: null });
    // @ts-expect-error notifyUrl: an object
    client.settleRequest({ ...settlement, notifyUrl: {} });
    // @ts-expect-error address: a number
    client.settleRequest({ ...settlement, address: 1 });
    // @ts-expect-error address: null
    client.settleRequest({ ...settlement, address: null });
    // @ts-expect-error address: an object
    client.settleRequest({ ...settlement, address: {} });
    // @ts-expect-error payoutChannel: 'OffRamp': only Crypto
    client.settleRequest({ ...settlement, payoutChannel: 'OffRamp' });
    // @ts-expect-error payoutChannel: 'crypto': the exact spelling
    client.settleRequest({ ...settlement, payoutChannel: 'crypto' });
    // @ts-expect-error currency: 'EUR': USD only
    client.settleRequest({ ...settlement, currency: 'EUR' });
    // @ts-expect-error address and addrServerRequestId: both given
    client.settleRequest({ ...settlement, addrServerRequestId: 'SRV-1' });
    // @ts-expect-error addrServerRequestId: a number
    client.settleRequest({ ...without(settlement, 'address'), addrServerRequestId: 1 });
  });

  it('unknown keys', () => {
    // @ts-expect-error a typo
    client.settleRequest({ ...settlement, adress: 'T1' });
    // @ts-expect-error a field the gateway does not know
    client.settleRequest({ ...settlement, memo: 'x' });
  });
});

describe('settleRequestGet parameters', () => {
  it('valid calls compile', () => {
    client.settleRequestGet({ requestId: 'r-1' });
  });

  it('each required field missing', () => {
    // @ts-expect-error requestId is required
    client.settleRequestGet({});
  });

  it('each field of the wrong type', () => {
    // @ts-expect-error requestId: a number
    client.settleRequestGet({ requestId: 1 });
    // @ts-expect-error requestId: null
    client.settleRequestGet({ requestId: null });
    // @ts-expect-error requestId: an object
    client.settleRequestGet({ requestId: {} });
  });

  it('unknown keys', () => {
    // @ts-expect-error serverRequestId is not a lookup key here
    client.settleRequestGet({ requestId: 'r-1', serverRequestId: 'SRV-1' });
  });
});

describe('verifyNotification options', () => {
  it('valid calls compile', () => {
    void verifyNotification('body', merchant);
    void verifyNotification('body', { ...merchant, ignoreKeys: ['shop'], maxAgeMs: 60_000, now: Date.now, expect: { mchOrderNo: 'o-1', amount: 1999, currency: 'USD' } });
    void client.verifyNotification('body', { expect: { amount: 1999 }, ignoreKeys: ['shop'] });
  });

  it('each required field missing', () => {
    // @ts-expect-error secret is required
    void verifyNotification('body', without(merchant, 'secret'));
    // @ts-expect-error mchNo is required
    void verifyNotification('body', without(merchant, 'mchNo'));
    // @ts-expect-error appId is required
    void verifyNotification('body', without(merchant, 'appId'));
  });

  it('each field of the wrong type', () => {
    // @ts-expect-error secret: a number
    void verifyNotification('body', { ...merchant, secret: 1 });
    // @ts-expect-error secret: null
    void verifyNotification('body', { ...merchant, secret: null });
    // @ts-expect-error secret: an object
    void verifyNotification('body', { ...merchant, secret: {} });
    // @ts-expect-error mchNo: a number
    void verifyNotification('body', { ...merchant, mchNo: 1 });
    // @ts-expect-error mchNo: null
    void verifyNotification('body', { ...merchant, mchNo: null });
    // @ts-expect-error mchNo: an object
    void verifyNotification('body', { ...merchant, mchNo: {} });
    // @ts-expect-error appId: a number
    void verifyNotification('body', { ...merchant, appId: 1 });
    // @ts-expect-error appId: null
    void verifyNotification('body', { ...merchant, appId: null });
    // @ts-expect-error appId: an object
    void verifyNotification('body', { ...merchant, appId: {} });
    // @ts-expect-error ignoreKeys: a string
    void verifyNotification('body', { ...merchant, ignoreKeys: '1' });
    // @ts-expect-error ignoreKeys: null
    void verifyNotification('body', { ...merchant, ignoreKeys: null });
    // @ts-expect-error ignoreKeys: an array of numbers
    void verifyNotification('body', { ...merchant, ignoreKeys: [1] });
    // @ts-expect-error maxAgeMs: a string
    void verifyNotification('body', { ...merchant, maxAgeMs: '1' });
    // @ts-expect-error maxAgeMs: null
    void verifyNotification('body', { ...merchant, maxAgeMs: null });
    // @ts-expect-error maxAgeMs: an object
    void verifyNotification('body', { ...merchant, maxAgeMs: {} });
    // @ts-expect-error now: a number
    void verifyNotification('body', { ...merchant, now: 1 });
    // @ts-expect-error now: null
    void verifyNotification('body', { ...merchant, now: null });
    // @ts-expect-error expect: a number
    void verifyNotification('body', { ...merchant, expect: 1 });
    // @ts-expect-error expect: null
    void verifyNotification('body', { ...merchant, expect: null });
    // @ts-expect-error expect.amount: a string
    void verifyNotification('body', { ...merchant, expect: { amount: '19.99' } });
    // @ts-expect-error expect.currency: a number
    void verifyNotification('body', { ...merchant, expect: { currency: 840 } });
    // @ts-expect-error expect.mchOrderNo: null
    void verifyNotification('body', { ...merchant, expect: { mchOrderNo: null } });
  });

  it('unknown keys', () => {
    // @ts-expect-error a typo
    void verifyNotification('body', { ...merchant, maxAge: 1 });
    // @ts-expect-error expect takes only the fields it can check
    void verifyNotification('body', { ...merchant, expect: { payOrderId: 'P1' } });
    void verifyNotification('body', { ...merchant, expect: { state: 2 } });
    void verifyNotification('body', { ...merchant, expect: { state: [2, 5] } });
    // @ts-expect-error expect.state: not a pay-order state
    void verifyNotification('body', { ...merchant, expect: { state: 7 } });
    // @ts-expect-error expect.state: a state's name is not its code
    void verifyNotification('body', { ...merchant, expect: { state: 'Succeeded' } });
    // @ts-expect-error a settlement's expectation
    void verifyNotification('body', { ...merchant, expect: { requestId: 'r-1' } });
  });
});

describe('verifySettlementNotification options', () => {
  it('valid calls compile', () => {
    void verifySettlementNotification('body', { ...merchant, expect: { requestId: 'r-1', amount: 1, currency: 'USD', tokenId: 'TRON_USDT' } });
    void client.verifySettlementNotification('body', { expect: { requestId: 'r-1' } });
  });

  it('each required field missing', () => {
    // @ts-expect-error secret is required
    void verifySettlementNotification('body', without(merchant, 'secret'));
    // @ts-expect-error mchNo is required
    void verifySettlementNotification('body', without(merchant, 'mchNo'));
    // @ts-expect-error appId is required
    void verifySettlementNotification('body', without(merchant, 'appId'));
  });

  it('each field of the wrong type', () => {
    // @ts-expect-error secret: a number
    void verifySettlementNotification('body', { ...merchant, secret: 1 });
    // @ts-expect-error secret: null
    void verifySettlementNotification('body', { ...merchant, secret: null });
    // @ts-expect-error secret: an object
    void verifySettlementNotification('body', { ...merchant, secret: {} });
    // @ts-expect-error mchNo: a number
    void verifySettlementNotification('body', { ...merchant, mchNo: 1 });
    // @ts-expect-error mchNo: null
    void verifySettlementNotification('body', { ...merchant, mchNo: null });
    // @ts-expect-error mchNo: an object
    void verifySettlementNotification('body', { ...merchant, mchNo: {} });
    // @ts-expect-error appId: a number
    void verifySettlementNotification('body', { ...merchant, appId: 1 });
    // @ts-expect-error appId: null
    void verifySettlementNotification('body', { ...merchant, appId: null });
    // @ts-expect-error appId: an object
    void verifySettlementNotification('body', { ...merchant, appId: {} });
    // @ts-expect-error ignoreKeys: a string
    void verifySettlementNotification('body', { ...merchant, ignoreKeys: 'shop' });
    // @ts-expect-error ignoreKeys: null
    void verifySettlementNotification('body', { ...merchant, ignoreKeys: null });
    // @ts-expect-error ignoreKeys: an array of numbers
    void verifySettlementNotification('body', { ...merchant, ignoreKeys: [1] });
    // @ts-expect-error now: a number
    void verifySettlementNotification('body', { ...merchant, now: 1 });
    // @ts-expect-error now: null
    void verifySettlementNotification('body', { ...merchant, now: null });
    // @ts-expect-error expect: a number
    void verifySettlementNotification('body', { ...merchant, expect: 1 });
    // @ts-expect-error expect: null
    void verifySettlementNotification('body', { ...merchant, expect: null });
    // @ts-expect-error expect.requestId: null
    void verifySettlementNotification('body', { ...merchant, expect: { requestId: null } });
    // @ts-expect-error expect.requestId: an object
    void verifySettlementNotification('body', { ...merchant, expect: { requestId: {} } });
    // @ts-expect-error expect.amount: null
    void verifySettlementNotification('body', { ...merchant, expect: { amount: null } });
    // @ts-expect-error expect.currency: a number
    void verifySettlementNotification('body', { ...merchant, expect: { currency: 840 } });
    // @ts-expect-error expect.tokenId: a number
    void verifySettlementNotification('body', { ...merchant, expect: { tokenId: 1 } });
    // @ts-expect-error expect.requestId: a number
    void verifySettlementNotification('body', { ...merchant, expect: { requestId: 1 } });
    // @ts-expect-error expect.amount: a string
    void verifySettlementNotification('body', { ...merchant, expect: { amount: '1' } });
    // @ts-expect-error expect.tokenId: null
    void verifySettlementNotification('body', { ...merchant, expect: { tokenId: null } });
    // @ts-expect-error maxAgeMs: a string
    void verifySettlementNotification('body', { ...merchant, maxAgeMs: '1' });
  });

  it('unknown keys', () => {
    // @ts-expect-error a payment's expectation
    void verifySettlementNotification('body', { ...merchant, expect: { mchOrderNo: 'o-1' } });
    // @ts-expect-error a typo
    void verifySettlementNotification('body', { ...merchant, ignoreKey: ['shop'] });
  });
});

describe('client notification options', () => {
  it("the client's own credentials cannot be overridden", () => {
    // @ts-expect-error the client's secret is used
    void client.verifyNotification('body', { secret: 'other' });
    // @ts-expect-error the client's mchNo is used
    void client.verifySettlementNotification('body', { mchNo: 'M2' });
  });
});

describe('waitForOrder', () => {
  it('valid calls compile', () => {
    void client.waitForOrder({ mchOrderNo: 'o-1' });
    void client.waitForOrder({ payOrderId: 'P1' }, { intervalMs: 500, maxIntervalMs: 2_000, timeout: 8_000, signal: AbortSignal.timeout(9_000), until: (order) => order.state === 2 });
  });

  it('wrong calls do not', () => {
    // @ts-expect-error payOrderId or mchOrderNo
    void client.waitForOrder({});
    // @ts-expect-error payOrderId: a number
    void client.waitForOrder({ payOrderId: 1 });
    // @ts-expect-error intervalMs: a string
    void client.waitForOrder({ mchOrderNo: 'o-1' }, { intervalMs: '1s' });
    // @ts-expect-error timeout: null
    void client.waitForOrder({ mchOrderNo: 'o-1' }, { timeout: null });
    // @ts-expect-error until: not a predicate of the order
    void client.waitForOrder({ mchOrderNo: 'o-1' }, { until: (order: string) => order === 'paid' });
    // @ts-expect-error signal: not an AbortSignal
    void client.waitForOrder({ mchOrderNo: 'o-1' }, { signal: {} });
    // @ts-expect-error an unknown option
    void client.waitForOrder({ mchOrderNo: 'o-1' }, { interval: 500 });
  });
});
