// Issue 23 finding 1: the reference gateway answers close with success (`data: {}`) even when a payer moved the
// order to paying meanwhile and nothing was closed, and that constant answer can be replayed. reissueOrder
// must never create a replacement while the original is 0/1, and close with confirm must never resolve to an
// open order. Attacked through the public API against the mock gateway: its closeRacesPayer fault, and a
// replayed close answer served by a fetch stub.
import { describe, expect, it } from 'vitest';
import { GatewayClient, GatewayError, GatewayOrderNotFinalError, GatewayOrderPaidError, PayOrderState, type UnifiedOrderParams } from '../../src/index.js';
import { createMockGateway, type MockGateway } from '../../src/testing/index.js';
import { signedEnvelope } from '../support/wire.js';

const MERCHANT = { mchNo: 'M1700000001', appId: 'app-1', secret: 'test-secret-0123456789' };
const BASE_URL = 'https://gateway.test';
const params = (mchOrderNo: string): UnifiedOrderParams => ({ mchOrderNo, wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: 'T-shirt', body: 'Blue, M' });

type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

/** A client of the mock; `through` may stand between them (a replaying proxy). */
function setup(through?: (gateway: MockGateway, request: Request) => Promise<Response | undefined> | undefined) {
  const gateway = createMockGateway({ merchants: [MERCHANT] });
  const fetch: Fetch = async (input, init) => {
    const request = new Request(input, init);
    return (await through?.(gateway, request.clone())) ?? gateway.fetch(request);
  };
  const client = new GatewayClient({ baseUrl: BASE_URL, ...MERCHANT, fetch, retry: { initialDelayMs: 1, maxDelayMs: 2 } });
  return { gateway, client };
}

/** A create whose answer is lost after the gateway made the order: recovered by a lookup, with no payData. */
async function recovered(gateway: MockGateway, client: GatewayClient, mchOrderNo: string) {
  gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'after' });
  const result = await client.unifiedOrder(params(mchOrderNo));
  if (!result.recovered) throw new Error('expected a recovered result');
  return result;
}

const operationsSince = (gateway: MockGateway, before: number) => gateway.requests.slice(before).map((r) => r.operation);

/** A genuine close answer, captured once: `{ code, msg, data: {}, sign }`, the same for every order of the merchant. */
async function capturedCloseAnswer(): Promise<string> {
  const { gateway, client } = setup();
  const order = await client.unifiedOrder(params('captured-1'));
  let answer = '';
  const capturing = new GatewayClient({
    baseUrl: BASE_URL, ...MERCHANT,
    fetch: async (input, init) => {
      const response = await gateway.fetch(new Request(input, init));
      answer = await response.clone().text();
      return response;
    },
  });
  await capturing.close({ payOrderId: order.payOrderId });
  expect(JSON.parse(answer)).toMatchObject({ data: {} });
  return answer;
}

/** A proxy that answers every close with a replayed genuine answer and never forwards it. */
const replayingCloses = (answer: string) => (_gateway: MockGateway, request: Request) =>
  new URL(request.url).pathname === '/api/pay/close' ? Promise.resolve(new Response(answer, { status: 200, headers: { 'content-type': 'application/json' } })) : undefined;

describe('reissueOrder creates a replacement only when a signed read proves the original final and unpaid', () => {
  it('a close answered as done while the payer moved the order to 1 (closeRacesPayer): GatewayOrderNotFinalError, and no second order', async () => {
    const { gateway, client } = setup();
    const lost = await recovered(gateway, client, 'race-1');
    gateway.injectFault({ kind: 'closeRacesPayer', operation: 'close' });
    const before = gateway.requests.length;
    const error = (await client.reissueOrder(lost, params('race-1-b')).catch((e: unknown) => e)) as GatewayOrderNotFinalError;
    expect(error).toBeInstanceOf(GatewayOrderNotFinalError);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.operation).toBe('reissueOrder');
    expect(error.state).toBe(PayOrderState.Paying);
    expect(error.order).toMatchObject({ payOrderId: lost.payOrderId, state: PayOrderState.Paying });
    expect(error.message).toMatch(/still in state 1 \(Paying\) after the close, so it was not replaced: the payer may be paying it now/);
    expect(error.message).toMatch(/waitForOrder\(\{ payOrderId: 'P\d+' \}\)/);
    expect(operationsSince(gateway, before)).toEqual(['close', 'query']); // no unifiedOrder
    expect(gateway.order('race-1-b')).toBeUndefined();
    expect(gateway.orders().filter((o) => o.state <= PayOrderState.Paying)).toHaveLength(1);
    // The payer completes it: the one order is paid, and a reissue now refuses as paid.
    gateway.payOrder('race-1');
    await expect(client.waitForOrder({ payOrderId: error.order.payOrderId }, { intervalMs: 1 })).resolves.toMatchObject({ state: PayOrderState.Succeeded });
    await expect(client.reissueOrder(lost, params('race-1-b'))).rejects.toBeInstanceOf(GatewayOrderPaidError);
    expect(gateway.order('race-1-b')).toBeUndefined();
  });

  it('a replayed close answer (data: {}) cannot make an open order closed: GatewayOrderNotFinalError with state 0, and no second order', async () => {
    const answer = await capturedCloseAnswer();
    const { gateway, client } = setup(replayingCloses(answer));
    const lost = await recovered(gateway, client, 'replay-1');
    const before = gateway.requests.length;
    const error = (await client.reissueOrder(lost, params('replay-1-b')).catch((e: unknown) => e)) as GatewayOrderNotFinalError;
    expect(error).toBeInstanceOf(GatewayOrderNotFinalError);
    expect(error.state).toBe(PayOrderState.Generated);
    expect(operationsSince(gateway, before)).toEqual(['query']); // the close never reached the gateway; no unifiedOrder
    expect(gateway.order('replay-1')?.state).toBe(PayOrderState.Generated);
    expect(gateway.order('replay-1-b')).toBeUndefined();
  });

  it('an original that closes later (its final state read) is replaced; failed is replaced too', async () => {
    const { gateway, client } = setup();
    const lost = await recovered(gateway, client, 'later-1');
    gateway.injectFault({ kind: 'closeRacesPayer', operation: 'close' });
    await expect(client.reissueOrder(lost, params('later-1-b'))).rejects.toBeInstanceOf(GatewayOrderNotFinalError);
    gateway.failOrder('later-1'); // the payer's attempt failed at the channel
    await expect(client.reissueOrder(lost, params('later-1-b'))).resolves.toMatchObject({ recovered: false, mchOrderNo: 'later-1-b' });
    expect(gateway.order('later-1')?.state).toBe(PayOrderState.Failed);
  });

  it('an original paid and refunded since (state 5) was paid: GatewayOrderPaidError, and no second order', async () => {
    // A gateway that reports a paid order refunded (the mock has no refunds): its query answers, re-signed with the merchant's secret.
    const { gateway, client } = setup(async (gateway, request) => {
      if (new URL(request.url).pathname !== '/api/pay/query') return undefined;
      const text = await (await gateway.fetch(request)).text();
      const answer = JSON.parse(text) as { data?: Record<string, unknown> };
      const paid = answer.data?.state === PayOrderState.Succeeded;
      return new Response(paid ? signedEnvelope({ ...answer.data, state: PayOrderState.Refunded }, MERCHANT.secret) : text, { status: 200 });
    });
    const lost = await recovered(gateway, client, 'refunded-1');
    gateway.payOrder('refunded-1');
    const error = (await client.reissueOrder(lost, params('refunded-1-b')).catch((e: unknown) => e)) as GatewayOrderPaidError;
    expect(error).toBeInstanceOf(GatewayOrderPaidError);
    expect(error.order.state).toBe(PayOrderState.Refunded);
    expect(error.message).toMatch(/was paid and then refunded \(state 5\), so it was not replaced/);
    expect(gateway.order('refunded-1-b')).toBeUndefined();
  });
});

describe('reissueOrder against answers that are not the close\'s or the order\'s own', () => {
  it('a close refused with an error while the payer moved the order to 1: GatewayOrderNotFinalError from the read-back, and no second order', async () => {
    // The close reaches the gateway (which races the payer), but its answer is replaced by a refusal.
    const { gateway, client } = setup(async (gateway, request) => {
      if (new URL(request.url).pathname !== '/api/pay/close') return undefined;
      await gateway.fetch(request);
      return new Response(JSON.stringify({ code: 9999, msg: 'order state not closable' }), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    const lost = await recovered(gateway, client, 'refused-1');
    gateway.injectFault({ kind: 'closeRacesPayer', operation: 'close' });
    const before = gateway.requests.length;
    const error = (await client.reissueOrder(lost, params('refused-1-b')).catch((e: unknown) => e)) as GatewayOrderNotFinalError;
    expect(error).toBeInstanceOf(GatewayOrderNotFinalError);
    expect(error.state).toBe(PayOrderState.Paying);
    expect(operationsSince(gateway, before)).toEqual(['close', 'query']); // read once, no unifiedOrder
    expect(gateway.order('refused-1-b')).toBeUndefined();
  });

  it("another order's genuine closed record substituted for the read-back: refused as not this order's, and no second order", async () => {
    // Once armed, a proxy answers every close as done (a replayed answer) and every query with a genuine, signed
    // record of another order of the merchant, closed.
    const answer = await capturedCloseAnswer();
    let armed = false;
    let closedRecord = '';
    const { gateway, client } = setup(async (gateway, request) => {
      const path = new URL(request.url).pathname;
      if (armed && path === '/api/pay/query') return new Response(closedRecord, { status: 200 });
      if (armed && path === '/api/pay/close') return new Response(answer, { status: 200 });
      if (path !== '/api/pay/query') return undefined;
      const response = await gateway.fetch(request);
      closedRecord = await response.clone().text(); // the last genuine query answer
      return response;
    });
    const other = await client.unifiedOrder(params('closed-elsewhere-1'));
    await client.close({ payOrderId: other.payOrderId });
    const lost = await recovered(gateway, client, 'substituted-1');
    await client.query({ payOrderId: other.payOrderId });
    armed = true;
    expect(JSON.parse(closedRecord)).toMatchObject({ data: { payOrderId: other.payOrderId, state: PayOrderState.Closed } });
    const before = gateway.requests.length;
    const error = await client.reissueOrder(lost, params('substituted-1-b')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).not.toBeInstanceOf(GatewayOrderNotFinalError);
    expect(String(error)).toMatch(/payOrderId/);
    expect(operationsSince(gateway, before)).toEqual([]); // nothing reached the gateway, no unifiedOrder above all
    expect(gateway.order('substituted-1')?.state).toBe(PayOrderState.Generated);
    expect(gateway.order('substituted-1-b')).toBeUndefined();
  });
});

describe('close with confirm resolves only to a final state', () => {
  it('closeRacesPayer: the close is answered as done, the order is 1: GatewayOrderNotFinalError naming state 1', async () => {
    const { gateway, client } = setup();
    const order = await client.unifiedOrder(params('confirm-1'));
    gateway.injectFault({ kind: 'closeRacesPayer', operation: 'close' });
    const error = (await client.close({ payOrderId: order.payOrderId }, { confirm: true }).catch((e: unknown) => e)) as GatewayOrderNotFinalError;
    expect(error).toBeInstanceOf(GatewayOrderNotFinalError);
    expect(error.operation).toBe('close');
    expect(error.state).toBe(PayOrderState.Paying);
    expect(error.message).toMatch(/^close was answered as done, but the order "confirm-1" \(payOrderId P\d+\), read back afterwards, is in state 1 \(Paying\), not final: the payer may be paying it now/);
    expect(gateway.order('confirm-1')?.state).toBe(PayOrderState.Paying);
  });

  it('a replayed close answer: GatewayOrderNotFinalError naming state 0; a real close resolves to state 6', async () => {
    const answer = await capturedCloseAnswer();
    const { gateway, client } = setup(replayingCloses(answer));
    const order = await client.unifiedOrder(params('confirm-2'));
    await expect(client.close({ payOrderId: order.payOrderId }, { confirm: true })).rejects.toThrow(/is in state 0 \(Generated\), not final/);
    const honest = setup();
    const other = await honest.client.unifiedOrder(params('confirm-3'));
    await expect(honest.client.close({ payOrderId: other.payOrderId }, { confirm: true })).resolves.toMatchObject({ state: PayOrderState.Closed });
    expect(gateway.order('confirm-2')?.state).toBe(PayOrderState.Generated);
  });
});

describe('the closeRacesPayer fault', () => {
  it('strikes close only, while processing', () => {
    const gateway = createMockGateway({ merchants: [MERCHANT] });
    expect(() => gateway.injectFault({ kind: 'closeRacesPayer' })).toThrow(/operation: closeRacesPayer races a close: give operation: 'close'/);
    expect(() => gateway.injectFault({ kind: 'closeRacesPayer', operation: 'query' })).toThrow(/closeRacesPayer races a close/);
    expect(() => gateway.injectFault({ kind: 'closeRacesPayer', operation: 'close', when: 'before' })).toThrow(/when: closeRacesPayer changes what the gateway does while processing, so it cannot strike 'before'/);
  });
});
