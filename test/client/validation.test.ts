import { describe, expect, it } from 'vitest';
import { GatewayClient, GatewayValidationError, type UnifiedOrderParams } from '../../src/index.js';

type ValidationIssue = GatewayValidationError.ValidationIssue;
import { CREDENTIALS, signedEnvelope, useWire } from '../support/wire.js';

const wire = useWire();
const client = new GatewayClient(CREDENTIALS);
const order: UnifiedOrderParams = { mchOrderNo: 'o-1', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', subject: 's', body: 'b' };
const settlement = { requestId: 'set-1', amount: 100, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: 'TXYZ' } as const;

async function issuesOf(call: () => Promise<unknown>): Promise<ValidationIssue[]> {
  wire.replyWith(signedEnvelope({}));
  const error = await call().then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(GatewayValidationError);
  expect(wire.captured).toHaveLength(0); // nothing was sent
  return [...(error as GatewayValidationError).issues];
}

const paths = (issues: ValidationIssue[]) => issues.map((i) => i.path.join('.'));

describe('unifiedOrder input validation (nothing is sent)', () => {
  it.each([
    ['mchOrderNo', { mchOrderNo: '' }, /must not be empty/],
    ['wayCode', { wayCode: 5 }, /must be a string/],
    ['amount', { amount: 0 }, /at least 1/],
    ['amount', { amount: 10.5 }, /integer number of minor units/],
    ['amount', { amount: 2 ** 53 }, /safe integer/],
    ['amount', { amount: '100' }, /minor units/],
    ['currency', { currency: undefined }, /required/],
    ['subject', { subject: '' }, /must not be empty/],
    ['body', { body: null }, /must be a string/],
    ['notifyUrl', { notifyUrl: 'shop.example.com/notify' }, /absolute http\(s\) URL/],
    ['returnUrl', { returnUrl: 'ftp://x' }, /absolute http\(s\) URL/],
    ['expiredTime', { expiredTime: 0 }, /at least 1/],
    ['divisionMode', { divisionMode: 3 }, /0 \(not divided\), 1 \(automatic\) or 2 \(manual\)/],
    ['channelExtra', { channelExtra: 5 }, /object .* or a JSON string/],
    ['channelExtra.payDataType', { channelExtra: { payDataType: 'qr' } }, /must be one of payurl/],
    ['currency', { currency: 'EURO' }, /three-letter currency code/],
    ['currency', { currency: 'US' }, /three-letter currency code/],
    ['currency', { currency: 'U$D' }, /three-letter currency code/],
    ['extParam', { extParam: { big: 1n } }, /cannot be serialized/],
  ])('%s: %o', async (path, patch, message) => {
    const issues = await issuesOf(() => client.unifiedOrder({ ...order, ...patch } as never));
    expect(paths(issues)).toContain(path);
    expect(issues.find((i) => i.path.join('.') === path)?.message).toMatch(message);
  });

  it('names an unknown key and suggests the right spelling (notifyURL)', async () => {
    const issues = await issuesOf(() => client.unifiedOrder({ ...order, notifyURL: 'https://shop.test/n' } as never));
    expect(issues).toEqual([{ path: ['notifyURL'], message: expect.stringMatching(/unknown field 'notifyURL'.*Did you mean 'notifyUrl'\?/) }]);
  });

  it('suggests a known field for a near miss (notifyUrll)', async () => {
    const issues = await issuesOf(() => client.unifiedOrder({ ...order, notifyUrll: 'https://shop.test/n' } as never));
    expect(issues[0]?.message).toMatch(/Did you mean 'notifyUrl'\?/);
  });

  // A misspelled channelExtra key is ignored by the gateway: payDatatype would silently give a codeUrl.
  it.each([
    ['payDatatype', 'payDataType'],
    ['pay_data_type', 'payDataType'],
    ['paydataType', 'payDataType'],
    ['payDataTyp', 'payDataType'],
    ['authcode', 'authCode'],
    ['authCdoe', 'authCode'],
    ['openId', 'openid'],
    ['buyerUserID', 'buyerUserId'],
    ['cancelURL', 'cancelUrl'],
  ])('refuses channelExtra.%s and suggests %s', async (typo, meant) => {
    const issues = await issuesOf(() => client.unifiedOrder({ ...order, channelExtra: { [typo]: 'codeImgUrl' } }));
    expect(issues).toEqual([{ path: ['channelExtra', typo], message: expect.stringContaining(`did you mean '${meant}'?`) }]);
  });

  it('sends channelExtra keys of other channels and the known keys as given', async () => {
    wire.replyWith(signedEnvelope({ payOrderId: 'P1', mchOrderNo: 'o-1', orderState: 1 }));
    const channelExtra = { payDataType: 'codeImgUrl', storeId: 'S-9', deviceInfo: 'POS-1', user: 'u' } as const;
    await client.unifiedOrder({ ...order, channelExtra });
    expect(wire.captured[0]?.body.channelExtra).toBe(JSON.stringify(channelExtra));
  });

  it('accepts a currency code in either case', async () => {
    wire.replyWith(signedEnvelope({ payOrderId: 'P1', mchOrderNo: 'o-1', orderState: 1 }));
    await client.unifiedOrder({ ...order, currency: 'usd' });
    expect(wire.captured[0]?.body.currency).toBe('usd');
  });

  it('lists what the operation sends for an unknown key with no near match', async () => {
    const issues = await issuesOf(() => client.unifiedOrder({ ...order, tip: 5 } as never));
    expect(issues[0]?.message).toMatch(/sends only: mchOrderNo, wayCode, amount/);
  });

  it('refuses the common fields as parameters: the client sets them', async () => {
    const issues = await issuesOf(() => client.unifiedOrder({ ...order, mchNo: 'M2', sign: 'X' } as never));
    expect(paths(issues).sort()).toEqual(['mchNo', 'sign']);
  });

  it('reports every problem at once', async () => {
    const issues = await issuesOf(() => client.unifiedOrder({ mchOrderNo: '', amount: -1 } as never));
    expect(paths(issues)).toEqual(expect.arrayContaining(['mchOrderNo', 'wayCode', 'amount', 'currency', 'subject', 'body']));
    expect(issues.length).toBeGreaterThanOrEqual(6);
  });

  it('requires channelExtra.authCode for barcode ways', async () => {
    const issues = await issuesOf(() => client.unifiedOrder({ ...order, wayCode: 'WX_BAR' }));
    expect(issues).toEqual([{ path: ['channelExtra'], message: expect.stringMatching(/authCode/) }]);
    const fromString = await issuesOf(() => client.unifiedOrder({ ...order, wayCode: 'AUTO_BAR', channelExtra: '{"authCode":""}' }));
    expect(paths(fromString)).toEqual(['channelExtra']);
  });

  it('refuses a non-object argument', async () => {
    const issues = await issuesOf(() => client.unifiedOrder(null as never));
    expect(issues[0]?.message).toMatch(/must be an object/);
  });

  it('error message lists each problem with its path', async () => {
    wire.replyWith(signedEnvelope({}));
    await expect(client.unifiedOrder({ ...order, amount: 0, subject: '' })).rejects.toThrow(/amount: must be at least 1.*; subject: must not be empty/);
  });
});

describe('query and close need at least one id', () => {
  it.each(['query', 'close'] as const)('%s without ids', async (op) => {
    const issues = await issuesOf(() => client[op]({} as never));
    expect(issues[0]?.message).toMatch(/payOrderId or mchOrderNo/);
  });
  it.each(['query', 'close'] as const)('%s with an empty id', async (op) => {
    const issues = await issuesOf(() => client[op]({ mchOrderNo: '' } as never));
    expect(paths(issues)).toContain('mchOrderNo');
  });
});

describe('settleRequest rules', () => {
  it('allows only payoutChannel Crypto and says so', async () => {
    const issues = await issuesOf(() => client.settleRequest({ ...settlement, payoutChannel: 'OffRamp' } as never));
    expect(issues).toEqual([{ path: ['payoutChannel'], message: expect.stringMatching(/must be 'Crypto'.*OffRamp fiat payouts are not/) }]);
  });

  it('allows only currency USD and says so', async () => {
    const issues = await issuesOf(() => client.settleRequest({ ...settlement, currency: 'EUR' } as never));
    expect(issues[0]?.message).toMatch(/must be 'USD'/);
  });

  it('needs exactly one of addrServerRequestId and address', async () => {
    const both = await issuesOf(() => client.settleRequest({ ...settlement, addrServerRequestId: 'SRV-1' } as never));
    expect(both[0]?.message).toMatch(/exactly one of addrServerRequestId/);
    const { address: _drop, ...neither } = settlement;
    const none = await issuesOf(() => client.settleRequest(neither as never));
    expect(none[0]?.message).toMatch(/exactly one of addrServerRequestId/);
  });

  it('refuses the OffRamp bank fields', async () => {
    const issues = await issuesOf(() => client.settleRequest({ ...settlement, bankName: 'X', bankAccount: '1' } as never));
    expect(paths(issues).sort()).toEqual(['bankAccount', 'bankName']);
  });

  it('settleAddressApply needs requestId, tokenId and address', async () => {
    const issues = await issuesOf(() => client.settleAddressApply({} as never));
    expect(paths(issues).sort()).toEqual(['address', 'requestId', 'tokenId']);
  });

  it('settleRequestGet needs requestId', async () => {
    const issues = await issuesOf(() => client.settleRequestGet({ requestId: '' }));
    expect(paths(issues)).toEqual(['requestId']);
  });
});

describe('client options', () => {
  it('refuses missing credentials and a bad baseUrl, listing each', () => {
    const error = (() => {
      try {
        new GatewayClient({ baseUrl: 'gateway.example.com', mchNo: '', appId: 'a' } as never);
      } catch (e) {
        return e as GatewayValidationError;
      }
    })();
    expect(error).toBeInstanceOf(GatewayValidationError);
    expect(paths([...(error?.issues ?? [])]).sort()).toEqual(['baseUrl', 'mchNo', 'secret']);
  });

  it('refuses an unknown option such as ky 1 prefixUrl', () => {
    expect(() => new GatewayClient({ ...CREDENTIALS, prefixUrl: 'x' } as never)).toThrow(/unknown option 'prefixUrl'\. The options are: baseUrl, mchNo/);
  });

  it('refuses a clock that is not 13-digit milliseconds, before sending', async () => {
    const seconds = new GatewayClient({ ...CREDENTIALS, now: () => 1_700_000_000 });
    const issues = await issuesOf(() => seconds.query({ payOrderId: 'P1' }));
    expect(issues[0]).toEqual({ path: ['reqTime'], message: expect.stringMatching(/13 digits/) });
  });

  it('refuses a bad per-call timeout, before sending', async () => {
    const issues = await issuesOf(() => client.query({ payOrderId: 'P1' }, { timeout: -5 }));
    expect(paths(issues)).toEqual(['timeout']);
  });
});
