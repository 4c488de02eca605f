// Issue 38: wrong division calls must not compile. Each @ts-expect-error line holds exactly one mistake against a
// valid call (checked by tsc through vitest).
import { describe, expectTypeOf, it } from 'vitest';
import { Divisions, type GatewayClient } from '../../src/index.js';

declare const client: GatewayClient;
const receiver = { ifCode: 'wxpay', receiverGroupId: 100001, accType: 0, accNo: 'o8xYz0123456789', divisionProfit: '0.1' } as const;

describe('bindDivisionReceiver', () => {
  it('valid calls compile', () => {
    void client.bindDivisionReceiver({ ...receiver, relationType: 'PARTNER' });
    void client.bindDivisionReceiver({ ...receiver, relationType: 'CUSTOM', relationTypeName: 'Landlord', accName: 'Li Lei', receiverAlias: 'rent' });
  });

  it('CUSTOM needs its name, a known type takes none', () => {
    // @ts-expect-error CUSTOM without relationTypeName
    void client.bindDivisionReceiver({ ...receiver, relationType: 'CUSTOM' });
    // @ts-expect-error a known type with a relationTypeName (the gateway names it itself)
    void client.bindDivisionReceiver({ ...receiver, relationType: 'PARTNER', relationTypeName: 'Partner' });
    // @ts-expect-error not a relation type
    void client.bindDivisionReceiver({ ...receiver, relationType: 'OTHERS' });
  });

  it('a share is a string, an account type 0 or 1', () => {
    // @ts-expect-error a number share would be a float
    void client.bindDivisionReceiver({ ...receiver, relationType: 'PARTNER', divisionProfit: 0.1 });
    // @ts-expect-error accType is 0 or 1
    void client.bindDivisionReceiver({ ...receiver, relationType: 'PARTNER', accType: 2 });
  });

  it('receiverId is read only after checking bindState', async () => {
    const bound = await client.bindDivisionReceiver({ ...receiver, relationType: 'PARTNER' });
    expectTypeOf(bound.receiverId).toEqualTypeOf<number | undefined>();
    if (bound.bindState === Divisions.BindState.Bound) expectTypeOf(bound.receiverId).toEqualTypeOf<number>();
    else expectTypeOf(bound.receiverId).toEqualTypeOf<undefined>();
    expectTypeOf(bound.divisionProfit).toEqualTypeOf<string>();
  });
});

describe('executeDivision', () => {
  it('valid calls compile', () => {
    void client.executeDivision({ payOrderId: 'P1', receivers: [{ receiverId: 800001, divisionProfit: '0.3' }, { receiverGroupId: 100001 }] });
    void client.executeDivision({ mchOrderNo: 'order-1', useSysAutoDivisionReceivers: true });
    void client.executeDivision({ mchOrderNo: 'order-1', releaseAllToMerchant: true });
    void client.executeDivision({ mchOrderNo: 'order-1', releaseAllToMerchant: true, receivers: [] });
  });

  it('exactly one order id', () => {
    // @ts-expect-error both order ids
    void client.executeDivision({ payOrderId: 'P1', mchOrderNo: 'order-1', useSysAutoDivisionReceivers: true });
    // @ts-expect-error no order id
    void client.executeDivision({ useSysAutoDivisionReceivers: true });
  });

  it('exactly one way to divide, each element one id', () => {
    // @ts-expect-error receivers and the auto group
    void client.executeDivision({ payOrderId: 'P1', receivers: [{ receiverId: 800001 }], useSysAutoDivisionReceivers: true });
    // @ts-expect-error receivers and releasing everything
    void client.executeDivision({ payOrderId: 'P1', receivers: [{ receiverId: 800001 }], releaseAllToMerchant: true });
    // @ts-expect-error no way to divide
    void client.executeDivision({ payOrderId: 'P1' });
    // @ts-expect-error useSysAutoDivisionReceivers is true or absent
    void client.executeDivision({ payOrderId: 'P1', useSysAutoDivisionReceivers: false });
    // @ts-expect-error an element naming both a receiver and a group
    void client.executeDivision({ payOrderId: 'P1', receivers: [{ receiverId: 800001, receiverGroupId: 100001 }] });
    // @ts-expect-error a number share
    void client.executeDivision({ payOrderId: 'P1', receivers: [{ receiverId: 800001, divisionProfit: 0.3 }] });
  });

  it('the state is 1, 2 or 3', async () => {
    const division = await client.executeDivision({ payOrderId: 'P1', useSysAutoDivisionReceivers: true });
    expectTypeOf(division.state).toEqualTypeOf<1 | 2 | 3>();
  });
});
