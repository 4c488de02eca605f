// Issue 18 §1: a create recovered by a lookup has no payData; the type says so, and reissueOrder is the
// way out, tested against the mock gateway under its connectionReset fault.
import { describe, expect, it } from 'vitest';
import { GatewayClient, GatewayEmptyResponseError, GatewayOrderPaidError, GatewayValidationError, PayOrderState, type UnifiedOrderParams } from '../../src/index.js';
import { createMockGateway, type MockGateway } from '../../src/testing/index.js';

const MERCHANT = { mchNo: 'M1700000001', appId: 'app-1', secret: 'test-secret-0123456789' };

function setup() {
  const gateway = createMockGateway({ merchants: [MERCHANT] });
  const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch, retry: { initialDelayMs: 1, maxDelayMs: 2 } });
  return { gateway, client };
}

const params = (mchOrderNo: string): UnifiedOrderParams => ({ mchOrderNo, wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: 'T-shirt', body: 'Blue, M' });

/** A create whose answer is lost after the gateway made the order: the SDK finds it by its number. */
async function recoveredOrder(mchOrderNo: string) {
  const { gateway, client } = setup();
  gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'after' });
  const result = await client.unifiedOrder(params(mchOrderNo));
  if (!result.recovered) throw new Error('expected a recovered result');
  return { gateway, client, recovered: result };
}

describe('a recovered create', () => {
  it('is marked recovered, with no payData; the gateway\'s own answer is marked not recovered, with payData', async () => {
    const { gateway, client, recovered } = await recoveredOrder('lost-1');
    expect(recovered).toEqual({ recovered: true, payOrderId: gateway.order('lost-1')?.payOrderId, mchOrderNo: 'lost-1', orderState: PayOrderState.Generated });
    const answered = await client.unifiedOrder(params('fine-1'));
    expect(answered).toMatchObject({ recovered: false, mchOrderNo: 'fine-1', payDataType: gateway.order('fine-1')?.payDataType, payData: gateway.order('fine-1')?.payData });
    expect(answered.recovered ? undefined : answered.payData).toMatch(/\/cashier\//);
  });

  it('reissueOrder closes it and creates the order under the new number, returning its payData', async () => {
    const { gateway, client, recovered } = await recoveredOrder('lost-2');
    const reissued = await client.reissueOrder(recovered, params('lost-2-b'));
    expect(reissued).toMatchObject({ recovered: false, mchOrderNo: 'lost-2-b', payData: gateway.order('lost-2-b')?.payData });
    expect(gateway.order('lost-2')?.state).toBe(PayOrderState.Closed); // the old one can no longer be paid
    expect(gateway.requests.map((r) => r.operation)).toEqual(['unifiedOrder', 'query', 'close', 'query', 'unifiedOrder']);
  });

  it('an order already past paying (failed) is not closed again; a new order is created', async () => {
    const { gateway, client, recovered } = await recoveredOrder('lost-3');
    gateway.failOrder('lost-3');
    await expect(client.reissueOrder(recovered, params('lost-3-b'))).resolves.toMatchObject({ recovered: false, mchOrderNo: 'lost-3-b' });
    expect(gateway.order('lost-3')?.state).toBe(PayOrderState.Failed);
  });

  it('reads the recovered order once, whatever its close found: a close, one query, then the create', async () => {
    const reissued = async (mchOrderNo: string, change: (gateway: MockGateway, client: GatewayClient, payOrderId: string) => unknown) => {
      const { gateway, client, recovered } = await recoveredOrder(mchOrderNo);
      await change(gateway, client, recovered.payOrderId);
      const before = gateway.requests.length;
      await client.reissueOrder(recovered, params(`${mchOrderNo}-b`)).catch(() => undefined);
      return gateway.requests.slice(before).map((r) => `${r.operation}${r.reason ? ` ${r.reason}` : ''}`);
    };
    expect(await reissued('once-failed', (gateway) => gateway.failOrder('once-failed'))).toEqual(['close order_not_closable', 'query', 'unifiedOrder']);
    expect(await reissued('once-closed', (_, client, payOrderId) => client.close({ payOrderId }))).toEqual(['close order_not_closable', 'query', 'unifiedOrder']);
    expect(await reissued('once-paid', (gateway) => gateway.payOrder('once-paid'))).toEqual(['close order_not_closable', 'query']);
    expect(await reissued('once-open', () => undefined)).toEqual(['close', 'query', 'unifiedOrder']);
  });

  it('refuses when the recovered order was paid meanwhile: GatewayOrderPaidError with the order, and nothing created', async () => {
    const { gateway, client, recovered } = await recoveredOrder('lost-4');
    gateway.payOrder('lost-4');
    const error = (await client.reissueOrder(recovered, params('lost-4-b')).catch((e: unknown) => e)) as GatewayOrderPaidError;
    expect(error).toBeInstanceOf(GatewayOrderPaidError);
    expect(error.order).toMatchObject({ mchOrderNo: 'lost-4', state: PayOrderState.Succeeded });
    expect(error.message).toMatch(/was paid \(state 2\), so it was not replaced: fulfil it/);
    expect(gateway.order('lost-4-b')).toBeUndefined();
  });

  it('refuses when the order cannot be closed (the channel refuses: an empty answer), and creates nothing', async () => {
    const { gateway, client, recovered } = await recoveredOrder('lost-5');
    gateway.injectFault({ kind: 'emptyBody', operation: 'close', when: 'before', times: 5 });
    await expect(client.reissueOrder(recovered, params('lost-5-b'))).rejects.toBeInstanceOf(GatewayEmptyResponseError);
    expect(gateway.order('lost-5-b')).toBeUndefined();
    expect(gateway.order('lost-5')?.state).toBe(PayOrderState.Generated);
  });

  it('refuses the recovered order\'s own number and anything that is not a recovered result, sending nothing', async () => {
    const { gateway, client, recovered } = await recoveredOrder('lost-6');
    const before = gateway.requests.length;
    await expect(client.reissueOrder(recovered, params('lost-6'))).rejects.toThrow(/mchOrderNo: is the recovered order's own \('lost-6'\), which the gateway would refuse as a duplicate/);
    await expect(client.reissueOrder({ ...recovered, recovered: false } as never, params('lost-6-b'))).rejects.toBeInstanceOf(GatewayValidationError);
    expect(gateway.requests).toHaveLength(before);
  });

  it('the loop of the README ends with payData even when the reissued create is recovered too', async () => {
    const { gateway, client } = setup();
    gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'after', times: 2 });
    let order = await client.unifiedOrder(params('loop-1'));
    let attempt = 1;
    while (order.recovered) order = await client.reissueOrder(order, params(`loop-1-${++attempt}`));
    expect(order).toMatchObject({ recovered: false, mchOrderNo: 'loop-1-3' });
    expect(order.payData).toBe(gateway.order('loop-1-3')?.payData);
    expect([gateway.order('loop-1')?.state, gateway.order('loop-1-2')?.state]).toEqual([PayOrderState.Closed, PayOrderState.Closed]);
  });
});
