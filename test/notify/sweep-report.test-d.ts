// The sweep report's per-kind fields, derived from the tracked kinds' rows, keep their precise public types.
import { describe, expectTypeOf, it } from 'vitest';
import type { Refunds, SweepReport, Transfers } from '../../src/index.js';

declare const report: SweepReport;

describe("the sweep report's kinds", () => {
  it("holds each other tracked kind's report under its row's reportedIn, and nothing for an untracked kind", () => {
    expectTypeOf(report.refunds).toEqualTypeOf<Refunds.SweepReport>();
    expectTypeOf(report.transfers).toEqualTypeOf<Transfers.SweepReport>();
    // @ts-expect-error: settlements are not tracked, so not reported
    void report.settlements;
  });

  it("a kind's report: the common counts, one per handler, its keys and its problems named by its ids", () => {
    expectTypeOf(report.refunds.refunded).toEqualTypeOf<number>();
    expectTypeOf(report.refunds.refundFailed).toEqualTypeOf<number>();
    expectTypeOf(report.refunds.tooOld).toEqualTypeOf<number>();
    expectTypeOf(report.refunds.neverMadeKeys).toEqualTypeOf<readonly string[]>();
    expectTypeOf(report.transfers.transferFailed).toEqualTypeOf<number>();
    // @ts-expect-error: a transfer has no refund handler
    void report.transfers.refunded;
    // @ts-expect-error: only an order's report counts closed (a final state no handler takes)
    void report.refunds.closed;
    const [problem] = report.refunds.problems;
    expectTypeOf(problem!.mchRefundNo).toEqualTypeOf<string>();
    expectTypeOf(problem!.refundOrderId).toEqualTypeOf<string>();
    expectTypeOf(problem!.kind).toEqualTypeOf<'failed' | 'notFound' | 'neverMade' | 'mismatched' | 'tooOld' | 'forget' | 'warning'>();
    // @ts-expect-error: a refund's problem is named by the refund's ids, not an order's
    void problem!.payOrderId;
    expectTypeOf(report.transfers.problems[0]!.transferId).toEqualTypeOf<string>();
  });
});
