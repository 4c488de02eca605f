// Issue 36: each declared kind's gateway methods come from its declaration (kind-methods.ts), not from hand-written
// copies: transfers have setTransferMode, settleTransfer, transfer and transfers because they are declared, and each
// does what the generic control with the kind's name does.
import { describe, expect, it } from 'vitest';
import { TransferOrderState } from '../../src/kinds/transfers/declaration.js';
import { MOCK_KINDS } from '../../src/testing/domain/kinds.js';
import { controlName } from '../../src/testing/domain/record-desk.js';
import { hasModes, nounOf } from '../../src/testing/domain/record-kind.js';
import { addKindMethods } from '../../src/testing/kind-methods.js';
import { createMockGateway } from '../../src/testing/index.js';
import { MockGateway } from '../../src/testing/mock-gateway.js';
import { call, MERCHANT } from '../support/raw-gateway.js';

const transfer = (mchOrderNo: string) =>
  call(createdGateway, 'transferOrder', { mchOrderNo, ifCode: 'wxpay', entryType: 'WX_CASH', amount: 1500, currency: 'CNY', accountNo: 'o8xYz0123456789', transferDesc: 'payout' });
let createdGateway: MockGateway;

describe("a declared kind's gateway methods", () => {
  it('exist for every declared kind, named by its declaration', () => {
    const gateway = createMockGateway({ merchants: [MERCHANT] }) as unknown as Record<string, unknown>;
    for (const kind of MOCK_KINDS) {
      const names = [
        nounOf(kind), kind.plural, ...(hasModes(kind) ? [controlName(kind, 'mode')] : []), controlName(kind, 'settle'),
        ...[...(kind.controls ?? []), ...(kind.aliases ?? []), ...(kind.recordControls ?? [])].map((c) => c.name),
      ];
      expect(names.filter((name) => typeof gateway[name] !== 'function')).toEqual([]);
    }
  });

  it("run the kind's desk: a transfer held by setTransferMode is decided by settleTransfer", async () => {
    createdGateway = createMockGateway({ merchants: [MERCHANT] });
    createdGateway.setTransferMode('hold');
    createdGateway.setTransferMode('fail', { mchOrderNo: 'payout-2' });
    await transfer('payout-1');
    await transfer('payout-2');
    expect(createdGateway.transfers().map((t) => [t.mchOrderNo, t.state])).toEqual([
      ['payout-1', TransferOrderState.Transferring],
      ['payout-2', TransferOrderState.Failed],
    ]);
    expect(createdGateway.settleTransfer('payout-1', { to: 'succeed' }).state).toBe(TransferOrderState.Succeeded);
    expect(createdGateway.transfer('payout-1')).toEqual(createdGateway.record('transfer', 'payout-1'));
    expect(() => createdGateway.setTransferMode('close' as 'hold')).toThrow(/Invalid setTransferMode options/);
  });

  it('refuses a declaration whose method name the gateway already has', () => {
    expect(() => addKindMethods(MockGateway.prototype)).toThrow(/declare a method order, which the gateway already has/);
  });
});
