// Issue 38, the mock's division (shared/spec/division.md): receiver groups made by control, binds refused in the
// reference's order and stored without a duplicate check, the channel's refusal (bindState 0, nothing stored),
// exec refused in the reference's order, receivers resolved as the reference's loops (an account listed by id and
// in a listed group is paid twice), amounts net of fee and refunds, the outcome by control, divisionState 3 once,
// mode 1 divided 80 s after payment. Raw signed requests over loopback: the SDK's client is not used.
import { afterEach, describe, expect, it } from 'vitest';
import { sign } from '../../src/protocol/signing/sign.js';
import {
  AUTO_DIVISION_DELAY_MS,
  createMockGateway,
  DIVISION_BIND_TEXTS,
  DIVISION_EXEC_TEXTS,
  type MockGateway,
  type MockGatewayServer,
} from '../../src/testing/index.js';
import { common, MERCHANT, OTHER_MERCHANT, orderFields, refundFields, signed, START } from '../support/raw-gateway.js';

type Merchant = { mchNo: string; appId: string; secret: string };
type Fields = Record<string, string | number | null | undefined>;

const PATHS = { unifiedOrder: '/api/pay/unifiedOrder', query: '/api/pay/query', refundOrder: '/api/refund/refundOrder', bind: '/api/division/receiver/bind', exec: '/api/division/exec' } as const;

let gateway: MockGateway;
let server: MockGatewayServer;

afterEach(async () => {
  await server?.close();
});

/** A gateway on loopback, manual clock, with two merchants. */
async function start(): Promise<MockGateway> {
  gateway = createMockGateway({ merchants: [MERCHANT, OTHER_MERCHANT], startTime: START, clock: 'manual' });
  server = await gateway.listen({ port: 0 });
  return gateway;
}

/** POSTs `fields` signed by `merchant` to the mock over loopback; the raw text and its JSON. */
async function post(path: keyof typeof PATHS, fields: Fields, merchant: Merchant = MERCHANT) {
  const response = await fetch(`${server.url}${PATHS[path]}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(signed({ ...common(merchant), ...fields }, merchant.secret)),
  });
  const text = await response.text();
  return { text, json: JSON.parse(text) as { code: number; msg: string; data?: Record<string, unknown>; sign?: string } };
}

const bindFields = (overrides: Fields = {}): Fields => ({
  ifCode: 'wxpay', receiverGroupId: 100001, accType: 0, accNo: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o', accName: 'Zhang San', relationType: 'PARTNER', divisionProfit: '0.30', ...overrides,
});
const bind = async (overrides: Fields = {}, merchant: Merchant = MERCHANT) => (await post('bind', bindFields(overrides), merchant)).json;
const exec = async (fields: Fields, merchant: Merchant = MERCHANT) => (await post('exec', { mchOrderNo: 'order-1', useSysAutoDivisionReceivers: 0, ...fields }, merchant)).json;
const receiversText = (list: readonly object[]) => JSON.stringify(list);

/** order-1: 10000 USD by WeChat, divisionMode 2, paid. */
async function paidOrder(overrides: Fields = {}): Promise<void> {
  expect((await post('unifiedOrder', orderFields({ wayCode: 'WX_NATIVE', amount: 10_000, divisionMode: 2, ...overrides }))).json.code).toBe(200);
  gateway.payOrder(String(overrides.mchOrderNo ?? 'order-1'));
}

describe('receiver groups, by control as the merchant portal makes them', () => {
  it('numbers them from 100001, for the first merchant unless named, flags the auto group; over the control API too', async () => {
    await start();
    expect(gateway.createDivisionGroup({ name: 'Partners' })).toMatchObject({ receiverGroupId: 100001, receiverGroupName: 'Partners', mchNo: MERCHANT.mchNo, autoDivisionFlag: 0 });
    const response = await fetch(`${server.url}/_mock/division/groups`, { method: 'POST', body: JSON.stringify({ mchNo: OTHER_MERCHANT.mchNo, auto: true }) });
    expect(await response.json()).toMatchObject({ receiverGroupId: 100002, mchNo: OTHER_MERCHANT.mchNo, autoDivisionFlag: 1 });
    expect(gateway.state().divisionGroups.map((g) => g.receiverGroupId)).toEqual([100002, 100001]);
    expect(() => gateway.createDivisionGroup({ mchNo: 'M-nobody' })).toThrow(/no merchant "M-nobody"/);
    expect((await fetch(`${server.url}/_mock/division/groups`, { method: 'POST', body: JSON.stringify({ auto: 'yes' }) })).status).toBe(400);
  });
});

describe('bindDivisionReceiver, raw over loopback', () => {
  it('stores the receiver with state 1 and answers it signed, its share as the JSON number sent (0.30), the account masked in state and log', async () => {
    await start();
    gateway.createDivisionGroup();
    const { text, json } = await post('bind', bindFields());
    expect(json).toMatchObject({ code: 200, msg: 'SUCCESS' });
    expect(json.data).toMatchObject({
      receiverId: 800001, receiverGroupId: 100001, bindState: 1, accNo: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o', receiverAlias: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o', relationTypeName: '合作伙伴',
      mchNo: MERCHANT.mchNo, appId: MERCHANT.appId, ifCode: 'wxpay', accType: 0, bindSuccessTime: START,
    });
    expect(text).toContain('"divisionProfit":0.30');
    // Signed over each member as the server's toString(): the share as its decimal text.
    const texts = Object.fromEntries(Object.entries(json.data ?? {}).map(([k, v]) => [k, k === 'divisionProfit' ? '0.30' : String(v)]));
    expect(json.sign).toBe(sign(texts, MERCHANT.secret));

    const [receiver] = gateway.state().divisionReceivers;
    expect(receiver).toMatchObject({ receiverId: 800001, state: 1, account: '***eS6o', accountName: '*** San', divisionProfit: '0.30' });
    const shown = JSON.stringify(gateway.state());
    expect(shown).not.toContain('oUpF8uMuAJO_M2pxb1Q9zNjWeS6o');
    expect(shown).not.toContain('Zhang San');
    expect(gateway.requests.at(-1)?.outcome).toMatch(/^SUCCESS receiverId=800001 bindState=1\b/);
    const html = await (await fetch(`${server.url}/`)).text();
    expect(html).toContain('data-division-receiver="800001"');
    expect(html).toContain('***eS6o');
    expect(html).not.toContain('oUpF8uMuAJO_M2pxb1Q9zNjWeS6o');
  });

  it('stores a second receiver for a second bind of one account: no duplicate check, as the reference', async () => {
    await start();
    gateway.createDivisionGroup();
    expect(await bind()).toMatchObject({ data: { receiverId: 800001, bindState: 1 } });
    expect(await bind()).toMatchObject({ data: { receiverId: 800002, bindState: 1 } });
    expect(gateway.divisionReceivers().map((r) => [r.receiverId, r.account])).toEqual([[800001, '***eS6o'], [800002, '***eS6o']]);
  });

  it('answers bindState 0 with the channel errCode and errMsg, stores nothing, when the channel refuses; the next bind is stored', async () => {
    await start();
    gateway.createDivisionGroup();
    expect(gateway.refuseReceiverBinds({ errCode: 'NAME_MISMATCH', errMsg: 'the name does not match' })).toEqual({ refusedBinds: 1 });
    const refused = await bind();
    expect(refused).toMatchObject({ code: 200, data: { bindState: 0, errCode: 'NAME_MISMATCH', errMsg: 'the name does not match', receiverGroupId: 100001 } });
    expect(refused.data).not.toHaveProperty('receiverId');
    expect(refused.data).not.toHaveProperty('bindSuccessTime');
    expect(gateway.divisionReceivers()).toEqual([]);
    expect(await bind()).toMatchObject({ data: { receiverId: 800001, bindState: 1 } });
  });

  it('refuses in the reference order with its texts, storing nothing', async () => {
    await start();
    gateway.createDivisionGroup();
    gateway.createDivisionGroup({ mchNo: OTHER_MERCHANT.mchNo });
    const refusal = async (overrides: Fields) => (await bind(overrides)).msg;
    // accType out of range (and an ifCode not configured): the field rule first.
    expect(await refusal({ accType: 2, ifCode: 'mockpay' })).toBe(DIVISION_BIND_TEXTS.accType);
    // Not configured (and an unknown group): the configuration first.
    expect(await refusal({ ifCode: 'mockpay', receiverGroupId: 999 })).toBe('商户应用的支付配置不存在或已关闭');
    // An unknown group, or another merchant's (and a share that is no number): the group first.
    expect(await refusal({ receiverGroupId: 999, divisionProfit: 'abc' })).toBe('商户分账账号组不存在，请检查或进入商户平台进行创建操作');
    expect(await refusal({ receiverGroupId: 100002 })).toBe(DIVISION_BIND_TEXTS.groupNotFound);
    // A share that is no number is a NumberFormatException caught generically; <= 0 its text (and ysfpay, which cannot divide).
    expect(await refusal({ divisionProfit: 'abc', ifCode: 'ysfpay' })).toBe('系统异常');
    expect(await refusal({ divisionProfit: '0', ifCode: 'ysfpay' })).toBe('账号分账比例有误, 配置值为[0.0001~1.0000]');
    expect(await refusal({ divisionProfit: '-0.1' })).toBe(DIVISION_BIND_TEXTS.profit);
    // Configured, but no division service.
    expect(await refusal({ ifCode: 'ysfpay' })).toBe('系统不支持该分账接口');
    // Stored after the channel bound it: a value its column cannot hold, or a custom type without its name, is 系统异常.
    expect(await refusal({ accNo: 'x'.repeat(51) })).toBe('系统异常');
    expect(await refusal({ relationType: 'CUSTOM' })).toBe('系统异常');
    expect(gateway.divisionReceivers()).toEqual([]);
    // The reference's upper bound is dead code: a share of 5 is bound; a custom type with its name too.
    expect(await bind({ divisionProfit: '5' })).toMatchObject({ data: { bindState: 1, receiverId: 800001 } });
    expect(await bind({ relationType: 'CUSTOM', relationTypeName: '股东', ifCode: 'alipay', accNo: '2088102146225135' })).toMatchObject({ data: { relationTypeName: '股东', receiverId: 800002 } });
  });
});

describe('orders: divisionMode kept, divisionState kept but never shown to the merchant', () => {
  it('refuses divisionMode outside 0..2 with the reference text; keeps the mode and state; the query answer has neither', async () => {
    await start();
    expect((await post('unifiedOrder', orderFields({ divisionMode: 3 }))).json.msg).toMatch(/^分账模式设置值有误/);
    await paidOrder();
    expect(gateway.order('order-1')).toMatchObject({ divisionMode: 2, divisionState: 0, mchFeeAmount: 0 });
    const query = await post('query', { mchOrderNo: 'order-1' });
    expect(query.json.data).toMatchObject({ state: 2 });
    expect(Object.keys(query.json.data ?? {}).filter((k) => k.startsWith('division') || k === 'mchFeeAmount')).toEqual([]);
  });
});

describe('executeDivision, raw over loopback', () => {
  /** Group 100001 with 800001 (0.30) and 800002 (0.15), of MERCHANT's app, wxpay; order-1 paid. */
  async function divisible(): Promise<void> {
    await start();
    gateway.createDivisionGroup();
    await bind();
    await bind({ accNo: 'oUpF8uAnother_openid_000002', divisionProfit: '0.15' });
    await paidOrder();
  }

  it('refuses in the reference order with its texts, leaving the order undivided', async () => {
    await divisible();
    gateway.createDivisionGroup({ mchNo: OTHER_MERCHANT.mchNo });
    await post('unifiedOrder', orderFields({ mchOrderNo: 'unpaid', wayCode: 'WX_NATIVE', divisionMode: 2 }));
    await paidOrder({ mchOrderNo: 'mode-0', divisionMode: 0 });
    await paidOrder({ mchOrderNo: 'mode-1', divisionMode: 1 });
    const refusal = async (fields: Fields) => (await exec(fields)).msg;
    expect(await refusal({ useSysAutoDivisionReceivers: undefined })).toBe(DIVISION_EXEC_TEXTS.autoMissing);
    expect(await refusal({ mchOrderNo: undefined })).toBe('mchOrderNo 和 payOrderId不能同时为空');
    expect(await refusal({ mchOrderNo: 'no-such-order' })).toBe('订单不存在');
    // Another merchant's order is not found either.
    expect((await exec({}, OTHER_MERCHANT)).msg).toBe('订单不存在');
    for (const mchOrderNo of ['unpaid', 'mode-0', 'mode-1']) expect(await refusal({ mchOrderNo, receivers: 'not json' })).toBe('当前订单状态不支持分账');
    expect(await refusal({ receivers: 'not json' })).toBe('系统异常');
    expect(await refusal({ receivers: '{"receiverId":800001}' })).toBe('系统异常');
    expect(await refusal({ receivers: receiversText([{ receiverId: 800001 }, { divisionProfit: '0.1' }]) })).toBe('分账用户组： receiverId 和 与receiverGroupId 必填一项');
    expect(await refusal({ receivers: receiversText([{ receiverId: 800001, divisionProfit: '-0.1' }]) })).toBe('分账用户receiverId=[800001],receiverGroupId=[null] 分账比例不得小于0%');
    expect(await refusal({ receivers: receiversText([{ receiverGroupId: 100001, divisionProfit: 1.5 }]) })).toBe('分账用户receiverId=[null],receiverGroupId=[100001] 分账比例不得高于100%');
    expect(await refusal({ receivers: receiversText([{ receiverId: 800009 }, { receiverGroupId: 100002 }]) })).toBe('分账[用户]中包含不存在或渠道不可用账号，请更改');
    expect(await refusal({ receivers: receiversText([{ receiverGroupId: 100002 }]) })).toBe('分账[账号组]中包含不存在或不可用组，请更改');
    expect(gateway.order('order-1')?.divisionState).toBe(0);
    expect(gateway.divisions()).toEqual([]);
  });

  it('divides the net (fee and refunds deducted), pays an account listed by id and in a listed group twice, once per order', async () => {
    await divisible();
    gateway.setOrderFee('order-1', 60);
    expect((await post('refundOrder', refundFields({ refundAmount: 2000 }))).json.code).toBe(200);
    // 10000 - 60 - 2000 = 7940. 800001 by id (0.3) and in group 100001 (its stored 0.30); 800002 in the group (0.15).
    const { text, json } = await post('exec', { mchOrderNo: 'order-1', useSysAutoDivisionReceivers: 0, receivers: '[{"receiverId":800001,"divisionProfit":"0.3"},{"receiverGroupId":"100001","receiverId":""}]' });
    expect(json).toMatchObject({ code: 200, data: { state: 1, channelBatchOrderId: expect.stringMatching(/^CD/) } });
    expect(Object.keys(json.data ?? {}).sort()).toEqual(['channelBatchOrderId', 'state']);
    expect(json.sign).toBe(sign({ state: '1', channelBatchOrderId: String(json.data?.channelBatchOrderId) }, MERCHANT.secret));
    expect(text).not.toContain('payOrderId');
    const [division] = gateway.divisions();
    expect(division).toMatchObject({ batchOrderId: expect.stringMatching(/^D\d+$/), divisibleAmount: 7940, capAmount: 5955, state: 1, auto: false });
    expect(division?.records.map((r) => [r.receiverId, r.divisionProfit, r.calDivisionAmount, r.state])).toEqual([
      [800001, '0.3', 2382, 1],
      [800001, '0.30', 2382, 1],
      [800002, '0.15', 1191, 1],
    ]);
    expect(gateway.order('order-1')).toMatchObject({ divisionState: 3, divisionLastTime: START });
    expect(gateway.requests.at(-1)?.outcome).toMatch(/^SUCCESS state=1/);
    // A second exec is refused, and says nothing of the first.
    expect(await exec({ receivers: receiversText([{ receiverId: 800002 }]) })).toEqual({ code: 9999, msg: '当前订单状态不支持分账' });
    expect(gateway.divisions()).toHaveLength(1);
    const html = await (await fetch(`${server.url}/`)).text();
    expect(html).toContain(`data-division="${division?.batchOrderId}"`);
  });

  it('answers the state the channel control chooses (3 accepted, 2 failed), the order divided (3) whatever the outcome', async () => {
    await divisible();
    await paidOrder({ mchOrderNo: 'order-2' });
    expect((await fetch(`${server.url}/_mock/division/outcome`, { method: 'POST', body: '{"outcome":"accepted"}' })).status).toBe(200);
    expect(await exec({ receivers: receiversText([{ receiverId: 800001 }]) })).toMatchObject({ data: { state: 3 } });
    gateway.setDivisionOutcome({ outcome: 'failed', errCode: 'NOT_ENOUGH', errMsg: 'frozen funds too low' });
    expect(await exec({ mchOrderNo: 'order-2', receivers: receiversText([{ receiverId: 800001 }]) })).toMatchObject({ data: { state: 2, errCode: 'NOT_ENOUGH', errMsg: 'frozen funds too low' } });
    expect(gateway.divisions().map((d) => [d.state, d.records.map((r) => r.state)])).toEqual([[3, [3]], [2, [2]]]);
    expect([gateway.order('order-1')?.divisionState, gateway.order('order-2')?.divisionState]).toEqual([3, 3]);
  });

  it('finishes at once with state 1 when nothing is to be sent (an empty list), whatever the control says', async () => {
    await divisible();
    gateway.setDivisionOutcome({ outcome: 'failed' });
    expect(await exec({ receivers: '[]' })).toMatchObject({ data: { state: 1 } });
    expect(gateway.divisions()).toMatchObject([{ state: 1, records: [], divisibleAmount: 10_000, capAmount: 0 }]);
    expect(gateway.order('order-1')?.divisionState).toBe(3);
  });

  it("refuses a signed releaseAllToMerchant with 验签失败, as the reference: the SDK's own parameter is no wire field", async () => {
    await divisible();
    // The reference re-signs the fields it knows; a client in another language that signs the SDK's word gets this.
    expect(await exec({ receivers: '[]', releaseAllToMerchant: 'true' })).toMatchObject({ msg: '验签失败' });
    expect(gateway.divisions()).toEqual([]);
    expect(gateway.order('order-1')?.divisionState).toBe(0);
  });

  it('divides to the auto group with useSysAutoDivisionReceivers 1, at the stored shares', async () => {
    await start();
    gateway.createDivisionGroup({ name: 'not auto' });
    gateway.createDivisionGroup({ name: 'auto', auto: true });
    await bind({ receiverGroupId: 100001 });
    await bind({ receiverGroupId: 100002, divisionProfit: '0.2' });
    await paidOrder();
    expect(await exec({ useSysAutoDivisionReceivers: 1, receivers: 'ignored' })).toMatchObject({ data: { state: 1 } });
    expect(gateway.divisions()[0]?.records.map((r) => [r.receiverId, r.calDivisionAmount])).toEqual([[800002, 2000]]);
  });
});

describe('mode 1: divided to the auto group 80 s after payment, on the simulated clock', () => {
  it('waits in divisionState 1, then divides once at the stored shares, refused to exec', async () => {
    await start();
    gateway.createDivisionGroup({ auto: true });
    await bind({ divisionProfit: '0.25' });
    await paidOrder({ divisionMode: 1 });
    expect(gateway.order('order-1')?.divisionState).toBe(1);
    expect((await exec({})).msg).toBe('当前订单状态不支持分账');
    gateway.advanceTime(AUTO_DIVISION_DELAY_MS - 1);
    expect(gateway.divisions()).toEqual([]);
    gateway.advanceTime(1);
    expect(gateway.divisions()).toMatchObject([{ auto: true, state: 1, divisibleAmount: 10_000, records: [{ receiverId: 800001, calDivisionAmount: 2500, state: 1 }] }]);
    expect(gateway.order('order-1')?.divisionState).toBe(3);
    gateway.advanceTime(AUTO_DIVISION_DELAY_MS);
    expect(gateway.divisions()).toHaveLength(1);
  });

  it('divides to nobody (state 1, no records) without an auto group', async () => {
    await start();
    await paidOrder({ divisionMode: 1 });
    gateway.advanceTime(AUTO_DIVISION_DELAY_MS);
    expect(gateway.divisions()).toMatchObject([{ auto: true, state: 1, records: [] }]);
  });
});

describe('the CLI verbs over the control API', () => {
  it('division-group, order-fee, receiver-refuse and division-outcome drive a running mock; mistakes are usage errors', async () => {
    const { runInProcess } = await import('../support/cli-in-process.js');
    await start();
    await paidOrder();
    const run = (...args: string[]) => runInProcess(['mock', ...args, '--url', server.url]);
    expect(await run('division-group', '--name', 'Partners', '--auto')).toMatchObject({ code: 0, stdout: `receiverGroupId 100001  "Partners" of ${MERCHANT.mchNo}, the auto division group\n` });
    expect((await run('order-fee', 'order-1', '--fee', '60')).stdout).toContain('mchFeeAmount 60: a division shares the amount less it');
    expect(gateway.order('order-1')?.mchFeeAmount).toBe(60);
    expect((await run('receiver-refuse', '--times', '2', '--err-code', 'NAME_MISMATCH')).stdout).toBe('the channel refuses the next 2 receiver bind(s): answered bindState 0, nothing stored\n');
    expect(await bind()).toMatchObject({ data: { bindState: 0, errCode: 'NAME_MISMATCH' } });
    expect((await run('division-outcome', 'failed', '--err-msg', 'frozen funds too low')).stdout).toBe('coming divisions are failed by the channel (exec state 2)  errCode MOCK_DIVISION_FAILED  errMsg frozen funds too low\n');
    expect((await run('division-outcome', 'maybe')).code).toBe(2);
    expect((await run('order-fee', 'order-1', '--fee', 'x')).code).toBe(1);
    expect((await run('division-group', '--fee', '1')).stderr).toContain('--fee is an option of order-fee');
    gateway.setDivisionOutcome({ outcome: 'succeeded' });
    expect(await bind()).toMatchObject({ data: { bindState: 0 } }); // the second of the two refused
    expect(await bind()).toMatchObject({ data: { bindState: 1 } });
    expect(await exec({ receivers: receiversText([{ receiverId: 800001 }]) })).toMatchObject({ data: { state: 1 } });
    const { stdout } = await run('list');
    expect(stdout).toContain(`Division groups (1)\n  100001  "Partners"  of ${MERCHANT.mchNo}  auto\n`);
    expect(stdout).toContain('Division receivers (1)\n  800001  group 100001  wxpay ***eS6o  share 0.30  state 1\n');
    // 10000 - 60 = 9940 x 0.30 = 2982
    expect(stdout).toMatch(/Divisions \(1\)\n {2}D\d+ {2}of P\d+ {2}divisible 9940 USD {2}state 1 {2}records: 800001 2982 state 1\n/);
    expect(stdout).not.toContain('oUpF8uMuAJO_M2pxb1Q9zNjWeS6o');
  });
});

describe('through the public client', () => {
  it('binds (twice: two receivers, each bind one call), divides once with the shares as strings, and reads state 3 as accepted', async () => {
    const { GatewayClient, GatewayApiError } = await import('../../src/index.js');
    await start();
    const client = new GatewayClient({ baseUrl: server.url, ...MERCHANT });
    const { receiverGroupId } = gateway.createDivisionGroup();
    const params = { ifCode: 'wxpay', receiverGroupId, accType: 0, accNo: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o', relationType: 'PARTNER', divisionProfit: '0.10' } as const;
    const first = await client.bindDivisionReceiver(params);
    expect(first).toMatchObject({ bindState: 1, receiverId: 800001, divisionProfit: '0.10' });
    expect(await client.bindDivisionReceiver(params)).toMatchObject({ bindState: 1, receiverId: 800002 });
    expect(gateway.requests.filter((r) => r.operation === 'bindDivisionReceiver')).toHaveLength(2);
    await paidOrder();
    gateway.setDivisionOutcome({ outcome: 'accepted' });
    expect(await client.executeDivision({ mchOrderNo: 'order-1', receivers: [{ receiverId: 800001, divisionProfit: '0.25' }] })).toMatchObject({ state: 3 });
    expect(gateway.divisions()[0]?.records.map((r) => [r.receiverId, r.divisionProfit, r.calDivisionAmount])).toEqual([[800001, '0.25', 2500]]);
    const again = await client.executeDivision({ mchOrderNo: 'order-1', receivers: [{ receiverId: 800002 }] }).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(GatewayApiError);
    expect(again).toMatchObject({ reason: 'division_not_allowed', msg: '当前订单状态不支持分账' });
    expect(gateway.requests.filter((r) => r.operation === 'executeDivision')).toHaveLength(2);
  });
});
