// Issue 38: division through the public client, against a scripted gateway (a fetch that counts what it is sent).
// Bind and exec are creates the gateway can neither tell a repeat of nor look up: whatever fails once the request
// may have arrived, each is sent exactly once and ends in an unknown outcome that says where to look; exec's state 3
// is accepted; a list that would pay nobody, twice or more than the order is refused before sending; the signed
// `receivers` is the exact JSON sent; shares stay decimal strings; the receiver's account reaches no message or log.
import { describe, expect, it } from 'vitest';
import {
  Divisions,
  GatewayApiError,
  GatewayClient,
  GatewayOutcomeUnknownError,
  GatewayResponseMismatchError,
  GatewayValidationError,
  type GatewayLogger,
} from '../../src/index.js';
import { openTelemetry } from '../../src/opentelemetry.js';
import { md5 } from '../support/md5.js';
import { inMemoryOpenTelemetry } from '../telemetry/support.js';
import { rejection } from '../support/rejection.js';
import { CREDENTIALS, FIXED_NOW, Raw, SECRET, signedEnvelope, toJsonText } from '../support/wire.js';

const ACCOUNT = 'o8xYz0123456789';
const NAME = 'Li Lei Zhang';

/** One scripted reply: a response, or a failure of the network. */
type Reply = Response | 'reset' | 'refused' | 'stall';

/** A client whose fetch replies from `replies` in turn (the last one again), recording every body it is sent. */
function scripted(replies: readonly Reply[], options: { timeout?: number; maxRetries?: number } = {}) {
  const sent: Record<string, unknown>[] = [];
  const lines: string[] = [];
  const record = (line: string, fields: Readonly<Record<string, unknown>>) => void lines.push(line, JSON.stringify(fields));
  const logger: GatewayLogger = { error: record, warn: record, info: record, debug: record };
  const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    sent.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
    const reply = replies[Math.min(sent.length, replies.length) - 1]!;
    if (reply === 'reset') throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
    if (reply === 'refused') throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    if (reply === 'stall') {
      return new Promise((_, reject) => {
        const signal = init?.signal;
        signal?.addEventListener('abort', () => reject(signal.reason));
      });
    }
    return reply.clone();
  };
  const client = new GatewayClient({
    ...CREDENTIALS,
    fetch,
    now: () => FIXED_NOW,
    timeout: options.timeout ?? 2_000,
    retry: { maxRetries: options.maxRetries ?? 3, initialDelayMs: 1, maxDelayMs: 2 },
    logLevel: 'debug',
    logger,
  });
  return { client, sent, lines };
}

const json = (body: string, status = 200, headers: Record<string, string> = {}) => new Response(body, { status, headers: { 'content-type': 'application/json', ...headers } });
const refusal = (msg: string) => json(JSON.stringify({ code: 9999, msg }));

const bindParams: Divisions.BindParams = {
  ifCode: 'wxpay', receiverGroupId: 100001, accType: Divisions.AccountType.Person, accNo: ACCOUNT, accName: NAME, relationType: 'PARTNER', divisionProfit: '0.10',
};
/** The reference's bind answer: the record made, copied (shares as JSON numbers with the scale sent). */
const bindAnswer = (extra: Record<string, unknown> = {}) => withoutUndefined({
  receiverId: 800001, receiverAlias: ACCOUNT, receiverGroupId: 100001, mchNo: CREDENTIALS.mchNo, appId: CREDENTIALS.appId, ifCode: 'wxpay', accType: 0,
  accNo: ACCOUNT, accName: NAME, relationType: 'PARTNER', relationTypeName: '合作伙伴', divisionProfit: new Raw('0.10'), bindSuccessTime: FIXED_NOW, bindState: 1, ...extra,
});
function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
const execParams: Divisions.ExecParams = { mchOrderNo: 'order-1001', receivers: [{ receiverId: 800004, divisionProfit: '0.1' }, { receiverId: 800005, divisionProfit: '0.05' }] };

const CALLS = {
  bindDivisionReceiver: (client: GatewayClient) => client.bindDivisionReceiver(bindParams),
  executeDivision: (client: GatewayClient) => client.executeDivision(execParams),
} as const;
const LOOK = { bindDivisionReceiver: /receiver list of group 100001 in the merchant portal/, executeDivision: /division records of order mchOrderNo 'order-1001' in the merchant portal/ } as const;

/** The call refused with `msg` rejects with the gateway's refusal of `reason`, after one request, the account nowhere in it. */
async function expectRefusedOnce(operation: keyof typeof CALLS, msg: string, reason: string): Promise<void> {
  const { client, sent } = scripted([refusal(msg)]);
  const error = await rejection(CALLS[operation](client));
  expect(error).toBeInstanceOf(GatewayApiError);
  expect((error as GatewayApiError).reason).toBe(reason);
  expect(error.message).not.toContain(ACCOUNT);
  expect(sent).toHaveLength(1);
}

// Every way a request may arrive and its answer be lost or untrusted: none may lead to a second request.
const AFTER_SENDING: readonly (readonly [string, Reply])[] = [
  ['a connection reset', 'reset'],
  ['a 502 page', new Response('<html>502 Bad Gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } })],
  ['a 503 with Retry-After', json('{}', 503, { 'retry-after': '0' })],
  ['an unsigned 408', json('{}', 408)],
  ['an unsigned 429 with Retry-After', json('{}', 429, { 'retry-after': '0' })],
  ['a stall past the timeout', 'stall'],
  ['系统异常', refusal('系统异常')],
  ['a success with a wrong sign', json(JSON.stringify({ code: 0, msg: 'SUCCESS', data: { state: 1 }, sign: 'F'.repeat(32) }))],
  ['an empty body', json('')],
];

describe('bind and exec are sent once, whatever fails after sending', () => {
  for (const operation of ['bindDivisionReceiver', 'executeDivision'] as const) {
    it.each(AFTER_SENDING)(`${operation} after %s: one request, an unknown outcome naming where to look`, async (_, reply) => {
      const { client, sent, lines } = scripted([reply], { timeout: 50 });
      const error = await rejection(CALLS[operation](client));
      expect(error).toBeInstanceOf(GatewayOutcomeUnknownError);
      expect(sent).toHaveLength(1);
      expect(error.message).toMatch(LOOK[operation]);
      expect(error.message).toMatch(/never/);
      expect((error as GatewayOutcomeUnknownError).key).toEqual(operation === 'executeDivision' ? { name: 'mchOrderNo', value: 'order-1001' } : { name: 'receiverGroupId', value: '100001' });
      // The account is personal data: masked in the message, nowhere in the log.
      expect(error.message).not.toContain(ACCOUNT);
      expect(lines.join('\n')).not.toContain(ACCOUNT);
      expect(lines.join('\n')).not.toContain(NAME);
    });
  }

  it('a connection refused before anything was sent is the one failure tried again (nothing reached the gateway)', async () => {
    const { client, sent } = scripted(['refused', json(signedEnvelope({ state: 1 }))]);
    const division = await client.executeDivision(execParams);
    expect(division.state).toBe(Divisions.ExecState.Succeeded);
    expect(sent).toHaveLength(2);
  });
});

describe('executeDivision answers', () => {
  it.each([
    [1, 'Succeeded'],
    [2, 'Failed'],
    [3, 'Accepted'],
  ] as const)('state %i is %s, resolved, never an error', async (state, name) => {
    const { client, sent } = scripted([json(signedEnvelope({ state, channelBatchOrderId: '4200001', ...(state === 2 && { errCode: 'NO_AUTH', errMsg: '无权限' }) }))]);
    const division = await client.executeDivision(execParams);
    expect(division.state).toBe(Divisions.ExecState[name]);
    expect(Divisions.execStateName(division.state)).toBe(name);
    expect(sent).toHaveLength(1);
  });

  it('a state the SDK does not know is a contract error, not a success', async () => {
    const { client } = scripted([json(signedEnvelope({ state: 4 }))]);
    const error = await rejection(client.executeDivision(execParams));
    expect(error.name).toBe('GatewayResponseContractError');
    expect(error.message).toMatch(/division records of order mchOrderNo 'order-1001'/);
  });

  it('refusals decided before dividing are the gateway’s, with the reason; this call divided nothing', async () => {
    for (const [msg, reason] of [
      ['当前订单状态不支持分账', 'division_not_allowed'],
      ['订单不存在', 'order_not_found'],
      ['分账[用户]中包含不存在或渠道不可用账号，请更改', 'receiver_unavailable'],
      ['分账[账号组]中包含不存在或不可用组，请更改', 'receiver_group_unavailable'],
      ['分账用户receiverId=[800004],receiverGroupId=[null] 分账比例不得高于100%', 'division_profit_invalid'],
      ['更新支付订单为分账处理中异常', 'division_contended'],
    ] as const) {
      await expectRefusedOnce('executeDivision', msg, reason);
    }
  });
});

describe('executeDivision refuses before sending', () => {
  const refused: readonly (readonly [string, unknown, RegExp])[] = [
    ['an empty list', { mchOrderNo: 'o', receivers: [] }, /release the whole divisible amount to you.*releaseAllToMerchant: true/],
    ['the same receiverId twice', { mchOrderNo: 'o', receivers: [{ receiverId: 800004 }, { receiverId: 800004 }] }, /same receiverId as element 0: the gateway would pay it twice/],
    ['the same group twice', { mchOrderNo: 'o', receivers: [{ receiverGroupId: 100001 }, { receiverGroupId: 100001 }] }, /same receiverGroupId/],
    ['shares summing over 1', { mchOrderNo: 'o', receivers: [{ receiverId: 1, divisionProfit: '0.5' }, { receiverId: 2, divisionProfit: '0.500001' }] }, /sum to more than 1/],
    ['a share of "5"', { mchOrderNo: 'o', receivers: [{ receiverId: 1, divisionProfit: '5' }] }, /at most 1/],
    ['a share of "0"', { mchOrderNo: 'o', receivers: [{ receiverId: 1, divisionProfit: '0' }] }, /above 0/],
    ['a share of "-0.1"', { mchOrderNo: 'o', receivers: [{ receiverId: 1, divisionProfit: '-0.1' }] }, /decimal fraction/],
    ['a share of "0.1234567"', { mchOrderNo: 'o', receivers: [{ receiverId: 1, divisionProfit: '0.1234567' }] }, /at most 6 decimals/],
    ['a share as a number', { mchOrderNo: 'o', receivers: [{ receiverId: 1, divisionProfit: 0.1 }] }, /decimal string/],
    ['an element with both ids', { mchOrderNo: 'o', receivers: [{ receiverId: 1, receiverGroupId: 2 }] }, /exactly one of them/],
    ['both order ids', { payOrderId: 'P1', mchOrderNo: 'o', useSysAutoDivisionReceivers: true }, /not both/],
    ['no way to divide', { mchOrderNo: 'o' }, /give receivers, useSysAutoDivisionReceivers: true, or releaseAllToMerchant: true/],
    ['receivers with the auto group', { mchOrderNo: 'o', receivers: [{ receiverId: 1 }], useSysAutoDivisionReceivers: true }, /alone/],
    ['receivers with releasing all', { mchOrderNo: 'o', receivers: [{ receiverId: 1 }], releaseAllToMerchant: true }, /divides to nobody/],
  ];

  it.each(refused)('%s', async (_, params, message) => {
    const { client, sent } = scripted([json(signedEnvelope({ state: 1 }))]);
    const error = await rejection(client.executeDivision(params as Divisions.ExecParams));
    expect(error).toBeInstanceOf(GatewayValidationError);
    expect((error as GatewayValidationError).issues.map((issue) => issue.message).join('\n')).toMatch(message);
    expect(sent).toHaveLength(0);
  });

  it('sums exactly: shares of 0.1 summing to 1 are taken (floats would make it 0.9999999999999999)', async () => {
    const { client, sent } = scripted([json(signedEnvelope({ state: 1 }))]);
    const receivers = Array.from({ length: 10 }, (_, index) => ({ receiverId: 800001 + index, divisionProfit: '0.1' }));
    await client.executeDivision({ mchOrderNo: 'o', receivers });
    expect(sent).toHaveLength(1);
    const over = [...receivers, { receiverId: 900000, divisionProfit: '0.000001' }];
    await expect(client.executeDivision({ mchOrderNo: 'o', receivers: over })).rejects.toBeInstanceOf(GatewayValidationError);
    expect(sent).toHaveLength(1);
  });
});

describe('what executeDivision sends', () => {
  it('receivers is the strict JSON text signed and sent; the signature computed independently matches', async () => {
    const { client, sent } = scripted([json(signedEnvelope({ state: 3 }))]);
    await client.executeDivision({ payOrderId: 'P1', receivers: [{ divisionProfit: '0.1', receiverId: 800004 }, { receiverGroupId: 100001, divisionProfit: '0.05' }, { receiverId: 800006 }] });
    const body = sent[0]!;
    expect(body.receivers).toBe('[{"receiverId":800004,"divisionProfit":"0.1"},{"receiverGroupId":100001,"divisionProfit":"0.05"},{"receiverId":800006}]');
    expect(body.useSysAutoDivisionReceivers).toBe(0);
    expect(Object.keys(body).sort()).toEqual(['appId', 'mchNo', 'payOrderId', 'receivers', 'reqTime', 'sign', 'signType', 'useSysAutoDivisionReceivers', 'version']);
    // The reference's rule, written here: the non-empty members sorted by name, name=value joined by &, then &key=.
    const text = Object.keys(body).filter((key) => key !== 'sign' && body[key] !== '').sort().map((key) => `${key}=${String(body[key])}`).join('&');
    expect(text).toContain('receivers=[{"receiverId":800004,"divisionProfit":"0.1"},');
    expect(body.sign).toBe(md5(`${text}&key=${SECRET}`));
  });

  it('releaseAllToMerchant sends an empty list with 0; the auto group sends 1 and no list', async () => {
    const { client, sent } = scripted([json(signedEnvelope({ state: 1 }))]);
    await client.executeDivision({ mchOrderNo: 'o', releaseAllToMerchant: true });
    await client.executeDivision({ mchOrderNo: 'o', releaseAllToMerchant: true, receivers: [] });
    await client.executeDivision({ mchOrderNo: 'o', useSysAutoDivisionReceivers: true });
    expect(sent.map(({ receivers, useSysAutoDivisionReceivers, releaseAllToMerchant }) => ({ receivers, useSysAutoDivisionReceivers, releaseAllToMerchant }))).toEqual([
      { receivers: '[]', useSysAutoDivisionReceivers: 0, releaseAllToMerchant: undefined },
      { receivers: '[]', useSysAutoDivisionReceivers: 0, releaseAllToMerchant: undefined },
      { receivers: undefined, useSysAutoDivisionReceivers: 1, releaseAllToMerchant: undefined },
    ]);
  });

  it('warns, before sending, when receivers are named by id and by group (an account in both is paid twice)', async () => {
    const { client, sent, lines } = scripted([json(signedEnvelope({ state: 3 }))]);
    await client.executeDivision({ mchOrderNo: 'order-7', receivers: [{ receiverId: 800004 }, { receiverGroupId: 100001 }] });
    expect(sent).toHaveLength(1);
    expect(lines.find((line) => line.includes('paid twice'))).toMatch(/^\[payment-gateway-sdk\] executeDivision mchOrderNo="order-7": receivers names/);
    const quiet = scripted([json(signedEnvelope({ state: 3 }))]);
    await quiet.client.executeDivision({ mchOrderNo: 'order-8', receivers: [{ receiverId: 800004 }, { receiverId: 800005 }] });
    expect(quiet.lines.some((line) => line.includes('paid twice'))).toBe(false);
  });
});

describe('bindDivisionReceiver answers', () => {
  it('a bound receiver: its id, the share as the exact decimal string received ("0.10")', async () => {
    const { client, sent } = scripted([json(signedEnvelope(bindAnswer()))]);
    const bound = await client.bindDivisionReceiver(bindParams);
    expect(bound.bindState).toBe(Divisions.BindState.Bound);
    if (bound.bindState !== Divisions.BindState.Bound) throw new Error('unreachable');
    expect(bound.receiverId).toBe(800001);
    expect(bound.divisionProfit).toBe('0.10');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ receiverGroupId: 100001, accType: 0, divisionProfit: '0.10', relationType: 'PARTNER' });
  });

  it('bindState 0: resolved as refused, nothing stored (no receiverId): the one outcome safe to bind again', async () => {
    const { client } = scripted([json(signedEnvelope(bindAnswer({ receiverId: undefined, bindSuccessTime: undefined, bindState: 0, errCode: 'PARAM_ERROR', errMsg: '姓名不匹配' })))]);
    const refused = await client.bindDivisionReceiver(bindParams);
    expect(refused).toMatchObject({ bindState: Divisions.BindState.Refused, errCode: 'PARAM_ERROR' });
    expect(refused.receiverId).toBeUndefined();
  });

  it.each([
    ['another group', { receiverGroupId: 100002 }],
    ['another account', { accNo: 'o8xYz9999999999' }],
    ['another share', { divisionProfit: new Raw('0.1') }],
    ['another account type', { accType: 1 }],
    ['another channel', { ifCode: 'alipay' }],
    ['another relation', { relationType: 'STAFF' }],
    ['another application', { appId: 'app-other' }],
  ])('an answer with %s is not this bind’s: an unknown outcome, sent once, the account masked', async (_, change) => {
    const { client, sent } = scripted([json(signedEnvelope(bindAnswer(change)))]);
    const error = await rejection(client.bindDivisionReceiver(bindParams));
    expect(error).toBeInstanceOf(GatewayOutcomeUnknownError);
    expect(error.cause).toBeInstanceOf(GatewayResponseMismatchError);
    expect(sent).toHaveLength(1);
    for (const message of [error.message, (error.cause as Error).message, JSON.stringify(error.cause)]) {
      expect(message).not.toContain(ACCOUNT);
      expect(message).not.toContain('o8xYz9999999999');
    }
  });

  it('a bound answer without receiverId, or a refused one with it, is a contract error', async () => {
    for (const change of [{ receiverId: undefined }, { bindState: 0 }]) {
      const { client, sent } = scripted([json(signedEnvelope(bindAnswer(change)))]);
      const error = await rejection(client.bindDivisionReceiver(bindParams));
      expect(error.name).toBe('GatewayResponseContractError');
      expect(error.message).toMatch(/receiver list of group 100001/);
      expect(sent).toHaveLength(1);
    }
  });

  it('refusals decided before binding are the gateway’s (nothing bound)', async () => {
    for (const [msg, reason] of [
      ['商户分账账号组不存在，请检查或进入商户平台进行创建操作', 'receiver_group_not_found'],
      ['商户应用的支付配置不存在或已关闭', 'channel_not_configured'],
      ['系统不支持该分账接口', 'division_channel_unsupported'],
      ['账号分账比例有误, 配置值为[0.0001~1.0000]', 'division_profit_invalid'],
      ['分账接收账号类型设置有误', 'account_type_invalid'],
      ['组ID不能为空， 若不存在请先登录商户平台进行创建操作', 'parameter_invalid'],
    ] as const) {
      await expectRefusedOnce('bindDivisionReceiver', msg, reason);
    }
  });
});

describe('bindDivisionReceiver refuses before sending', () => {
  it.each([
    ['a share of "5" (the reference would store it)', { divisionProfit: '5' }, /at most 1/],
    ['a share of "0"', { divisionProfit: '0' }, /above 0/],
    ['a share with 7 decimals', { divisionProfit: '0.1234567' }, /at most 6 decimals/],
    ['a share with a leading zero ("00.5", "01": a Java BigDecimal reads them, the message says what is wrong)', { divisionProfit: '00.5' }, /without leading zeros/],
    ['a share of "01"', { divisionProfit: '01' }, /without leading zeros/],
    ['a share with an exponent', { divisionProfit: '1e-1' }, /without sign or exponent/],
    ['a share in full-width digits', { divisionProfit: '０.５' }, /without sign or exponent/],
    ['CUSTOM without relationTypeName', { relationType: 'CUSTOM' }, /required with relationType CUSTOM/],
    ['a known type with relationTypeName', { relationTypeName: 'Partner' }, /CUSTOM only/],
    ['an account longer than its column (bound, then not stored)', { accNo: 'o'.repeat(51) }, /at most 50 characters/],
    ['a name longer than its column', { accName: '李'.repeat(31) }, /at most 30 characters/],
    ['an account type 2', { accType: 2 }, /0 \(a person\) or 1/],
  ])('%s', async (_, change, message) => {
    const { client, sent } = scripted([json(signedEnvelope(bindAnswer()))]);
    const error = await rejection(client.bindDivisionReceiver({ ...bindParams, ...change } as Divisions.BindParams));
    expect(error).toBeInstanceOf(GatewayValidationError);
    expect((error as GatewayValidationError).issues.map((issue) => issue.message).join('\n')).toMatch(message);
    expect(error.message).not.toContain(ACCOUNT);
    expect(JSON.stringify(error)).not.toContain(NAME);
    expect(sent).toHaveLength(0);
  });
});

describe('telemetry', () => {
  it('a bind span names the receiver group, and an exec span the order: never the account or its holder', async () => {
    const otel = inMemoryOpenTelemetry();
    const replies = [json(signedEnvelope(bindAnswer())), json(signedEnvelope({ state: 3 }))];
    let turn = 0;
    const client = new GatewayClient({ ...CREDENTIALS, now: () => FIXED_NOW, fetch: async () => replies[turn++]!, telemetry: openTelemetry(otel) });
    await client.bindDivisionReceiver(bindParams);
    await client.executeDivision(execParams);
    const [bind, exec] = otel.spans().filter((span) => span.name.startsWith('payment_gateway.'));
    expect(bind?.attributes).toEqual({ 'payment_gateway.operation': 'bindDivisionReceiver', 'payment_gateway.receiver_group_id': '100001' });
    expect(exec?.attributes).toEqual({ 'payment_gateway.operation': 'executeDivision', 'payment_gateway.mch_order_no': 'order-1001' });
    const recorded = JSON.stringify(otel.spans().map((span) => [span.name, span.attributes, span.events]));
    for (const personal of [ACCOUNT, NAME]) expect(recorded).not.toContain(personal);
  });
});

// The bodies above are built by signedEnvelope; this keeps its writing of a raw share honest.
it('the scripted gateway writes a share as a JSON number with its scale', () => {
  expect(toJsonText({ divisionProfit: new Raw('0.10') })).toBe('{"divisionProfit":0.10}');
});
