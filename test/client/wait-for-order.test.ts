// client.waitForOrder against the mock gateway: it queries until the order is decided (or `until` holds),
// rides out transient failures, stops at once on a final one, and ends with a timeout or an abort.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  GatewayAbortError,
  GatewayApiError,
  GatewayClient,
  GatewaySignatureError,
  GatewayTimeoutError,
  GatewayValidationError,
  GatewayWaitTimeoutError,
  PayOrderState,
  WAIT_FOR_ORDER_DEFAULTS,
  type PayOrder,
} from '../../src/index.js';
import { createMockGateway, type MockGateway } from '../../src/testing/index.js';

const merchant = { mchNo: 'M1', appId: 'app-1', secret: 'wait-secret' };
const order = { wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: 'T-shirt', body: 'Blue T-shirt' } as const;

interface Setup {
  gateway: MockGateway;
  client: GatewayClient;
  /** Each query's time (performance.now) as the gateway received it. */
  queries: number[];
}

/** A client on the mock; `onQuery(n)` runs before the n-th query (1-based) reaches the gateway and may answer it instead. */
function setup(onQuery: (n: number, gateway: MockGateway) => Response | undefined = () => undefined, secret = merchant.secret): Setup {
  const gateway = createMockGateway({ merchants: [merchant] });
  const queries: number[] = [];
  const fetch = async (input: Request | string | URL, init?: RequestInit) => {
    if (String(input instanceof Request ? input.url : input).endsWith('/api/pay/query')) {
      queries.push(performance.now());
      const answer = onQuery(queries.length, gateway);
      if (answer) return answer;
    }
    return gateway.fetch(input, init);
  };
  const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...merchant, secret, fetch, retry: { maxRetries: 0 } });
  return { gateway, client, queries };
}

const create = (client: GatewayClient, mchOrderNo: string) => client.unifiedOrder({ ...order, mchOrderNo });

afterEach(() => {
  vi.useRealTimers();
});

describe('client.waitForOrder resolves', () => {
  it('when the payer pays: the PayOrder in state 2', async () => {
    const { client, queries } = setup((n, gateway) => (n === 3 ? void gateway.payOrder('w-paid') : undefined));
    await create(client, 'w-paid');
    const paid = await client.waitForOrder({ mchOrderNo: 'w-paid' }, { intervalMs: 5 });
    expect(paid).toMatchObject({ mchOrderNo: 'w-paid', state: PayOrderState.Succeeded, amount: 1999 });
    expect(queries).toHaveLength(3);
  });

  it('when the payment fails, which the gateway does not notify: state 3', async () => {
    const { client, gateway } = setup((n, g) => (n === 2 ? void g.failOrder('w-failed', { errCode: 'INSUFFICIENT', errMsg: 'insufficient funds' }) : undefined));
    const { payOrderId } = await create(client, 'w-failed');
    const failed = await client.waitForOrder({ payOrderId }, { intervalMs: 5 });
    expect(failed).toMatchObject({ state: PayOrderState.Failed, errCode: 'INSUFFICIENT' });
    expect(gateway.notifications).toHaveLength(0);
  });

  it('when the order expires or is closed: state 6', async () => {
    const { client } = setup((n, g) => (n === 2 ? void g.advanceTime(3 * 60 * 60 * 1000) : undefined));
    await create(client, 'w-expired');
    expect((await client.waitForOrder({ mchOrderNo: 'w-expired' }, { intervalMs: 5 })).state).toBe(PayOrderState.Closed);
  });

  it('at once when the order is already decided', async () => {
    const { client, gateway, queries } = setup();
    await create(client, 'w-done');
    gateway.payOrder('w-done');
    expect((await client.waitForOrder({ mchOrderNo: 'w-done' })).state).toBe(PayOrderState.Succeeded);
    expect(queries).toHaveLength(1);
  });

  it('when `until` holds, instead of on a decided state', async () => {
    const { client, queries } = setup();
    await create(client, 'w-until');
    const seen: PayOrder[] = [];
    const order = await client.waitForOrder({ mchOrderNo: 'w-until' }, { intervalMs: 5, until: (o) => seen.push(o) === 2 });
    expect(order.state).toBe(PayOrderState.Generated);
    expect(queries).toHaveLength(2);
  });

  it('through transient failures of single queries: 502, a broken body, a gateway system error', async () => {
    const { client, queries } = setup((n, gateway) => {
      if (n === 1) return new Response('<html>502 Bad Gateway</html>', { status: 502 });
      if (n === 2) return new Response('{"code":200,"msg":"SUC', { status: 200 });
      if (n === 3) return Response.json({ code: 10, msg: '系统异常[timeout]' });
      if (n === 4) gateway.payOrder('w-flaky');
      return undefined;
    });
    await create(client, 'w-flaky');
    expect((await client.waitForOrder({ mchOrderNo: 'w-flaky' }, { intervalMs: 5 })).state).toBe(PayOrderState.Succeeded);
    expect(queries).toHaveLength(4);
  });
});

describe('client.waitForOrder stops at once on a failure that asking again would not change', () => {
  it('an unknown order: GatewayApiError order_not_found after one query', async () => {
    const { client, queries } = setup();
    const error = await client.waitForOrder({ mchOrderNo: 'nope' }, { intervalMs: 5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayApiError);
    expect(error).toMatchObject({ reason: 'order_not_found' });
    expect(queries).toHaveLength(1);
  });

  it('a wrong secret: GatewayApiError signature_invalid after one query', async () => {
    const { client, queries } = setup(undefined, 'not-the-secret');
    await expect(client.waitForOrder({ mchOrderNo: 'x' }, { intervalMs: 5 })).rejects.toMatchObject({ reason: 'signature_invalid' });
    expect(queries).toHaveLength(1);
  });

  it('an untrusted response: GatewaySignatureError after one query', async () => {
    const { client, gateway, queries } = setup();
    await create(client, 'w-forged');
    gateway.injectFault({ kind: 'wrongSign', operation: 'query' });
    await expect(client.waitForOrder({ mchOrderNo: 'w-forged' }, { intervalMs: 5 })).rejects.toBeInstanceOf(GatewaySignatureError);
    expect(queries).toHaveLength(1);
  });

  it.each([
    ['no id', {}, undefined],
    ['an id of the wrong type', { payOrderId: 7 }, undefined],
    ['a negative interval', { mchOrderNo: 'o' }, { intervalMs: -1 }],
    ['a timeout that is not a number', { mchOrderNo: 'o' }, { timeout: '5m' }],
    ['an unknown option', { mchOrderNo: 'o' }, { interval: 5 }],
  ])('invalid input (%s): GatewayValidationError, nothing sent', async (_name, ids, options) => {
    const { client, queries } = setup();
    await expect(client.waitForOrder(ids as never, options as never)).rejects.toBeInstanceOf(GatewayValidationError);
    expect(queries).toHaveLength(0);
  });
});

describe('client.waitForOrder ends', () => {
  it('after `timeout` with GatewayWaitTimeoutError, a GatewayTimeoutError carrying the last state', async () => {
    const { client, queries } = setup();
    await create(client, 'w-slow');
    const started = performance.now();
    const error = await client.waitForOrder({ mchOrderNo: 'w-slow' }, { intervalMs: 10, timeout: 120 }).catch((e: unknown) => e);
    expect(performance.now() - started).toBeGreaterThanOrEqual(115);
    expect(error).toBeInstanceOf(GatewayWaitTimeoutError);
    expect(error).toBeInstanceOf(GatewayTimeoutError);
    const timeout = error as GatewayWaitTimeoutError;
    expect(timeout.lastState).toBe(PayOrderState.Generated);
    expect(timeout.lastOrder).toMatchObject({ mchOrderNo: 'w-slow', state: 0 });
    expect(timeout.message).toBe(
      "The order mchOrderNo 'w-slow' was still in state 0 after waiting 120 ms (waitForOrder's timeout): show the payment as pending, and rely on the notification or a later query.",
    );
    expect(queries.length).toBeGreaterThan(2);
  });

  it('after `timeout` even when `until` never holds for a decided order', async () => {
    const { client, gateway } = setup();
    await create(client, 'w-never');
    gateway.failOrder('w-never');
    const error = (await client.waitForOrder({ mchOrderNo: 'w-never' }, { intervalMs: 5, timeout: 40, until: (o) => o.state === PayOrderState.Succeeded }).catch((e: unknown) => e)) as GatewayWaitTimeoutError;
    expect(error).toBeInstanceOf(GatewayWaitTimeoutError);
    expect(error.lastState).toBe(PayOrderState.Failed);
  });

  it('after `timeout` with no order read when every query failed transiently: the last failure is the cause', async () => {
    const { client } = setup(() => new Response('busy', { status: 503 }));
    const error = (await client.waitForOrder({ mchOrderNo: 'w-down' }, { intervalMs: 5, timeout: 300 }).catch((e: unknown) => e)) as GatewayWaitTimeoutError;
    expect(error).toBeInstanceOf(GatewayWaitTimeoutError);
    expect(error.lastOrder).toBeUndefined();
    expect(error.message).toContain('could not be read (last failure: GatewayHttpStatusError)');
    expect((error.cause as GatewayApiError).name).toBe('GatewayHttpStatusError');
  });

  it('when the signal aborts, during a pause: GatewayAbortError', async () => {
    const { client, queries } = setup();
    await create(client, 'w-abort');
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('payer left')), 30);
    const error = await client.waitForOrder({ mchOrderNo: 'w-abort' }, { intervalMs: 10, signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayAbortError);
    expect((error as GatewayAbortError).cause).toEqual(new Error('payer left'));
    expect(queries.length).toBeGreaterThan(0);
  });

  it('when the signal was aborted before: GatewayAbortError, nothing sent', async () => {
    const { client, queries } = setup();
    await expect(client.waitForOrder({ mchOrderNo: 'x' }, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(GatewayAbortError);
    expect(queries).toHaveLength(0);
  });
});

describe('client.waitForOrder paces its queries', () => {
  it('pauses intervalMs, then half as long again each time, up to maxIntervalMs', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { client, queries } = setup((n, gateway) => (n === 7 ? void gateway.payOrder('w-pace') : undefined));
    await create(client, 'w-pace');
    const waiting = client.waitForOrder({ mchOrderNo: 'w-pace' }, { intervalMs: 100, maxIntervalMs: 300 });
    await vi.advanceTimersByTimeAsync(5_000);
    expect((await waiting).state).toBe(PayOrderState.Succeeded);
    const pauses = queries.slice(1).map((at, i) => Math.round(at - (queries[i] ?? 0)));
    expect(pauses).toEqual([100, 150, 225, 300, 300, 300]);
  });

  it('by default: 1 s, growing to 10 s, for 5 minutes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const { client, queries } = setup();
    await create(client, 'w-default');
    const waiting = client.waitForOrder({ mchOrderNo: 'w-default' }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(WAIT_FOR_ORDER_DEFAULTS.timeout + 1_000);
    const error = (await waiting) as GatewayWaitTimeoutError;
    expect(error).toBeInstanceOf(GatewayWaitTimeoutError);
    expect(error.message).toContain('after waiting 300000 ms');
    const pauses = queries.slice(1).map((at, i) => Math.round(at - (queries[i] ?? 0)));
    expect(pauses.slice(0, 3)).toEqual([1_000, 1_500, 2_250]);
    expect(Math.max(...pauses)).toBe(10_000);
    expect(queries.at(-1)! - queries[0]!).toBeLessThanOrEqual(WAIT_FOR_ORDER_DEFAULTS.timeout);
  });
});
