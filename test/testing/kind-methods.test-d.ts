// Issue 36: the gateway's methods of each declared kind are derived from its declaration, with the kind's own types
// (the documented names keep working). Each @ts-expect-error line holds exactly one mistake against a valid call.
import { describe, expectTypeOf, it } from 'vitest';
import type { MockKindMethods } from '../../src/testing/domain/kinds.js';
import type { DerivedKindMethods } from '../../src/testing/kind-methods.js';
import type { SameMethods } from '../../src/testing/same-methods.js';
import type { ChannelFailure, MockGateway, MockPayOrder, MockRefund, MockSettlement, MockTransaction, MockTransfer, OrderDecision, RefundChannelScope, RefundDecision, RefundMode, RefundModeTarget } from '../../src/testing/index.js';

declare const gateway: MockGateway;

describe('refunds', () => {
  it('keep their documented signatures', () => {
    expectTypeOf(gateway.refund).toEqualTypeOf<(ref: string) => MockRefund | undefined>();
    expectTypeOf(gateway.refunds).toEqualTypeOf<() => MockRefund[]>();
    expectTypeOf(gateway.setRefundMode).parameter(0).toEqualTypeOf<RefundMode>();
    expectTypeOf(gateway.setRefundMode).parameter(1).toEqualTypeOf<RefundModeTarget | undefined>();
    expectTypeOf(gateway.settleRefund).parameter(1).toEqualTypeOf<RefundDecision>();
    expectTypeOf(gateway.settleRefund).returns.toEqualTypeOf<MockRefund>();
    expectTypeOf(gateway.refuseRefunds).parameter(0).toEqualTypeOf<RefundChannelScope>();
    expectTypeOf(gateway.allowRefunds).parameter(0).toEqualTypeOf<RefundChannelScope>();
  });

  it('refuse what their declaration does not name', () => {
    // @ts-expect-error not a refund mode
    gateway.setRefundMode('pause');
    // @ts-expect-error a transfer's key, not a refund's
    gateway.setRefundMode('fail', { mchOrderNo: 'o-1' });
    // @ts-expect-error not a refund decision
    gateway.settleRefund('r-1', { to: 'reject' });
    // @ts-expect-error a scope is an object
    gateway.refuseRefunds('wxpay');
  });
});

describe('transfers', () => {
  it('get the same methods from their declaration', () => {
    expectTypeOf(gateway.transfer).toEqualTypeOf<(ref: string) => MockTransfer | undefined>();
    expectTypeOf(gateway.transfers).toEqualTypeOf<() => MockTransfer[]>();
    expectTypeOf(gateway.setTransferMode).parameter(0).toEqualTypeOf<'succeed' | 'hold' | 'fail'>();
    expectTypeOf(gateway.setTransferMode).parameter(1).toEqualTypeOf<{ readonly mchOrderNo: string } | undefined>();
    expectTypeOf(gateway.settleTransfer).parameter(1).toEqualTypeOf<{ readonly to: 'succeed' | 'fail'; readonly errCode?: string | undefined; readonly errMsg?: string | undefined }>();
    // @ts-expect-error transfers never close
    gateway.settleTransfer('t-1', { to: 'close' });
  });
});

describe('the generic controls', () => {
  it("take a kind's own control by a name it declares", () => {
    gateway.control('refund', 'refuseRefunds', { ifCode: 'wxpay' });
    // @ts-expect-error refunds declare no such control
    gateway.control('refund', 'refuseTransfers', { ifCode: 'wxpay' });
    // @ts-expect-error transfers declare no control of their own
    gateway.control('transfer', 'refuseRefunds', { ifCode: 'wxpay' });
  });

  it('take an alias or a control on one record by a name the kind declares', () => {
    gateway.alias('payment', 'failOrder', 'order-1', { errCode: 'X' });
    gateway.recordControl('payment', 'setOrderFee', 'order-1', 60);
    // @ts-expect-error payments declare no such alias
    gateway.alias('payment', 'refundOrder', 'order-1');
    // @ts-expect-error refunds declare no controls on one record
    gateway.recordControl('refund', 'setOrderFee', 'refund-1', 60);
  });
});

describe("payments' methods, from their declaration", () => {
  it('keep the signatures they always had, and gain settleOrder; no setOrderMode (they have no modes)', () => {
    expectTypeOf(gateway.order).toEqualTypeOf<(ref: string) => MockPayOrder | undefined>();
    expectTypeOf(gateway.payOrder).toEqualTypeOf<(ref: string) => MockPayOrder>();
    expectTypeOf(gateway.failOrder).parameter(1).toEqualTypeOf<ChannelFailure | undefined>();
    expectTypeOf(gateway.setOrderFee).toEqualTypeOf<(ref: string, mchFeeAmount: number) => MockPayOrder>();
    expectTypeOf(gateway.addTransaction).returns.toEqualTypeOf<MockTransaction>();
    expectTypeOf(gateway.settleOrder).parameter(1).toEqualTypeOf<OrderDecision>();
    // @ts-expect-error payments have no modes
    gateway.setOrderMode('hold');
  });
});

describe("the check of the documented methods against the declarations' (kind-methods.ts)", () => {
  // The documented interface with one method's parameter list changed, its declaration not.
  type Changed<Name extends keyof MockKindMethods, F> = Omit<MockKindMethods, Name> & { readonly [N in Name]: F };

  it('holds for the documented interface as it is', () => {
    expectTypeOf<SameMethods<DerivedKindMethods, MockKindMethods>>().toEqualTypeOf<true>();
  });

  it('fails on an argument made optional, or required, in the documentation only', () => {
    // @ts-expect-error setOrderFee's fee made optional
    const optional: SameMethods<DerivedKindMethods, Changed<'setOrderFee', (ref: string, mchFeeAmount?: number) => MockPayOrder>> = true;
    // @ts-expect-error failOrder's failure made required
    const required: SameMethods<DerivedKindMethods, Changed<'failOrder', (ref: string, failure: ChannelFailure | undefined) => MockPayOrder>> = true;
    // @ts-expect-error progressSettlement's to made required
    const progressed: SameMethods<DerivedKindMethods, Changed<'progressSettlement', (ref: string, to: 'processing' | 'completed' | 'failed') => MockSettlement>> = true;
    void [optional, required, progressed];
  });
});
