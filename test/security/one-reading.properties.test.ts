// Property: every reading of a signed text that a record verifier accepts returns the same record, and
// every field it returns is what the gateway signed (issue 16, finding 1; issue 23, findings 2 and 3).
// Readings come from test/support/resplit.ts (written from the protocol, not from the SDK): arbitrary
// re-splits near every boundary and every reading under the verifiers' first two rules. `npm test` runs the
// first cases of seed 16 and as many of a random seed, `npm run test:slow` all of both (test/support/property-runs.ts).
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  GatewayClient,
  GatewayError,
  GatewayOutcomeUnknownError,
  GatewayValidationError,
  verifyNotification,
  verifyRefundNotification,
  verifySettlementNotification,
} from '../../src/index.js';
import { referenceSign } from '../support/java-order.js';
import { FAILED_REFUND_FIELDS, MERCHANT, PAY_FIELDS, SETTLEMENT_FIELDS, signedFields } from '../support/notification.js';
import { propertyRuns } from '../support/property-runs.js';
import { notificationKinds } from '../../src/notify/kinds.js';
import { fieldsOf, form, readingsByRules, readingsNear, readingsOf, sameFields, signedText, withoutSwallowedFields } from '../support/resplit.js';

const ALL_STATES = [0, 1, 2, 3, 4, 5, 6] as const;
const ORDER = { mchOrderNo: 'o-1', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', subject: 'Sofa', body: 'Sofa' } as const;

// The protocol's free text (src/protocol/schemas/free-text.ts says the same) and the records' field names.
const FREE_TEXT = ['subject', 'body', 'extParam', 'errMsg', 'payData', 'notifyUrl', 'returnUrl', 'channelExtra', 'remark'];
const PAY_ORDER_FIELDS = ['payOrderId', 'mchNo', 'appId', 'mchOrderNo', 'ifCode', 'wayCode', 'amount', 'currency', 'state', 'clientIp', 'subject', 'body', 'channelOrderNo', 'errCode', 'errMsg', 'extParam', 'successTime', 'createdAt', 'orderTransactionList'];
const SETTLEMENT_RECORD_FIELDS = ['serverRequestId', 'requestId', 'tokenId', 'currency', 'amount', 'status', 'address', 'notifyUrl'];
const CREATED_ORDER_FIELDS = ['payOrderId', 'mchOrderNo', 'orderState', 'payDataType', 'payData', 'errCode', 'errMsg'];
const freeTextOf = (known: readonly string[]) => new Set(known.filter((name) => FREE_TEXT.includes(name)));
// What the SDK adds to a record: never a signed field.
const SDK_MEMBERS = new Set(['ambiguousFields', 'idempotencyKey', 'recovered', 'sentExpiredTime']);

/** Per kind, the identifying fields of the other kinds (from their rows): a message carrying one is refused as two-shaped. */
const OTHER_KINDS_IDS = Object.fromEntries(
  Object.keys(notificationKinds).map((name) => [name, new Set(Object.entries(notificationKinds).flatMap(([other, row]) => (other === name ? [] : row.identifiedBy)))]),
) as unknown as Record<keyof typeof notificationKinds, ReadonlySet<string>>;
const NAMES = ['a', 'amount', 'b', 'body', 'mchOrderNo', 'order', 'p', 'payData', 'payDataA', 'q', 'ref', 'state', 'State', 'subject', 'subjectx', 'status', 'x', 'z', '_', 'a0'];
const piece = fc.oneof(
  fc.constantFrom('&', '=', '&=', 'é', 'Ä', 'ä', '1', 'text', ' ', '?'),
  fc.constantFrom(...NAMES).map((name) => `&${name}=`),
  fc.constantFrom(...NAMES),
);
const hostileValue = fc.array(piece, { minLength: 1, maxLength: 5 }).map((pieces) => pieces.join(''));
const urlValue = fc.array(fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom('1', 'eu', 'x&', 'é')), { maxLength: 3 }).map((query) => `https://cashier.example/pay?id=7${query.map(([k, v]) => `&${k}=${v}`).join('')}`);

// Free text as orders made elsewhere carry it (issue 23): `&word=` for words the records do not know
// (some sorting right after a free-text field, e.g. Color after body, code after clientIp), and known names.
const WORDS = ['Color', 'color', 'word', 'A', 'page', 'utm_source', 'zz', 'code', 'cm', 'reqTimeZ', 'subjectZ', 'extParamX', 'order', 'shop', 'b'];
const KNOWN = ['state', 'amount', 'subject', 'body', 'errCode', 'errMsg', 'successTime', 'clientIp', 'channelOrderNo', 'currency', 'reqTime', 'extParam'];
const textPiece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...WORDS).map((word) => `&${word}=`) },
  { weight: 1, arbitrary: fc.constantFrom(...KNOWN).map((name) => `&${name}=`) },
  { weight: 3, arbitrary: fc.constantFrom('Size=M', 'Red', 'Q', 'free', '1', 'é', ' ', '?', 'https://shop.example/p?', '&', '=') },
);
const freeText = fc.array(textPiece, { minLength: 1, maxLength: 5 }).map((pieces) => pieces.join(''));
const maybe = <T,>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

const BOUNDARY = /&([A-Za-z_$][\w$]*)=/g;
const holdsBoundary = (value: string) => /&[A-Za-z_$][\w$]*=/.test(value);

/**
 * The class issue 23 says must be accepted: only free-text fields hold `&name=`, and only for names the
 * record does not know. (Other genuine messages may be accepted too; these must be.)
 */
function mustBeAccepted(genuine: ReadonlyMap<string, string>, known: readonly string[]): boolean {
  const free = freeTextOf(known);
  return [...genuine].every(([name, value]) => !holdsBoundary(value) || (free.has(name) && [...value.matchAll(BOUNDARY)].every((match) => !known.includes(match[1]!))));
}

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined; // a JSON field (orderTransactionList): compared as a whole by the equality of records
}

// How often a case had several accepted readings, and an ambiguous record: the properties are not vacuous.
const seen = { severalReadings: 0, ambiguous: 0 };
afterAll(() => {
  expect(seen.severalReadings).toBeGreaterThan(0);
  expect(seen.ambiguous).toBeGreaterThan(0);
});

type Verify = (reading: Map<string, string>, sign: string) => Promise<Record<string, unknown> | undefined>;

/**
 * Runs `verify` on readings of `genuine`'s signed text (re-splits near every boundary, up to `limit`, and
 * every reading under the verifiers' first two rules) and checks what issue 23 asks:
 * - every accepted reading returns the same record (the SDK's answer is a function of the signed text);
 * - when no field but free text holds `&name=`, every accepted reading has the genuine `decisive` fields (the
 *   ids, merchant, application, state, amount, currency: a re-split changes none of them);
 * - when free text holds `&name=` only for names the record does not know (the class that must be accepted),
 *   the genuine message is accepted, every top-level field returned is the genuine one, and a field left out as
 *   ambiguous lists the genuine value among its readings;
 * - without `&name=` in any value, and with the record's own field names only, the genuine message is the one
 *   reading accepted, returned whole (free text may swallow a field the record does not know: then both
 *   readings are accepted, and give the same record).
 * (A genuine message whose id holds `&name=`, which the gateway never makes and the SDK never sends, is
 * refused; a re-split of it may pass: SECURITY.md, "What a signature can and cannot bind".)
 */
async function everyAcceptedReadingIsTheGenuineRecord(genuine: Map<string, string>, known: readonly string[], decisive: readonly string[], seed: number, limit: number, verify: Verify): Promise<void> {
  const sign = referenceSign(genuine, MERCHANT.secret)!;
  const signed = new Map([...genuine].filter(([, v]) => v !== ''));
  const text = signedText(genuine);
  const free = freeTextOf(known);
  const candidates = [...readingsOf(text, limit, seed), ...readingsNear(genuine, 4, limit, seed), ...readingsByRules(text, free, limit).map((reading) => reading.fields)];
  const readings = candidates.filter((reading, i) => candidates.findIndex((other) => sameFields(other, reading)) === i);
  expect(readings.some((reading) => sameFields(reading, signed))).toBe(true); // the enumeration finds the genuine one
  const accepted: [Map<string, string>, Record<string, unknown>][] = [];
  for (const reading of readings) {
    const record = await verify(reading, sign);
    if (record) accepted.push([reading, JSON.parse(JSON.stringify(record)) as Record<string, unknown>]);
  }
  if (accepted.length > 1) seen.severalReadings++;
  if (accepted[0]?.[1].ambiguousFields) seen.ambiguous++;
  const where = (reading: Map<string, string>) => `reading ${JSON.stringify([...reading])}`;
  for (const [reading, record] of accepted) expect(record, where(reading)).toEqual(accepted[0]![1]);
  if ([...signed].every(([name, value]) => free.has(name) || !holdsBoundary(value))) {
    for (const [reading, record] of accepted) for (const name of decisive) if (signed.has(name)) expect(textOf(record[name]), `${name} of ${where(reading)}`).toBe(signed.get(name));
  }
  const own = accepted.find(([reading]) => sameFields(reading, signed))?.[1];
  if (mustBeAccepted(signed, known)) {
    expect(own, 'the genuine message is accepted').toBeDefined();
    for (const [name, value] of Object.entries(own!)) if (!SDK_MEMBERS.has(name) && textOf(value) !== undefined) expect(textOf(value), name).toBe(signed.get(name));
    for (const [name, values] of Object.entries((own!.ambiguousFields ?? {}) as Record<string, string[]>)) if (signed.has(name)) expect(values).toContain(signed.get(name));
  }
  if (![...signed.values()].some(holdsBoundary) && [...signed.keys()].every((name) => known.includes(name))) {
    expect(accepted.map(([reading]) => reading), 'a message of known fields without "&name=" has one reading').toEqual([signed]);
    expect(own?.ambiguousFields).toBeUndefined();
  }
}

const accepts = <T,>(promise: Promise<T>): Promise<T | undefined> =>
  promise.then(
    (value) => value,
    (error: unknown) => {
      const cause = error instanceof GatewayOutcomeUnknownError ? error.cause : error;
      if (cause instanceof GatewayError) return undefined;
      throw error;
    },
  );

const asJsonData = (reading: ReadonlyMap<string, string>, numeric: readonly string[]) =>
  Object.fromEntries([...reading].map(([k, v]) => [k, numeric.includes(k) && /^\d+$/.test(v) ? Number(v) : v]));

const answering = (data: Record<string, unknown>, sign: string) =>
  new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: async () => Response.json({ code: 200, msg: 'SUCCESS', data, sign }), retry: { maxRetries: 0 } });

const PAY_DECISIVE = ['payOrderId', 'mchNo', 'appId', 'mchOrderNo', 'amount', 'currency', 'state', 'reqTime', 'createdAt'];
const NOTIFICATION_FIELDS = [...PAY_ORDER_FIELDS, 'reqTime'];

describe('property: every reading of a signed text that a verifier accepts is the genuine record', () => {
  for (const { label, parameters } of propertyRuns(60, 16, 15, true)) {
    it(`payment notifications with hostile text fields and extra fields (${label})`, async () => {
      await fc.assert(
        fc.asyncProperty(hostileValue, hostileValue, hostileValue, fc.constantFrom(...NAMES), hostileValue, fc.integer(), async (subject, body, payOrderId, extraName, extra, order) => {
          // An extra field, not another value of a known one, nor its case twin (the gateway signs neither).
          fc.pre(!Object.keys(PAY_FIELDS).some((name) => name.toLowerCase() === extraName.toLowerCase()));
          const genuine = fieldsOf(signedFields({ subject, body, payOrderId, extParam: undefined, [extraName]: extra }));
          await everyAcceptedReadingIsTheGenuineRecord(genuine, NOTIFICATION_FIELDS, PAY_DECISIVE, order, 300, (reading, sign) => accepts(verifyNotification(form(reading, sign), { ...MERCHANT, expect: { state: ALL_STATES } })));
        }),
        parameters,
      );
    });
  }

  for (const { label, parameters } of propertyRuns(60, 23, 15, true)) {
    it(`paid notifications of orders made elsewhere, "&word=" in their free text (${label})`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({ subject: freeText, body: freeText, extParam: maybe(freeText), errMsg: maybe(freeText) }),
          fc.record({ channelOrderNo: maybe(fc.constant('2021061822001423031419593035')), clientIp: maybe(fc.constant('192.166.1.132')), successTime: maybe(fc.constant('1623985459000')), state: fc.constantFrom('2', '0', '3') }),
          fc.integer(),
          async (text, optional, order) => {
            const genuine = fieldsOf(signedFields({ ...text, ...optional }));
            await everyAcceptedReadingIsTheGenuineRecord(genuine, NOTIFICATION_FIELDS, PAY_DECISIVE, order, 200, (reading, sign) => accepts(verifyNotification(form(reading, sign), { ...MERCHANT, expect: { state: ALL_STATES } })));
          },
        ),
        parameters,
      );
    });
  }

  for (const { label, parameters } of propertyRuns(40, 23, 6, true)) {
    it(`query responses of such orders, re-split on the network (${label})`, { timeout: 30_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({ subject: freeText, body: freeText, extParam: maybe(freeText) }),
          fc.record({ channelOrderNo: maybe(fc.constant('CH-1')), clientIp: maybe(fc.constant('10.0.0.1')), successTime: maybe(fc.constant('1700000001000')) }),
          fc.integer(),
          async (text, optional, order) => {
            const record: Record<string, string | undefined> = {
              payOrderId: 'P1', mchNo: MERCHANT.mchNo, appId: MERCHANT.appId, mchOrderNo: 'o-1', ifCode: 'coinpay', wayCode: 'QR_CASHIER',
              amount: '100', currency: 'USD', state: '2', createdAt: '1700000000000', ...text, ...optional,
            };
            const genuine = new Map(Object.entries(record).filter((entry): entry is [string, string] => entry[1] !== undefined));
            await everyAcceptedReadingIsTheGenuineRecord(genuine, PAY_ORDER_FIELDS, PAY_DECISIVE, order, 100, async (reading, sign) =>
              accepts(answering(asJsonData(reading, ['amount', 'state', 'createdAt', 'successTime']), sign).query({ mchOrderNo: 'o-1' })) as Promise<Record<string, unknown> | undefined>,
            );
          },
        ),
        parameters,
      );
    });
  }

  for (const { label, parameters } of propertyRuns(60, 31, 15, true)) {
    it(`refund notifications whose errMsg and extParam hold "&word=" and other kinds' field names (${label})`, async () => {
      const refundText = fc.array(fc.oneof(textPiece, fc.constantFrom('&mchOrderNo=', '&mchRefundNo=', '&refundAmount=', '&refundOrderId=', '&payAmount=', '&mchNo=')), { minLength: 1, maxLength: 5 }).map((pieces) => pieces.join(''));
      await fc.assert(
        fc.asyncProperty(fc.record({ errMsg: refundText, extParam: maybe(refundText) }), fc.constantFrom('2', '3'), fc.integer(), async (text, state, order) => {
          const genuine = fieldsOf(signedFields({ ...text, state }, FAILED_REFUND_FIELDS));
          const known = [...Object.keys(FAILED_REFUND_FIELDS), 'extParam', 'channelOrderNo', 'successTime'];
          const decisive = ['refundOrderId', 'payOrderId', 'mchNo', 'appId', 'mchRefundNo', 'payAmount', 'refundAmount', 'currency', 'state', 'createdAt', 'reqTime'];
          await everyAcceptedReadingIsTheGenuineRecord(genuine, known, decisive, order, 200, (reading, sign) =>
            accepts(verifyRefundNotification(form(reading, sign), MERCHANT)) as Promise<Record<string, unknown> | undefined>,
          );
        }),
        parameters,
      );
    });
  }

  for (const { label, parameters } of propertyRuns(60, 16, 15, true)) {
    it(`settlement notifications with a notifyUrl query string and hostile text (${label})`, async () => {
      await fc.assert(
        fc.asyncProperty(urlValue, hostileValue, fc.constantFrom(...NAMES), hostileValue, fc.integer(), async (notifyUrl, address, extraName, extra, order) => {
          // Another kind's identifying field makes the message that kind's shape: every verifier refuses it (issue 35,
          // test/security/notification-kinds.test.ts); this property is about one kind's own message.
          fc.pre(!Object.hasOwn(SETTLEMENT_FIELDS, extraName) && extraName !== 'notifyUrl' && !OTHER_KINDS_IDS.settlement.has(extraName));
          const genuine = new Map(Object.entries({ ...SETTLEMENT_FIELDS, notifyUrl, address, [extraName]: extra }));
          await everyAcceptedReadingIsTheGenuineRecord(genuine, [...SETTLEMENT_RECORD_FIELDS, 'mchNo', 'appId', 'reqTime'], ['serverRequestId', 'requestId', 'tokenId', 'currency', 'amount', 'status', 'address', 'mchNo', 'appId'], order, 300, (reading, sign) =>
            accepts(verifySettlementNotification(form(reading, sign), MERCHANT)) as Promise<Record<string, unknown> | undefined>,
          );
        }),
        parameters,
      );
    });
  }

  for (const { label, parameters } of propertyRuns(40, 23, 10, true)) {
    it(`settlement records (settleRequestGet) whose notifyUrl holds "&word=" (${label})`, async () => {
      await fc.assert(
        fc.asyncProperty(freeText, maybe(fc.constant('TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf')), fc.integer(), async (query, address, order) => {
          const record: Record<string, string | undefined> = { serverRequestId: 'SRV-1', requestId: 'settle-1', tokenId: 'TRON_USDT', currency: 'USD', amount: '150000', status: '2', address, notifyUrl: `https://shop.example/s?${query}` };
          const genuine = new Map(Object.entries(record).filter((entry): entry is [string, string] => entry[1] !== undefined));
          await everyAcceptedReadingIsTheGenuineRecord(genuine, SETTLEMENT_RECORD_FIELDS, ['serverRequestId', 'requestId', 'tokenId', 'currency', 'amount', 'status', 'address'], order, 150, async (reading, sign) =>
            accepts(answering(asJsonData(reading, ['amount', 'status']), sign).settleRequestGet({ requestId: 'settle-1' })) as Promise<Record<string, unknown> | undefined>,
          );
        }),
        parameters,
      );
    });
  }

  for (const { label, parameters } of propertyRuns(25, 16, 6, true)) {
    it(`unifiedOrder responses whose payData is a URL with a query string (${label})`, async () => {
      await fc.assert(
        fc.asyncProperty(urlValue, fc.constantFrom(...NAMES), hostileValue, maybe(freeText), fc.integer(), async (payData, extraName, extra, errMsg, order) => {
          fc.pre(!CREATED_ORDER_FIELDS.includes(extraName));
          const fields: Record<string, string | undefined> = { payOrderId: 'P1', mchOrderNo: 'o-1', orderState: '1', payDataType: 'payurl', payData, errMsg, [extraName]: extra };
          const genuine = new Map(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined));
          await everyAcceptedReadingIsTheGenuineRecord(genuine, CREATED_ORDER_FIELDS, ['payOrderId', 'mchOrderNo', 'orderState'], order, 60, (reading, sign) =>
            accepts(answering(asJsonData(reading, ['orderState']), sign).unifiedOrder(ORDER)) as Promise<Record<string, unknown> | undefined>,
          );
        }),
        parameters,
      );
    });
  }
});

// unifiedOrder requests: the gateway reads the JSON it is sent, so a request has other readings only for
// whoever rewrites it in flight; the record it makes is read back by the verifiers above. The SDK sends a
// request exactly when every reading of it that the rules accept (with the gateway's required fields) is the
// request itself: a refusal names a reading that differs, a request sent has none.
const REQUEST_FIELDS = ['version', 'signType', 'reqTime', 'mchNo', 'appId', 'mchOrderNo', 'wayCode', 'amount', 'currency', 'subject', 'body', 'clientIp', 'notifyUrl', 'returnUrl', 'expiredTime', 'channelExtra', 'extParam', 'divisionMode', 'channelUserId'];
const REQUIRED_REQUEST_FIELDS = ['version', 'signType', 'reqTime', 'mchNo', 'appId', 'mchOrderNo', 'wayCode', 'amount', 'currency', 'subject', 'body'];

describe('property: unifiedOrder refuses a value exactly when a reading of the request differs from it', () => {
  const urlWithQuery = fc.array(fc.tuple(fc.constantFrom(...WORDS, ...KNOWN, 'mchOrderNo', 'order'), fc.constantFrom('1', '19.99', 'USD', 'o-1')), { maxLength: 3 }).map((query) => `https://shop.example/done?${query.map(([k, v]) => `${k}=${v}`).join('&')}`);
  for (const { label, parameters } of propertyRuns(60, 23, 15, true)) {
    it(`free text and URLs holding "&name=" (${label})`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({ subject: freeText, body: freeText, clientIp: maybe(fc.constant('10.0.0.1')), notifyUrl: maybe(urlWithQuery), returnUrl: maybe(urlWithQuery), extParam: maybe(freeText.map((note) => ({ note }))) }),
          async (text) => {
            let sent: Record<string, string | number> | undefined;
            const client = new GatewayClient({
              baseUrl: 'https://gateway.test', ...MERCHANT, retry: { maxRetries: 0 }, verifyResponses: false,
              fetch: async (input: Request | URL | string, init?: RequestInit) => {
                sent = JSON.parse(input instanceof Request ? await input.text() : String(init?.body)) as Record<string, string | number>;
                return Response.json({ code: 200, msg: 'SUCCESS', data: { payOrderId: 'P1', mchOrderNo: 'o-1', orderState: 1 } });
              },
            });
            const outcome = await client.unifiedOrder({ ...ORDER, ...text }).then(
              () => undefined,
              (error: unknown) => error,
            );
            if (outcome !== undefined && !(outcome instanceof GatewayValidationError && /nothing was sent/.test(outcome.message))) throw outcome;
            const all: Record<string, unknown> = { ...ORDER, ...text, extParam: text.extParam && JSON.stringify(text.extParam), version: '1.0', signType: 'MD5', reqTime: '1700000000000', mchNo: MERCHANT.mchNo, appId: MERCHANT.appId };
            const params = new Map(Object.entries(all).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));
            const request = sent ? new Map(Object.entries(sent).filter(([k]) => k !== 'sign').map(([k, v]) => [k, String(v)])) : params;
            const free = freeTextOf(REQUEST_FIELDS);
            const byRules = readingsByRules(signedText(request), free).filter((reading) => REQUIRED_REQUEST_FIELDS.every((name) => reading.fields.has(name)));
            const readings = withoutSwallowedFields(byRules, new Set(REQUEST_FIELDS), free);
            const differs = readings.some((reading) => !sameFields(reading.fields, request));
            if (sent) expect(differs, `sent, but another reading is accepted: ${JSON.stringify(readings.map((r) => [...r.fields]))}`).toBe(false);
            else if ([...request].every(([name, value]) => free.has(name) || !holdsBoundary(value))) expect(differs, `refused (${String(outcome)}), but no reading differs`).toBe(true);
          },
        ),
        parameters,
      );
    });
  }
});
