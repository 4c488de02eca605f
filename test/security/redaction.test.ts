import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayClient, GatewayError } from '../../src/index.js';
import { CREDENTIALS, NO_RETRY, SECRET, signedEnvelope, useWire } from '../support/wire.js';

const wire = useWire();
const SECRET_FRAGMENT = SECRET.slice(0, 12);

function expectNoSecret(value: unknown) {
  const views = [inspect(value, { depth: 20, showHidden: true }), String(value), JSON.stringify(value) ?? ''];
  if (value instanceof Error) views.push(value.message, value.stack ?? '', inspect(value.cause, { depth: 20, showHidden: true }));
  for (const view of views) expect(view).not.toContain(SECRET_FRAGMENT);
}

afterEach(() => vi.restoreAllMocks());

describe('the secret never leaks', () => {
  it('not through util.inspect, JSON.stringify or String of the client', () => {
    const client = new GatewayClient({ ...CREDENTIALS, ...NO_RETRY });
    expectNoSecret(client);
    expect(JSON.parse(JSON.stringify(client))).toMatchObject({ mchNo: CREDENTIALS.mchNo, secret: '[redacted]' });
    expect(Object.keys(client)).not.toContain('secret');
  });

  it('not through any error of a failing call, nor through console output', async () => {
    const logged = ['log', 'info', 'warn', 'error', 'debug'].map((m) => vi.spyOn(console, m as 'log').mockImplementation(() => {}));
    const client = new GatewayClient({ ...CREDENTIALS, ...NO_RETRY });
    const failures: Array<() => Promise<unknown>> = [];
    wire.replyWith(signedEnvelope({ payOrderId: 'P1' }, 'wrong-secret'));
    failures.push(() => client.query({ payOrderId: 'P1' }));
    const errors: unknown[] = [];
    for (const call of failures) errors.push(await call().catch((e: unknown) => e));
    wire.replyWith(JSON.stringify({ code: 9999, msg: '验签失败' }));
    errors.push(await client.query({ payOrderId: 'P1' }).catch((e: unknown) => e));
    wire.replyWith('<html>oops</html>', 502);
    errors.push(await client.query({ payOrderId: 'P1' }).catch((e: unknown) => e));
    errors.push(await client.unifiedOrder({ mchOrderNo: '' } as never).catch((e: unknown) => e));
    errors.push(await new GatewayClient({ ...CREDENTIALS, ...NO_RETRY, fetch: async () => { throw new TypeError('fetch failed'); } }).query({ payOrderId: 'P' }).catch((e: unknown) => e));
    expect(errors).toHaveLength(5);
    for (const error of errors) {
      expect(error).toBeInstanceOf(GatewayError);
      expectNoSecret(error);
    }
    for (const spy of logged) expect(spy).not.toHaveBeenCalled();
  });

  it('not through option-validation errors, even when the secret is misplaced', () => {
    const attempts = [
      () => new GatewayClient({ ...CREDENTIALS, ...NO_RETRY, secret: 42 } as never),
      () => new GatewayClient({ ...CREDENTIALS, ...NO_RETRY, mchNo: '', apiKey: SECRET } as never),
      () => new GatewayClient({ ...CREDENTIALS, ...NO_RETRY, baseUrl: SECRET }),
    ];
    for (const attempt of attempts) {
      const error = (() => { try { attempt(); } catch (e) { return e; } })();
      expect(error).toBeInstanceOf(GatewayError);
      expectNoSecret(error);
    }
  });
});
