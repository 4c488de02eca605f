// The waits and their timeout error, derived from the tracked kinds' rows, keep their precise public types.
import { describe, expectTypeOf, it } from 'vitest';
import { GatewayWaitTimeoutError, type GatewayClient, type PayOrder, type Refunds, type Transfers } from '../../src/index.js';

declare const client: GatewayClient;
declare const error: GatewayWaitTimeoutError;

describe('the waits, derived from the kinds', () => {
  it('each wait takes its read ids, its until a function of its record, and resolves to the record', () => {
    expectTypeOf(client.waitForOrder({ mchOrderNo: 'o' })).resolves.toEqualTypeOf<PayOrder>();
    expectTypeOf(client.waitForRefund({ mchRefundNo: 'r' }, { until: (refund) => refund.state === 2 })).resolves.toEqualTypeOf<Refunds.Refund>();
    expectTypeOf(client.waitForTransfer({ transferId: 't' }, { until: (transfer) => transfer.entryType === 'BANK_CARD' })).resolves.toEqualTypeOf<Transfers.Transfer>();
    // @ts-expect-error: a refund's until is a function of the refund, not of an order
    void client.waitForRefund({ mchRefundNo: 'r' }, { until: (order: PayOrder) => order.state === 2 });
    // @ts-expect-error: a transfer is read by mchOrderNo or transferId, not a refund's number
    void client.waitForTransfer({ mchRefundNo: 'r' });
  });

  it("the timeout error's fields: each kind's record or undefined, read-only", () => {
    expectTypeOf(error.lastOrder).toEqualTypeOf<PayOrder | undefined>();
    expectTypeOf(error.lastRefund).toEqualTypeOf<Refunds.Refund | undefined>();
    expectTypeOf(error.lastTransfer).toEqualTypeOf<Transfers.Transfer | undefined>();
    // @ts-expect-error: read-only
    error.lastRefund = undefined;
    // @ts-expect-error: no kind named settlement is waited for
    void error.lastSettlement;
    expectTypeOf(new GatewayWaitTimeoutError('m', undefined, { lastTransfer: undefined })).toEqualTypeOf<GatewayWaitTimeoutError>();
  });
});
