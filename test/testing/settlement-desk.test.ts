// Issue 36: settlements run on the generic desk, declared in src/kinds/settlements/mock.ts. Their state is `status`
// (the declared stateField), they step on (the declared steps: progressSettlement, its route and the dashboard's
// Progress button), and they get what every declared kind gets: settlements(), setSettlementMode, settleSettlement,
// CLI verbs and a `mock list` line; completed and failed ones are notified as refunds and transfers are. Their
// behaviour before the move is test/testing/settlements.test.ts.
import { beforeEach, describe, expect, it } from 'vitest';
import { KIND_VERBS } from '../../src/cli/kind-verbs.js';
import { listState } from '../../src/cli/mock-list.js';
import { NOTIFIED } from '../../src/cli/trigger-spec.js';
import { GatewaySignatureError, verifySettlementNotification } from '../../src/index.js';
import { sign as signMessage } from '../../src/protocol/signing/sign.js';
import { createMockGateway, MockSettlementStatus, type MockGateway } from '../../src/testing/index.js';
import { call, MERCHANT, ORIGIN, OTHER_MERCHANT, START } from '../support/raw-gateway.js';

const ADDRESS = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
let gateway: MockGateway;
beforeEach(() => {
  gateway = createMockGateway({ merchants: [MERCHANT, OTHER_MERCHANT], startTime: START });
});

const settle = (requestId: string, fields: Record<string, string | number> = {}, merchant: typeof MERCHANT | typeof OTHER_MERCHANT = MERCHANT) =>
  call(gateway, 'settleRequest', { requestId, amount: 150000, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: ADDRESS, ...fields }, merchant);
const control = async (path: string, body?: object) => {
  const answer = await gateway.fetch(`${ORIGIN}/_mock/${path}`, { method: 'POST', body: body === undefined ? null : JSON.stringify(body) });
  return { status: answer.status, json: (await answer.json()) as Record<string, unknown> };
};

describe('settlements on the generic desk', () => {
  it('keep their state in status, never in state, and step on by progressSettlement as by progress', async () => {
    await settle('settle-1');
    const held = gateway.settlement('settle-1');
    expect(held).toMatchObject({ requestId: 'settle-1', status: MockSettlementStatus.Pending });
    expect(held).not.toHaveProperty('state');
    expect(gateway.progress('settlement', 'settle-1').status).toBe(MockSettlementStatus.Processing);
    expect(gateway.progressSettlement(held!.serverRequestId).status).toBe(MockSettlementStatus.Completed);
    expect(() => gateway.progress('settlement', 'settle-1', 'failed')).toThrow('progressSettlement: settlement settle-1 is already final (status 2, completed)');
    expect(() => gateway.progressSettlement('settle-1', 'closed' as 'failed')).toThrow(/Invalid progressSettlement to/);
  });

  it('a step of a kind that declares none is refused', () => {
    expect(() => gateway.progress('refund' as 'settlement', 'refund-1')).toThrow('refunds declare no steps');
  });

  it('its modes: hold (the default) pending; completed and failed at once, for all or one requestId', async () => {
    gateway.setSettlementMode('failed', { requestId: 'settle-2' });
    await settle('settle-1');
    await settle('settle-2');
    gateway.setSettlementMode('completed');
    await settle('settle-3');
    expect(gateway.settlements().map((s) => [s.requestId, s.status])).toEqual([
      ['settle-1', MockSettlementStatus.Pending],
      ['settle-2', MockSettlementStatus.Failed],
      ['settle-3', MockSettlementStatus.Completed],
    ]);
    expect((await call(gateway, 'settleRequestGet', { requestId: 'settle-3' })).json.data).toMatchObject({ status: MockSettlementStatus.Completed });
    expect(() => gateway.setSettlementMode('fail' as 'failed')).toThrow(/Invalid setSettlementMode options/);
  });

  it('settleSettlement takes a decision; a final settlement is refused in its status', async () => {
    await settle('settle-1');
    expect(gateway.settleSettlement('settle-1', { to: 'failed' }).status).toBe(MockSettlementStatus.Failed);
    expect(() => gateway.settleSettlement('settle-1', { to: 'completed' })).toThrow('settleSettlement: settlement');
    expect(() => gateway.settleSettlement('settle-1', { to: 'completed' })).toThrow(/is failed \(status 3\); only settlements in status 0 or 1 can change/);
  });

  it('a requestId two merchants use is named by its serverRequestId', async () => {
    await settle('settle-1');
    await settle('settle-1', {}, OTHER_MERCHANT);
    expect(() => gateway.progressSettlement('settle-1')).toThrow('progressSettlement: several merchants use requestId "settle-1"; give the serverRequestId');
    expect(gateway.settlements()).toHaveLength(2);
  });

  it('completed or failed, a settlement with a notifyUrl is notified: its settleRequestGet answer with mchNo, appId, reqTime, signed', async () => {
    await settle('settle-1', { notifyUrl: 'http://127.0.0.1:9/settled' });
    await settle('settle-2', { notifyUrl: 'http://127.0.0.1:9/settled?shop=7' });
    await settle('settle-3');
    gateway.progressSettlement('settle-1');
    gateway.progressSettlement('settle-3', 'completed');
    expect(gateway.notifications).toEqual([]); // processing is not final; settle-3 has no notifyUrl
    gateway.progressSettlement('settle-1', 'completed');
    gateway.settleSettlement('settle-2', { to: 'failed' });
    const [completed, failed] = gateway.notifications;
    const { serverRequestId } = gateway.settlement('settle-1')!;
    expect(completed).toMatchObject({ id: 'N1', kind: 'settlement', serverRequestId, requestId: 'settle-1', payOrderId: '', url: 'http://127.0.0.1:9/settled', state: 'pending' });
    expect(failed).toMatchObject({ kind: 'settlement', requestId: 'settle-2', state: 'pending' });
    const answer = (await call(gateway, 'settleRequestGet', { requestId: 'settle-1' })).json.data as Record<string, unknown>;
    const { reqTime, sign, ...carried } = completed!.fields;
    expect(carried).toEqual({ ...Object.fromEntries(Object.entries(answer).map(([name, value]) => [name, String(value)])), mchNo: MERCHANT.mchNo, appId: MERCHANT.appId });
    expect(reqTime).toBe(String(START));
    expect(sign).toBe(signMessage({ ...carried, reqTime }, MERCHANT.secret));
    const options = { secret: MERCHANT.secret, mchNo: MERCHANT.mchNo, appId: MERCHANT.appId, now: () => START };
    expect(await verifySettlementNotification(new URLSearchParams(completed!.fields).toString(), options)).toMatchObject({ requestId: 'settle-1', status: MockSettlementStatus.Completed, amount: 150000 });
    // The notifyUrl's query keys arrive unsigned, as on every notification: the merchant lists them in ignoreKeys.
    expect(failed!.fields.shop).toBe('7');
    expect(await verifySettlementNotification(new URLSearchParams(failed!.fields).toString(), { ...options, ignoreKeys: ['shop'] })).toMatchObject({ requestId: 'settle-2', status: MockSettlementStatus.Failed });
    await expect(verifySettlementNotification(new URLSearchParams(completed!.fields).toString(), { ...options, secret: OTHER_MERCHANT.secret })).rejects.toThrow(GatewaySignatureError);
  });

  it('a settlement decided at once by its mode is notified as well', async () => {
    gateway.setSettlementMode('completed');
    await settle('settle-1', { notifyUrl: 'http://127.0.0.1:9/settled' });
    expect(gateway.notifications.map((n) => [n.requestId, n.fields.status])).toEqual([['settle-1', String(MockSettlementStatus.Completed)]]);
  });

  it('the progress route steps by requestId or serverRequestId; a wrong to is a 400 that says what to send', async () => {
    await settle('settle-1');
    expect(await control('settlements/settle-1/progress')).toMatchObject({ status: 200, json: { status: MockSettlementStatus.Processing } });
    const { serverRequestId } = gateway.settlement('settle-1')!;
    expect(await control(`settlements/${serverRequestId}/progress`, { to: 'failed' })).toMatchObject({ status: 200, json: { status: MockSettlementStatus.Failed } });
    await settle('settle-2');
    const wrong = await control('settlements/settle-2/progress', { to: 'paid' });
    expect(wrong.status).toBe(400);
    expect(String(wrong.json.error)).toContain("must be 'processing', 'completed' or 'failed' (leave it out for the next step)");
    expect(await control('settlements/settle-2/settle', { to: 'completed' })).toMatchObject({ status: 200, json: { status: MockSettlementStatus.Completed } });
  });

  it("the dashboard: each settlement's status by number and name, the Progress button while it is open", async () => {
    await settle('settle-1');
    await settle('settle-2');
    gateway.progressSettlement('settle-2', 'completed');
    const page = await (await gateway.fetch(`${ORIGIN}/`)).text();
    expect(page).toMatch(/<h2>Settlements <span class="muted">\(2\)<\/span><\/h2>/);
    const rows = [...page.matchAll(/<tr data-settlement="([^"]+)">([\s\S]*?)<\/tr>/g)];
    const [second, first] = rows.map(([, , row]) => row ?? '');
    expect(rows.map(([, id]) => id)).toEqual([gateway.settlement('settle-2')?.serverRequestId, gateway.settlement('settle-1')?.serverRequestId]);
    expect(first).toContain('0 pending');
    expect(first).toContain('1500.00 USD');
    expect(first).toContain('TRON_USDT');
    expect(first).toContain(`data-post="/_mock/settlements/${gateway.settlement('settle-1')?.serverRequestId}/progress">Progress</button>`);
    expect(first).not.toContain('/settle"');
    expect(second).toContain('2 completed');
    expect(second).not.toContain('<button');
  });

  it('mock list and the CLI verbs: its status by number and name, a verb per decision, its mode', async () => {
    await settle('settle-1');
    const lines = listState(JSON.parse(JSON.stringify(gateway.state())) as Record<string, unknown>);
    expect(lines).toContain('Settlements (1)');
    expect(lines).toContain(`  ${gateway.settlement('settle-1')?.serverRequestId}  requestId settle-1  amount 150000 USD  status 0 (pending)  token "TRON_USDT"`);
    expect(Object.keys(KIND_VERBS).filter((verb) => verb.startsWith('settlement-'))).toEqual(['settlement-processing', 'settlement-completed', 'settlement-failed', 'settlement-mode']);
    const completed = KIND_VERBS['settlement-completed']!;
    expect(completed.route('settle-1')).toBe('settlements/settle-1/settle');
    expect(completed.print({ serverRequestId: 'SR1', requestId: 'settle-1', status: 2 })).toBe('serverRequestId SR1  requestId settle-1  status 2 (completed)');
    expect(completed.print({ serverRequestId: 'SR1', requestId: 'settle-1', status: 2, notifyUrl: 'http://127.0.0.1:9/settled' })).toBe(`serverRequestId SR1  requestId settle-1  status 2 (completed)${NOTIFIED}`);
    expect(KIND_VERBS['settlement-processing']!.print({ serverRequestId: 'SR1', requestId: 'settle-1', status: 1 })).toBe('serverRequestId SR1  requestId settle-1  status 1 (processing); no notification');
    expect(KIND_VERBS['settlement-mode']!.print({ mode: 'hold' })).toBe('settlement mode hold: coming settlements wait in status 0 (pending) until mock settlement-processing|settlement-completed|settlement-failed SETTLEMENT');
  });
});
