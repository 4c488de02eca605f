// Issue 35, item 2, attacked through the public API: a record tracked by its key alone (its create's outcome
// unknown) is found by a lookup under that key, and a hostile gateway (it holds the merchant's secret, so its answers
// are signed) answers another record there. Whatever it answers, no handler runs, the record stays tracked, and it
// is never reported as never made: only the lookup's declared not-found refusal proves a record absent.
import { describe, expect, it, vi } from 'vitest';
import { createNotificationProcessor, GatewayClient, memoryStore, type NotificationProcessorOptions, type PaidOrder, type SweepReport } from '../../src/index.js';
import { signedEnvelope } from '../support/wire.js';

const merchant = { mchNo: 'M1700000036', appId: 'app-hostile-key', secret: 'hostile-key-secret-0123456789' };
const ORDER = { payOrderId: 'P3500000001', mchNo: merchant.mchNo, appId: merchant.appId, mchOrderNo: 'order-k', ifCode: 'coinpay', wayCode: 'QR_CASHIER', amount: 1000, currency: 'USD', state: 2, subject: 's', body: 'b', createdAt: 1_700_000_000_000, successTime: 1_700_000_100_000 };
const REFUND = { refundOrderId: 'R3500000001', payOrderId: ORDER.payOrderId, mchNo: merchant.mchNo, appId: merchant.appId, mchRefundNo: 'refund-k', payAmount: 1000, refundAmount: 400, currency: 'USD', state: 2, createdAt: 1_700_000_200_000, successTime: 1_700_000_300_000 };

/** A processor whose client talks to a gateway answering every query with what `answer` gives for the path asked. */
function hostile(answer: (path: string, asked: Record<string, unknown>) => string) {
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    return new Response(answer(new URL(request.url).pathname, (await request.json()) as Record<string, unknown>), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...merchant, fetch, retry: { maxRetries: 0 } });
  let time = 1_700_001_000_000;
  const onPaid = vi.fn(async (_paid: PaidOrder) => {});
  const onRefunded = vi.fn(async (_refund: unknown) => {});
  const onRefundFailed = vi.fn(async (_refund: unknown) => {});
  const processor = createNotificationProcessor({
    ...merchant, store: memoryStore(), client, onPaid, onRefunded, onRefundFailed, now: () => (time += 1_000_000), logLevel: 'off',
  } as NotificationProcessorOptions & { onRefunded: typeof onRefunded });
  return { processor, handlers: [onPaid, onRefunded, onRefundFailed] };
}

const settledNothing = (report: SweepReport) => {
  const all = { ...report, ...Object.fromEntries(Object.entries(report.refunds).map(([k, v]) => [`refunds.${k}`, v])) } as Record<string, unknown>;
  for (const field of ['paid', 'alreadyDone', 'closed', 'neverMade', 'refunds.refunded', 'refunds.refundFailed', 'refunds.alreadyDone', 'refunds.neverMade']) expect(all[field], field).toBe(0);
};

describe('a hostile gateway answering another record under a tracked key', () => {
  const refundCases: [string, (asked: Record<string, unknown>) => Record<string, unknown>][] = [
    ['another amount', () => ({ ...REFUND, refundAmount: 900 })],
    ['another currency', () => ({ ...REFUND, currency: 'EUR' })],
    ['another order', () => ({ ...REFUND, payOrderId: 'P3500000999' })],
    ['another refund number', () => ({ ...REFUND, mchRefundNo: 'refund-other' })],
    ['another merchant', () => ({ ...REFUND, mchNo: 'M-other' })],
    ['another application', () => ({ ...REFUND, appId: 'app-other' })],
  ];

  it.each(refundCases)('a refund tracked by its key, answered with %s: no handler runs, still tracked, never "never made"', async (_name, record) => {
    const { processor, handlers } = hostile((path, asked) => (path.endsWith('/refund/query') ? signedEnvelope(record(asked), merchant.secret) : signedEnvelope(ORDER, merchant.secret)));
    await processor.track({ payOrderId: ORDER.payOrderId, mchRefundNo: 'refund-k', refundAmount: 400, currency: 'USD' });
    for (let sweep = 0; sweep < 3; sweep++) {
      const report = await processor.sweep({ olderThanMs: 0, notFoundGraceMs: 0 });
      settledNothing(report);
      expect(report.refunds.checked).toBe(1);
      expect(report.refunds.mismatched + report.refunds.failed).toBe(1);
    }
    for (const handler of handlers) expect(handler).not.toHaveBeenCalled();
  });

  it('a refund sent by mchOrderNo whose order the gateway answers as another order: no handler runs', async () => {
    const { processor, handlers } = hostile((path) => (path.endsWith('/refund/query') ? signedEnvelope(REFUND, merchant.secret) : signedEnvelope({ ...ORDER, mchOrderNo: 'order-other', payOrderId: 'P3500000999' }, merchant.secret)));
    await processor.track({ mchOrderNo: 'order-k', mchRefundNo: 'refund-k', refundAmount: 400, currency: 'USD' });
    const report = await processor.sweep({ olderThanMs: 0 });
    settledNothing(report);
    expect(report.refunds.mismatched + report.refunds.failed).toBe(1);
    for (const handler of handlers) expect(handler).not.toHaveBeenCalled();
  });

  it.each([
    ['another amount', { ...ORDER, amount: 1 }],
    ['another currency', { ...ORDER, currency: 'EUR' }],
    ['another order number', { ...ORDER, mchOrderNo: 'order-other' }],
    ['a payOrderId shaped as a refund\'s tracking key', { ...ORDER, payOrderId: `refund:${REFUND.refundOrderId}` }],
    ['a payOrderId shaped as a key-tracked record\'s', { ...ORDER, payOrderId: 'refund-key:refund-k' }],
  ])('an order tracked by mchOrderNo, answered paid with %s: onPaid never runs', async (_name, record) => {
    const { processor, handlers } = hostile(() => signedEnvelope(record, merchant.secret));
    await processor.track({ mchOrderNo: 'order-k', amount: 1000, currency: 'USD' });
    for (let sweep = 0; sweep < 2; sweep++) {
      const report = await processor.sweep({ olderThanMs: 0, notFoundGraceMs: 0 });
      settledNothing(report);
      expect(report.mismatched + report.failed).toBe(1);
    }
    for (const handler of handlers) expect(handler).not.toHaveBeenCalled();
  });

  it('absence is proved only by the declared not-found refusal: other refusals, garbled or unsigned answers keep the record tracked', async () => {
    for (const body of [JSON.stringify({ code: 9999, msg: 'system busy' }), JSON.stringify({ code: 200, msg: 'SUCCESS', data: REFUND }), 'not json', '']) {
      const { processor } = hostile(() => body);
      await processor.track({ payOrderId: ORDER.payOrderId, mchRefundNo: 'refund-k', refundAmount: 400, currency: 'USD' });
      for (let sweep = 0; sweep < 2; sweep++) {
        const report = await processor.sweep({ olderThanMs: 0, notFoundGraceMs: 0 });
        settledNothing(report);
        expect(report.refunds.failed).toBe(1);
      }
    }
    // The declared refusal does prove it (after the grace): reported never made, and forgotten.
    const { processor } = hostile(() => JSON.stringify({ code: 9999, msg: '订单不存在' }));
    await processor.track({ payOrderId: ORDER.payOrderId, mchRefundNo: 'refund-k', refundAmount: 400, currency: 'USD' });
    expect((await processor.sweep({ olderThanMs: 0 })).refunds.open).toBe(1);
    const report = await processor.sweep({ olderThanMs: 0 });
    expect(report.refunds.neverMadeKeys).toEqual(['refund-k']);
  });
});
