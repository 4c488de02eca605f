import { describe, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import type { gatewayClientOptionsSchema } from '../../src/client/options.js';
import { verifyNotification, type GatewayClient, type LogLevel, type PayOrder, type PayOrderState, type UnifiedOrderResult, type RecoveredOrder, type GatewayClientOptions, type GatewayHooks, type VerifyNotificationOptions, type Settlements } from '../../src/index.js';
import type { kindOptionsSchemas } from '../../src/notify/options.js';
import type { queryParamsSchema, unifiedOrderParamsSchema } from '../../src/kinds/payments/schemas.js';
import type { settleRequestGetParamsSchema } from '../../src/kinds/settlements/schemas.js';

type ReconcileEvent = GatewayHooks.ReconcileEvent;

declare const client: GatewayClient;
const order = { mchOrderNo: 'o', wayCode: 'QR_CASHIER', amount: 1, currency: 'USD', subject: 's', body: 'b' } as const;
const settlement = { requestId: 'r', amount: 1, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD' } as const;

describe('wrong calls fail to compile', () => {
  it('query and close need payOrderId or mchOrderNo', () => {
    client.query({ payOrderId: 'P' });
    client.query({ mchOrderNo: 'o' });
    client.close({ payOrderId: 'P', mchOrderNo: 'o' });
    // @ts-expect-error neither id
    client.query({});
    // @ts-expect-error neither id
    client.close({});
  });

  it('settleRequest takes exactly one of addrServerRequestId and address, Crypto and USD only', () => {
    client.settleRequest({ ...settlement, address: 'T' });
    client.settleRequest({ ...settlement, addrServerRequestId: 'S' });
    // @ts-expect-error both
    client.settleRequest({ ...settlement, address: 'T', addrServerRequestId: 'S' });
    // @ts-expect-error neither
    client.settleRequest({ ...settlement });
    // @ts-expect-error OffRamp is not supported through this API
    client.settleRequest({ ...settlement, address: 'T', payoutChannel: 'OffRamp' });
    // @ts-expect-error USD only
    client.settleRequest({ ...settlement, address: 'T', currency: 'EUR' });
  });

  it('unifiedOrder needs its required fields and knows its keys', () => {
    client.unifiedOrder({ ...order, channelExtra: { payDataType: 'codeImgUrl' }, divisionMode: 2 });
    client.unifiedOrder({ ...order, channelExtra: '{"authCode":"1"}', extParam: { any: 'thing' } });
    const { amount: _a, ...withoutAmount } = order;
    // @ts-expect-error amount is required
    client.unifiedOrder(withoutAmount);
    // @ts-expect-error amount is a number of minor units
    client.unifiedOrder({ ...order, amount: '1.00' });
    // @ts-expect-error a typo is an unknown key
    client.unifiedOrder({ ...order, notifyURL: 'https://x' });
    // @ts-expect-error divisionMode is 0, 1 or 2
    client.unifiedOrder({ ...order, divisionMode: 3 });
    // @ts-expect-error payDataType is one of the known values
    client.unifiedOrder({ ...order, channelExtra: { payDataType: 'qr' } });
  });
});

describe('results are typed', () => {
  it('resolves to the parsed data', () => {
    expectTypeOf(client.unifiedOrder).returns.resolves.toEqualTypeOf<UnifiedOrderResult>();
    expectTypeOf(client.query).returns.resolves.toEqualTypeOf<PayOrder>();
    expectTypeOf(client.close({ mchOrderNo: 'o-1' })).resolves.toBeVoid();
    expectTypeOf(client.close({ mchOrderNo: 'o-1' }, { confirm: true })).resolves.toEqualTypeOf<PayOrder>();
    expectTypeOf(client.settleRequest({ ...settlement, address: 'T1' })).resolves.toEqualTypeOf<Settlements.Result>();
    expectTypeOf(client.settleRequest({ ...settlement, address: 'T1' }, { confirm: true })).resolves.toEqualTypeOf<Settlements.Settlement>();
    // @ts-expect-error confirm is an option of close and settleRequest only
    void client.query({ mchOrderNo: 'o-1' }, { confirm: true });
    expectTypeOf(client.settleRequestGet).returns.resolves.toEqualTypeOf<Settlements.Settlement>();
    expectTypeOf<PayOrder['state']>().toEqualTypeOf<PayOrderState>();
    expectTypeOf<PayOrder['amount']>().toBeNumber();
    expectTypeOf<NonNullable<PayOrder['orderTransactionList']>[number]['amount']>().toEqualTypeOf<string | undefined>();
  });

  it('free text the signature does not pin down is absent and listed under ambiguousFields (issue 23)', async () => {
    type Ambiguous = Readonly<Record<string, readonly string[]>> | undefined;
    expectTypeOf<PayOrder['ambiguousFields']>().toEqualTypeOf<Ambiguous>();
    expectTypeOf<Settlements.Settlement['ambiguousFields']>().toEqualTypeOf<Ambiguous>();
    expectTypeOf<PayOrder['subject']>().toEqualTypeOf<string | undefined>();
    const notification = await verifyNotification('', { secret: 's', mchNo: 'm', appId: 'a' });
    expectTypeOf(notification.ambiguousFields).toEqualTypeOf<Ambiguous>();
    expectTypeOf(notification.body).toEqualTypeOf<string | undefined>();
    expectTypeOf(notification.state).toEqualTypeOf<PayOrderState>();
  });
});

describe('a recovered create has no payData (issue 18)', () => {
  it('code that collects a payment must tell the two results apart', async () => {
    const result = await client.unifiedOrder({ mchOrderNo: 'o-1', wayCode: 'QR_CASHIER', amount: 1, currency: 'USD', subject: 's', body: 'b' });
    // @ts-expect-error payData exists only on the gateway's own answer (CreatedOrder)
    void result.payData;
    if (result.recovered) expectTypeOf(result).toEqualTypeOf<RecoveredOrder>();
    else expectTypeOf(result.payData).toEqualTypeOf<string | undefined>();
    expectTypeOf(client.reissueOrder).returns.resolves.toEqualTypeOf<UnifiedOrderResult>();
    // @ts-expect-error reissueOrder takes a recovered result, not the gateway's answer
    if (!result.recovered) void client.reissueOrder(result, { mchOrderNo: 'o-2', wayCode: 'QR_CASHIER', amount: 1, currency: 'USD', subject: 's', body: 'b' });
  });

  it("verifyNotification takes a client's options object", () => {
    const config: GatewayClientOptions = { baseUrl: 'https://pay.example.com', secret: 's', mchNo: 'M', appId: 'A', timeout: 1_000 };
    void verifyNotification('body', config);
    void verifyNotification('body', { ...config, expect: { amount: 1 } });
  });

  // A client's other options are accepted and ignored at run time; the type (and its page) lists only these.
  it('the verify options types list only what verification reads, not the 12 client options typed unknown', () => {
    type Own = 'secret' | 'mchNo' | 'appId' | 'ignoreKeys' | 'maxAgeMs' | 'maxBodyBytes' | 'now' | 'telemetry' | 'expect';
    expectTypeOf<keyof VerifyNotificationOptions>().toEqualTypeOf<Own>();
    expectTypeOf<keyof Settlements.VerifyOptions>().toEqualTypeOf<Own>();
  });
});

describe('notifications are typed', () => {
  it('verified notifications carry typed fields and the idempotency key', async () => {
    const n = await client.verifyNotification('body');
    expectTypeOf(n.amount).toBeNumber();
    expectTypeOf(n.state).toEqualTypeOf<PayOrderState>();
    expectTypeOf(n.reqTime).toBeNumber();
    expectTypeOf(n.idempotencyKey).toBeString();
    const s = await client.verifySettlementNotification('body');
    expectTypeOf(s.status).toBeNumber();
    expectTypeOf(s.idempotencyKey).toBeString();
  });

  it('the client uses its own credentials; the standalone function needs them', () => {
    client.verifyNotification('body', { expect: { amount: 1 }, ignoreKeys: ['shop'] });
    // @ts-expect-error the client's secret is used
    client.verifyNotification('body', { secret: 'other' });
    verifyNotification('body', { secret: 's', mchNo: 'M', appId: 'A' });
    // @ts-expect-error mchNo and appId are required
    verifyNotification('body', { secret: 's' });
    // @ts-expect-error expect takes only the fields it can check
    verifyNotification('body', { secret: 's', mchNo: 'M', appId: 'A', expect: { body: 'x' } });
  });
});

describe('schema input types are exact', () => {
  // The schemas of operations and notification options are built on first use: each is exported as its getter.
  it('a required text field is a string, not unknown', () => {
    expectTypeOf<z.input<ReturnType<typeof unifiedOrderParamsSchema>>['mchOrderNo']>().toEqualTypeOf<string>();
    expectTypeOf<z.input<typeof gatewayClientOptionsSchema>['secret']>().toEqualTypeOf<string>();
    expectTypeOf<z.input<ReturnType<typeof settleRequestGetParamsSchema>>['requestId']>().toEqualTypeOf<string>();
    expectTypeOf<z.input<(typeof kindOptionsSchemas)['payment']>['appId']>().toEqualTypeOf<string>();
    expectTypeOf<z.input<ReturnType<typeof queryParamsSchema>>['payOrderId']>().toEqualTypeOf<string | undefined>();
  });
});

describe('logging is typed', () => {
  it('the levels and the reconciliation outcomes are closed unions', () => {
    expectTypeOf<LogLevel>().toEqualTypeOf<'off' | 'error' | 'warn' | 'info' | 'debug'>();
    expectTypeOf<ReconcileEvent['outcome']>().toEqualTypeOf<'found' | 'absent' | 'unknown' | 'mismatch'>();
    // @ts-expect-error a wrong logLevel does not compile
    const wrong: LogLevel = 'trace';
    void wrong;
  });
});
