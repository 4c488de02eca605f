// compareRecord decides whether a record read back is the request sent; confirm uses it for any operation
// with a key, so it must judge without a reconcile definition (no decisive fields) as well as with one.
import { describe, expect, it } from 'vitest';
import { GatewayReconciliationMismatchError } from '../../src/index.js';
import { compareRecord } from '../../src/client/reconciliation.js';

const FIELDS = ['requestId', 'amount', 'currency', 'serverRequestId'];
const sent = { requestId: 'settle-1', amount: 500, currency: 'USD', address: 'TXYZ' };

describe('compareRecord', () => {
  it('without decisive fields, a differing field is still a mismatch', () => {
    const error = (() => {
      try {
        return compareRecord('settleRequest', 'requestId', [], FIELDS, sent, { requestId: 'settle-1', amount: 499, currency: 'USD' });
      } catch (thrown) {
        return thrown;
      }
    })() as GatewayReconciliationMismatchError;
    expect(error).toBeInstanceOf(GatewayReconciliationMismatchError);
    expect(error.key).toEqual({ name: 'requestId', value: 'settle-1' });
    expect(error.differences).toEqual([{ field: 'amount', expected: 500, found: 499 }]);
  });

  it('a field the record cannot show leaves the outcome unknown only when it is decisive', () => {
    const record = { requestId: 'settle-1', amount: 500, currency: 'usd' };
    expect(compareRecord('settleRequest', 'requestId', [], FIELDS, sent, record)).toEqual([]);
    expect(compareRecord('settleRequest', 'requestId', ['amount', 'address'], FIELDS, sent, record)).toEqual(['address']);
  });
});
