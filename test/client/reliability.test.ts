import { describe, expect, it } from 'vitest';
import { GatewayAbortError, GatewayApiError, GatewayClient, GatewayHttpStatusError, GatewayOutcomeUnknownError, GatewaySignatureError, GatewayTimeoutError, type GatewayHooks } from '../../src/index.js';
import { CREDENTIALS, hangingFetch, SECRET, signedEnvelope, useWire } from '../support/wire.js';

type RetryEvent = GatewayHooks.RetryEvent;

const wire = useWire();
const FAST = { initialDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 30 };
const order = { mchOrderNo: 'o-1', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', subject: 's', body: 'b' } as const;
const payOrder = {
  payOrderId: 'P1', mchNo: CREDENTIALS.mchNo, appId: CREDENTIALS.appId, mchOrderNo: 'o-1', ifCode: 'coinpay', wayCode: 'QR_CASHIER',
  amount: 100, currency: 'USD', state: 0, subject: 's', body: 'b', createdAt: 1700000000000,
};
const created = { payOrderId: 'P1', mchOrderNo: 'o-1', orderState: 1, payDataType: 'codeImgUrl', payData: 'https://pay.test/qr.png' };
const NOT_FOUND = JSON.stringify({ code: 9999, msg: '订单不存在' });
const html502 = () => new Response('<html>502 Bad Gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } });
const json = (text: string, status = 200, headers: Record<string, string> = {}) => new Response(text, { status, headers: { 'content-type': 'application/json', ...headers } });

/** Answers each path from its own script of replies, in order; the last reply repeats. */
function script(replies: Record<string, Array<() => Response>>) {
  const used: Record<string, number> = {};
  wire.replyRaw((path) => {
    const op = path.split('/').pop() ?? '';
    const list = replies[op];
    if (!list) return new Response(`unexpected ${op}`, { status: 500 });
    const index = Math.min(used[op] ?? 0, list.length - 1);
    used[op] = (used[op] ?? 0) + 1;
    return (list[index] as () => Response)();
  });
}
const sent = (op: string) => wire.captured.filter((c) => c.path.endsWith(`/${op}`));

function clientWith(extra: Partial<ConstructorParameters<typeof GatewayClient>[0]> = {}) {
  const retries: RetryEvent[] = [];
  const client = new GatewayClient({ ...CREDENTIALS, retry: FAST, hooks: { onRetry: (e) => retries.push(e) }, ...extra });
  return { client, retries };
}

describe('reads retry transient failures', () => {
  it('retries a 502 and a truncated body, then succeeds; attempts and retry events tell the story', async () => {
    script({ query: [html502, () => json(signedEnvelope(payOrder).slice(0, 40)), () => json(signedEnvelope(payOrder))] });
    const { client, retries } = clientWith();
    const result = await client.withResponse('query', { mchOrderNo: 'o-1' });
    expect(result).toMatchObject({ attempts: 3, signatureVerified: true, reconciled: false, data: { payOrderId: 'P1' } });
    expect(result.http.status).toBe(200);
    expect(retries.map((r) => [r.attempt, r.reason])).toEqual([[1, 'GatewayHttpStatusError (HTTP 502)'], [2, 'GatewayTruncatedResponseError (HTTP 200)']]);
    for (const r of retries) expect(r.delayMs).toBeLessThanOrEqual(FAST.maxDelayMs);
    // Each attempt is signed afresh.
    expect(sent('query')).toHaveLength(3);
  });

  it('honours Retry-After on 429, capped by maxRetryAfterMs', async () => {
    script({ settleRequestGet: [() => json('{}', 429, { 'retry-after': '3' }), () => json(signedEnvelope({ serverRequestId: 'S', requestId: 'r', tokenId: 'T', currency: 'USD', amount: 1, status: 0 }))] });
    const { client, retries } = clientWith();
    await client.settleRequestGet({ requestId: 'r' });
    expect(retries).toEqual([{ operation: 'settleRequestGet', purpose: 'request', ids: { requestId: 'r' }, attempt: 1, delayMs: expect.any(Number), reason: 'GatewayHttpStatusError (HTTP 429)' }]);
    // The wait taken: the capped Retry-After (30 ms, not 3 s); timers run late, never early.
    expect(retries[0]!.delayMs).toBeGreaterThanOrEqual(FAST.maxRetryAfterMs - 2);
    expect(retries[0]!.delayMs).toBeLessThan(1_000);
  });

  it('gives up after maxRetries with the last error', async () => {
    script({ query: [html502] });
    const { client } = clientWith({ retry: { ...FAST, maxRetries: 3 } });
    await expect(client.query({ mchOrderNo: 'o-1' })).rejects.toBeInstanceOf(GatewayHttpStatusError);
    expect(sent('query')).toHaveLength(4);
    await expect(client.query({ mchOrderNo: 'o-1' }, { maxRetries: 0 })).rejects.toBeInstanceOf(GatewayHttpStatusError);
    expect(sent('query')).toHaveLength(5);
  });

  it('never retries a signature failure or a business error', async () => {
    script({ query: [() => json(signedEnvelope(payOrder, 'other-secret'))] });
    const { client } = clientWith();
    await expect(client.query({ mchOrderNo: 'o-1' })).rejects.toBeInstanceOf(GatewaySignatureError);
    script({ query: [() => json(NOT_FOUND)] });
    await expect(client.query({ mchOrderNo: 'o-1' })).rejects.toBeInstanceOf(GatewayApiError);
    expect(sent('query')).toHaveLength(2);
  });

  it('stops at totalTimeout even with retries left', async () => {
    const { client } = clientWith({ fetch: hangingFetch, timeout: 40, totalTimeout: 100, retry: { ...FAST, maxRetries: 50 } });
    const startedAt = performance.now();
    await expect(client.query({ mchOrderNo: 'o-1' })).rejects.toBeInstanceOf(GatewayTimeoutError);
    expect(performance.now() - startedAt).toBeLessThan(1_000);
  });

  it('a hook that throws changes nothing', async () => {
    script({ query: [html502, () => json(signedEnvelope(payOrder))] });
    const client = new GatewayClient({ ...CREDENTIALS, retry: FAST, hooks: { onRetry: () => { throw new Error('logger down'); }, onRequest: () => { throw new Error('x'); } } });
    await expect(client.query({ mchOrderNo: 'o-1' })).resolves.toMatchObject({ payOrderId: 'P1' });
  });

  it('request and response hooks see the signed body and status, never the secret', async () => {
    script({ query: [() => json(signedEnvelope(payOrder))] });
    const events: unknown[] = [];
    const client = new GatewayClient({ ...CREDENTIALS, hooks: { onRequest: (e) => events.push(e), onResponse: (e) => events.push(e) } });
    await client.query({ mchOrderNo: 'o-1' });
    expect(events).toEqual([
      { operation: 'query', purpose: 'request', ids: { mchOrderNo: 'o-1' }, attempt: 1, path: '/api/pay/query', body: expect.objectContaining({ mchOrderNo: 'o-1', sign: expect.any(String) }) },
      { operation: 'query', purpose: 'request', ids: { mchOrderNo: 'o-1' }, attempt: 1, status: 200, durationMs: expect.any(Number), signatureVerified: true },
    ]);
    expect(JSON.stringify(events)).not.toContain(SECRET);
  });
});

describe('close is safe to repeat', () => {
  it('a close refused because the order is already closed resolves', async () => {
    script({ close: [() => json(JSON.stringify({ code: 9999, msg: '当前订单不可关闭' }))], query: [() => json(signedEnvelope({ ...payOrder, state: 6 }))] });
    await expect(clientWith().client.close({ mchOrderNo: 'o-1' })).resolves.toBeUndefined();
  });

  it('with confirm, a refused close whose check finds the order closed resolves to that read: the order is read once', async () => {
    script({ close: [() => json(JSON.stringify({ code: 9999, msg: '当前订单不可关闭' }))], query: [() => json(signedEnvelope({ ...payOrder, state: 6 }))] });
    const requests: string[] = [];
    const client = new GatewayClient({ ...CREDENTIALS, retry: FAST, hooks: { onRequest: (e) => requests.push(`${e.operation} ${e.purpose}`) } });
    await expect(client.close({ mchOrderNo: 'o-1' }, { confirm: true })).resolves.toMatchObject({ payOrderId: 'P1', mchOrderNo: 'o-1', state: 6 });
    expect(requests).toEqual(['close request', 'query fallback']);
    expect(wire.captured.map((c) => c.path)).toEqual(['/api/pay/close', '/api/pay/query']);
  });

  it('with confirm, a refused close whose check finds the order paid still fails, after one read', async () => {
    script({ close: [() => json(JSON.stringify({ code: 9999, msg: '当前订单不可关闭' }))], query: [() => json(signedEnvelope({ ...payOrder, state: 2 }))] });
    await expect(clientWith().client.close({ mchOrderNo: 'o-1' }, { confirm: true })).rejects.toMatchObject({ msg: '当前订单不可关闭' });
    expect(sent('query')).toHaveLength(1);
  });

  it('a close refused because the order was paid still fails', async () => {
    script({ close: [() => json(JSON.stringify({ code: 9999, msg: '当前订单不可关闭' }))], query: [() => json(signedEnvelope({ ...payOrder, state: 2 }))] });
    await expect(clientWith().client.close({ mchOrderNo: 'o-1' })).rejects.toMatchObject({ msg: '当前订单不可关闭' });
  });

  it('a close whose response was lost is retried, and the retry finding it closed succeeds', async () => {
    script({ close: [html502, () => json(JSON.stringify({ code: 9999, msg: '当前订单不可关闭' }))], query: [() => json(signedEnvelope({ ...payOrder, state: 6 }))] });
    await expect(clientWith().client.close({ mchOrderNo: 'o-1' })).resolves.toBeUndefined();
    expect(sent('close')).toHaveLength(2);
  });
});

describe('creates are never replayed blindly', () => {
  it('after an ambiguous failure, a record found by mchOrderNo is the result (one create sent)', async () => {
    script({ unifiedOrder: [html502], query: [() => json(signedEnvelope({ ...payOrder, state: 1 }))] });
    const { client } = clientWith();
    const result = await client.withResponse('unifiedOrder', order);
    expect(result.reconciled).toBe(true);
    expect(result.data).toEqual({ payOrderId: 'P1', mchOrderNo: 'o-1', orderState: 1, recovered: true }); // no payData: a query has none
    expect(sent('unifiedOrder')).toHaveLength(1);
    expect(sent('query')[0]?.body).toMatchObject({ mchOrderNo: 'o-1' });
  });

  it('after an ambiguous failure, a lookup proving no record exists allows one more send', async () => {
    script({ unifiedOrder: [html502, () => json(signedEnvelope(created))], query: [() => json(NOT_FOUND)] });
    const result = await clientWith().client.withResponse('unifiedOrder', order);
    expect(result).toMatchObject({ reconciled: false, data: created });
    expect(sent('unifiedOrder')).toHaveLength(2);
    expect(sent('unifiedOrder')[1]?.body.mchOrderNo).toBe('o-1');
  });

  it("the retry event of a create sent again after a lookup proved it absent names the record", async () => {
    script({ unifiedOrder: [html502, () => json(signedEnvelope(created))], query: [() => json(NOT_FOUND)] });
    const { client, retries } = clientWith();
    await client.unifiedOrder(order);
    // Attempt 1 the create, attempt 2 the lookup; then the wait before the create is sent again.
    expect(retries).toEqual([{ operation: 'unifiedOrder', purpose: 'request', ids: { mchOrderNo: 'o-1' }, attempt: 2, delayMs: expect.any(Number), reason: 'GatewayHttpStatusError (HTTP 502)' }]);
  });

  it('a refused connection (never sent) is sent again without a lookup', async () => {
    let calls = 0;
    const fetch = async (url: string, init: RequestInit) => {
      calls++;
      if (calls === 1) throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
      return globalThis.fetch(url, init);
    };
    script({ unifiedOrder: [() => json(signedEnvelope(created))] });
    await expect(clientWith({ fetch }).client.unifiedOrder(order)).resolves.toEqual({ ...created, recovered: false, sentExpiredTime: 7_200 });
    expect(sent('query')).toHaveLength(0);
  });

  it('a duplicate-key refusal after an ambiguous attempt resolves by lookup', async () => {
    // The first attempt was processed but its answer lost; the lookup races the gateway's commit and misses it.
    script({
      unifiedOrder: [html502, () => json(JSON.stringify({ code: 9999, msg: '商户订单[o-1]已存在' }))],
      query: [() => json(NOT_FOUND), () => json(signedEnvelope({ ...payOrder, state: 1 }))],
    });
    const result = await clientWith().client.withResponse('unifiedOrder', order);
    expect(result).toMatchObject({ reconciled: true, data: { payOrderId: 'P1', orderState: 1 } });
  });

  it('a duplicate-key refusal is looked up by the key before it is believed: a lookup that fails leaves the outcome unknown, never the refusal', async () => {
    script({ unifiedOrder: [() => json(JSON.stringify({ code: 9999, msg: '商户订单[o-1]已存在' }))], query: [html502, html502, html502, html502] });
    const error = await clientWith().client.unifiedOrder(order).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayOutcomeUnknownError);
    expect((error as GatewayOutcomeUnknownError).cause).toBeInstanceOf(GatewayApiError);
    expect((error as Error).message).toMatch(/GatewayApiError \(duplicate_order: "商户订单\[o-1\]已存在"\)/);
    expect(sent('unifiedOrder')).toHaveLength(1);
    expect(sent('query').length).toBeGreaterThan(0);
  });

  it('a refusal decided before any record (an invalid amount) is final at once: no lookup', async () => {
    script({ unifiedOrder: [() => json(JSON.stringify({ code: 9999, msg: '支付金额不能为空' }))] });
    const error = await clientWith().client.unifiedOrder(order).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayApiError);
    expect((error as GatewayApiError).reason).toBe('amount_invalid');
    expect(sent('query')).toHaveLength(0);
  });

  it('a lookup refused for another reason (unknown merchant) proves nothing: the outcome is unknown', async () => {
    script({ unifiedOrder: [html502], query: [() => json(JSON.stringify({ code: 9999, msg: '商户或商户应用不存在' }))] });
    await expect(clientWith().client.unifiedOrder(order)).rejects.toBeInstanceOf(GatewayOutcomeUnknownError);
    expect(sent('unifiedOrder')).toHaveLength(1);
  });

  it('when the lookup cannot tell, the error says the outcome is unknown and carries the key', async () => {
    script({ settleRequest: [html502], settleRequestGet: [html502] });
    const error = await clientWith().client
      .settleRequest({ requestId: 'set-9', amount: 5, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: 'T1' })
      .catch((e: unknown) => e as GatewayOutcomeUnknownError);
    expect(error).toBeInstanceOf(GatewayOutcomeUnknownError);
    expect(error).toMatchObject({ operation: 'settleRequest', key: { name: 'requestId', value: 'set-9' } });
    expect(error.message).toMatch(/Never send it under a new requestId while requestId 'set-9' may hold it: send it again with the same requestId/);
    expect(sent('settleRequest')).toHaveLength(1);
  });

  it('settleRequest recovers { serverRequestId, status } from the settlement record', async () => {
    script({ settleRequest: [() => json('')], settleRequestGet: [() => json(signedEnvelope({ serverRequestId: 'SRV-1', requestId: 'set-1', tokenId: 'TRON_USDT', currency: 'USD', amount: 5, status: 1, address: 'T1' }))] });
    const result = await clientWith().client.withResponse('settleRequest', { requestId: 'set-1', amount: 5, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', address: 'T1' });
    expect(result).toMatchObject({ reconciled: true, data: { serverRequestId: 'SRV-1', status: 1 } });
  });

  it('settleAddressApply has no lookup: an ambiguous failure is an outcome-unknown error at once', async () => {
    script({ settleAddressApply: [html502] });
    const error = await clientWith().client.settleAddressApply({ requestId: 'addr-1', tokenId: 'TRON_USDT', address: 'T1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayOutcomeUnknownError);
    expect(sent('settleAddressApply')).toHaveLength(1);
  });

  it('a wrong response sign on a create is not trusted: the record is looked up instead', async () => {
    script({ unifiedOrder: [() => json(signedEnvelope(created, 'forged'))], query: [() => json(signedEnvelope({ ...payOrder, state: 1 }))] });
    const result = await clientWith().client.withResponse('unifiedOrder', order);
    expect(result).toMatchObject({ reconciled: true, signatureVerified: true, data: { payOrderId: 'P1' } });
  });

  it('an abort while the create is in flight is an outcome-unknown error; an abort before sending is an abort', async () => {
    const controller = new AbortController();
    const fetch = (url: string, init: RequestInit) => {
      setTimeout(() => controller.abort(), 5);
      return hangingFetch(url, init);
    };
    await expect(clientWith({ fetch }).client.unifiedOrder(order, { signal: controller.signal })).rejects.toBeInstanceOf(GatewayOutcomeUnknownError);
    await expect(clientWith().client.unifiedOrder(order, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(GatewayAbortError);
    expect(sent('unifiedOrder')).toHaveLength(0);
  });
});
