// The log switch (issue 11 §5) against the mock gateway: what each level writes, where the level comes
// from (option, then PAYMENT_GATEWAY_LOG, then off), and what is never written: the secret, a sign, the
// string that is hashed, a body. A logger that throws changes nothing.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayApiError, GatewayClient, GatewayValidationError, GatewayWaitTimeoutError, PayOrderState, type GatewayClientOptions, type GatewayLogger, type LogLevel, type GatewayHooks } from '../../src/index.js';
import { signingString } from '../../src/protocol/signing/sign.js';
import { createMockGateway, type MockGateway } from '../../src/testing/index.js';

type ResponseEvent = GatewayHooks.ResponseEvent;

const MERCHANT = { mchNo: 'M1700000042', appId: 'app-log-1', secret: 'log-secret-7f3a9c2e5b1d' };
const ADDRESS = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
// Values that appear only in request bodies: a line that carries one has logged a body.
const BODY_SENTINELS = ['Sentinel subject 81c4', 'Sentinel body 5e07', 'https://shop.test/notify-sentinel-93', '203.0.113.77', 'sentinel-remark-62'];
const order = (mchOrderNo: string) =>
  ({ mchOrderNo, wayCode: 'QR_CASHIER', amount: 1999, currency: 'USD', subject: BODY_SENTINELS[0]!, body: BODY_SENTINELS[1]!, notifyUrl: BODY_SENTINELS[2]!, clientIp: BODY_SENTINELS[3]! }) as const;

type Method = keyof GatewayLogger;
interface Line {
  readonly method: Method;
  readonly message: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

/** A logger that records what it is given. */
function recorder(): { logger: GatewayLogger; lines: Line[]; of: (method: Method) => string[] } {
  const lines: Line[] = [];
  const write = (method: Method) => (message: string, fields: Readonly<Record<string, unknown>>) => void lines.push({ method, message, fields });
  const logger = { error: write('error'), warn: write('warn'), info: write('info'), debug: write('debug') };
  return { logger, lines, of: (method) => lines.filter((l) => l.method === method).map((l) => l.message) };
}

interface Wire {
  /** Every request body the client sent, as JSON. */
  readonly requests: Record<string, unknown>[];
  /** Every response body the gateway answered, as text. */
  readonly responses: string[];
}

function setup(options: Partial<GatewayClientOptions> = {}) {
  // A fixed start makes ids and times the same in every run, so two runs' results can be compared whole.
  const gateway = createMockGateway({ merchants: [MERCHANT], startTime: Date.UTC(2024, 6, 1) });
  const wire: Wire = { requests: [], responses: [] };
  const fetch = async (input: Request | string | URL, init?: RequestInit) => {
    if (typeof init?.body === 'string') wire.requests.push(JSON.parse(init.body) as Record<string, unknown>);
    const response = await gateway.fetch(input, init);
    wire.responses.push(await response.clone().text());
    return response;
  };
  const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch, retry: { initialDelayMs: 1, maxDelayMs: 2 }, ...options });
  return { gateway, client, wire };
}

/**
 * The six operations, a query retried after a 502, a create whose answer is lost (reconciled by lookup)
 * and a call that fails: what a level must log, and every kind of line there is.
 */
async function exercise(gateway: MockGateway, client: GatewayClient) {
  const created = await client.unifiedOrder(order('log-1'));
  const queried = await client.query({ payOrderId: created.payOrderId });
  await client.close({ mchOrderNo: 'log-1' });
  const address = await client.settleAddressApply({ requestId: 'log-addr-1', tokenId: 'TRON_USDT', address: ADDRESS, remark: BODY_SENTINELS[4] });
  gateway.approveAddress('log-addr-1');
  await client.settleRequest({ requestId: 'log-set-1', amount: 500, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', addrServerRequestId: address.serverRequestId });
  const settlement = await client.settleRequestGet({ requestId: 'log-set-1' });

  gateway.injectFault({ kind: 'html502', operation: 'query', when: 'before' });
  const retried = await client.query({ mchOrderNo: 'log-1' });

  gateway.injectFault({ kind: 'html502', operation: 'unifiedOrder', when: 'after' });
  const reconciled = await client.withResponse('unifiedOrder', order('log-2'));

  const failure = await client.query({ mchOrderNo: 'no-such-order' }).then(
    () => undefined,
    (error: unknown) => error,
  );
  return { created, queried, settlement, retried, reconciled, failure };
}

/** `value` with each mock payOrderId's process-wide sequence number, and the signs over it, left out (errors as their name, message and fields). */
function withoutSequence(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\b((?:P|SR)\d{13})\d{4,}\b/g, '$1…').replace(/"sign":"[0-9A-F]{32}"/g, '"sign":"…"');
  if (value instanceof Error) return withoutSequence({ ...value, name: value.name, message: value.message });
  if (Array.isArray(value)) return value.map(withoutSequence);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, withoutSequence(field)]));
  return value;
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('each level logs what it should and nothing more', () => {
  // Counts per method after `exercise` and a client created with verifyResponses: false.
  const expected: Record<LogLevel, Record<Method, number | 'attempts'>> = {
    off: { error: 0, warn: 0, info: 0, debug: 0 },
    error: { error: 1, warn: 0, info: 0, debug: 0 },
    warn: { error: 1, warn: 1, info: 0, debug: 0 },
    info: { error: 1, warn: 1, info: 2, debug: 0 },
    debug: { error: 1, warn: 1, info: 2, debug: 'attempts' },
  };

  it.each(Object.keys(expected) as LogLevel[])('%s', async (logLevel) => {
    const { logger, of } = recorder();
    new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, verifyResponses: false, logLevel, logger });
    const { gateway, client } = setup({ logLevel, logger });
    await exercise(gateway, client);
    // One debug line per HTTP attempt: each reached the mock (6 operations, 2 for the retry, 2 for the lost create and its lookup, 1 failure).
    expect(gateway.requests).toHaveLength(11);
    const counts = Object.fromEntries((['error', 'warn', 'info', 'debug'] as const).map((m) => [m, of(m).length]));
    const want = expected[logLevel];
    expect(counts).toEqual({ ...want, debug: want.debug === 'attempts' ? gateway.requests.length : want.debug });
  });

  it('the lines, one per event, each with its facts as fields', async () => {
    const { logger, lines, of } = recorder();
    new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, verifyResponses: false, logLevel: 'debug', logger });
    const { gateway, client } = setup({ logLevel: 'debug', logger });
    await exercise(gateway, client);

    for (const { message } of lines) expect(message).toMatch(/^\[payment-gateway-sdk\] [^\n\r]+$/);
    expect(of('warn')).toEqual(['[payment-gateway-sdk] verifyResponses is false: response signatures are not checked, so a forged or corrupted response would be accepted']);

    const debug = of('debug');
    // Each attempt line names the record it is about; a lookup says it is one.
    expect(debug[0]).toMatch(/^\[payment-gateway-sdk\] unifiedOrder attempt 1 POST \/api\/pay\/unifiedOrder mchOrderNo="log-1" -> 200 in \d+ ms, signature verified$/);
    expect(debug).toContainEqual(expect.stringMatching(/^\[payment-gateway-sdk\] settleRequestGet attempt 1 POST \/api\/channelbiz\/coinpay\/settleRequestGet requestId="log-set-1" -> 200 in \d+ ms, signature verified$/));
    expect(debug).toContainEqual(expect.stringMatching(/^\[payment-gateway-sdk\] query attempt 1 POST \/api\/pay\/query mchOrderNo="log-1" -> 502 in \d+ ms, failed: error=GatewayHttpStatusError$/));
    expect(debug).toContainEqual(expect.stringMatching(/^\[payment-gateway-sdk\] query attempt 2 POST \/api\/pay\/query mchOrderNo="log-1" -> 200 in \d+ ms, signature verified$/));
    expect(debug).toContainEqual(expect.stringMatching(/^\[payment-gateway-sdk\] query \(reconcile lookup\) attempt 2 POST \/api\/pay\/query mchOrderNo="log-2" -> 200 in \d+ ms, signature verified$/));
    const attempt = lines.find((l) => l.method === 'debug')!;
    expect(attempt.fields).toEqual({ operation: 'unifiedOrder', purpose: 'request', ids: { mchOrderNo: 'log-1' }, path: '/api/pay/unifiedOrder', attempt: 1, status: 200, durationMs: expect.any(Number), signatureVerified: true });

    expect(of('info')).toEqual([
      expect.stringMatching(/^\[payment-gateway-sdk\] query attempt 1 mchOrderNo="log-1" failed \(GatewayHttpStatusError \(HTTP 502\)\): retrying after \d+ ms$/),
      '[payment-gateway-sdk] unifiedOrder outcome was ambiguous; lookup by mchOrderNo="log-2" -> found',
    ]);
    expect(lines.filter((l) => l.method === 'info').map((l) => l.fields)).toEqual([
      { operation: 'query', purpose: 'request', ids: { mchOrderNo: 'log-1' }, attempt: 1, delayMs: expect.any(Number), reason: 'GatewayHttpStatusError (HTTP 502)' },
      { operation: 'unifiedOrder', key: { name: 'mchOrderNo', value: 'log-2' }, outcome: 'found' },
    ]);

    const [error] = lines.filter((l) => l.method === 'error');
    expect(error?.message).toMatch(/^\[payment-gateway-sdk\] query mchOrderNo="no-such-order" failed: error=GatewayApiError message="The gateway has no such order.*订单不存在"$/);
    expect(error?.fields).toEqual({ operation: 'query', ids: { mchOrderNo: 'no-such-order' }, error: 'GatewayApiError', message: expect.stringContaining('订单不存在') });
  });

  it('an attempt whose signature was not checked says so', async () => {
    const { logger, of } = recorder();
    const { client } = setup({ logLevel: 'debug', logger, verifyResponses: false });
    await client.unifiedOrder(order('log-unverified'));
    expect(of('debug')).toEqual([expect.stringMatching(/-> 200 in \d+ ms, signature not checked$/)]);
  });

  it('a failure before any attempt (invalid parameters) is logged at error', async () => {
    const { logger, lines } = recorder();
    const { client, gateway } = setup({ logLevel: 'debug', logger });
    await expect(client.query({} as never)).rejects.toBeInstanceOf(GatewayValidationError);
    expect(gateway.requests).toHaveLength(0);
    expect(lines.map((l) => [l.method, l.fields.error])).toEqual([['error', 'GatewayValidationError']]);
  });

  it("waitForOrder: a transient query failure is not an error, the wait's own timeout is", async () => {
    const { logger, lines, of } = recorder();
    const { client, gateway } = setup({ logLevel: 'info', logger, retry: { maxRetries: 0 } });
    await client.unifiedOrder(order('log-wait'));
    gateway.injectFault({ kind: 'html502', operation: 'query', when: 'before' });
    await expect(client.waitForOrder({ mchOrderNo: 'log-wait' }, { intervalMs: 1, timeout: 50 })).rejects.toBeInstanceOf(GatewayWaitTimeoutError);
    expect(lines.map((l) => l.method)).toEqual(['error']);
    expect(of('error')).toEqual([expect.stringMatching(/^\[payment-gateway-sdk\] waitForOrder mchOrderNo="log-wait" failed: error=GatewayWaitTimeoutError message=".*pending/)]);
  });

  it("waitForRefund: its refund queries are polls, not errors; the wait's own failure is one line, waitForRefund's", async () => {
    const { logger, lines, of } = recorder();
    const { client } = setup({ logLevel: 'info', logger, retry: { maxRetries: 0 } });
    await expect(client.waitForRefund({ mchRefundNo: 'log-no-refund' }, { intervalMs: 1, timeout: 50 })).rejects.toMatchObject({ reason: 'refund_not_found' });
    expect(lines.map((l) => l.method)).toEqual(['error']);
    expect(of('error')).toEqual([expect.stringMatching(/^\[payment-gateway-sdk\] waitForRefund mchRefundNo="log-no-refund" failed: error=GatewayApiError/)]);
  });

  it('reissueOrder: a refused close it handles is not an error; a paid order is one error, reissueOrder\'s', async () => {
    const { logger, lines, of } = recorder();
    const { client, gateway } = setup({ logLevel: 'error', logger });
    const recovered = async (mchOrderNo: string) => {
      gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'after' });
      const result = await client.unifiedOrder(order(mchOrderNo));
      if (!result.recovered) throw new Error('expected a recovered result');
      return result;
    };

    const failed = await recovered('log-reissue-failed');
    gateway.failOrder('log-reissue-failed');
    await expect(client.reissueOrder(failed, order('log-reissue-failed-2'))).resolves.toMatchObject({ recovered: false });
    const closed = await recovered('log-reissue-closed');
    await client.close({ payOrderId: closed.payOrderId });
    await expect(client.reissueOrder(closed, order('log-reissue-closed-2'))).resolves.toMatchObject({ recovered: false });
    // Each reissue's close was refused (the order was past closing; between them, the direct close succeeded).
    expect(gateway.requests.filter((r) => r.operation === 'close').map((r) => r.reason)).toEqual(['order_not_closable', undefined, 'order_not_closable']);
    expect(lines).toEqual([]);

    const paid = await recovered('log-reissue-paid');
    gateway.payOrder('log-reissue-paid');
    await expect(client.reissueOrder(paid, order('log-reissue-paid-2'))).rejects.toThrow(/was paid/);
    expect(of('error')).toEqual([expect.stringMatching(/^\[payment-gateway-sdk\] reissueOrder mchOrderNo="log-reissue-paid-2" failed: error=GatewayOrderPaidError message=/)]);
    expect(lines).toHaveLength(1);
  });

  it('a hostile or long gateway message stays one bounded line', async () => {
    const { logger, of } = recorder();
    const msg = `bad\nrequest\r\n[payment-gateway-sdk] query attempt 9 forged\u2028${'x'.repeat(10_000)}`;
    const fetch = async () => new Response(JSON.stringify({ code: 9999, msg }), { headers: { 'content-type': 'application/json' } });
    const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch, logLevel: 'error', logger });
    await expect(client.query({ mchOrderNo: 'o' })).rejects.toBeInstanceOf(GatewayApiError);
    const [line = ''] = of('error');
    expect(line).not.toMatch(/[\n\r\u2028]/);
    expect(line).toContain('bad\\nrequest\\r\\n[payment-gateway-sdk] query attempt 9 forged\\u2028x');
    expect(line.length).toBeLessThan(700);
  });
});

describe('where the level comes from', () => {
  const consoleSpies = () => (['log', 'error', 'warn', 'info', 'debug'] as const).map((m) => vi.spyOn(console, m).mockImplementation(() => {}));

  it('default off: the console gets nothing, even from a client with verifyResponses: false or a failing call', async () => {
    vi.stubEnv('PAYMENT_GATEWAY_LOG', undefined);
    const spies = consoleSpies();
    new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, verifyResponses: false });
    const { gateway, client } = setup();
    const { failure } = await exercise(gateway, client);
    expect(failure).toBeInstanceOf(GatewayApiError);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it('the console, when asked: one line per event and nothing else', async () => {
    const [log, error, warn, info, debug] = consoleSpies();
    const { client } = setup({ logLevel: 'warn', verifyResponses: false });
    await expect(client.query({ mchOrderNo: 'no-such-order' })).rejects.toBeInstanceOf(GatewayApiError);
    expect(warn?.mock.calls).toEqual([[expect.stringMatching(/^\[payment-gateway-sdk\] verifyResponses is false/)]]);
    expect(error?.mock.calls).toEqual([[expect.stringMatching(/^\[payment-gateway-sdk\] query mchOrderNo="no-such-order" failed: error=GatewayApiError/)]]);
    for (const quiet of [log, info, debug]) expect(quiet).not.toHaveBeenCalled();
  });

  it('PAYMENT_GATEWAY_LOG sets it when the option is absent (any case)', async () => {
    vi.stubEnv('PAYMENT_GATEWAY_LOG', 'Info');
    const { logger, lines } = recorder();
    const { gateway, client } = setup({ logger });
    await exercise(gateway, client);
    expect(lines.map((l) => l.method)).toEqual(['info', 'info', 'error']);
  });

  it('the option wins over the environment', async () => {
    vi.stubEnv('PAYMENT_GATEWAY_LOG', 'debug');
    const quiet = recorder();
    const a = setup({ logLevel: 'off', logger: quiet.logger });
    await exercise(a.gateway, a.client);
    expect(quiet.lines).toEqual([]);
    const errorsOnly = recorder();
    const b = setup({ logLevel: 'error', logger: errorsOnly.logger });
    await exercise(b.gateway, b.client);
    expect(errorsOnly.lines.map((l) => l.method)).toEqual(['error']);
  });

  it('an environment value that is not a level is ignored: off', async () => {
    vi.stubEnv('PAYMENT_GATEWAY_LOG', 'verbose');
    const { logger, lines } = recorder();
    const { gateway, client } = setup({ logger });
    await exercise(gateway, client);
    expect(lines).toEqual([]);
  });

  it('no process (browsers, edge) or an environment that throws on reading (Deno without --allow-env): off', () => {
    vi.stubEnv('PAYMENT_GATEWAY_LOG', 'warn');
    const { logger, lines } = recorder();
    const options = { baseUrl: 'https://gateway.test', ...MERCHANT, verifyResponses: false, logger };
    vi.stubGlobal('process', undefined);
    try {
      new GatewayClient(options);
    } finally {
      vi.unstubAllGlobals();
    }
    const env = Object.getOwnPropertyDescriptor(process, 'env')!;
    Object.defineProperty(process, 'env', {
      configurable: true,
      get() {
        throw new Error('Requires env access to all, run again with the --allow-env flag');
      },
    });
    try {
      new GatewayClient(options);
    } finally {
      Object.defineProperty(process, 'env', env);
    }
    expect(lines).toEqual([]);
    // With the environment readable, the same options do warn: the silence above came from reading it.
    new GatewayClient(options);
    expect(lines.map((l) => l.method)).toEqual(['warn']);
  });

  it('an invalid logLevel or logger option is refused at construction', () => {
    const construct = (extra: Record<string, unknown>) => () => new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, ...extra } as GatewayClientOptions);
    expect(construct({ logLevel: 'verbose' })).toThrow(GatewayValidationError);
    const issues = (extra: Record<string, unknown>) => {
      try {
        construct(extra)();
      } catch (error) {
        return (error as GatewayValidationError).issues;
      }
      return [];
    };
    expect(issues({ logLevel: 'verbose' })).toEqual([{ path: ['logLevel'], message: "must be one of 'off', 'error', 'warn', 'info', 'debug', received a string" }]);
    expect(issues({ logLevel: 'DEBUG' })).toHaveLength(1);
    expect(issues({ logLevel: 3 })).toHaveLength(1);
    expect(issues({ logger: { error() {}, warn() {}, info() {} } })).toEqual([{ path: ['logger'], message: 'must be an object with error, warn, info and debug methods, e.g. console' }]);
    expect(issues({ logger: null })).toHaveLength(1);
    expect(issues({ logLevel: 'debug', logger: console })).toEqual([]);
  });
});

describe('what is never logged', () => {
  it('at debug, across the six operations, a retry and a reconciliation: no secret, sign, pre-hash string or body', async () => {
    const { logger, lines } = recorder();
    const { gateway, client, wire } = setup({ logLevel: 'debug', logger });
    await exercise(gateway, client);
    const output = lines.map((l) => `${l.message} ${JSON.stringify(l.fields)}`).join('\n');
    expect(lines.length).toBeGreaterThan(10);

    const requestSigns = wire.requests.map((body) => String(body.sign));
    const responseSigns = wire.responses.flatMap((text) => /"sign"\s*:\s*"([^"]+)"/.exec(text)?.[1] ?? []);
    expect(requestSigns).toHaveLength(11);
    // Signed answers: all but the two 502s and the refusal.
    expect(responseSigns).toHaveLength(8);
    const preHash = wire.requests.map(({ sign: _sign, ...rest }) => signingString(rest as Record<string, string | number>, MERCHANT.secret));

    expect(output).not.toContain(MERCHANT.secret);
    for (const sign of [...requestSigns, ...responseSigns]) expect(output).not.toContain(sign);
    for (const text of preHash) {
      expect(output).not.toContain(text);
      expect(output).not.toContain(text.slice(0, text.indexOf('key=')));
    }
    for (const sentinel of BODY_SENTINELS) expect(output).not.toContain(sentinel);
    expect(output).not.toMatch(/"sign"|\bsign=/);
  });
});

describe('a logger that throws changes nothing', () => {
  it('every result and every error is what it would be without logging; hooks still run', async () => {
    const broken: GatewayLogger = {
      error: () => {
        throw new Error('log sink down');
      },
      warn: () => {
        throw new Error('log sink down');
      },
      info: () => {
        throw new Error('log sink down');
      },
      debug: () => {
        throw new Error('log sink down');
      },
    };
    const seen: ResponseEvent[] = [];
    expect(() => new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, verifyResponses: false, logLevel: 'debug', logger: broken })).not.toThrow();
    const logged = setup({ logLevel: 'debug', logger: broken, hooks: { onResponse: (e) => seen.push(e) } });
    const plain = setup();
    const withBroken = await exercise(logged.gateway, logged.client);
    const without = await exercise(plain.gateway, plain.client);

    expect(withBroken.retried).toMatchObject({ mchOrderNo: 'log-1', state: PayOrderState.Closed });
    expect(withBroken.reconciled).toMatchObject({ reconciled: true, data: { mchOrderNo: 'log-2' } });
    expect(withBroken.failure).toBeInstanceOf(GatewayApiError);
    expect(withBroken.failure).toMatchObject({ reason: 'order_not_found' });
    // Two mocks of one process never hand out one payOrderId or settlement serverRequestId: compared with the ids numbered apart.
    expect(withoutSequence(withBroken)).toEqual(withoutSequence(without));
    expect(seen).toHaveLength(logged.gateway.requests.length);
  });

  it("a merchant's hook that throws does not stop the log line, nor the log the merchant's hook", async () => {
    const { logger, of } = recorder();
    const merchantSaw: string[] = [];
    const { client } = setup({
      logLevel: 'debug',
      logger: { ...logger, debug: (m, f) => { logger.debug(m, f); throw new Error('sink down'); } },
      hooks: {
        onResponse: (e) => {
          merchantSaw.push(e.operation);
          throw new Error('merchant hook bug');
        },
      },
    });
    await client.unifiedOrder(order('log-hooks'));
    expect(merchantSaw).toEqual(['unifiedOrder']);
    expect(of('debug')).toHaveLength(1);
  });

  it('an async logger or hook that rejects changes nothing and leaves no unhandled rejection', async () => {
    const rejected: string[] = [];
    const rejecting = (name: string) => async () => {
      rejected.push(name);
      throw new Error('log sink down');
    };
    const unhandled = await unhandledRejectionsOf(async () => {
      const { client } = setup({
        logLevel: 'debug',
        logger: { error: rejecting('error'), warn: rejecting('warn'), info: rejecting('info'), debug: rejecting('debug') },
        hooks: { onRequest: rejecting('onRequest'), onResponse: rejecting('onResponse'), onRetry: rejecting('onRetry'), onReconcile: rejecting('onReconcile') },
      });
      await expect(client.unifiedOrder(order('log-async'))).resolves.toMatchObject({ mchOrderNo: 'log-async' });
      await expect(client.query({ mchOrderNo: 'log-missing' })).rejects.toBeInstanceOf(GatewayApiError);
    });
    expect(rejected).toEqual(expect.arrayContaining(['onRequest', 'onResponse', 'debug', 'error'])); // each kind did reject
    expect(unhandled).toEqual([]);
  });
});

/**
 * Runs `body`, then returns the promises it left rejected with no handler. Node reports them in the order
 * they were rejected, so once it reports one rejected after `body`, it has reported all of `body`'s: the
 * wait is for that report, not for a time.
 */
async function unhandledRejectionsOf(body: () => Promise<void>): Promise<unknown[]> {
  const others = process.listeners('unhandledRejection');
  const reported: unknown[] = [];
  const marker = Symbol('rejected after the body');
  const markerReported = Promise.withResolvers<void>();
  const listener = (reason: unknown) => (reason === marker ? markerReported.resolve() : void reported.push(reason));
  // Vitest's own listener would fail the run on the marker: it is set aside meanwhile.
  process.removeAllListeners('unhandledRejection');
  process.on('unhandledRejection', listener);
  try {
    await body();
    void Promise.reject(marker);
    await markerReported.promise;
    return reported;
  } finally {
    process.off('unhandledRejection', listener);
    for (const other of others) process.on('unhandledRejection', other);
  }
}
