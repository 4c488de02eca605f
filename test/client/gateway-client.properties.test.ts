// Every method of the client against hostile input and hostile responses (test/support/property-runs.ts:
// the first cases of a fixed seed in `npm test`, all of them and a random seed in `npm run test:slow`).
import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatewayClient, GatewayError, GatewayValidationError, type OperationName } from '../../src/index.js';
import { OPERATION_NAMES, type ParamsOf } from '../../src/operations/table.js';
import { wireFields } from '../../src/operations/wire.js';
import { propertyRuns } from '../support/property-runs.js';
import { Raw, signedEnvelope, toJsonText } from '../support/wire.js';

// Every operation of the table; a new one must add its valid parameters below (the record's type requires them).
const OPERATIONS = OPERATION_NAMES;
const VALID_PARAMS: { readonly [Op in OperationName]: ParamsOf<Op> } = {
  unifiedOrder: { mchOrderNo: 'o', wayCode: 'QR_CASHIER', amount: 1, currency: 'USD', subject: 's', body: 'b' },
  query: { mchOrderNo: 'o' },
  close: { mchOrderNo: 'o' },
  settleAddressApply: { requestId: 'r', tokenId: 'T', address: 'a' },
  settleRequest: { requestId: 'r', amount: 1, tokenId: 'T', payoutChannel: 'Crypto', currency: 'USD', address: 'a' },
  settleRequestGet: { requestId: 'r' },
  refundOrder: { payOrderId: 'P1', mchRefundNo: 'r', refundAmount: 1, currency: 'USD', refundReason: 'why' },
  refundQuery: { mchRefundNo: 'r' },
  transferOrder: { mchOrderNo: 't', ifCode: 'wxpay', entryType: 'WX_CASH', amount: 1, currency: 'CNY', accountNo: 'o8x', transferDesc: 'why' },
  transferQuery: { mchOrderNo: 't' },
  bindDivisionReceiver: { ifCode: 'wxpay', receiverGroupId: 100001, accType: 0, accNo: 'o8x', relationType: 'PARTNER', divisionProfit: '0.1' },
  executeDivision: { payOrderId: 'P1', receivers: [{ receiverId: 800001, divisionProfit: '0.1' }] },
};
const secretArb = fc.stringMatching(/^[A-Za-z0-9]{24,40}$/);
const base = { baseUrl: 'https://gateway.test', mchNo: 'M1', appId: 'A1', retry: { maxRetries: 0 } } as const;

/** A fetch that records whether it was called and answers with the given body. */
function recordingFetch(body: () => string) {
  const state = { calls: 0 };
  const fetch = async () => {
    state.calls++;
    return new Response(body(), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { state, fetch };
}

/** Hostile parameter values: wrong types, huge and unsafe numbers, odd strings, nested junk. */
const hostileValue = fc.oneof(
  fc.anything({ withBigInt: true, withNullPrototype: true, withTypedArray: true, withMap: true, withSet: true, withDate: true }),
  fc.constantFrom(Number.NaN, Infinity, -1, 0, 1.5, 2 ** 53, -(2 ** 53), '', ' ', '\u0000', '😀', 'Crypto', 'USD', 'QR_CASHIER'),
);
const hostileParams = fc.oneof(
  // Every field any operation sends, and names that attack an object.
  fc.dictionary(fc.constantFrom(...new Set(OPERATIONS.flatMap(wireFields)), '__proto__', 'constructor', 'x'), hostileValue),
  hostileValue,
);

describe('property: hostile input never escapes as anything but GatewayValidationError, and is never sent', () => {
  for (const { label, parameters } of propertyRuns(400, 1)) {
    it(`for every operation (${label})`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...OPERATIONS), hostileParams, secretArb, async (operation, params, secret) => {
          const { state, fetch } = recordingFetch(() => signedEnvelope({}, secret));
          const client = new GatewayClient({ ...base, secret, fetch });
          const outcome = await (client[operation] as (p: unknown) => Promise<unknown>)(params).then(
            () => 'resolved',
            (error: unknown) => error,
          );
          if (outcome === 'resolved') return; // the input happened to be valid
          if (outcome instanceof GatewayValidationError) {
            expect(state.calls).toBe(0);
          } else {
            // Valid input that reached the stub: only a GatewayError may come back (the stub's {} fits few schemas).
            expect(outcome).toBeInstanceOf(GatewayError);
            expect(state.calls).toBeGreaterThan(0);
          }
          expect(inspect(outcome, { depth: 10 })).not.toContain(secret);
        }),
        parameters,
      );
    });
  }
});

const jsonish: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: 'grapheme' }),
    fc.integer(),
    fc.double(),
    fc.constantFrom(2 ** 53 + 1, 1e308, -0, null, true, false),
    fc.stringMatching(/^-?\d{1,30}(\.\d{1,20})?(e[+-]?\d{1,3})?$/).map((t) => new Raw(t)),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string(), tie('value'), { maxKeys: 5 }),
  ),
})).value;

const hostileBody = fc.oneof(
  fc.string(),
  fc.json(),
  jsonish.map(toJsonText),
  // Envelopes with random data, properly signed, so schema handling is reached.
  fc.tuple(fc.dictionary(fc.constantFrom('payOrderId', 'mchOrderNo', 'orderState', 'state', 'amount', 'payData', 'orderTransactionList', 'createdAt', 'status', 'serverRequestId', 'requestId'), jsonish)).map(([data]) => ({ data })),
  fc.record({ code: jsonish, msg: jsonish, data: jsonish, sign: jsonish }).map(toJsonText),
  fc.json().map((t) => t.slice(0, Math.max(1, t.length - 3))),
);

describe('property: any gateway response yields a result or a GatewayError, never a raw TypeError/SyntaxError', () => {
  for (const { label, parameters } of propertyRuns(500, 2)) {
    it(`for every operation (${label})`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...OPERATIONS), hostileBody, secretArb, async (operation, body, secret) => {
          const text = typeof body === 'string' ? body : signedEnvelope(body.data as Record<string, unknown>, secret);
          const { fetch } = recordingFetch(() => text);
          const client = new GatewayClient({ ...base, secret, fetch, totalTimeout: 2_000 });
          const outcome = await (client[operation] as (p: unknown) => Promise<unknown>)(VALID_PARAMS[operation]).then(() => undefined, (error: unknown) => error);
          if (outcome !== undefined) {
            expect(outcome).toBeInstanceOf(GatewayError);
            expect(inspect(outcome, { depth: 10 })).not.toContain(secret);
            expect((outcome as Error).message).not.toContain(secret);
          }
        }),
        parameters,
      );
    });
  }
});
