// Issue 16: a verified message means what the gateway signed, for what was asked. Each attack of the
// outside review, through the public API: re-split signed fields, substituted and replayed responses,
// inexact reconciliation, unsigned members, unpaid-order messages, and a shared headers object.
import { describe, expect, it } from 'vitest';
import {
  GatewayClient,
  GatewayOutcomeUnknownError,
  GatewayReconciliationMismatchError,
  GatewayResponseMismatchError,
  GatewayResponseValidationError,
  GatewayValidationError,
  PayOrderState,
  verifyNotification,
  verifySign,
} from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';
import { referenceSign } from '../support/java-order.js';
import { formBody, MERCHANT, PAY_FIELDS, signedFields } from '../support/notification.js';
import { rejection } from '../support/rejection.js';
import { fieldsOf, form, readingsOf, signedText } from '../support/resplit.js';

const ALL_STATES = [0, 1, 2, 3, 4, 5, 6] as const;
const BASE_URL = 'https://gateway.test';

// The payer's gift message, copied by the merchant into subject; the order itself is unpaid (state 0).
const GIFT = 'Happy birthday&state=2&subject=Happy birthday';

describe('re-split signed fields cannot forge a paid notification (finding 1)', () => {
  // The cashier's returnUrl message of the unpaid order, as the payer's browser receives it.
  const genuine = signedFields({ state: '0', subject: GIFT, successTime: undefined, extParam: undefined });
  const expectFromOrder = { mchOrderNo: PAY_FIELDS.mchOrderNo, amount: Number(PAY_FIELDS.amount), currency: PAY_FIELDS.currency };

  it('(a) a field name holding "=" and "&" that swallows the genuine state=0 is refused', async () => {
    const fields = fieldsOf(genuine);
    fields.delete('state');
    fields.delete('subject');
    const forged = new Map([...fields, ['state=0&subject', 'Happy birthday'], ['state', '2'], ['subject', 'Happy birthday']]);
    expect(signedText(forged)).toBe(signedText(fieldsOf(genuine))); // the same signed text: the signature holds
    expect(referenceSign(forged, MERCHANT.secret)).toBe(genuine.sign);
    const error = await rejection(verifyNotification(form(forged, genuine.sign!), { ...MERCHANT, expect: expectFromOrder }));
    expect(error).toBeInstanceOf(GatewayValidationError);
    expect(error.message).toMatch(/"state=0&subject", not an identifier/);
  });

  it('(b) plain names, another field swallowing "&state=0&…", is refused naming the field', async () => {
    // Without reqTime between them (a returnUrl carries what the gateway chooses), payOrderId precedes state.
    const fields = fieldsOf(signedFields({ state: '0', subject: GIFT, successTime: undefined, extParam: undefined, reqTime: undefined }));
    const forged = new Map(fields);
    forged.set('payOrderId', `${fields.get('payOrderId') ?? ''}&state=0&subject=Happy birthday`);
    forged.set('state', '2');
    forged.set('subject', 'Happy birthday');
    expect(signedText(forged)).toBe(signedText(fields));
    const sign = referenceSign(fields, MERCHANT.secret)!;
    const error = (await rejection(verifyNotification(form(forged, sign), { ...MERCHANT, expect: expectFromOrder }))) as GatewayValidationError;
    expect(error.issues).toEqual([{ path: ['payOrderId'], message: expect.stringMatching(/^contains '&state=': the gateway's signature cannot tell where this field ends/) }]);
    // And with reqTime present, reqTime swallowing the rest is refused the same way.
    const withTime = fieldsOf(genuine);
    const forgedTime = new Map(withTime);
    forgedTime.set('reqTime', `${withTime.get('reqTime') ?? ''}&state=0&subject=Happy birthday`);
    forgedTime.set('state', '2');
    forgedTime.set('subject', 'Happy birthday');
    expect(signedText(forgedTime)).toBe(signedText(withTime));
    await expect(verifyNotification(form(forgedTime, genuine.sign!), { ...MERCHANT, expect: expectFromOrder })).rejects.toThrow(/reqTime: contains '&state='/);
  });

  // Issue 23 changed this rule: the genuine message has one accepted reading (no other reading keeps payOrderId,
  // reqTime and state free of '&name=' and the known fields where they start), so it is accepted as what it is:
  // unpaid. Before, it was refused, and a paid order with such a subject could never be read.
  it('the genuine message itself is read as what it is: state 0, refused as a payment by default', async () => {
    const read = await verifyNotification(formBody(genuine), { ...MERCHANT, expect: { state: ALL_STATES } });
    expect(read).toMatchObject({ state: 0, subject: GIFT });
    expect(read.ambiguousFields).toBeUndefined();
    await expect(verifyNotification(formBody(genuine), MERCHANT)).rejects.toThrow(/state: is 0, but 2 was expected/);
  });

  it('verifySign, the public primitive, is false for every re-split of a genuine signed message, and for the genuine ambiguous one', () => {
    const genuineFields = fieldsOf(genuine);
    const readings = readingsOf(signedText(genuineFields), 200, 16);
    expect(readings.length).toBeGreaterThan(1);
    for (const reading of readings) expect(verifySign(reading, MERCHANT.secret, genuine.sign)).toBe(false);
    // The signature alone holds for each of them: the refusal is the one-reading rule, not a wrong sign.
    for (const reading of readings) expect(referenceSign(reading, MERCHANT.secret)).toBe(genuine.sign);
    // An unambiguous genuine message verifies; a URL field may keep its query string only when named.
    const plain = signedFields();
    expect(verifySign(fieldsOf(plain), MERCHANT.secret, plain.sign)).toBe(true);
    const settlement = { requestId: 's-1', notifyUrl: 'https://shop.example/settle?shop=eu&tenant=7', amount: '500' };
    const settlementSign = referenceSign(new Map(Object.entries(settlement)), MERCHANT.secret);
    expect(verifySign(settlement, MERCHANT.secret, settlementSign)).toBe(false);
    expect(verifySign(settlement, MERCHANT.secret, settlementSign, { urlField: 'notifyUrl' })).toBe(true);
    // A name that is no identifier is never one reading.
    const oddName = { 'state=0&subject': 'x', state: '2' };
    expect(verifySign(oddName, MERCHANT.secret, referenceSign(new Map(Object.entries(oddName)), MERCHANT.secret))).toBe(false);
  });

  it('a query response re-split on the network (payOrderId swallowing "&state=0&subject=…") is refused', async () => {
    const record = {
      payOrderId: 'P1', mchNo: MERCHANT.mchNo, appId: MERCHANT.appId, mchOrderNo: 'gift-1', ifCode: 'coinpay', wayCode: 'QR_CASHIER',
      amount: '100', currency: 'USD', state: '0', subject: GIFT, body: 'b', createdAt: '1700000000000',
    };
    const genuineFields = new Map(Object.entries(record));
    const sign = referenceSign(genuineFields, MERCHANT.secret)!;
    const forged = { ...record, payOrderId: 'P1&state=0&subject=Happy birthday', state: '2', subject: 'Happy birthday' };
    expect(signedText(new Map(Object.entries(forged)))).toBe(signedText(genuineFields));
    const data = Object.fromEntries(Object.entries(forged).map(([k, v]) => [k, /^\d+$/.test(v) ? Number(v) : v]));
    const client = new GatewayClient({ baseUrl: BASE_URL, ...MERCHANT, fetch: async () => Response.json({ code: 200, msg: 'SUCCESS', data, sign }), retry: { maxRetries: 0 } });
    const error = (await rejection(client.query({ mchOrderNo: 'gift-1' }))) as GatewayResponseValidationError;
    expect(error).toBeInstanceOf(GatewayResponseValidationError);
    expect(error.issues).toEqual([{ path: ['data', 'payOrderId'], message: expect.stringMatching(/contains '&state='/) }]);
  });

  it('the SDK refuses such text at the source where a reading of the request would differ: no order it creates can be re-split', async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT] });
    const client = new GatewayClient({ baseUrl: BASE_URL, ...MERCHANT, fetch: gateway.fetch });
    const order = { mchOrderNo: 'gift-2', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', subject: 'Gift', body: 'b' };
    // Ids and other fields that are not free text never hold '&name=' (issue 16).
    for (const [field, value] of [['mchOrderNo', 'o&x=1'], ['clientIp', '1.2.3.4&y=1']] as const) {
      const error = (await rejection(client.unifiedOrder({ ...order, [field]: value }))) as GatewayValidationError;
      expect(error, field).toBeInstanceOf(GatewayValidationError);
      expect(error.issues[0]?.path).toEqual([field]);
      expect(error.issues[0]?.message).toMatch(/its signature could not tell this text from a field/);
    }
    // Free text is refused where the request has another reading (issue 23): body then Color sort before currency.
    const split = (await rejection(client.unifiedOrder({ ...order, body: 'Size=M&Color=Red' }))) as GatewayValidationError;
    expect(split.issues).toEqual([{ path: ['body'], message: expect.stringMatching(/^holds '&name=' where the gateway's signature could also be read as another field \('Color'\)/) }]);
    // Free text the request reads one way only is sent: its fields are all present, or sort elsewhere.
    await client.unifiedOrder({ ...order, subject: GIFT, body: 'a&amount=1', extParam: { note: 'x&state=2' } });
    await client.unifiedOrder({ ...order, mchOrderNo: 'gift-3', body: 'Size=M&Color=Red', clientIp: '1.2.3.4', notifyUrl: 'https://shop.example/n?x=1&amount=5' });
    // Text with '&' that starts no field is fine: "Tom & Jerry", "a&1=b".
    await client.unifiedOrder({ ...order, mchOrderNo: 'gift-4', subject: 'Tom & Jerry', body: 'x&1=2' });
    expect(gateway.requests.filter((r) => r.operation === 'unifiedOrder')).toHaveLength(3);
    // A settlement's notifyUrl sorts right before payoutChannel: a parameter between them ('order') could be read as a field.
    const payout = { requestId: 'url-1', amount: 5, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf' } as const;
    await expect(client.settleRequest({ ...payout, notifyUrl: 'https://shop.example/s?t=1&order=5' })).rejects.toThrow(/notifyUrl: holds '&name=' where the gateway's signature could also be read as another field \('order'\)/);
    await client.settleRequest({ ...payout, notifyUrl: 'https://shop.example/s?t=1&shop=eu' });
    await expect(client.settleRequestGet({ requestId: 'url-1' })).resolves.toMatchObject({ notifyUrl: 'https://shop.example/s?t=1&shop=eu' });
    await expect(client.settleAddressApply({ requestId: 'addr-x', tokenId: 'TRON_USDT', address: 'T1&amount=9' })).rejects.toThrow(/address: contains '&amount='/);
    expect(gateway.requests.filter((r) => r.operation !== 'unifiedOrder' && r.operation !== 'settleRequestGet')).toHaveLength(1);
  });
});

/** A mock gateway behind a network that may answer in its place. */
function hostileNetwork(intercept: (operation: string, body: Record<string, unknown>) => Response | 'forward' | Promise<Response | 'forward'> = () => 'forward', merchants = [MERCHANT]) {
  const gateway = createMockGateway({ merchants });
  const recorded = new Map<string, string>();
  const fetch: GatewayClient.FetchLike = async (url, init) => {
    const operation = url.split('/').pop() ?? '';
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    const answer = await intercept(operation, body);
    if (answer !== 'forward') return answer;
    const response = await gateway.fetch(url, init);
    const text = await response.text();
    recorded.set(`${operation}:${String(body.mchOrderNo ?? body.payOrderId ?? body.requestId)}`, text);
    return new Response(text, { status: response.status, headers: response.headers });
  };
  const client = (merchant = MERCHANT) => new GatewayClient({ baseUrl: BASE_URL, ...merchant, fetch, retry: { initialDelayMs: 1, maxDelayMs: 2 } });
  const replay = (key: string) => new Response(recorded.get(key), { headers: { 'content-type': 'application/json' } });
  return { gateway, client, recorded, replay };
}

const cheapOrder = (mchOrderNo: string, amount = 100) => ({ mchOrderNo, wayCode: 'QR_CASHIER', amount, currency: 'USD', subject: 'Sofa', body: 'Sofa' }) as const;

describe('responses are bound to the request and the client (finding 2)', () => {
  async function withPaidCheapOrder(intercept: Parameters<typeof hostileNetwork>[0]) {
    let armed = false;
    const network = hostileNetwork((op, body) => (armed ? intercept!(op, body) : 'forward'));
    const client = network.client();
    const cheap = await client.unifiedOrder(cheapOrder('A-cheap'));
    network.gateway.payOrder('A-cheap');
    await client.query({ mchOrderNo: 'A-cheap' }); // the genuine signed record of the paid cheap order, recorded
    await client.query({ payOrderId: cheap.payOrderId });
    const fresh = await client.unifiedOrder(cheapOrder('B-new', 500000));
    armed = true;
    return { ...network, client, cheap, fresh };
  }

  it("query({ mchOrderNo: 'B-new' }) answered with A-cheap's genuine paid record is a mismatch, never A-cheap", async () => {
    const { client, replay } = await withPaidCheapOrder((op) => (op === 'query' ? replay('query:A-cheap') : 'forward'));
    const error = (await rejection(client.query({ mchOrderNo: 'B-new' }))) as GatewayResponseMismatchError;
    expect(error).toBeInstanceOf(GatewayResponseMismatchError);
    expect(error).toMatchObject({ operation: 'query', field: 'mchOrderNo', expected: 'B-new', found: 'A-cheap' });
    expect(error.message).toMatch(/asked for mchOrderNo 'B-new', but the signed response is for mchOrderNo "A-cheap"/);
  });

  it('so is query({ payOrderId }), and waitForOrder ends with the mismatch', async () => {
    const { client, replay, cheap, fresh } = await withPaidCheapOrder((op) => (op === 'query' ? replay(`query:${cheap.payOrderId}`) : 'forward'));
    await expect(client.query({ payOrderId: fresh.payOrderId })).rejects.toMatchObject({ name: 'GatewayResponseMismatchError', field: 'payOrderId', expected: fresh.payOrderId });
    await expect(client.waitForOrder({ payOrderId: fresh.payOrderId }, { intervalMs: 1, timeout: 2_000 })).rejects.toBeInstanceOf(GatewayResponseMismatchError);
  });

  it('a create answered with a replayed create response of another mchOrderNo is looked up, and resolves to its own order', async () => {
    let replayed = false;
    const { client, replay, gateway } = await withPaidCheapOrder((op) => {
      if (op !== 'unifiedOrder' || replayed) return 'forward';
      replayed = true;
      return replay('unifiedOrder:A-cheap'); // the request never reaches the gateway
    });
    const result = await client.withResponse('unifiedOrder', cheapOrder('C-mine', 700));
    expect(result.data).toMatchObject({ mchOrderNo: 'C-mine', orderState: expect.any(Number) });
    expect(gateway.orders().filter((o) => o.mchOrderNo === 'C-mine')).toHaveLength(1);
    expect(gateway.order('C-mine')?.amount).toBe(700);
  });

  it('a create whose ambiguous failure meets a substituted lookup answer ends unknown, never "reconciled"', async () => {
    const { client, replay, gateway } = await withPaidCheapOrder((op) => {
      if (op === 'unifiedOrder') return new Response('<html>502</html>', { status: 502 }); // never reaches the gateway
      return op === 'query' ? replay('query:A-cheap') : 'forward';
    });
    const error = await rejection(client.unifiedOrder(cheapOrder('D-none', 900)));
    expect(error).toBeInstanceOf(GatewayOutcomeUnknownError);
    expect((error as GatewayOutcomeUnknownError).key).toEqual({ name: 'mchOrderNo', value: 'D-none' });
    expect(error.message).toMatch(/the record could not be looked up \(GatewayResponseMismatchError \(HTTP 200\): query asked for mchOrderNo 'D-none', but the signed response is for mchOrderNo "A-cheap"/);
    expect(gateway.order('D-none')).toBeUndefined();
  });

  it("a record of another merchant application (sharing the secret) is refused, naming mchNo", async () => {
    const other = { mchNo: 'M-OTHER', appId: 'app-other', secret: MERCHANT.secret };
    const network = hostileNetwork((op) => (op === 'query' && armed ? network.replay('query:same-no') : 'forward'), [MERCHANT, other]);
    let armed = false;
    await network.client(other).unifiedOrder(cheapOrder('same-no'));
    await network.client(other).query({ mchOrderNo: 'same-no' });
    await network.client().unifiedOrder(cheapOrder('same-no'));
    armed = true;
    await expect(network.client().query({ mchOrderNo: 'same-no' })).rejects.toMatchObject({ name: 'GatewayResponseMismatchError', field: 'mchNo', expected: MERCHANT.mchNo, found: 'M-OTHER' });
  });

  it('settleRequestGet is bound to the requestId asked', async () => {
    let armed = false;
    const network = hostileNetwork((op) => (op === 'settleRequestGet' && armed ? network.replay('settleRequestGet:pay-1') : 'forward'));
    const client = network.client();
    const payout = { amount: 500, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf' } as const;
    await client.settleRequest({ ...payout, requestId: 'pay-1' });
    await client.settleRequest({ ...payout, requestId: 'pay-2', amount: 9 });
    await client.settleRequestGet({ requestId: 'pay-1' });
    armed = true;
    await expect(client.settleRequestGet({ requestId: 'pay-2' })).rejects.toMatchObject({ name: 'GatewayResponseMismatchError', field: 'requestId', expected: 'pay-2', found: 'pay-1' });
  });

  it('where the answer proves nothing (close, settleRequest), confirm reads the record back and catches a replay', async () => {
    let armed = false;
    const network = hostileNetwork((op) => (armed && op === 'settleRequest' ? network.replay('settleRequest:old-1') : 'forward'));
    const client = network.client();
    await client.unifiedOrder(cheapOrder('to-close'));
    await expect(client.close({ mchOrderNo: 'to-close' }, { confirm: true })).resolves.toMatchObject({ mchOrderNo: 'to-close', state: PayOrderState.Closed });
    const payout = { amount: 500, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf' } as const;
    await client.settleRequest({ ...payout, requestId: 'old-1' });
    await expect(client.settleRequest({ ...payout, requestId: 'new-1' }, { confirm: true })).resolves.toMatchObject({ requestId: 'new-1', amount: 500 });
    armed = true; // the old answer replayed for a new request that never reached the gateway
    const error = await rejection(client.settleRequest({ ...payout, requestId: 'new-2' }, { confirm: true }));
    expect(error).toBeInstanceOf(GatewayResponseMismatchError); // no record under new-2: the answer was another request's
    expect(error).toMatchObject({ field: 'requestId', expected: 'new-2', found: undefined });
    expect(network.gateway.settlement('new-2')).toBeUndefined();
    // Without confirm the replayed answer would have passed as new-3's.
    await expect(client.settleRequest({ ...payout, requestId: 'new-3' })).resolves.toMatchObject({ serverRequestId: expect.any(String) });
    expect(network.gateway.settlement('new-3')).toBeUndefined();
  });
});

describe('reconciliation is exact or unknown (finding 3)', () => {
  it.each([
    ['subject', { subject: 'Armchair' }],
    ['body', { body: 'Armchair, blue' }],
    ['extParam', { extParam: { campaign: 'spring' } }],
  ])('a reused mchOrderNo with the same amount but another %s is a mismatch, not the old paid order', async (field, change) => {
    const { gateway, client } = hostileNetwork();
    const c = client();
    await c.unifiedOrder(cheapOrder(`reused-${field}`));
    gateway.payOrder(`reused-${field}`);
    gateway.injectFault({ kind: 'html502', operation: 'unifiedOrder', when: 'before' });
    const error = (await rejection(c.unifiedOrder({ ...cheapOrder(`reused-${field}`), ...change }))) as GatewayReconciliationMismatchError;
    expect(error).toBeInstanceOf(GatewayReconciliationMismatchError);
    expect(error.differences.map((d) => d.field)).toEqual([field]);
  });

  it('a payout to a declared address reusing a requestId ends unknown: the record cannot show addrServerRequestId', async () => {
    const { gateway, client } = hostileNetwork();
    const c = client();
    const declared = await c.settleAddressApply({ requestId: 'addr-1', tokenId: 'TRON_USDT', address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf' });
    gateway.approveAddress(declared.serverRequestId);
    const payout = { requestId: 'payout-1', amount: 500, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', addrServerRequestId: declared.serverRequestId } as const;
    await c.settleRequest(payout);
    gateway.injectFault({ kind: 'html502', operation: 'settleRequest', when: 'before' });
    const error = (await rejection(c.settleRequest(payout))) as GatewayOutcomeUnknownError;
    expect(error).toBeInstanceOf(GatewayOutcomeUnknownError);
    expect(error.message).toMatch(/does not show addrServerRequestId, which this request sent/);
    expect(error.key).toEqual({ name: 'requestId', value: 'payout-1' });
  });

  it('an identical request lost after the gateway made it still reconciles (every field it sent compared)', async () => {
    const { gateway, client } = hostileNetwork();
    gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'after' });
    const result = await client().withResponse('unifiedOrder', { ...cheapOrder('exact-1'), extParam: { a: 1 }, clientIp: '203.0.113.9' });
    expect(result).toMatchObject({ reconciled: true, data: { mchOrderNo: 'exact-1' } });
  });
});

describe('only signed members come back (finding 4)', () => {
  it('empty members (unsigned) are dropped from a notification, prototype names included', async () => {
    const body = `${formBody(signedFields())}&errCode=&toString=&hasOwnProperty=`;
    const n = await verifyNotification(body, MERCHANT);
    expect(Object.keys(n)).not.toEqual(expect.arrayContaining(['errCode']));
    expect(Object.hasOwn(n, 'toString') || Object.hasOwn(n, 'hasOwnProperty')).toBe(false);
    expect(`${String(n.payOrderId)}:${n.state}`).toBe(n.idempotencyKey);
    expect(() => `${n as unknown as string}`).not.toThrow();
  });

  it("a sign member inside a response's data, and empty members, are not returned", async () => {
    const data = { payOrderId: 'P1', mchNo: MERCHANT.mchNo, appId: MERCHANT.appId, mchOrderNo: 'o-1', ifCode: 'x', wayCode: 'QR_CASHIER', amount: 1, currency: 'USD', state: 2, subject: 's', body: 'b', createdAt: 1700000000000, errMsg: '', sign: 'INNER' };
    const texts = new Map(Object.entries(data).map(([k, v]) => [k, String(v)]));
    const sign = referenceSign(texts, MERCHANT.secret)!;
    const client = new GatewayClient({ baseUrl: BASE_URL, ...MERCHANT, fetch: async () => Response.json({ code: 200, msg: 'SUCCESS', data, sign }) });
    const order = await client.query({ mchOrderNo: 'o-1' });
    expect(order).not.toHaveProperty('sign');
    expect(order).not.toHaveProperty('errMsg');
    expect(order.state).toBe(2);
  });

  it('a JSON notification or response with a duplicate member is refused (as a form body with one is)', async () => {
    const fields = signedFields();
    const json = JSON.stringify(fields).replace('{', '{"state":"0",');
    await expect(verifyNotification(json, MERCHANT)).rejects.toThrow(/state: appears more than once/);
    await expect(verifyNotification(`${formBody(fields)}&state=0`, MERCHANT)).rejects.toThrow(/state: appears more than once/);
    const escaped = JSON.stringify(fields).replace('{', '{"st\\u0061te":"0",'); // the same name, written with an escape
    await expect(verifyNotification(escaped, MERCHANT)).rejects.toThrow(/state: appears more than once/);
    const data = { payOrderId: 'P1', mchNo: MERCHANT.mchNo, appId: MERCHANT.appId, mchOrderNo: 'o-1', ifCode: 'x', wayCode: 'QR_CASHIER', amount: 1, currency: 'USD', state: 2, subject: 's', body: 'b', createdAt: 1700000000000 };
    const sign = referenceSign(new Map(Object.entries(data).map(([k, v]) => [k, String(v)])), MERCHANT.secret)!;
    const body = JSON.stringify({ code: 200, msg: 'SUCCESS', data, sign }).replace('"data":{', '"data":{"state":0,');
    const client = new GatewayClient({ baseUrl: BASE_URL, ...MERCHANT, fetch: async () => new Response(body), retry: { maxRetries: 0 } });
    await expect(client.query({ mchOrderNo: 'o-1' })).rejects.toThrow(/state: appears more than once/);
  });

  it('a JSON field of a signed notification (orderTransactionList) with a repeated member inside is refused, not read as its last copy', async () => {
    for (const list of ['[{"txId":"a","txId":"b"}]', '[{"txId":"a","status":"SUCCESS","status":"FAILED"}]']) {
      const fields = signedFields({ orderTransactionList: list });
      for (const body of [formBody(fields), JSON.stringify(fields)]) {
        const error = await rejection(verifyNotification(body, MERCHANT));
        expect(error).toBeInstanceOf(GatewayValidationError);
        expect((error as GatewayValidationError).issues.map((issue) => issue.path.join('.'))).toContain('orderTransactionList');
      }
    }
    // The same field with each member once is read whole.
    const single = await verifyNotification(formBody(signedFields({ orderTransactionList: '[{"txId":"a","status":"SUCCESS"}]' })), MERCHANT);
    expect(single.orderTransactionList).toEqual([{ txId: 'a', status: 'SUCCESS' }]);
  });
});

describe("notifications require a state (finding 5)", () => {
  it("the cashier's returnUrl message of an unpaid order is refused by default, and accepted only when its state is asked for", async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT] });
    const client = new GatewayClient({ baseUrl: BASE_URL, ...MERCHANT, fetch: gateway.fetch });
    await client.unifiedOrder({ ...cheapOrder('leave-1'), returnUrl: 'https://shop.example/back' });
    const returned = new URL(gateway.payerReturnUrl('leave-1')!).searchParams; // "Leave pending": still unpaid
    const error = (await rejection(client.verifyNotification(returned))) as GatewayValidationError;
    expect(error).toBeInstanceOf(GatewayValidationError);
    expect(error.issues[0]).toMatchObject({ path: ['state'], message: expect.stringMatching(/is 0, but 2 was expected.*never fulfil from it/) });
    await expect(client.verifyNotification(returned, { expect: { state: [PayOrderState.Generated, PayOrderState.Paying] } })).resolves.toMatchObject({ mchOrderNo: 'leave-1', state: 0 });
    gateway.payOrder('leave-1');
    await expect(client.verifyNotification(new URL(gateway.payerReturnUrl('leave-1')!).searchParams)).resolves.toMatchObject({ state: PayOrderState.Succeeded });
  });

  it('an invalid expect.state is an options error', async () => {
    await expect(verifyNotification(formBody(signedFields()), { ...MERCHANT, expect: { state: [] as never } })).rejects.toThrow(/expect\.state: must be a pay-order state/);
  });
});

describe('each request gets its own headers object (finding 6)', () => {
  it("a fetch wrapper that adds a header to init.headers leaks nothing into another client's request", async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT] });
    const seen: Record<string, string>[] = [];
    const record: GatewayClient.FetchLike = (url, init) => {
      seen.push({ ...(init.headers as Record<string, string>) });
      return gateway.fetch(url, init);
    };
    const tenantA = new GatewayClient({ baseUrl: BASE_URL, ...MERCHANT, fetch: (url, init) => {
      (init.headers as Record<string, string>)['x-tenant'] = 'A';
      return record(url, init);
    } });
    const tenantB = new GatewayClient({ baseUrl: BASE_URL, ...MERCHANT, fetch: record });
    await tenantA.unifiedOrder(cheapOrder('tenant-a'));
    await tenantB.query({ mchOrderNo: 'tenant-a' });
    expect(seen.map((h) => h['x-tenant'])).toEqual(['A', undefined]);
  });
});

describe('the re-split enumeration (the test tool itself)', () => {
  it('finds every reading of a small signed text, and only sorted ones', () => {
    const readings = readingsOf('a=1&b=2&c=x&d=3&', 100, 1).map((r) => Object.fromEntries(r));
    expect(readings).toHaveLength(8); // each of the three boundaries kept or not
    expect(readings).toEqual(expect.arrayContaining([{ a: '1', b: '2', c: 'x&d=3' }, { a: '1&b=2&c=x&d=3' }, { a: '1', b: '2', c: 'x', d: '3' }]));
    // 'b=2&a=1&' reads only as one field: a fragment 'a=1&' after 'b=2&' is out of the gateway's order.
    expect(readingsOf('b=2&a=1&', 100, 1).map((r) => Object.fromEntries(r))).toEqual([{ b: '2&a=1' }]);
  });
});

// The property itself, every reading of a signed text but the genuine one refused: one-reading.properties.test.ts.
