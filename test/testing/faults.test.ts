// Fault injection on the mock itself, seen with plain fetch (no client).
import { describe, expect, it } from 'vitest';
import { GatewayValidationError } from '../../src/errors/index.js';
import { createMockGateway } from '../../src/testing/index.js';
import { common, expectedSign, MERCHANT, orderFields, ORIGIN, PATHS, post, signed, START } from '../support/raw-gateway.js';

const newGateway = () => createMockGateway({ merchants: [MERCHANT], startTime: START });
const orderBody = (mchOrderNo = 'order-1') => JSON.stringify(signed({ ...common(), ...orderFields({ mchOrderNo }) }));
const orderRequest = (base = ORIGIN, mchOrderNo = 'order-1') =>
  new Request(`${base}${PATHS.unifiedOrder}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: orderBody(mchOrderNo) });

describe('injected faults', () => {
  it('wrongSign: a well-formed success envelope whose sign does not match the merchant secret', async () => {
    const gateway = newGateway();
    gateway.injectFault({ kind: 'wrongSign' });
    const answer = await post(gateway, PATHS.unifiedOrder, orderBody());
    expect(answer.json).toMatchObject({ code: 200, data: { mchOrderNo: 'order-1' }, sign: expect.stringMatching(/^[0-9A-F]{32}$/) });
    expect(answer.json.sign).not.toBe(expectedSign(answer.json.data ?? {}));
  });

  it('html502 and emptyBody', async () => {
    const gateway = newGateway();
    gateway.injectFault({ kind: 'html502', when: 'before' });
    const html = await gateway.fetch(orderRequest());
    expect(html.status).toBe(502);
    expect(html.headers.get('content-type')).toBe('text/html');
    expect(await html.text()).toContain('<title>502 Bad Gateway</title>');
    gateway.injectFault({ kind: 'emptyBody' });
    const empty = await gateway.fetch(orderRequest(ORIGIN, 'order-2'));
    expect([empty.status, await empty.text()]).toEqual([200, '']);
    expect(gateway.orders().map((o) => o.mchOrderNo)).toEqual(['order-2']); // 'after' by default: processed
  });

  it('truncatedJson: the start of the real answer, not parseable', async () => {
    const gateway = newGateway();
    gateway.injectFault({ kind: 'truncatedJson' });
    const text = await (await gateway.fetch(orderRequest())).text();
    expect(text.startsWith('{"code":200,"msg":"SUCCESS","data":{')).toBe(true);
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });

  it('connectionReset through fetch rejects with a TypeError, as a network failure does', async () => {
    const gateway = newGateway();
    gateway.injectFault({ kind: 'connectionReset', when: 'before' });
    const failure = await gateway.fetch(orderRequest()).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error & { cause: { code: string } }).cause.code).toBe('ECONNRESET');
  });

  it('connectionReset on the real server resets the socket (ECONNRESET), after creating the order', async () => {
    const gateway = newGateway();
    const server = await gateway.listen();
    try {
      gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'after' });
      const failure = await fetch(orderRequest(server.url)).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(TypeError);
      expect((failure as Error & { cause: { code: string } }).cause.code).toBe('ECONNRESET');
      expect(gateway.order('order-1')).toBeDefined();
      expect(gateway.requests[0]).toMatchObject({ operation: 'unifiedOrder', fault: 'connectionReset', code: 200 });
    } finally {
      await server.close();
    }
  });

  it('targets an operation, keeps injection order, and can be cancelled or cleared', async () => {
    const gateway = newGateway();
    const onQuery = gateway.injectFault({ kind: 'html502', operation: 'query' });
    const first = gateway.injectFault({ kind: 'emptyBody', operation: 'unifiedOrder' });
    const second = gateway.injectFault({ kind: 'html502', operation: 'unifiedOrder' });
    expect((await gateway.fetch(orderRequest(ORIGIN, 'a'))).status).toBe(200); // emptyBody first
    second.cancel();
    expect((await post(gateway, PATHS.unifiedOrder, orderBody('b'))).json.code).toBe(200);
    expect([first.hits, second.hits, onQuery.hits, onQuery.remaining]).toEqual([1, 0, 0, 1]);
    gateway.clearFaults();
    expect(onQuery.remaining).toBe(0);
  });

  it('refuses faults that cannot be produced', () => {
    const gateway = newGateway();
    expect(() => gateway.injectFault({ kind: 'wrongSign', when: 'before' })).toThrow(/only strike 'after'/);
    expect(() => gateway.injectFault({ kind: 'truncatedJson', when: 'before' })).toThrow(GatewayValidationError);
    expect(() => gateway.injectFault({ kind: 'timeout' as never })).toThrow(/kind: must be one of 'wrongSign', 'html502'/);
    expect(() => gateway.injectFault({ kind: 'html502', times: 0 })).toThrow(/times: must be at least 1/);
    expect(() => gateway.injectFault({ kind: 'html502', operation: 'refund' as never })).toThrow(/operation: must be one of 'unifiedOrder', 'query'.*leave it out for any/);
    // Every problem at once, each with its path, as the SDK's own validation errors.
    const error = (() => {
      try {
        gateway.injectFault({ kind: 'nope' as never, when: 'later' as never, times: 1.5 });
      } catch (e) {
        return e as GatewayValidationError;
      }
    })();
    expect(error?.issues.map((i) => i.path.join('.'))).toEqual(['kind', 'when', 'times']);
  });
});
