// What the caller gives the SDK: lone surrogates are refused before sending, the secret is never echoed,
// and hooks cannot change the wire body (issue 9, defects 6 and 7).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayClient, GatewayValidationError, verifyNotification } from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';
import { MERCHANT } from '../support/notification.js';

const CREDENTIALS = { baseUrl: 'https://gateway.test', mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9', secret: 'jeepay-test-secret-0123456789' };
const order = { mchOrderNo: 'o-1', wayCode: 'QR_CASHIER', amount: 100, currency: 'USD', subject: 'T-shirt', body: 'Blue' } as const;

afterEach(() => vi.restoreAllMocks());

describe('a lone surrogate in a request is refused, naming the field, and nothing is sent', () => {
  it.each([
    ['subject cut inside an emoji', { subject: 'Gift 🎁'.slice(0, 6) }, 'subject'],
    ['a lone low surrogate in body', { body: 'x\udc00y' }, 'body'],
    ['in an optional field', { clientIp: '\ud800' }, 'clientIp'],
  ])('%s', async (_label, change, field) => {
    const fetch = vi.fn(globalThis.fetch);
    const client = new GatewayClient({ ...CREDENTIALS, fetch });
    const error = (await client.unifiedOrder({ ...order, ...change }).catch((e: unknown) => e)) as GatewayValidationError;
    expect(error).toBeInstanceOf(GatewayValidationError);
    expect(error.issues.map((i) => i.path.join('.'))).toEqual([field]);
    expect(error.message).toMatch(/lone surrogate.*nothing was sent|nothing was sent.*lone surrogate/);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('well-formed emoji and astral text are sent and signed as the gateway does', async () => {
    const gateway = createMockGateway({ merchants: [CREDENTIALS] });
    const client = new GatewayClient({ ...CREDENTIALS, fetch: gateway.fetch });
    await expect(client.unifiedOrder({ ...order, subject: 'Gift 🎁 𝒳' })).resolves.toMatchObject({ mchOrderNo: 'o-1' });
  });
});

describe('no validation message contains the secret, whatever its type', () => {
  const secrets: unknown[] = [987654321, 12.5, true, { secret: 'nested-s3cr3t-value' }, ['arr-s3cr3t'], 98765432109876543210n, 'x'.repeat(0)];
  it.each(secrets.map((s) => [typeof s, s]))('client options: secret of type %s', (_type, secret) => {
    const error = (() => {
      try {
        new GatewayClient({ ...CREDENTIALS, secret } as never);
      } catch (e) {
        return e as GatewayValidationError;
      }
      throw new Error('accepted');
    })();
    expect(error).toBeInstanceOf(GatewayValidationError);
    expect(error.issues[0]?.path).toEqual(['secret']);
    for (const text of [error.message, JSON.stringify(error.issues)]) {
      expect(text).not.toContain('987654321');
      expect(text).not.toContain('12.5');
      expect(text).not.toContain('s3cr3t');
      expect(text).not.toContain('98765432109876543210');
      expect(text).not.toMatch(/received true/);
    }
  });

  it.each(secrets.map((s) => [typeof s, s]))('notification options: secret of type %s', async (_type, secret) => {
    const error = (await verifyNotification('a=1&sign=X', { ...MERCHANT, secret } as never).catch((e: unknown) => e)) as GatewayValidationError;
    expect(error).toBeInstanceOf(GatewayValidationError);
    expect(error.message).not.toMatch(/987654321|12\.5|s3cr3t|98765432109876543210|received true/);
  });
});

describe('hooks observe a copy of the body', () => {
  it('a hook that redacts or rewrites the body does not change what is sent', async () => {
    const gateway = createMockGateway({ merchants: [CREDENTIALS] });
    const seen: Record<string, unknown>[] = [];
    const client = new GatewayClient({
      ...CREDENTIALS,
      fetch: gateway.fetch,
      hooks: {
        onRequest: ({ body }) => {
          seen.push({ ...body });
          (body as Record<string, unknown>).subject = '***'; // throws: the copy is frozen
        },
      },
    });
    await client.unifiedOrder({ ...order, mchOrderNo: 'o-hook' });
    expect(seen[0]).toMatchObject({ subject: 'T-shirt' });
    // The gateway got the real subject, signed: the order exists with it.
    expect(gateway.order('o-hook')?.subject).toBe('T-shirt');
    expect(gateway.requests.at(-1)?.body).toMatchObject({ subject: 'T-shirt' });
  });
});
