// Issue 25 §3: a processor built without `expect` says so once, loudly, when it is created: a process
// warning with a code (so it can be found in logs and silenced with --disable-warning), once per process.
// Files share their modules (isolate: false), so the processor module is loaded afresh here: its once is ours.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { MERCHANT } from '../support/notification.js';

vi.resetModules();
const { createNotificationProcessor } = await import('../../src/notify/processor.js');

const warnings: Error[] = [];
const listen = (warning: Error) => warnings.push(warning);
process.on('warning', listen);
afterAll(() => process.off("warning", listen));

/** Lets the process deliver its pending warnings (emitWarning emits on the next tick). */
const delivered = () => new Promise((resolve) => setImmediate(resolve));

describe('a processor without expect', () => {
  it('warns once per process, with code PGSDK_NO_EXPECT, saying why expect matters; a processor with expect does not warn', async () => {
    createNotificationProcessor({ ...MERCHANT, expect: { mchOrderNo: 'o-1' }, onPaid: () => undefined });
    createNotificationProcessor({ ...MERCHANT, expectSettlement: () => ({ requestId: 'settle-1' }), onSettlement: () => undefined });
    await delivered();
    expect(warnings.filter((w) => (w as { code?: string }).code === 'PGSDK_NO_EXPECT')).toHaveLength(0);
    createNotificationProcessor({ ...MERCHANT, onPaid: () => undefined });
    createNotificationProcessor({ ...MERCHANT, onPaid: () => undefined });
    createNotificationProcessor({ ...MERCHANT, onSettlement: () => undefined });
    await delivered();
    const ours = warnings.filter((w) => (w as { code?: string }).code === 'PGSDK_NO_EXPECT');
    expect(ours).toHaveLength(1);
    expect(ours[0]?.message).toMatch(/^createNotificationProcessor was created without expect: its handler will run for any genuine notification of this merchant application, whatever its order, amount or currency\./);
    expect(ours[0]?.message).toMatch(/Pass expect: a function that returns your order record's \{ mchOrderNo, amount, currency \}/);
  });
});

describe('a processor with refund handlers without expectRefund', () => {
  it('warns as without expect, naming each handled kind\'s missing option (a fresh module: its once is this test\'s)', async () => {
    vi.resetModules();
    const fresh = await import('../../src/notify/processor.js');
    fresh.createNotificationProcessor({ ...MERCHANT, expect: { mchOrderNo: 'o-1' }, expectRefund: { mchRefundNo: 'r-1' }, onPaid: () => undefined, onRefunded: () => undefined, onRefundFailed: () => undefined });
    await delivered();
    const before = warnings.filter((w) => (w as { code?: string }).code === 'PGSDK_NO_EXPECT').length;
    fresh.createNotificationProcessor({ ...MERCHANT, expect: { mchOrderNo: 'o-1' }, onPaid: () => undefined, onRefundFailed: () => undefined, leaveUnhandled: ['onRefunded'] });
    await delivered();
    const ours = warnings.filter((w) => (w as { code?: string }).code === 'PGSDK_NO_EXPECT').slice(before);
    expect(ours).toHaveLength(1);
    expect(ours[0]?.message).toMatch(/^createNotificationProcessor was created without expectRefund: its handler will run for any genuine notification/);
    expect(ours[0]?.message).toMatch(/expectRefund: your refund record's \{ mchRefundNo, refundAmount, currency \}/);
  });
});
