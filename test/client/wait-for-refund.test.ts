// client.waitForRefund against the mock gateway: waitForOrder's loop over refundQuery. It resolves when the refund
// leaves 0 and 1 (refunded, failed, closed) or `until` holds, stops at once on refund_not_found or a forged answer,
// and ends with a timeout carrying the refund last read. The loop's pauses and transient failures:
// test/client/wait-for-order.test.ts (the same function).
import { describe, expect, it } from 'vitest';
import { GatewayClient, GatewaySignatureError, GatewayValidationError, GatewayWaitTimeoutError, Refunds } from '../../src/index.js';
import { createMockGateway, REFUND_EXPIRY_MS, type MockGateway } from '../../src/testing/index.js';

const merchant = { mchNo: 'M1', appId: 'app-1', secret: 'wait-refund-secret' };

/** A client on the mock with a held refund of a paid order; `onQuery(n)` runs before the n-th refund query reaches the gateway. */
async function setup(onQuery: (n: number, gateway: MockGateway) => Response | undefined = () => undefined) {
  const gateway = createMockGateway({ merchants: [merchant] });
  let queries = 0;
  const fetch = async (input: Request | string | URL, init?: RequestInit) => {
    if (String(input instanceof Request ? input.url : input).endsWith('/api/refund/query')) {
      const answer = onQuery(++queries, gateway);
      if (answer) return answer;
    }
    return gateway.fetch(input, init);
  };
  const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...merchant, fetch, retry: { maxRetries: 0 } });
  const order = await client.unifiedOrder({ mchOrderNo: 'wr-order', wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: 'T-shirt', body: 'b' });
  gateway.payOrder(order.payOrderId);
  gateway.setRefundMode('hold');
  const refund = await client.refundOrder({ payOrderId: order.payOrderId, mchRefundNo: 'wr-1', refundAmount: 500, currency: 'USD', refundReason: 'returned' });
  return { gateway, client, refund, queries: () => queries };
}

describe('client.waitForRefund resolves', () => {
  it.each([
    ['succeed', Refunds.State.Succeeded],
    ['fail', Refunds.State.Failed],
    ['close', Refunds.State.Closed],
  ] as const)('when the refund ends (%s): state %i, after querying while it was 1', async (to, state) => {
    const { client, refund, queries } = await setup((n, gateway) => {
      if (n === 3) gateway.settleRefund('wr-1', { to });
      return undefined;
    });
    expect(refund.state).toBe(Refunds.State.Refunding);
    const ended = await client.waitForRefund({ refundOrderId: refund.refundOrderId }, { intervalMs: 1 });
    expect(ended).toMatchObject({ refundOrderId: refund.refundOrderId, mchRefundNo: 'wr-1', state });
    expect(queries()).toBe(3);
  });

  it('when the gateway closes a refund still open two hours after its creation, and at `until` when given', async () => {
    const { client, gateway } = await setup();
    const seen: number[] = [];
    const open = await client.waitForRefund({ mchRefundNo: 'wr-1' }, { intervalMs: 1, until: (r: Refunds.Refund) => seen.push(r.state) >= 2 });
    expect([open.state, seen]).toEqual([Refunds.State.Refunding, [1, 1]]);
    gateway.advanceTime(REFUND_EXPIRY_MS);
    expect((await client.waitForRefund({ mchRefundNo: 'wr-1' }, { intervalMs: 1 })).state).toBe(Refunds.State.Closed);
  });
});

describe('client.waitForRefund stops', () => {
  it('at once on refund_not_found or a forged answer (no second query), and refuses invalid ids or options with nothing sent', async () => {
    const { client, gateway } = await setup();
    const before = gateway.requests.length;
    await expect(client.waitForRefund({ mchRefundNo: 'nope' }, { intervalMs: 1 })).rejects.toMatchObject({ name: 'GatewayApiError', reason: 'refund_not_found' });
    expect(gateway.requests.length - before).toBe(1);
    await expect(client.waitForRefund({} as never)).rejects.toBeInstanceOf(GatewayValidationError);
    await expect(client.waitForRefund({ mchRefundNo: 'wr-1' }, { intervalMs: 0 })).rejects.toThrow(/Invalid waitForRefund options, nothing was sent/);
    await expect(client.waitForRefund({ mchRefundNo: 'wr-1' }, { until: 'done' } as never)).rejects.toThrow(/must be a function of the record/);
    expect(gateway.requests.length - before).toBe(1);

    // An answer signed with another secret: untrusted, so the wait ends at the first query.
    const forged = await setup();
    forged.gateway.injectFault({ kind: 'wrongSign', operation: 'refundQuery' });
    await expect(forged.client.waitForRefund({ mchRefundNo: 'wr-1' }, { intervalMs: 1 })).rejects.toBeInstanceOf(GatewaySignatureError);
    expect(forged.queries()).toBe(1);
  });

  it('after its timeout, with the refund last read (lastRefund; lastOrder stays undefined) and what to do', async () => {
    const { client } = await setup();
    const error = (await client.waitForRefund({ mchRefundNo: 'wr-1' }, { intervalMs: 5, timeout: 60 }).catch((e: unknown) => e)) as GatewayWaitTimeoutError;
    expect(error).toBeInstanceOf(GatewayWaitTimeoutError);
    expect(error.lastRefund).toMatchObject({ mchRefundNo: 'wr-1', state: Refunds.State.Refunding });
    expect(error.lastOrder).toBeUndefined();
    expect(error.message).toBe(
      "The refund mchRefundNo 'wr-1' was still in state 1 after waiting 60 ms (waitForRefund's timeout): show the refund as in progress, and rely on the refund notification, a processor's sweep or a later refundQuery.",
    );
  });
});
