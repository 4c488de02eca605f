// Issue 27: OpenTelemetry traces and metrics, with the real OpenTelemetry SDK (in memory) against the mock
// gateway on loopback HTTP and a real notification processor.
import { context, metrics, SpanKind, SpanStatusCode, trace, type Attributes, type AttributeValue, type MeterProvider, type TracerProvider } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNotificationProcessor, GatewayApiError, GatewayClient, GatewayValidationError, PayOrderState, verifyNotification, type GatewayClientOptions } from '../../src/index.js';
import { openTelemetry } from '../../src/opentelemetry.js';
import { createMockGateway, type MockGatewayServer } from '../../src/testing/index.js';
import { FAILED_REFUND_FIELDS, formBody, freshFields, MERCHANT, REFUND_FIELDS, SETTLEMENT_FIELDS, TRANSFER_FIELDS } from '../support/notification.js';
import { childrenOf, idOf, inMemoryOpenTelemetry, parentOf, pointsOf, spanTree } from './support.js';

const merchant = { mchNo: 'M1700000027', appId: 'app-otel', secret: 'otel-secret-0123456789abcdef' } as const;
const gateway = createMockGateway({ merchants: [merchant] });
const otel = inMemoryOpenTelemetry();
const telemetry = openTelemetry({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider });
const tracer = otel.tracerProvider.getTracer('merchant-app');
const contextManager = new AsyncLocalStorageContextManager();

// Everything sent and received, to look for in what is exported.
const signs = new Set<string>();
const bodies: string[] = [];
let unavailable = 0; // the next queries answered 503 before they reach the gateway
let server: MockGatewayServer;
let client: GatewayClient;
let seq = 0;
const id = (prefix: string) => `${prefix}-${++seq}`;

async function recordingFetch(url: string, init: RequestInit): Promise<Response> {
  const sent = String(init.body);
  bodies.push(sent);
  signs.add(String(JSON.parse(sent).sign));
  if (unavailable > 0 && url.endsWith('/api/pay/query')) {
    unavailable--;
    return new Response('<html>Service Unavailable</html>', { status: 503, headers: { 'content-type': 'text/html' } });
  }
  const response = await fetch(url, init);
  const text = await response.clone().text();
  bodies.push(text);
  const received = /"sign"\s*:\s*"([^"]+)"/.exec(text)?.[1];
  if (received) signs.add(received);
  return response;
}

const clientWith = (options: Partial<GatewayClientOptions> = {}) =>
  new GatewayClient({ baseUrl: server.url, ...merchant, fetch: recordingFetch, retry: { initialDelayMs: 1, maxDelayMs: 1 }, telemetry, ...options });
const create = (mchOrderNo: string) => client.unifiedOrder({ mchOrderNo, wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: 'T-shirt', body: 'Blue, M' });
const spansNamed = (name: string) => otel.spans().filter((span) => span.name === name);
const lastSpan = (name: string) => spansNamed(name).at(-1) as ReadableSpan;

beforeAll(async () => {
  context.setGlobalContextManager(contextManager.enable());
  server = await gateway.listen();
  client = clientWith();
});
afterAll(async () => {
  await server.close();
  context.disable();
});
beforeEach(() => {
  unavailable = 0;
  gateway.clearFaults();
});

describe('client spans', () => {
  it('a refund: its span names the refund by mchRefundNo and refundOrderId, and its lookup after a lost answer is a child', async () => {
    const order = await create(id('o'));
    gateway.payOrder(order.payOrderId);
    otel.exporter.reset();
    gateway.injectFault({ kind: 'connectionReset', operation: 'refundOrder', when: 'after' });
    const refund = await client.refundOrder({ payOrderId: order.payOrderId, mchRefundNo: `${order.mchOrderNo}-r`, refundAmount: 100, currency: 'USD', refundReason: 'r' });
    const span = lastSpan('payment_gateway.refundOrder');
    expect(span.attributes).toMatchObject({ 'payment_gateway.operation': 'refundOrder', 'payment_gateway.mch_refund_no': refund.mchRefundNo, 'payment_gateway.refund_order_id': refund.refundOrderId });
    expect(childrenOf(otel.spans(), span).map((child) => child.name)).toContain('payment_gateway.refundQuery');
  });

  it("a query retried after a 503: the method span under the caller's span, two attempt spans, resend count and status codes", async () => {
    const order = await create(id('o'));
    otel.exporter.reset();
    unavailable = 1;
    const found = await tracer.startActiveSpan('GET /orders/:id', async (checkout) => {
      try {
        return await client.query({ mchOrderNo: order.mchOrderNo });
      } finally {
        checkout.end();
      }
    });
    expect(found.payOrderId).toBe(order.payOrderId);

    const checkout = lastSpan('GET /orders/:id');
    const query = lastSpan('payment_gateway.query');
    expect(parentOf(query)).toBe(idOf(checkout));
    expect(query.spanContext().traceId).toBe(checkout.spanContext().traceId);
    expect(query.kind).toBe(SpanKind.INTERNAL);
    expect(query.status.code).toBe(SpanStatusCode.UNSET);
    expect(query.attributes).toEqual({ 'payment_gateway.operation': 'query', 'payment_gateway.mch_order_no': order.mchOrderNo, 'payment_gateway.pay_order_id': order.payOrderId });

    const attempts = childrenOf(otel.spans(), query);
    expect(attempts.map((span) => [span.name, span.kind])).toEqual([['POST', SpanKind.CLIENT], ['POST', SpanKind.CLIENT]]);
    const { port, hostname } = new URL(server.url);
    const target = { 'http.request.method': 'POST', 'url.full': `${server.url.replace(/\/$/, '')}/api/pay/query`, 'server.address': hostname, 'server.port': Number(port) };
    expect(attempts[0]?.attributes).toEqual({ ...target, 'http.response.status_code': 503, 'error.type': 'GatewayHttpStatusError' });
    expect(attempts[0]?.status.code).toBe(SpanStatusCode.ERROR);
    expect(attempts[1]?.attributes).toEqual({ ...target, 'http.request.resend_count': 1, 'http.response.status_code': 200 });
    expect(attempts[1]?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('a refused call: ERROR with error.type, on the span and in the operation duration', async () => {
    otel.exporter.reset();
    await expect(client.query({ mchOrderNo: id('missing') })).rejects.toBeInstanceOf(GatewayApiError);
    const query = lastSpan('payment_gateway.query');
    expect(query.status.code).toBe(SpanStatusCode.ERROR);
    expect(query.attributes['error.type']).toBe('GatewayApiError');
    // The attempt itself got a good HTTP answer, which refused the call.
    expect(childrenOf(otel.spans(), query).map((span) => span.attributes['error.type'])).toEqual(['GatewayApiError']);
    const durations = (await otel.metrics()).get('payment_gateway.client.operation.duration');
    expect(pointsOf(durations, { 'payment_gateway.operation': 'query', 'error.type': 'GatewayApiError' })).toHaveLength(1);
  });

  it("a create: the order number, then the gateway's order id, on the method span", async () => {
    otel.exporter.reset();
    const mchOrderNo = id('o');
    const order = await create(mchOrderNo);
    const span = lastSpan('payment_gateway.unifiedOrder');
    expect(span.attributes).toEqual({ 'payment_gateway.operation': 'unifiedOrder', 'payment_gateway.mch_order_no': mchOrderNo, 'payment_gateway.pay_order_id': order.payOrderId });
    expect(parentOf(span)).toBeUndefined(); // no active span: a root
  });

  it('a create whose answer was lost: the reconciling lookup is a child span with its own attempt', async () => {
    otel.exporter.reset();
    gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'after' });
    const mchOrderNo = id('o');
    const order = await create(mchOrderNo);
    const create_ = lastSpan('payment_gateway.unifiedOrder');
    const children = childrenOf(otel.spans(), create_);
    expect(children.map((span) => span.name)).toEqual(['POST', 'payment_gateway.query']);
    expect(children[0]?.attributes['error.type']).toBe('GatewayConnectionError');
    expect(children[1]?.attributes).toEqual({ 'payment_gateway.operation': 'query', 'payment_gateway.purpose': 'reconcile' });
    const lookupAttempts = childrenOf(otel.spans(), children[1]!);
    expect(lookupAttempts.map((span) => [span.name, span.attributes['http.response.status_code'], span.attributes['http.request.resend_count']])).toEqual([['POST', 200, undefined]]);
    expect(create_.attributes['payment_gateway.pay_order_id']).toBe(order.payOrderId);
    expect(create_.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('waitForOrder and reissueOrder: a span each, their calls as children', async () => {
    const order = await create(id('o'));
    gateway.payOrder(order.payOrderId);
    otel.exporter.reset();
    await client.waitForOrder({ payOrderId: order.payOrderId }, { intervalMs: 1 });
    const wait = lastSpan('payment_gateway.waitForOrder');
    expect(wait.attributes).toMatchObject({ 'payment_gateway.operation': 'waitForOrder', 'payment_gateway.pay_order_id': order.payOrderId, 'payment_gateway.mch_order_no': order.mchOrderNo });
    expect(childrenOf(otel.spans(), wait).map((span) => span.name)).toEqual(['payment_gateway.query']);
  });

  it('waitForRefund: a span with the refund\'s ids, its refund queries as children', async () => {
    const order = await create(id('o'));
    gateway.payOrder(order.payOrderId);
    const refund = await client.refundOrder({ payOrderId: order.payOrderId, mchRefundNo: id('r'), refundAmount: 100, currency: 'USD', refundReason: 'r' });
    otel.exporter.reset();
    await client.waitForRefund({ mchRefundNo: refund.mchRefundNo }, { intervalMs: 1 });
    const wait = lastSpan('payment_gateway.waitForRefund');
    expect(wait.attributes).toMatchObject({
      'payment_gateway.operation': 'waitForRefund',
      'payment_gateway.mch_refund_no': refund.mchRefundNo,
      'payment_gateway.refund_order_id': refund.refundOrderId,
      'payment_gateway.pay_order_id': order.payOrderId,
    });
    expect(childrenOf(otel.spans(), wait).map((span) => span.name)).toEqual(['payment_gateway.refundQuery']);
    const waits = pointsOf((await otel.metrics()).get('payment_gateway.client.operation.duration'), { 'payment_gateway.operation': 'waitForRefund' });
    expect(waits).toHaveLength(1);
  });

  it('records both histograms, in seconds, with the attributes OpenTelemetry names', async () => {
    const all = await otel.metrics();
    const requests = all.get('http.client.request.duration');
    expect(requests?.descriptor.unit).toBe('s');
    const { port, hostname } = new URL(server.url);
    const served = pointsOf(requests, { 'payment_gateway.operation': 'query', 'http.response.status_code': 200 }).filter((point) => !('error.type' in point.attributes));
    expect(served).toHaveLength(1);
    expect(served[0]?.attributes).toEqual({ 'http.request.method': 'POST', 'server.address': hostname, 'server.port': Number(port), 'http.response.status_code': 200, 'payment_gateway.operation': 'query' });
    expect(pointsOf(requests, { 'http.response.status_code': 503, 'error.type': 'GatewayHttpStatusError' })).toHaveLength(1);
    const operations = all.get('payment_gateway.client.operation.duration');
    expect(operations?.descriptor.unit).toBe('s');
    const creates = pointsOf(operations, { 'payment_gateway.operation': 'unifiedOrder' });
    expect(creates.map((point) => point.attributes)).toEqual([{ 'payment_gateway.operation': 'unifiedOrder' }]);
    expect((creates[0]?.value as { count: number }).count).toBeGreaterThanOrEqual(3);
    // Lookups are part of their call's duration, not calls of their own.
    expect(pointsOf(operations, { 'payment_gateway.purpose': 'reconcile' })).toEqual([]);
  });
});

describe('notification spans', () => {
  const fulfilled: string[] = [];
  const processor = createNotificationProcessor({
    ...MERCHANT,
    telemetry,
    onPaid: async (notification) => {
      // The merchant's own span nests under on_paid.
      await tracer.startActiveSpan('fulfil', async (span) => {
        fulfilled.push(notification.mchOrderNo);
        span.end();
      });
    },
  });

  it('processed, duplicate, forged: outcomes, the on_paid child with the merchant spans in it, and the counter', async () => {
    otel.exporter.reset();
    const genuine = formBody(freshFields());
    expect((await processor.handle(genuine)).outcome.kind).toBe('processed');
    expect((await processor.handle(genuine)).outcome.kind).toBe('duplicate');
    const forged = formBody({ ...freshFields(), amount: '1' });
    expect((await processor.handle(forged)).outcome.kind).toBe('refused');
    expect(fulfilled).toHaveLength(1);

    const [processed, duplicate, refused] = spansNamed('payment_gateway.notification');
    const payOrderId = freshFields().payOrderId;
    expect(processed?.attributes).toEqual({
      'payment_gateway.notification.kind': 'payment',
      'payment_gateway.notification.outcome': 'processed',
      'payment_gateway.pay_order_id': payOrderId,
      'payment_gateway.mch_order_no': freshFields().mchOrderNo,
    });
    const onPaid = childrenOf(otel.spans(), processed!);
    expect(onPaid.map((span) => span.name)).toEqual(['payment_gateway.on_paid']);
    expect(childrenOf(otel.spans(), onPaid[0]!).map((span) => span.name)).toEqual(['fulfil']);
    expect(duplicate?.attributes['payment_gateway.notification.outcome']).toBe('duplicate');
    expect(childrenOf(otel.spans(), duplicate!)).toEqual([]);
    // A forged notification: refused, and nothing it claims is recorded.
    expect(refused?.attributes).toEqual({ 'payment_gateway.notification.kind': 'payment', 'payment_gateway.notification.outcome': 'refused', 'error.type': 'GatewaySignatureError' });
    expect(refused?.status.code).toBe(SpanStatusCode.ERROR);

    const counted = (await otel.metrics()).get('payment_gateway.notifications');
    const count = (outcome: string) => pointsOf(counted, { 'payment_gateway.notification.outcome': outcome }).map((point) => point.value);
    expect([count('processed'), count('duplicate'), count('refused')]).toEqual([[1], [1], [1]]);
  });

  it('a settlement notification: its kind and requestId, onSettlement inside payment_gateway.on_settlement', async () => {
    otel.exporter.reset();
    const settled: string[] = [];
    const settlements = createNotificationProcessor({ ...MERCHANT, telemetry, onSettlement: (settlement) => void settled.push(settlement.requestId) });
    expect((await settlements.handle(formBody(freshFields({}, SETTLEMENT_FIELDS)))).outcome.kind).toBe('processed');
    const notification = lastSpan('payment_gateway.notification');
    expect(notification.attributes).toEqual({
      'payment_gateway.notification.kind': 'settlement',
      'payment_gateway.notification.outcome': 'processed',
      'payment_gateway.request_id': SETTLEMENT_FIELDS.requestId,
    });
    expect(childrenOf(otel.spans(), notification).map((span) => span.name)).toEqual(['payment_gateway.on_settlement']);
    expect(settled).toEqual([SETTLEMENT_FIELDS.requestId]);
  });

  it('one processor of payments and refunds: each delivery named by its kind, each handler by its row; unhandled and unknown are errors', async () => {
    otel.exporter.reset();
    const processor = createNotificationProcessor({ ...MERCHANT, telemetry, onPaid: () => {}, onRefunded: () => {}, leaveUnhandled: ['onRefundFailed'] });
    expect((await processor.handle(formBody(freshFields({}, REFUND_FIELDS)))).outcome.kind).toBe('processed');
    expect((await processor.handle(formBody(freshFields({}, FAILED_REFUND_FIELDS)))).outcome.kind).toBe('unhandled');
    expect((await processor.handle(formBody(freshFields({ refundOrderId: 'R1', mchRefundNo: 'r-1' })))).outcome.kind).toBe('refused');
    const [refunded, failed, twoKinds] = spansNamed('payment_gateway.notification');
    expect(refunded?.attributes['payment_gateway.notification.kind']).toBe('refund');
    expect(childrenOf(otel.spans(), refunded!).map((span) => span.name)).toEqual(['payment_gateway.on_refunded']);
    expect(failed?.attributes).toMatchObject({ 'payment_gateway.notification.kind': 'refund', 'payment_gateway.notification.outcome': 'unhandled', 'error.type': 'GatewayError' });
    expect(failed?.status.code).toBe(SpanStatusCode.ERROR);
    expect(twoKinds?.attributes).toEqual({ 'payment_gateway.notification.kind': 'unknown', 'payment_gateway.notification.outcome': 'refused', 'error.type': 'GatewayValidationError' });
  });

  it("a refund's and a transfer's span: the ids their kinds' rows name, nothing else they carry (no payee, no amount)", async () => {
    otel.exporter.reset();
    const processor = createNotificationProcessor({ ...MERCHANT, telemetry, onRefunded: () => {}, onRefundFailed: () => {}, onTransferred: () => {}, onTransferFailed: () => {} });
    expect((await processor.handle(formBody(freshFields({}, REFUND_FIELDS)))).outcome.kind).toBe('processed');
    expect((await processor.handle(formBody(freshFields({}, TRANSFER_FIELDS)))).outcome.kind).toBe('processed');
    const [refund, transfer] = spansNamed('payment_gateway.notification');
    expect(refund?.attributes).toEqual({
      'payment_gateway.notification.kind': 'refund',
      'payment_gateway.notification.outcome': 'processed',
      'payment_gateway.refund_order_id': REFUND_FIELDS['refundOrderId'],
      'payment_gateway.mch_refund_no': REFUND_FIELDS['mchRefundNo'],
      'payment_gateway.pay_order_id': REFUND_FIELDS['payOrderId'],
    });
    expect(transfer?.attributes).toEqual({
      'payment_gateway.notification.kind': 'transfer',
      'payment_gateway.notification.outcome': 'processed',
      'payment_gateway.transfer_id': TRANSFER_FIELDS['transferId'],
      'payment_gateway.mch_order_no': TRANSFER_FIELDS['mchOrderNo'],
    });
  });

  it('a telemetry given no ids records none of the notification: the fields to record are the caller\'s list, never the notification\'s own', async () => {
    otel.exporter.reset();
    const notification = { payOrderId: 'P1', mchOrderNo: 'o-1', accountName: 'Li Lei', amount: 1999 };
    await telemetry.notification('payment', async () => ({ kind: 'processed' as const, notification }));
    expect(lastSpan('payment_gateway.notification').attributes).toEqual({ 'payment_gateway.notification.kind': 'payment', 'payment_gateway.notification.outcome': 'processed' });
    await telemetry.notification('payment', async () => ({ kind: 'processed' as const, notification }), ['mchOrderNo']);
    expect(lastSpan('payment_gateway.notification').attributes).toEqual({ 'payment_gateway.notification.kind': 'payment', 'payment_gateway.notification.outcome': 'processed', 'payment_gateway.mch_order_no': 'o-1' });
  });

  it('a handler that throws: on_paid and the notification ERROR with its class, outcome failed', async () => {
    otel.exporter.reset();
    class StockError extends Error {
      override name = 'StockError';
    }
    const failing = createNotificationProcessor({ ...MERCHANT, telemetry, onPaid: () => Promise.reject(new StockError('no stock')) });
    expect((await failing.handle(formBody(freshFields()))).outcome.kind).toBe('failed');
    const notification = lastSpan('payment_gateway.notification');
    expect(notification.attributes).toMatchObject({ 'payment_gateway.notification.outcome': 'failed', 'error.type': 'StockError' });
    expect(childrenOf(otel.spans(), notification).map((span) => [span.name, span.attributes['error.type'], span.status.code])).toEqual([['payment_gateway.on_paid', 'StockError', SpanStatusCode.ERROR]]);
  });
});

describe('sweeps (the abstraction processor.sweep reports through)', () => {
  it("a span with the report's counts, on_paid inside it, and the counts added to payment_gateway.sweep.orders", async () => {
    otel.exporter.reset();
    const report = { checked: 5, paid: 1, alreadyDone: 1, open: 2, closed: 1, failed: 0, durationMs: 37, note: 'not a count' };
    const swept = await telemetry.sweep(async () => {
      await telemetry.handler('on_paid', () => tracer.startActiveSpan('fulfil', (span) => span.end()));
      return report;
    });
    expect(swept).toBe(report);
    const sweep = lastSpan('payment_gateway.sweep');
    expect(sweep.attributes).toEqual({
      'payment_gateway.sweep.checked': 5,
      'payment_gateway.sweep.paid': 1,
      'payment_gateway.sweep.already_done': 1,
      'payment_gateway.sweep.open': 2,
      'payment_gateway.sweep.closed': 1,
      'payment_gateway.sweep.failed': 0,
      'payment_gateway.sweep.duration_ms': 37,
    });
    const onPaid = childrenOf(otel.spans(), sweep);
    expect(onPaid.map((span) => span.name)).toEqual(['payment_gateway.on_paid']);
    expect(childrenOf(otel.spans(), onPaid[0]!).map((span) => span.name)).toEqual(['fulfil']);
    const orders = (await otel.metrics()).get('payment_gateway.sweep.orders');
    expect(orders?.descriptor.unit).toBe('{order}');
    expect(pointsOf(orders, { 'payment_gateway.sweep.count': 'already_done' }).map((point) => point.value)).toEqual([1]);
    // Orders only: the sweep's duration is no count of orders.
    expect(pointsOf(orders, { 'payment_gateway.sweep.count': 'duration_ms' })).toEqual([]);
    expect(pointsOf(orders, { 'payment_gateway.sweep.count': 'checked' }).map((point) => point.value)).toEqual([5]);


    // Refunds are counted apart: their own attributes, and their own counter.
    otel.exporter.reset();
    await telemetry.sweep(async () => ({ checked: 0, durationMs: 3, refunds: { checked: 3, refunded: 1, refundFailed: 1, open: 1, problems: [] } }));
    expect(lastSpan('payment_gateway.sweep').attributes).toEqual({
      'payment_gateway.sweep.checked': 0,
      'payment_gateway.sweep.duration_ms': 3,
      'payment_gateway.sweep.refunds.checked': 3,
      'payment_gateway.sweep.refunds.refunded': 1,
      'payment_gateway.sweep.refunds.refund_failed': 1,
      'payment_gateway.sweep.refunds.open': 1,
    });
    const refunds = (await otel.metrics()).get('payment_gateway.sweep.refunds');
    expect(refunds?.descriptor.unit).toBe('{refund}');
    expect(pointsOf(refunds, { 'payment_gateway.sweep.count': 'refund_failed' }).map((point) => point.value)).toEqual([1]);
    expect(pointsOf(refunds, { 'payment_gateway.sweep.count': 'checked' }).map((point) => point.value)).toEqual([3]);
    // The orders' counter is not fed by refunds (its checked is the first sweep's 5 and this one's 0).
    expect(pointsOf((await otel.metrics()).get('payment_gateway.sweep.orders'), { 'payment_gateway.sweep.count': 'refunded' })).toEqual([]);

    // Each other kind's report has its counter, named by its field: transfers as refunds.
    await telemetry.sweep(async () => ({ checked: 0, durationMs: 1, transfers: { checked: 2, transferred: 1, open: 1, problems: [] } }));
    const transfers = (await otel.metrics()).get('payment_gateway.sweep.transfers');
    expect(transfers?.descriptor.unit).toBe('{transfer}');
    expect(pointsOf(transfers, { 'payment_gateway.sweep.count': 'transferred' }).map((point) => point.value)).toEqual([1]);
    expect(pointsOf((await otel.metrics()).get('payment_gateway.sweep.refunds'), { 'payment_gateway.sweep.count': 'transferred' })).toEqual([]);

    await expect(telemetry.sweep(() => Promise.reject(new GatewayApiError(9999, 'system busy')))).rejects.toBeInstanceOf(GatewayApiError);
    expect(lastSpan('payment_gateway.sweep').attributes['error.type']).toBe('GatewayApiError');
  });
});

describe('url.full', () => {
  it('never holds credentials, a query string or a fragment', async () => {
    otel.exporter.reset();
    await telemetry.operation('query', {}, async (span) => span.attempt('https://user:pa55@pay.example.com:8443/api/pay/query?token=t0k#frag').end(200));
    expect(lastSpan('POST').attributes).toMatchObject({ 'url.full': 'https://pay.example.com:8443/api/pay/query', 'server.address': 'pay.example.com', 'server.port': 8443 });
    // Through the client a base URL with credentials never gets that far: it is refused when the client is made.
    expect(() => clientWith({ baseUrl: server.url.replace('http://', 'http://user:pa55@'), retry: { maxRetries: 0 } })).toThrow(/credentials/);
    expect(JSON.stringify(spansNamed('POST').map((span) => span.attributes))).not.toMatch(/pa55|user@|token|frag/);
  });
});

const METRIC_ATTRIBUTES = [
  'error.type',
  'http.request.method',
  'http.response.status_code',
  'payment_gateway.notification.kind',
  'payment_gateway.notification.outcome',
  'payment_gateway.operation',
  'payment_gateway.sweep.count',
  'server.address',
  'server.port',
];

describe('what is exported', () => {
  it('holds no secret, sign, signing string or body: spans, events, attributes and metric attributes, for every operation, a retry, a reconciliation and notifications', async () => {
    const mchOrderNo = id('o');
    const order = await create(mchOrderNo);
    unavailable = 1;
    await client.query({ payOrderId: order.payOrderId });
    gateway.payOrder(order.payOrderId);
    await client.waitForOrder({ mchOrderNo }, { intervalMs: 1 });
    const second = await create(id('o'));
    await client.close({ mchOrderNo: second.mchOrderNo }, { confirm: true });
    gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'after' });
    await create(id('o'));
    const address = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
    const declared = await client.settleAddressApply({ requestId: id('addr'), tokenId: 'TRON_USDT', address });
    gateway.approveAddress(declared.serverRequestId);
    const requestId = id('settle');
    await client.settleRequest({ requestId, amount: 150000, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', addrServerRequestId: declared.serverRequestId }, { confirm: true });
    await client.settleRequestGet({ requestId });
    await expect(client.query({ mchOrderNo: id('missing') })).rejects.toBeInstanceOf(GatewayApiError);
    const processor = createNotificationProcessor({ ...MERCHANT, telemetry, onPaid: () => undefined });
    const notification = freshFields({ mchOrderNo: id('n') });
    signs.add(notification.sign!);
    bodies.push(formBody(notification));
    await processor.handle(formBody(notification));
    await processor.handle(formBody(notification));
    await processor.handle(formBody({ ...notification, amount: '1' }));
    for (const operation of ['unifiedOrder', 'query', 'close', 'settleAddressApply', 'settleRequest', 'settleRequestGet', 'waitForOrder']) {
      expect(spansNamed(`payment_gateway.${operation}`).length, operation).toBeGreaterThan(0);
    }

    const values: AttributeValue[] = [];
    const strings: string[] = [];
    const collect = (attributes: Attributes) => {
      for (const [key, value] of Object.entries(attributes)) {
        strings.push(key);
        if (value !== undefined) values.push(value);
      }
    };
    for (const span of otel.spans()) {
      strings.push(span.name, span.status.message ?? '');
      collect(span.attributes);
      for (const event of span.events) {
        strings.push(event.name);
        collect(event.attributes ?? {});
      }
      for (const link of span.links) collect(link.attributes ?? {});
    }
    const metricKeys = new Set<string>();
    for (const metric of (await otel.metrics()).values()) {
      strings.push(metric.descriptor.name, metric.descriptor.description);
      for (const point of metric.dataPoints) {
        collect(point.attributes);
        for (const key of Object.keys(point.attributes)) metricKeys.add(key);
      }
    }
    // Metric attributes come from the SDK's own short lists: no id, nothing a notification or an answer carries.
    expect([...metricKeys].filter((key) => !METRIC_ATTRIBUTES.includes(key))).toEqual([]);
    expect(metricKeys.size).toBeGreaterThanOrEqual(8);

    for (const value of values) strings.push(...(Array.isArray(value) ? value.map(String) : [String(value)]));

    expect(signs.size).toBeGreaterThan(10);
    expect(strings.length).toBeGreaterThan(300);
    const secrets = [merchant.secret, MERCHANT.secret, ...signs];
    const leaks = strings.filter((text) => secrets.some((secret) => text.includes(secret)) || /key=|\bsign\b|"/i.test(text) || bodies.some((body) => body.length > 40 && text.includes(body)));
    expect(leaks).toEqual([]);
    // Nothing long enough to be a body: ids, names and URLs only.
    expect(strings.filter((text) => text.length > 120)).toEqual([]);
  });
});

describe('openTelemetry() with the global providers', () => {
  it('follows the providers registered after it was made: the Node SDK registers them at start', async () => {
    const global = inMemoryOpenTelemetry();
    const made = openTelemetry(); // before the SDK registers its providers, as an import order may have it
    trace.setGlobalTracerProvider(global.tracerProvider);
    metrics.setGlobalMeterProvider(global.meterProvider);
    try {
      const globalClient = clientWith({ telemetry: made });
      const order = await globalClient.unifiedOrder({ mchOrderNo: id('o'), wayCode: 'QR_CASHIER', amount: 1, currency: 'USD', subject: 's', body: 'b' });
      const processor = createNotificationProcessor({ ...MERCHANT, telemetry: made, onPaid: () => undefined });
      await processor.handle(formBody(freshFields({ mchOrderNo: id('g') })));
      expect(global.spans().map((span) => span.name)).toEqual(['POST', 'payment_gateway.unifiedOrder', 'payment_gateway.on_paid', 'payment_gateway.notification']);
      expect(global.spans()[1]?.attributes['payment_gateway.pay_order_id']).toBe(order.payOrderId);
      const recorded = await global.metrics();
      expect([...recorded.keys()].sort()).toEqual(['http.client.request.duration', 'payment_gateway.client.operation.duration', 'payment_gateway.notifications']);
    } finally {
      trace.disable();
      metrics.disable();
    }
  });
});

describe('a failing telemetry changes no outcome', () => {
  it('providers that throw: calls, notifications and handlers go on as without telemetry', async () => {
    const broken = () => {
      throw new Error('collector down');
    };
    const tracerProvider = { getTracer: () => ({ startSpan: broken, startActiveSpan: broken }) } as unknown as TracerProvider;
    const meterProvider = { getMeter: broken } as unknown as MeterProvider;
    const failing = openTelemetry({ tracerProvider, meterProvider });
    const brokenClient = clientWith({ telemetry: failing });
    unavailable = 1;
    const order = await brokenClient.unifiedOrder({ mchOrderNo: id('o'), wayCode: 'QR_CASHIER', amount: 1, currency: 'USD', subject: 's', body: 'b' });
    expect((await brokenClient.query({ payOrderId: order.payOrderId })).state).toBe(PayOrderState.Generated);
    await expect(brokenClient.query({ mchOrderNo: id('missing') })).rejects.toBeInstanceOf(GatewayApiError);
    const paid: string[] = [];
    const processor = createNotificationProcessor({ ...MERCHANT, telemetry: failing, onPaid: (n) => void paid.push(n.mchOrderNo) });
    const reply = await processor.handle(formBody(freshFields({ mchOrderNo: id('b') })));
    expect([reply.status, paid.length]).toEqual([200, 1]);
    expect(await failing.sweep(async () => ({ checked: 1 }))).toEqual({ checked: 1 });
  });

  it("an error whose name cannot be read (a proxy, a getter that throws) reaches the caller as thrown: failed with the handler's own error, error.type _OTHER", async () => {
    otel.exporter.reset();
    const odd = new Error('no stock');
    Object.defineProperty(odd, 'name', { get: () => { throw new Error('name getter'); } });
    const processor = createNotificationProcessor({ ...MERCHANT, telemetry, onPaid: () => Promise.reject(odd) });
    const { outcome } = await processor.handle(formBody(freshFields({ mchOrderNo: id('odd') })));
    expect(outcome).toMatchObject({ kind: 'failed' });
    expect((outcome as { error: unknown }).error).toBe(odd);
    expect(lastSpan('payment_gateway.on_paid').attributes['error.type']).toBe('_OTHER');
  });
});

describe('the telemetry option', () => {
  it('is checked: anything but a telemetry is refused, naming where to get one', () => {
    expect(() => clientWith({ telemetry: {} as never })).toThrow(GatewayValidationError);
    expect(() => clientWith({ telemetry: {} as never })).toThrow(/telemetry: must be a telemetry: openTelemetry\(\) from 'payment-gateway-sdk\/opentelemetry'/);
    expect(() => createNotificationProcessor({ ...MERCHANT, telemetry: 'otel' as never, onPaid: () => undefined })).toThrow(/telemetry/);
  });

  it("one configuration object, telemetry included, serves the client, the verifier and the processor", async () => {
    const config = { baseUrl: server.url, ...MERCHANT, telemetry } satisfies GatewayClientOptions;
    await expect(verifyNotification(formBody(freshFields()), config)).resolves.toMatchObject({ state: 2 });
    expect(createNotificationProcessor({ ...config, onPaid: () => undefined }).handle).toBeTypeOf('function');
    expect(JSON.stringify(new GatewayClient(config))).not.toContain('telemetry');
  });

  it('prints the span tree of one paid order (for the guide)', async () => {
    otel.exporter.reset();
    const mchOrderNo = id('order');
    gateway.injectFault({ kind: 'html502', operation: 'unifiedOrder', when: 'before' });
    const order = await tracer.startActiveSpan('POST /checkout', async (span) => {
      try {
        return await create(mchOrderNo);
      } finally {
        span.end();
      }
    });
    expect(order.mchOrderNo).toBe(mchOrderNo);
    const root = lastSpan('POST /checkout');
    const tree = spanTree(otel.spans(), root);
    expect(tree.split('\n').map((line) => line.trim().split(' ')[0])).toEqual(['POST', 'payment_gateway.unifiedOrder', 'POST', 'payment_gateway.query', 'POST', 'POST']);
    if (process.env.PRINT_SPAN_TREE) console.log(tree);
  });
});
