// Free text is marked where a field is declared (freeText() in the schemas), never listed apart: this holds the
// marks to the list the protocol's records had before (issue 30), so moving the list into the schemas changed
// nothing, and to the refund's own free text.
import { describe, expect, it } from 'vitest';
import { notificationKinds } from '../../../src/notify/kinds.js';
import { definitionOf, OPERATION_NAMES } from '../../../src/operations/table.js';
import { objectFields } from '../../../src/protocol/schemas/introspect.js';

// The protocol-wide list that the marks replaced, plus the refund's reason and the transfer's remark, payee name and bank, and channel answer,
// and a division receiver's name, alias, relation name and channel text.
const FREE_TEXT = new Set(['subject', 'body', 'extParam', 'errMsg', 'payData', 'notifyUrl', 'returnUrl', 'channelExtra', 'remark', 'refundReason', 'transferDesc', 'accountName', 'bankName', 'channelResData', 'accName', 'receiverAlias', 'relationTypeName', 'channelExtInfo']);
const expected = (names: ReadonlySet<string>) => [...names].filter((name) => FREE_TEXT.has(name)).sort();

describe('free-text marks', () => {
  for (const operation of OPERATION_NAMES) {
    it(`${operation}: its parameters' and its answer's free text are the marked fields`, () => {
      for (const schema of [definitionOf(operation).params, definitionOf(operation).result]) {
        const fields = objectFields(schema);
        expect([...fields.freeText].sort()).toEqual(expected(fields.names));
      }
    });
  }
  for (const kind of Object.values(notificationKinds)) {
    it(`the ${kind.label}: its free text is the marked fields`, () => {
      const fields = objectFields(kind.schema);
      expect([...fields.freeText].sort()).toEqual(expected(fields.names));
    });
  }
  it('an id, an amount or a state is never free text', () => {
    const fields = objectFields(definitionOf('query').result);
    for (const name of ['payOrderId', 'mchOrderNo', 'amount', 'state', 'mchNo', 'appId']) expect(fields.freeText.has(name)).toBe(false);
    expect(fields.freeText.has('subject')).toBe(true);
  });
});
