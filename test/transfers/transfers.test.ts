// Issue 37: transfers (payouts) through the public client against the mock gateway. A transfer whose answer is lost,
// unsigned or refused after it was stored is made once and resolves to it; refusals come in the reference's order;
// the payee's account never reaches a log line or an error's message; a lost notification is settled by a sweep once.
import { describe, expect, it, vi } from 'vitest';
import {
  createNotificationProcessor,
  GatewayApiError,
  GatewayClient,
  GatewayReconciliationMismatchError,
  GatewayValidationError,
  GatewayWaitTimeoutError,
  memoryStore,
  Transfers,
  type GatewayHooks,
  type GatewayLogger,
} from '../../src/index.js';
import { createMockGateway, type MockGateway } from '../../src/testing/index.js';
import { call, MERCHANT as RAW_MERCHANT } from '../support/raw-gateway.js';

const MERCHANT = { mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9', secret: 'jeepay-test-secret-0123456789' };
const ACCOUNT = 'o8xYz0123456789';
const NAME = 'Li Lei Zhang';

function setup() {
  const gateway = createMockGateway({ merchants: [MERCHANT] });
  const sent: GatewayHooks.RequestEvent[] = [];
  const lines: string[] = [];
  const record = (line: string, fields: Readonly<Record<string, unknown>>) => void lines.push(line, JSON.stringify(fields));
  const logger: GatewayLogger = { error: record, warn: record, info: record, debug: record };
  const client = new GatewayClient({
    baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch, retry: { initialDelayMs: 1, maxDelayMs: 2 }, logLevel: 'debug', logger,
    hooks: { onRequest: (e) => sent.push(e) },
  });
  return { gateway, client, sent, lines };
}

const payout = (mchOrderNo: string, extra: Partial<Transfers.CreateParams> = {}): Transfers.CreateParams => ({
  mchOrderNo, ifCode: 'wxpay', entryType: 'WX_CASH', amount: 1500, currency: 'CNY', accountNo: ACCOUNT, accountName: NAME, transferDesc: 'Supplier payout', ...extra,
});
const transfersOf = (gateway: MockGateway) => gateway.records('transfer');

describe('transferOrder and transferQuery against the mock', () => {
  it('pays out at once by default (2), reads it back by either id, and waits for a held one', async () => {
    const { gateway, client } = setup();
    const made = await client.transferOrder(payout('payout-1'));
    expect(made).toMatchObject({ mchOrderNo: 'payout-1', amount: 1500, accountNo: ACCOUNT, state: Transfers.State.Succeeded });
    const read = await client.transferQuery({ transferId: made.transferId });
    expect(read).toMatchObject({ mchOrderNo: 'payout-1', entryType: 'WX_CASH', ifCode: 'wxpay', currency: 'CNY', accountNo: ACCOUNT, state: 2 });
    expect(await client.transferQuery({ mchOrderNo: 'payout-1' })).toMatchObject({ transferId: made.transferId });

    gateway.setMode('transfer', 'hold');
    const held = await client.transferOrder(payout('payout-2'));
    expect(held.state).toBe(Transfers.State.Transferring);
    setTimeout(() => gateway.settle('transfer', 'payout-2', { to: 'fail', errCode: 'NO_BALANCE' }), 5);
    const ended = await client.waitForTransfer({ mchOrderNo: 'payout-2' }, { intervalMs: 2 });
    expect(ended).toMatchObject({ state: Transfers.State.Failed, errCode: 'NO_BALANCE' });
    await expect(client.transferQuery({ mchOrderNo: 'nope' })).rejects.toMatchObject({ reason: 'transfer_not_found' });
  });

  it("waitForTransfer's timeout, derived from the kind's row: the transfer last read in lastTransfer alone, named by your number, and what to do", async () => {
    const { gateway, client } = setup();
    gateway.setMode('transfer', 'hold');
    const held = await client.transferOrder(payout('payout-wait'));
    const error = (await client.waitForTransfer({ transferId: held.transferId }, { intervalMs: 5, timeout: 40 }).catch((e: unknown) => e)) as GatewayWaitTimeoutError;
    expect(error).toBeInstanceOf(GatewayWaitTimeoutError);
    expect(error.lastTransfer).toMatchObject({ mchOrderNo: 'payout-wait', state: Transfers.State.Transferring });
    expect([error.lastOrder, error.lastRefund, error.operation]).toEqual([undefined, undefined, 'transferQuery']);
    expect(error.message).toBe(
      `The transfer transferId '${held.transferId}' was still in state 1 after waiting 40 ms (waitForTransfer's timeout): show the transfer as in progress; its notification, a sweep or a later transferQuery will tell.`,
    );
  });

  it('refuses before sending an entry type the channel cannot take (alipay takes ALIPAY_CASH only), with the reason', async () => {
    const { client, sent } = setup();
    const error = await client.transferOrder(payout('payout-3', { ifCode: 'alipay', entryType: 'BANK_CARD' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayValidationError);
    expect((error as Error).message).toMatch(/channel alipay does not take this entry type/);
    expect(sent).toHaveLength(0);
  });
});

describe('a transfer whose answer is lost, unsigned or refused after it was stored is made once', () => {
  it.each([
    ['the connection reset after the gateway paid out', { kind: 'connectionReset', when: 'after' }],
    ['a proxy 502 after the gateway paid out', { kind: 'html502', when: 'after' }],
    ['an answer signed with another secret', { kind: 'wrongSign', when: 'after' }],
    ['a system error after the transfer was stored (state 0)', { kind: 'refusedAfterStore', when: 'after' }],
  ] as const)('%s: looked up by mchOrderNo, resolves to the one transfer, never re-sent', async (_what, fault) => {
    const { gateway, client, sent } = setup();
    gateway.injectFault({ ...fault, operation: 'transferOrder' });
    const { data, reconciled } = await client.withResponse('transferOrder', payout('payout-10'));
    expect(reconciled).toBe(true);
    expect(data).toMatchObject({ mchOrderNo: 'payout-10', amount: 1500 });
    expect(transfersOf(gateway)).toHaveLength(1);
    expect(data.transferId).toBe(transfersOf(gateway)[0]!.transferId);
    expect(sent.filter((e) => e.operation === 'transferOrder')).toHaveLength(1);
    expect(sent.filter((e) => e.operation === 'transferQuery').map((e) => e.purpose)).toEqual(['reconcile']);
  });

  it('an identical repeat is refused as a duplicate by the gateway and resolves to the transfer made (replayed)', async () => {
    const { gateway, client } = setup();
    const first = await client.transferOrder(payout('payout-11'));
    const { data, replayed } = await client.withResponse('transferOrder', payout('payout-11'));
    expect(replayed).toBe(true);
    expect(data.transferId).toBe(first.transferId);
    expect(transfersOf(gateway)).toHaveLength(1);
  });

  it("a repeat to another payee under a used mchOrderNo is a mismatch whose message masks both accounts", async () => {
    const { gateway, client, lines } = setup();
    await client.transferOrder(payout('payout-12'));
    const error = (await client.transferOrder(payout('payout-12', { accountNo: 'o8xOTHERPAYEE9876', accountName: 'Han Meimei' })).catch((e: unknown) => e)) as GatewayReconciliationMismatchError;
    expect(error).toBeInstanceOf(GatewayReconciliationMismatchError);
    expect(error.differences.map((d) => d.field)).toEqual(['accountNo', 'accountName']);
    expect(error.differences[0]).toEqual({ field: 'accountNo', expected: '***9876', found: '***6789' });
    expect(transfersOf(gateway)).toHaveLength(1);
    // No account data in any error message or log line of the whole exchange.
    const text = [error.message, JSON.stringify(error.differences), ...lines].join('\n');
    for (const secret of ['o8xOTHERPAYEE9876', ACCOUNT, NAME, 'Han Meimei']) expect(text).not.toContain(secret);
  });

  it('no account data in the log lines of a create, a reconciled create and a query', async () => {
    const { gateway, client, lines } = setup();
    gateway.injectFault({ kind: 'connectionReset', operation: 'transferOrder', when: 'after' });
    await client.transferOrder(payout('payout-13'));
    await client.transferQuery({ mchOrderNo: 'payout-13' });
    expect(lines.length).toBeGreaterThan(2);
    for (const secret of [ACCOUNT, NAME]) expect(lines.join('\n')).not.toContain(secret);
  });
});

describe("the mock's refusals, in the reference's order", () => {
  it('the duplicate first, whatever else the request says; then the channel config, the transfer service, each with its reason', async () => {
    const { gateway, client } = setup();
    await client.transferOrder(payout('payout-20'));
    // A repeat naming a channel with no transfer service is refused as the duplicate (looked up: another ifCode, a mismatch).
    await expect(client.transferOrder(payout('payout-20', { ifCode: 'ysfpay' }))).rejects.toBeInstanceOf(GatewayReconciliationMismatchError);
    expect(gateway.requests.filter((r) => r.operation === 'transferOrder').at(-1)).toMatchObject({ msg: '商户订单[payout-20]已存在', reason: 'duplicate_transfer' });

    const unconfigured = await client.transferOrder(payout('payout-21', { ifCode: 'pppay' })).catch((e: unknown) => e);
    expect(unconfigured).toBeInstanceOf(GatewayApiError);
    expect(unconfigured).toMatchObject({ reason: 'channel_not_configured', msg: '应用未开通此接口配置!' });
    const noService = await client.transferOrder(payout('payout-22', { ifCode: 'ysfpay' })).catch((e: unknown) => e);
    expect(noService).toMatchObject({ reason: 'transfer_channel_unknown', msg: '无此转账通道接口' });
    expect(transfersOf(gateway)).toHaveLength(1);
  });
});

describe("the mock's transfer notification", () => {
  it('is sent once per transfer, on the six-attempt schedule, and verifies as a transfer (never as a payment)', async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT], notifyFetch: async () => new Response('FAIL') });
    const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch });
    await client.transferOrder(payout('payout-50', { notifyUrl: 'http://127.0.0.1:9/notify' }));
    for (let i = 0; i < 10; i++) {
      await gateway.deliverNotifications();
      const next = gateway.nextNotificationAt();
      if (next === undefined) break;
      gateway.advanceTime(next - gateway.now());
    }
    expect(gateway.notifications).toHaveLength(1);
    expect(gateway.deliveries).toHaveLength(6);
    const { fields } = gateway.deliveries[0]!;
    expect(await client.verifyTransferNotification(fields)).toMatchObject({ mchOrderNo: 'payout-50', state: 2, accountNo: ACCOUNT });
    await expect(client.verifyNotification(fields)).rejects.toBeInstanceOf(GatewayValidationError);
  });
});

describe("the mock's refusals of raw requests (what the SDK would refuse before sending), in the reference's order", () => {
  it('the duplicate first; then notifyUrl, the channel config, the transfer service, the entry type, each with the reference text', async () => {
    const gateway = createMockGateway({ merchants: [RAW_MERCHANT] });
    const fields = { mchOrderNo: 'payout-40', ifCode: 'alipay', entryType: 'ALIPAY_CASH', amount: 100, currency: 'CNY', accountNo: 'payee@example.com', transferDesc: 'd' };
    expect((await call(gateway, 'transferOrder', fields)).json).toMatchObject({ code: 200 });
    const msg = async (changes: Record<string, string>) => ((await call(gateway, 'transferOrder', { ...fields, ...changes })).json as { msg: string }).msg;
    const everythingWrong = { notifyUrl: 'ftp://shop.example.com/n', ifCode: 'nopay', entryType: 'WX_CASH' };
    expect(await msg(everythingWrong)).toBe('商户订单[payout-40]已存在');
    expect(await msg({ ...everythingWrong, mchOrderNo: 'payout-41' })).toBe('异步通知地址协议仅支持http:// 或 https:// !');
    expect(await msg({ mchOrderNo: 'payout-41', ifCode: 'nopay', entryType: 'WX_CASH' })).toBe('应用未开通此接口配置!');
    expect(await msg({ mchOrderNo: 'payout-41', ifCode: 'ysfpay', entryType: 'WX_CASH' })).toBe('无此转账通道接口');
    expect(await msg({ mchOrderNo: 'payout-41', entryType: 'WX_CASH' })).toBe('该接口不支持该入账方式');
    expect(gateway.records('transfer')).toHaveLength(1);
  });
});

describe('the processor and the sweep serve transfers', () => {
  it('a tracked transfer whose notification was lost is settled by the sweep once, never as a payment', async () => {
    const { gateway, client } = setup();
    gateway.setMode('transfer', 'hold');
    const made = await client.transferOrder(payout('payout-30', { notifyUrl: 'http://127.0.0.1:9/notify' }));
    const onPaid = vi.fn(async () => {});
    const onTransferred = vi.fn(async (_transfer: Transfers.Notification | Transfers.Swept) => {});
    const onTransferFailed = vi.fn(async (_transfer: Transfers.Notification | Transfers.Swept) => {});
    // The sweep's own clock, a second on between sweeps: a record checked is due again only after its check.
    let now = Date.now();
    const processor = createNotificationProcessor({ ...MERCHANT, store: memoryStore(), client, onPaid, onTransferred, onTransferFailed, expectTransfer: { mchOrderNo: 'payout-30', amount: 1500, currency: 'CNY' }, logLevel: 'off', busyWaitMs: 0, now: () => now });
    await processor.track(made);
    now += 1_000;
    expect((await processor.sweep({ olderThanMs: 0 })).transfers).toMatchObject({ checked: 1, open: 1 });
    gateway.settle('transfer', 'payout-30', { to: 'succeed' }); // notified to a URL that is down: lost
    now += 1_000;
    const report = await processor.sweep({ olderThanMs: 0 });
    expect(report.transfers).toMatchObject({ checked: 1, transferred: 1 });
    expect(report.checked).toBe(0);
    now += 1_000;
    expect((await processor.sweep({ olderThanMs: 0 })).transfers.checked).toBe(0);
    expect(onTransferred).toHaveBeenCalledTimes(1);
    expect(onTransferred.mock.calls[0]![0]).toMatchObject({ transferId: made.transferId, state: 2, idempotencyKey: `transfer:${made.transferId}:2` });
    expect(onPaid).not.toHaveBeenCalled();
  });

  it('a transfer open a day after its creation is reported as a warning, and stays tracked', async () => {
    const { gateway, client } = setup();
    gateway.setMode('transfer', 'hold');
    const made = await client.transferOrder(payout('payout-31'));
    let now = Date.now();
    const processor = createNotificationProcessor({ ...MERCHANT, store: memoryStore(), client, onTransferred: async () => {}, onTransferFailed: async () => {}, expectTransfer: { mchOrderNo: 'payout-31', amount: 1500, currency: 'CNY' }, logLevel: 'off', now: () => now });
    await processor.track(made);
    now = gateway.now() + 25 * 60 * 60 * 1000;
    const { transfers } = await processor.sweep({ olderThanMs: 0 });
    expect(transfers.open).toBe(1);
    expect(transfers.problems).toEqual([expect.objectContaining({ kind: 'warning', transferId: made.transferId, mchOrderNo: 'payout-31', message: expect.stringMatching(/still in state 1 25 hours after its creation: the gateway no longer asks the channel about it and never closes it/) })]);
  });

  it('a transfer known only by what was sent (its entryType marks it: a payment has mchOrderNo too) is found by the sweep and settled', async () => {
    const { gateway, client } = setup();
    gateway.setMode('transfer', 'hold');
    await client.transferOrder(payout('payout-32'));
    gateway.settle('transfer', 'payout-32', { to: 'fail' });
    const onTransferFailed = vi.fn(async (_transfer: Transfers.Notification | Transfers.Swept) => {});
    const processor = createNotificationProcessor({ ...MERCHANT, store: memoryStore(), client, onTransferred: async () => {}, onTransferFailed, expectTransfer: { mchOrderNo: 'payout-32', amount: 1500, currency: 'CNY' }, logLevel: 'off' });
    await processor.track(payout('payout-32'));
    // The same number without the marker is a payment's, which this processor has no handler for.
    await expect(processor.track({ mchOrderNo: 'payout-32', amount: 1500, currency: 'CNY' })).rejects.toThrow(/onPaid/);
    const { transfers } = await processor.sweep({ olderThanMs: 0 });
    expect(transfers).toMatchObject({ checked: 1, transferFailed: 1 });
    expect(onTransferFailed).toHaveBeenCalledTimes(1);
  });
});
