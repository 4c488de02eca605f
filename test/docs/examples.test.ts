// Each example in examples/ runs on a real server on 127.0.0.1 (ephemeral port) and receives real signed
// form POSTs, as the gateway sends them.
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { NestFactory } from '@nestjs/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp as createExpressApp } from '../../examples/express.js';
import { createServer as createFastifyServer } from '../../examples/fastify.js';
import { createApp as createHonoApp } from '../../examples/hono.js';
import { createApp as createKoaApp } from '../../examples/koa.js';
import { createNotifyModule } from '../../examples/nestjs.js';
import { createNotifyRoute } from '../../examples/next-route.js';
import { GatewayClient, PayOrderState, type PayOrderNotification } from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';
import { restoreFetchGlobalsAfterAll } from '../support/fetch-globals.js';
import { listenOnLoopback, type Running } from '../support/loopback-server.js';
import { formBody, MERCHANT, signedFields } from '../support/notification.js';

restoreFetchGlobalsAfterAll();

type Fulfil = (notification: PayOrderNotification) => Promise<void>;

const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT });

const examples: [string, (fulfil: Fulfil) => Promise<Running>][] = [
  ['Express', (fulfil) => listenOnLoopback(createHttpServer(createExpressApp({ client, fulfil })))],
  [
    'Fastify',
    async (fulfil) => {
      const app = createFastifyServer({ client, fulfil });
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      return { url: `${address}/pay/notify`, close: () => app.close() };
    },
  ],
  ['Hono', (fulfil) => listenOnLoopback(createAdaptorServer({ fetch: createHonoApp({ client, fulfil }).fetch }) as Server)],
  ['Koa', (fulfil) => listenOnLoopback(createHttpServer(createKoaApp({ client, fulfil }).callback()))],
  [
    'NestJS',
    async (fulfil) => {
      const app = await NestFactory.create(createNotifyModule({ client, fulfil }), { rawBody: true, logger: false });
      await app.listen(0, '127.0.0.1');
      const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
      return { url: `http://127.0.0.1:${port}/pay/notify`, close: () => app.close() };
    },
  ],
  ['Next.js-style route handler', (fulfil) => listenOnLoopback(createAdaptorServer({ fetch: createNotifyRoute({ ...MERCHANT, fulfil }) }) as Server)],
];

function post(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: formBody(fields) });
}

describe.each(examples)('the %s example', (_name, start) => {
  let running: Running;
  const fulfil = vi.fn<Fulfil>();

  beforeEach(async () => {
    fulfil.mockReset();
    fulfil.mockResolvedValue(undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {}); // the frameworks log the failing fulfil
    running = await start(fulfil);
  });

  afterEach(async () => {
    await running.close();
    vi.restoreAllMocks();
  });

  it('verifies a signed form POST, fulfils the typed notification and answers exactly SUCCESS', async () => {
    const response = await post(running.url, signedFields());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toBe('SUCCESS');
    expect(fulfil).toHaveBeenCalledTimes(1);
    expect(fulfil.mock.calls[0]?.[0]).toMatchObject({ mchOrderNo: 'mho1623985457320', amount: 58, state: 2, subject: '商品标题' });
  });

  it('acknowledges a re-delivery without fulfilling again', async () => {
    for (let delivery = 0; delivery < 3; delivery++) {
      const response = await post(running.url, signedFields());
      expect(await response.text()).toBe('SUCCESS');
    }
    expect(fulfil).toHaveBeenCalledTimes(1);
  });

  it('fulfils once when deliveries of one event arrive at the same time', async () => {
    let release = () => {};
    fulfil.mockImplementation(() => new Promise<void>((resolve) => (release = resolve)));
    const deliveries = [post(running.url, signedFields()), post(running.url, signedFields())];
    await vi.waitFor(() => expect(fulfil).toHaveBeenCalled());
    release();
    const bodies = await Promise.all(deliveries.map(async (d) => (await d).text()));
    expect(bodies).toEqual(['SUCCESS', 'SUCCESS']);
    expect(fulfil).toHaveBeenCalledTimes(1);
  });

  it('rejects a tampered notification without fulfilling it', async () => {
    const response = await post(running.url, { ...signedFields(), amount: '1' });
    expect(response.status).toBe(400);
    expect(await response.text()).not.toBe('SUCCESS');
    expect(fulfil).not.toHaveBeenCalled();
  });

  it('answers an error when fulfilling fails, and fulfils on the gateway\'s retry', async () => {
    fulfil.mockRejectedValueOnce(new Error('database down'));
    const failed = await post(running.url, signedFields());
    expect(failed.status).toBe(500);
    expect(await failed.text()).not.toBe('SUCCESS');
    const retried = await post(running.url, signedFields());
    expect(await retried.text()).toBe('SUCCESS');
    expect(fulfil).toHaveBeenCalledTimes(2);
  });
});

describe('the Koa example reads a bounded body', () => {
  it('answers 400 to a body over 64 KiB without verifying or fulfilling it', async () => {
    const fulfil = vi.fn<Fulfil>();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const running = await listenOnLoopback(createHttpServer(createKoaApp({ client, fulfil }).callback()));
    try {
      const response = await post(running.url, { ...signedFields(), extra: 'x'.repeat(70 * 1024) });
      expect(response.status).toBe(400);
      expect(fulfil).not.toHaveBeenCalled();
      expect(console.warn).toHaveBeenCalledWith('payment notification rejected:', 'body over 65536 bytes');
    } finally {
      await running.close();
      vi.restoreAllMocks();
    }
  });
});

describe('the Express checkout route', () => {
  it('answers payData even when the answer to the create was lost: the recovered order is replaced under a new number', async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT] });
    const shop = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch });
    const running = await listenOnLoopback(createHttpServer(createExpressApp({ client: shop, fulfil: async () => undefined, notifyUrl: 'https://shop.example/pay/notify' })), '/checkout');
    try {
      gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'after' });
      const answer = await fetch(running.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ cartId: 'cart-9', amount: 1999 }) });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ mchOrderNo: 'cart-9-2', payDataType: gateway.order('cart-9-2')?.payDataType, payData: gateway.order('cart-9-2')?.payData });
      expect(gateway.order('cart-9')?.state).toBe(PayOrderState.Closed);
      // The recovered order cannot be closed (every close is cut off): no second order, an error answer.
      gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'after' });
      gateway.injectFault({ kind: 'connectionReset', operation: 'close', when: 'before', times: 10 });
      const refused = await fetch(running.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ cartId: 'cart-10', amount: 500 }) });
      expect(refused.status).toBe(502);
      expect(gateway.order('cart-10-2')).toBeUndefined();
    } finally {
      await running.close();
    }
  });
});
