// The control API and the dashboard through gateway.fetch (test/cli/mock.slow.test.ts drives them over HTTP
// through the command).
import { describe, expect, it } from 'vitest';
import { createMockGateway, type MockGateway } from '../../src/testing/index.js';
import { call, MERCHANT, ORIGIN, orderFields, refundFields, START } from '../support/raw-gateway.js';

describe('control API and dashboard', () => {
  const post = (gateway: MockGateway, path: string, body?: object) =>
    gateway.fetch(`${ORIGIN}/_mock/${path}`, { method: 'POST', body: body === undefined ? null : JSON.stringify(body) });

  it('faults: the next query gets the injected answer; DELETE clears them', async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT], startTime: START });
    expect(await (await post(gateway, 'faults', { kind: 'html502', operation: 'query', when: 'before' })).json()).toEqual({ kind: 'html502', operation: 'query', when: 'before', hits: 0, remaining: 1 });
    expect((await call(gateway, 'query', { mchOrderNo: 'x' })).status).toBe(502);
    await post(gateway, 'faults', { kind: 'html502', times: 5 });
    await gateway.fetch(`${ORIGIN}/_mock/faults`, { method: 'DELETE' });
    expect((await call(gateway, 'query', { mchOrderNo: 'x' })).status).toBe(200);
    expect((await post(gateway, 'faults', { kind: 'meteor' })).status).toBe(400);
  });

  it('decodes the {name} segment once (%50 is P); a malformed %-escape is a 400 before any control runs', async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT], startTime: START });
    await call(gateway, 'unifiedOrder', orderFields());
    const { payOrderId } = gateway.order('order-1')!;
    const malformed = await post(gateway, 'orders/%E0%A4%A/pay');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ status: 400, error: 'Bad Request', path: '/_mock/orders/%E0%A4%A/pay' });
    expect(gateway.order('order-1')?.state).toBe(0);
    const escaped = `%${payOrderId.charCodeAt(0).toString(16).toUpperCase()}${payOrderId.slice(1)}`;
    expect((await post(gateway, `orders/${escaped}/pay`)).status).toBe(200);
    expect(gateway.order('order-1')?.state).toBe(2);
  });

  it('refunds: the mode holds the coming refunds in 1; settle decides one (by mchRefundNo or refundOrderId); mistakes are 400s that change nothing', async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT], startTime: START });
    await call(gateway, 'unifiedOrder', orderFields());
    gateway.payOrder('order-1');
    expect(await (await post(gateway, 'refunds/mode', { mode: 'hold' })).json()).toEqual({ mode: 'hold' });
    expect((await call(gateway, 'refundOrder', refundFields())).json.data).toMatchObject({ mchRefundNo: 'refund-1', state: 1 });
    const bad = [
      await post(gateway, 'refunds/mode', { mode: 'later' }),
      await post(gateway, 'refunds/refund-1/settle', { to: 'maybe' }),
      await post(gateway, 'refunds/refund-1/settle', { to: 'fail', errCode: 7 }),
      await post(gateway, 'refunds/refund-1/settle', {}),
      await post(gateway, 'refunds/no-such-refund/settle', { to: 'succeed' }),
    ];
    expect(bad.map((r) => r.status)).toEqual([400, 400, 400, 400, 400]);
    expect((await bad[0]!.json()).error).toMatch(/mode: must be 'succeed', 'hold' or 'fail'/);
    expect((await bad[4]!.json()).error).toBe('settleRefund: no refund with refundOrderId or mchRefundNo "no-such-refund"');
    expect(gateway.refund('refund-1')?.state).toBe(1);

    const failed = await (await post(gateway, 'refunds/refund-1/settle', { to: 'fail', errCode: 'NOT_ENOUGH_BALANCE', errMsg: 'balance too low' })).json();
    expect(failed).toMatchObject({ mchRefundNo: 'refund-1', state: 3, errCode: 'NOT_ENOUGH_BALANCE', errMsg: 'balance too low' });
    const again = await post(gateway, `refunds/${failed.refundOrderId}/settle`, { to: 'succeed' });
    expect(again.status).toBe(400);
    expect((await again.json()).error).toMatch(/is Failed \(state 3\); only refunds in state 0 or 1 can change/);

    await call(gateway, 'refundOrder', refundFields({ mchRefundNo: 'refund-2', refundAmount: 1999 }));
    const { refundOrderId } = gateway.refund('refund-2')!;
    expect(await (await post(gateway, `refunds/${refundOrderId}/settle`, { to: 'succeed' })).json()).toMatchObject({ refundOrderId, state: 2 });
    expect(gateway.order('order-1')?.state).toBe(5);
    expect(await (await post(gateway, 'refunds/mode', { mode: 'succeed' })).json()).toEqual({ mode: 'succeed' });
    const state = await (await gateway.fetch(`${ORIGIN}/_mock/state`)).json();
    expect(state.refunds.map((r: { mchRefundNo: string; state: number }) => [r.mchRefundNo, r.state])).toEqual([['refund-2', 2], ['refund-1', 3]]);
  });

  it("the dashboard lists refunds (newest first, states by name, received values escaped), each order's refunded sum, and buttons that settle a held refund", async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT], startTime: START });
    await call(gateway, 'unifiedOrder', orderFields());
    gateway.payOrder('order-1');
    await call(gateway, 'refundOrder', refundFields({ mchRefundNo: 'dash-<r1>', refundAmount: 450 }));
    gateway.setRefundMode('hold');
    await call(gateway, 'refundOrder', refundFields({ mchRefundNo: 'dash-r2', refundAmount: 1000 }));
    const held = gateway.refund('dash-r2')!;
    const page = await (await gateway.fetch(`${ORIGIN}/`)).text();
    expect(page).toMatch(/<h2>Refunds <span class="muted">\(2\)<\/span><\/h2>/);
    const rows = [...page.matchAll(/<tr data-refund="([^"]+)">([\s\S]*?)<\/tr>/g)];
    expect(rows.map(([, id]) => id)).toEqual([held.refundOrderId, gateway.refund('dash-<r1>')?.refundOrderId]);
    expect(rows[0]?.[2]).toContain('<code>dash-r2</code>');
    expect(rows[0]?.[2]).toContain('10.00 USD');
    expect(rows[0]?.[2]).toContain('1 Refunding');
    expect(rows[0]?.[2]).toContain(`data-post="/_mock/refunds/${held.refundOrderId}/settle" data-body="{&#34;to&#34;:&#34;succeed&#34;}">Succeed`);
    expect(rows[0]?.[2]).toContain('data-body="{&#34;to&#34;:&#34;close&#34;}">Close');
    expect(rows[1]?.[2]).toContain('<code>dash-&#60;r1&#62;</code>');
    expect(rows[1]?.[2]).toContain('2 Succeeded');
    expect(rows[1]?.[2]).not.toContain('<button');
    const order = /<tr data-order="[^"]+">([\s\S]*?)<\/tr>/.exec(page)?.[1];
    expect(order).toContain('<td>19.99 USD</td><td>4.50 USD<div'); // amount, refunded so far (only succeeded refunds), then each refund

    // What the Succeed button posts: its data-body, read by the settle route.
    expect((await post(gateway, `refunds/${held.refundOrderId}/settle`, { to: 'succeed' })).status).toBe(200);
    const after = await (await gateway.fetch(`${ORIGIN}/`)).text();
    expect(/<tr data-order="[^"]+">([\s\S]*?)<\/tr>/.exec(after)?.[1]).toContain('<td>19.99 USD</td><td>14.50 USD<div');
    expect(after).toContain("fetch(button.dataset.post, { method: 'POST', body: button.dataset.body })"); // the page's script sends it
  });

  it('state has no secrets; bodies are bounded; the dashboard lists orders newest first', async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT], startTime: START });
    await call(gateway, 'unifiedOrder', orderFields());
    await call(gateway, 'unifiedOrder', orderFields({ mchOrderNo: 'order-2' }));
    const state = await (await gateway.fetch(`${ORIGIN}/_mock/state`)).text();
    expect(state).not.toContain(MERCHANT.secret);
    expect(JSON.parse(state).orders.map((o: { mchOrderNo: string }) => o.mchOrderNo)).toEqual(['order-2', 'order-1']);
    expect((await post(gateway, 'clock/advance', { pad: 'x'.repeat(20_000) })).status).toBe(413);
    const operation = await gateway.fetch(`${ORIGIN}/api/pay/query`, { method: 'POST', body: JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }) });
    expect(operation.status).toBe(413);
    expect(await operation.text()).toMatch(/over 1048576 bytes/);
    const dashboard = await (await gateway.fetch(`${ORIGIN}/`)).text();
    expect(dashboard.indexOf('order-2')).toBeLessThan(dashboard.indexOf('order-1'));
    // The buttons call the page's own origin, whichever host the browser reached the mock by.
    expect(dashboard).toContain('data-post="/_mock/orders/');
  });
});
