// Attacks on the newest money paths through the public API (transfers, transfer notifications, settleRequest's
// confirm): a replayed answer of another payee's payout, expectations that check nothing, a query answer posted as a
// notification, a record read back that is not the settlement sent, a payee's account in a refusal or a log line.
import { describe, expect, it, vi } from 'vitest';
import { inspect } from 'node:util';
import { createNotificationProcessor, GatewayClient, GatewayError, GatewayReconciliationMismatchError, GatewayResponseContractError, GatewayValidationError, GatewayWaitTimeoutError, memoryStore, verifyTransferNotification, type GatewayLogger } from '../../src/index.js';
import { formBody, freshFields, MERCHANT as NOTIFY_MERCHANT, signedFields, TRANSFER_FIELDS } from '../support/notification.js';
import { createMockGateway } from '../../src/testing/index.js';
import { MERCHANT as MOCK_MERCHANT, ORIGIN } from '../support/raw-gateway.js';
import { rejection } from '../support/rejection.js';
import { CREDENTIALS, FIXED_NOW, signedEnvelope } from '../support/wire.js';

const ACCOUNT = 'o8xYz0123456789';
const OTHER = 'o8xOTHERPAYEE9876';
const PERSONAL = /o8xYz0123456789|o8xOTHERPAYEE9876|Li Lei|Han Meimei/;

function answering(reply: (path: string) => Response) {
  const lines: string[] = [];
  const paths: string[] = [];
  const record = (line: string, fields: Readonly<Record<string, unknown>>) => void lines.push(line, JSON.stringify(fields));
  const logger: GatewayLogger = { error: record, warn: record, info: record, debug: record };
  const client = new GatewayClient({
    ...CREDENTIALS,
    fetch: async (input: RequestInfo | URL) => {
      const path = new URL(typeof input === 'string' || input instanceof URL ? input : input.url).pathname;
      paths.push(path);
      return reply(path);
    },
    now: () => FIXED_NOW,
    timeout: 1_000,
    retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 },
    logLevel: 'debug',
    logger,
  });
  return { client, lines, paths };
}
const json = (body: string, status = 200) => new Response(body, { status, headers: { 'content-type': 'application/json' } });

const payout = { mchOrderNo: 'payout-1', ifCode: 'wxpay', entryType: 'WX_CASH', amount: 1500, currency: 'CNY', accountNo: OTHER, accountName: 'Han Meimei', transferDesc: 'd' } as const;
// The signed answer of an earlier transfer under the same number, to another payee.
const earlier = (extra: Record<string, unknown> = {}) =>
  signedEnvelope({ transferId: 'T1', mchOrderNo: 'payout-1', amount: 1500, accountNo: ACCOUNT, accountName: 'Li Lei', state: 2, ...extra });

describe('transferOrder answers', () => {
  it('the signed answer of an earlier transfer to another payee, replayed to a create to a new payee under its number, is no success', async () => {
    const gateway = createMockGateway({ merchants: [MOCK_MERCHANT] });
    let answer = '';
    let creates = 0;
    const lines: string[] = [];
    const record = (line: string, fields: Readonly<Record<string, unknown>>) => void lines.push(line, JSON.stringify(fields));
    const logger: GatewayLogger = { error: record, warn: record, info: record, debug: record };
    const client = new GatewayClient({
      baseUrl: ORIGIN, ...MOCK_MERCHANT, retry: { initialDelayMs: 1, maxDelayMs: 2 }, logLevel: 'debug', logger,
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        if (new URL(request.url).pathname !== '/api/transferOrder') return gateway.fetch(request);
        // The first create reaches the gateway and its answer is recorded; the second is answered with that recording.
        if (creates++ > 0) return json(answer);
        const response = await gateway.fetch(request);
        answer = await response.clone().text();
        return response;
      },
    });
    const first = await client.transferOrder({ ...payout, accountNo: ACCOUNT, accountName: 'Li Lei' });
    expect(first.accountNo).toBe(ACCOUNT);
    const error = await rejection(client.transferOrder(payout));
    // The payee asked for was never paid: the call must not resolve to the first payee's transfer.
    expect(error).toBeInstanceOf(GatewayReconciliationMismatchError);
    expect(gateway.records('transfer')).toHaveLength(1);
    expect(`${error.message}\n${JSON.stringify(error)}\n${lines.join('\n')}`).not.toMatch(PERSONAL);
  });

  it('a signed answer of another mchOrderNo or amount never resolves the create', async () => {
    for (const extra of [{ mchOrderNo: 'payout-2' }, { amount: 15 }]) {
      const { client } = answering(() => json(earlier({ ...extra, accountNo: OTHER, accountName: 'Han Meimei' })));
      await expect(client.transferOrder(payout)).rejects.toBeInstanceOf(GatewayError);
    }
  });
});

describe('transfer notifications', () => {
  const post = (fields: Record<string, string>) => new Request('http://127.0.0.1/pay/notify', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: formBody(fields) });
  it('a signed transferQuery answer (no reqTime) is not a notification', async () => {
    const { reqTime: _r, ...query } = TRANSFER_FIELDS;
    await expect(verifyTransferNotification(signedFields({}, query), NOTIFY_MERCHANT)).rejects.toBeInstanceOf(GatewayValidationError);
  });
  it.each([
    ['returning undefined', () => undefined],
    ['returning {}', () => ({})],
    ['returning amount undefined', () => ({ amount: undefined, currency: 'CNY' })],
  ])('expectTransfer %s fails closed', async (_what, expectTransfer) => {
    const onTransferred = vi.fn(async () => {});
    const processor = createNotificationProcessor({ ...NOTIFY_MERCHANT, store: memoryStore(), expectTransfer, onTransferred, onTransferFailed: vi.fn(), logLevel: 'off' } as never) as unknown as { handleRequest(r: Request): Promise<Response> };
    const fields = freshFields({ successTime: String(Date.now()), createdAt: String(Date.now()) }, TRANSFER_FIELDS);
    const answer = await processor.handleRequest(post(fields));
    expect(await answer.text()).not.toBe('SUCCESS');
    expect(onTransferred).not.toHaveBeenCalled();
  });
});

describe('settleRequest with confirm', () => {
  const params = { requestId: 'settle-1', amount: 150000, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: 'TXYZaddressOne' } as const;
  const record = (extra: Record<string, unknown> = {}) =>
    signedEnvelope({ serverRequestId: 'S1', requestId: 'settle-1', tokenId: 'TRON_USDT', currency: 'USD', amount: 150000, status: 0, address: 'TXYZaddressOne', mchNo: CREDENTIALS.mchNo, appId: CREDENTIALS.appId, ...extra });
  it.each([
    ['another amount', { amount: 1 }],
    ['another address', { address: 'TXYZattacker' }],
    ['another token', { tokenId: 'ETH_USDT' }],
    ['another serverRequestId', { serverRequestId: 'S2' }],
  ])('a record read back with %s is never the confirmed settlement', async (_what, extra) => {
    const { client } = answering((path) => json(path.endsWith('/settleRequest') ? signedEnvelope({ serverRequestId: 'S1', status: 0 }) : record(extra)));
    await expect(client.settleRequest(params, { confirm: true })).rejects.toBeInstanceOf(GatewayError);
  });
  it('the record read back as sent is the confirmed settlement', async () => {
    const { client } = answering((path) => json(path.endsWith('/settleRequest') ? signedEnvelope({ serverRequestId: 'S1', status: 0 }) : record()));
    await expect(client.settleRequest(params, { confirm: true })).resolves.toMatchObject({ serverRequestId: 'S1', amount: 150000 });
  });
});

describe("a payee's account in a transfer notification's refusal or log line", () => {
  const post = (fields: Record<string, string>) => new Request('http://127.0.0.1/pay/notify', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: formBody(fields) });
  it.each([
    ['another amount', { amount: '15' }],
    ['another merchant', { mchNo: 'M0000000000' }],
    ['state 1', { state: '1' }],
    ['a forged sign', {}],
  ])('%s: refused, the account and name in no error, answer or log line', async (what, changes) => {
    const lines: string[] = [];
    const record = (line: string, fields?: Readonly<Record<string, unknown>>) => void lines.push(line, JSON.stringify(fields ?? {}));
    const logger = { error: record, warn: record, info: record, debug: record };
    const onTransferred = vi.fn(async () => {});
    const processor = createNotificationProcessor({ ...NOTIFY_MERCHANT, store: memoryStore(), expectTransfer: { amount: 1500, currency: 'CNY' }, onTransferred, onTransferFailed: vi.fn(), logger, logLevel: 'debug' } as never) as unknown as { handleRequest(r: Request): Promise<Response> };
    const fields = freshFields({ successTime: String(Date.now()), createdAt: String(Date.now()), ...changes }, TRANSFER_FIELDS);
    if (what === 'a forged sign') fields['sign'] = 'F'.repeat(32);
    const answer = await processor.handleRequest(post(fields));
    const text = await answer.text();
    expect(text).not.toBe('SUCCESS');
    expect(onTransferred).not.toHaveBeenCalled();
    const error = await verifyTransferNotification(fields, { ...NOTIFY_MERCHANT, expect: { amount: 1500, currency: 'CNY' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect([text, (error as Error).message, JSON.stringify(error), ...lines].join('\n')).not.toMatch(/o8xYz0123456789|Li Lei/);
  });
});

describe('the sweep of a transfer tracked by its number', () => {
  const sweepSetup = async (earlierPayee: string) => {
    const gateway = createMockGateway({ merchants: [MOCK_MERCHANT] });
    const client = new GatewayClient({ baseUrl: ORIGIN, ...MOCK_MERCHANT, fetch: gateway.fetch, retry: { initialDelayMs: 1, maxDelayMs: 2 }, logLevel: 'off' });
    // A payout under the number already exists, of the same amount: to another payee, or to this one.
    await client.transferOrder({ ...payout, accountNo: earlierPayee, accountName: 'Li Lei' });
    const onTransferred = vi.fn(async () => {});
    const store = memoryStore();
    // What the store is given to keep, as a durable store would write it.
    const kept: string[] = [];
    const track = store.tracking!.track.bind(store.tracking);
    store.tracking!.track = async (order) => {
      kept.push(order.mchOrderNo);
      return track(order);
    };
    const processor = createNotificationProcessor({ ...MOCK_MERCHANT, store, client, onTransferred, onTransferFailed: async () => {}, expectTransfer: { amount: 1500, currency: 'CNY' }, logLevel: 'off' });
    return { processor, onTransferred, kept };
  };

  it('a transfer found under the number to another payee is not the payout sent: never settled as it, and the account is not shown', async () => {
    const { processor, onTransferred } = await sweepSetup(ACCOUNT);
    // This payout's create ended unknown: tracked by what was sent.
    await processor.track(payout);
    const { transfers } = await processor.sweep({ olderThanMs: 0 });
    expect(onTransferred).not.toHaveBeenCalled();
    expect(transfers).toMatchObject({ checked: 1, mismatched: 1 });
    expect(transfers.problems[0]?.message).toMatch(/its accountNo is not what was sent \(not shown\)/);
    expect(JSON.stringify(transfers)).not.toMatch(PERSONAL);
  });

  it('the same payee found under the number is settled once; the store keeps a keyed digest of the payee, never the account', async () => {
    const { processor, onTransferred, kept } = await sweepSetup(OTHER);
    await processor.track(payout);
    expect(kept).toHaveLength(1);
    expect(kept[0]).not.toMatch(PERSONAL);
    expect(JSON.parse(kept[0]!)).toEqual(['payout-1', 1500, 'CNY', expect.stringMatching(/^[0-9a-f]{64}$/), expect.stringMatching(/^[0-9a-f]{64}$/), expect.stringMatching(/^[0-9a-f]{64}$/)]);
    const { transfers } = await processor.sweep({ olderThanMs: 0 });
    expect(transfers).toMatchObject({ checked: 1, transferred: 1, mismatched: 0 });
    expect(onTransferred).toHaveBeenCalledTimes(1);
  });

  it('tracking by the number asks for the payee sent, and a second track to another payee is refused without showing either account', async () => {
    const { processor } = await sweepSetup(OTHER);
    const { accountNo: _left, ...withoutPayee } = payout;
    await expect(processor.track(withoutPayee as never)).rejects.toThrow(/accountNo/);
    await processor.track(payout);
    const refused = await rejection(processor.track({ ...payout, accountNo: ACCOUNT }));
    expect(refused).toBeInstanceOf(GatewayValidationError);
    expect((refused as Error).message).toMatch(/tracked with other values sent .*ifCode, entryType, accountNo \(not shown\)/);
    expect((refused as Error).message).not.toMatch(PERSONAL);
  });
});

describe("a payee in the records an error carries (an error's fields reach logs as its message does)", () => {
  it("waitForTransfer's timeout carries the transfer last read with the payee's account and name masked", async () => {
    const gateway = createMockGateway({ merchants: [MOCK_MERCHANT] });
    const client = new GatewayClient({ baseUrl: ORIGIN, ...MOCK_MERCHANT, fetch: gateway.fetch, logLevel: 'off' });
    gateway.setTransferMode('hold');
    await client.transferOrder({ ...payout, accountNo: ACCOUNT, accountName: 'Li Lei' });
    const error = await rejection(client.waitForTransfer({ mchOrderNo: 'payout-1' }, { timeout: 50, intervalMs: 10 }));
    expect(error).toBeInstanceOf(GatewayWaitTimeoutError);
    const { lastTransfer } = error as GatewayWaitTimeoutError;
    expect(lastTransfer).toMatchObject({ mchOrderNo: 'payout-1', state: 1, amount: 1500, accountNo: '***6789', accountName: '***' });
    expect(`${JSON.stringify(error)}\n${inspect(error, { depth: 8 })}`).not.toMatch(PERSONAL);
  });

  it("a create's broken answer: the record its lookup finds is carried with the payee masked", async () => {
    const record = { ...TRANSFER_FIELDS, mchNo: CREDENTIALS.mchNo, appId: CREDENTIALS.appId, mchOrderNo: 'payout-1', transferDesc: payout.transferDesc, accountNo: OTHER, accountName: 'Han Meimei', amount: 1500, state: 2, successTime: 1623985459000, createdAt: 1623985400000 };
    const { reqTime: _none, ...found } = record as Readonly<Record<string, unknown>>;
    const { client } = answering((path) =>
      // The create's answer, signed, breaks its schema (a state that is no number); the lookup finds the transfer sent.
      json(path === '/api/transferOrder' ? signedEnvelope({ transferId: 'T1', mchOrderNo: 'payout-1', amount: 1500, accountNo: OTHER, state: 'paid' }) : signedEnvelope(found)),
    );
    const error = await rejection(client.transferOrder(payout));
    expect(error).toBeInstanceOf(GatewayResponseContractError);
    const { lookup } = error as GatewayResponseContractError;
    expect(lookup).toMatchObject({ outcome: 'found', record: { mchOrderNo: 'payout-1', accountNo: '***9876', accountName: '***imei' } });
    expect(`${error.message}\n${JSON.stringify(error)}\n${inspect(error, { depth: 8 })}`).not.toMatch(PERSONAL);
  });
});

describe("a processor's outcome, which the docs say to log", () => {
  it("carries a transfer notification with the payee's account and name masked; the handler had them whole", async () => {
    const seen: string[] = [];
    const processor = createNotificationProcessor({
      ...NOTIFY_MERCHANT, store: memoryStore(), logLevel: 'off',
      expectTransfer: { amount: 1500, currency: 'CNY' },
      onTransferred: async (transfer) => void seen.push(transfer.accountNo, String(transfer.accountName)),
      onTransferFailed: async () => {},
    });
    const fields = freshFields({ successTime: String(Date.now()), createdAt: String(Date.now()) }, TRANSFER_FIELDS);
    const reply = await processor.handle(formBody(fields));
    expect(reply.outcome.kind).toBe('processed');
    expect(seen).toEqual([ACCOUNT, 'Li Lei']);
    expect(reply.outcome).toMatchObject({ notification: { mchOrderNo: 'payout-1001', accountNo: '***6789', accountName: '***' } });
    expect(`${JSON.stringify(reply)}\n${inspect(reply, { depth: 8 })}`).not.toMatch(PERSONAL);
    // A repeat is a duplicate, masked alike.
    const again = await processor.handle(formBody(fields));
    expect(again.outcome.kind).toBe('duplicate');
    expect(JSON.stringify(again)).not.toMatch(PERSONAL);
  });
});

describe("the mock's views of a transfer (its state, record methods, routes' answers, request log and log lines)", () => {
  it("show the payee's account and name masked; its own transferQuery answers the merchant them whole", async () => {
    const events: string[] = [];
    const gateway = createMockGateway({ merchants: [MOCK_MERCHANT], log: (event) => void events.push(JSON.stringify(event)), notifyFetch: async () => new Response('SUCCESS') });
    const client = new GatewayClient({ baseUrl: ORIGIN, ...MOCK_MERCHANT, fetch: gateway.fetch, logLevel: 'off' });
    gateway.setTransferMode('hold');
    await client.transferOrder({ ...payout, accountNo: ACCOUNT, accountName: 'Li Lei', notifyUrl: 'https://shop.example/notify' });
    expect(await client.transferQuery({ mchOrderNo: 'payout-1' })).toMatchObject({ accountNo: ACCOUNT, accountName: 'Li Lei' });
    const settled = gateway.settleTransfer('payout-1', { to: 'succeed' });
    const [delivery] = await gateway.deliverNotifications();
    expect(delivery?.delivered).toBe(true);
    expect(gateway.transfer('payout-1')).toMatchObject({ mchOrderNo: 'payout-1', accountNo: '***6789', accountName: '***' });
    const views = [gateway.state(), gateway.transfers(), gateway.records('transfer'), settled, gateway.requests, events];
    expect(JSON.stringify(views)).not.toMatch(PERSONAL);
    // What was sent, signed, stays as sent for a test to post again.
    expect(gateway.deliveries[0]?.fields).toMatchObject({ accountNo: ACCOUNT, sign: expect.any(String) });
  });
});
