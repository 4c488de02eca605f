// createMockGateway's options and its server's lifecycle.
import { describe, expect, it } from 'vitest';
import { GatewayValidationError } from '../../src/errors/index.js';
import { createMockGateway } from '../../src/testing/index.js';
import { MERCHANT, START } from '../support/raw-gateway.js';

const newGateway = () => createMockGateway({ merchants: [MERCHANT], startTime: START });

describe('createMockGateway options', () => {
  it('rejects missing or malformed merchants and a bad startTime', () => {
    expect(() => createMockGateway({ merchants: [] })).toThrow(/at least one merchant/);
    expect(() => createMockGateway({ merchants: [{ mchNo: 'M', appId: 'a', secret: '' }] })).toThrow(/merchants\.0\.secret: must not be empty/);
    expect(() => createMockGateway({ merchants: [MERCHANT, { ...MERCHANT, mchNo: 'M2' }] })).toThrow(/merchants\.1\.appId: appId app-0001 is configured twice/);
    expect(() => createMockGateway({ merchants: [MERCHANT], startTime: 1_700_000_000 })).toThrow(/startTime: must be milliseconds since the epoch \(13 digits\)/);
    expect(() => createMockGateway(undefined as never)).toThrow(GatewayValidationError);
  });

  it('names an unknown option and lists the known ones, and never echoes a secret', () => {
    expect(() => createMockGateway({ merchants: [MERCHANT], speed: 'real' } as never)).toThrow(/unknown option 'speed'\. The options are: merchants, startTime, clock,/);
    expect(() => createMockGateway({ merchants: [MERCHANT], clok: 'real' } as never)).toThrow(/unknown option 'clok'\. Did you mean 'clock'\?/);
    expect(() => createMockGateway({ merchants: [MERCHANT], clock: 'fast' as never })).toThrow(/clock: must be 'manual' or 'real'/);
    expect(() => createMockGateway({ merchants: [MERCHANT], notifications: { forwardTo: 'ftp://x' } })).toThrow(/notifications\.forwardTo: must be an absolute http\(s\) URL, e\.g\. http:\/\/127\.0\.0\.1:3000\/notify/);
    expect(() => createMockGateway({ merchants: [MERCHANT], notifications: { forwardTo: '' } })).toThrow(/notifications\.forwardTo: must not be empty, e\.g\. http:\/\/127\.0\.0\.1:3000\/notify$/);
    expect(() => createMockGateway({ merchants: [MERCHANT], baseUrl: 'gateway.test' })).toThrow(/baseUrl: must be an absolute http\(s\) URL, e\.g\. https:\/\/gateway\.test$/);
    expect(() => createMockGateway({ merchants: [MERCHANT], baseUrl: 'ws://gateway.test' })).toThrow(/baseUrl: must be an absolute http\(s\) URL/);
    expect(() => createMockGateway({ merchants: [MERCHANT], baseUrl: '' })).toThrow(/baseUrl: must not be empty, e\.g\. https:\/\/gateway\.test$/);
    expect(() => createMockGateway({ merchants: [MERCHANT], log: 'console' as never })).toThrow(/log: must be a function/);
    const secret = { mchNo: 'M', appId: 'a', secret: 12345678 as never };
    expect(() => createMockGateway({ merchants: [secret] })).toThrow(/merchants\.0\.secret: must be a string \(the value is not shown\)/);
  });

  it('listens on 127.0.0.1 with an ephemeral port, and stops', async () => {
    const gateway = newGateway();
    const server = await gateway.listen();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.port).toBeGreaterThan(0);
    expect((await fetch(`${server.url}/nope`, { method: 'POST' })).status).toBe(404);
    await server.close();
    await expect(fetch(`${server.url}/nope`, { method: 'POST' })).rejects.toThrow();
  });

  it('on IPv6 loopback (::1): url and publicUrl have the address in brackets once, and serve the pages there', async () => {
    const gateway = newGateway();
    const server = await gateway.listen({ host: '::1' });
    try {
      expect(server.url).toBe(`http://[::1]:${server.port}`);
      expect(server.publicUrl).toBe(server.url);
      const { orders } = (await (await fetch(`${server.url}/_mock/state`)).json()) as { orders: unknown[] };
      expect(orders).toEqual([]);
    } finally {
      await server.close();
    }
    const shared = await gateway.listen({ publicUrl: 'https://Mock.Example' });
    try {
      expect(shared).toMatchObject({ url: `http://127.0.0.1:${shared.port}`, publicUrl: 'https://mock.example' });
    } finally {
      await shared.close();
    }
  });
});
