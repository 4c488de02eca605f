// Each example in examples/ runs on a real server on 127.0.0.1 (ephemeral port) and receives real signed
// form POSTs, as the gateway sends them. Each processes a payment once, and only for one of the shop's own
// orders at the total and currency the shop recorded (the processor's expect, from the order record).
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
import type { ShopOptions, ShopOrder, ShopOrders } from '../../examples/shop.js';
import { GatewayClient, memoryStore, PayOrderState, type PaidOrder } from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';
import { restoreFetchGlobalsAfterAll } from '../support/fetch-globals.js';
import { listenOnLoopback, type Running } from '../support/loopback-server.js';
import { formBody, freshFields, MERCHANT, PAY_FIELDS } from '../support/notification.js';

restoreFetchGlobalsAfterAll();

type OnPaid = (paid: PaidOrder) => Promise<void>;

/** The shop's order table, in memory. */
function memoryOrders(list: readonly ShopOrder[]): ShopOrders {
  const byNumber = new Map(list.map((order) => [order.number, order]));
  return {
    find: async (mchOrderNo) => byNumber.get(mchOrderNo),
    addPaymentNumber: async (orderNumber, mchOrderNo) => {
      const order = byNumber.get(orderNumber);
      if (order) byNumber.set(mchOrderNo, order);
    },
  };
}

/** The order the shared notification vector pays. */
const VECTOR_ORDER: ShopOrder = { number: PAY_FIELDS.mchOrderNo!, totalMinor: Number(PAY_FIELDS.amount), currency: PAY_FIELDS.currency!, subject: 'Goods' };
const shop = (onPaid: OnPaid, orders: readonly ShopOrder[] = [VECTOR_ORDER]): ShopOptions => ({ merchant: MERCHANT, orders: memoryOrders(orders), store: memoryStore(), onPaid });

const client = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT });

const examples: [string, (onPaid: OnPaid) => Promise<Running>][] = [
  ['Express', (onPaid) => listenOnLoopback(createHttpServer(createExpressApp({ client, ...shop(onPaid) })))],
  [
    'Fastify',
    async (onPaid) => {
      const app = createFastifyServer(shop(onPaid));
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      return { url: `${address}/pay/notify`, close: () => app.close() };
    },
  ],
  ['Hono', (onPaid) => listenOnLoopback(createAdaptorServer({ fetch: createHonoApp(shop(onPaid)).fetch }) as Server)],
  ['Koa', (onPaid) => listenOnLoopback(createHttpServer(createKoaApp(shop(onPaid)).callback()))],
  [
    'NestJS',
    async (onPaid) => {
      const app = await NestFactory.create(createNotifyModule(shop(onPaid)), { rawBody: true, logger: false });
      await app.listen(0, '127.0.0.1');
      const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
      return { url: `http://127.0.0.1:${port}/pay/notify`, close: () => app.close() };
    },
  ],
  ['Next.js-style route handler', (onPaid) => listenOnLoopback(createAdaptorServer({ fetch: createNotifyRoute(shop(onPaid)) }) as Server)],
];

function post(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: formBody(fields) });
}

describe.each(examples)('the %s example', (_name, start) => {
  let running: Running;
  const fulfil = vi.fn<OnPaid>();

  beforeEach(async () => {
    fulfil.mockReset();
    fulfil.mockResolvedValue(undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {}); // the examples log the failing onPaid
    running = await start(fulfil);
  });

  afterEach(async () => {
    await running.close();
    vi.restoreAllMocks();
  });

  it('verifies a signed form POST, runs onPaid with the typed notification and answers exactly SUCCESS', async () => {
    const response = await post(running.url, freshFields());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toBe('SUCCESS');
    expect(fulfil).toHaveBeenCalledTimes(1);
    expect(fulfil.mock.calls[0]?.[0]).toMatchObject({ mchOrderNo: 'mho1623985457320', amount: 58, state: 2, subject: '商品标题' });
  });

  it('acknowledges a re-delivery without fulfilling again', async () => {
    for (let delivery = 0; delivery < 3; delivery++) {
      const response = await post(running.url, freshFields());
      expect(await response.text()).toBe('SUCCESS');
    }
    expect(fulfil).toHaveBeenCalledTimes(1);
  });

  it('fulfils once when deliveries of one event arrive at the same time', async () => {
    let release = () => {};
    fulfil.mockImplementation(() => new Promise<void>((resolve) => (release = resolve)));
    const deliveries = [post(running.url, freshFields()), post(running.url, freshFields())];
    await vi.waitFor(() => expect(fulfil).toHaveBeenCalled());
    release();
    const bodies = await Promise.all(deliveries.map(async (d) => (await d).text()));
    expect(bodies).toEqual(['SUCCESS', 'SUCCESS']);
    expect(fulfil).toHaveBeenCalledTimes(1);
  });

  it('rejects a tampered notification without fulfilling it', async () => {
    const response = await post(running.url, { ...freshFields(), amount: '1' });
    expect(response.status).toBe(400);
    expect(await response.text()).not.toBe('SUCCESS');
    expect(fulfil).not.toHaveBeenCalled();
  });

  it('refuses a genuine notification for another amount, or for an order the shop does not have, without running onPaid', async () => {
    const cheaper = await post(running.url, freshFields({ amount: '1' }));
    expect(cheaper.status).toBe(400);
    const stranger = await post(running.url, freshFields({ mchOrderNo: 'not-our-order' }));
    expect(stranger.status).toBe(400);
    expect(fulfil).not.toHaveBeenCalled();
    expect(console.warn).toHaveBeenCalledWith('payment notification refused:', expect.stringMatching(/amount/));
  });

  it('answers an error when onPaid fails, and runs it on the gateway\'s retry', async () => {
    fulfil.mockRejectedValueOnce(new Error('database down'));
    const failed = await post(running.url, freshFields());
    expect(failed.status).toBe(500);
    expect(await failed.text()).not.toBe('SUCCESS');
    const retried = await post(running.url, freshFields());
    expect(await retried.text()).toBe('SUCCESS');
    expect(fulfil).toHaveBeenCalledTimes(2);
  });
});

describe('the Koa example reads a bounded body', () => {
  it('answers 413 to a body over 64 KiB without verifying or processing it', async () => {
    const fulfil = vi.fn<OnPaid>();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const running = await listenOnLoopback(createHttpServer(createKoaApp(shop(fulfil)).callback()));
    try {
      const response = await post(running.url, { ...freshFields(), extra: 'x'.repeat(70 * 1024) });
      expect(response.status).toBe(413);
      expect(fulfil).not.toHaveBeenCalled();
      expect(console.warn).toHaveBeenCalledWith('payment notification refused:', 'body over 65536 bytes');
    } finally {
      await running.close();
      vi.restoreAllMocks();
    }
  });
});

describe('the Express checkout route', () => {
  const orders = [
    { number: 'cart-9', totalMinor: 1999, currency: 'USD', subject: 'T-shirt' },
    { number: 'cart-10', totalMinor: 500, currency: 'USD', subject: 'Mug' },
    { number: 'cart-11', totalMinor: 2500, currency: 'EUR', subject: 'Book' },
  ];
  const checkout = (url: string, body: object) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('prices the order from the shop\'s record: an amount sent by the browser is ignored; an unknown order is 404', async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT] });
    const shopClient = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch });
    const running = await listenOnLoopback(createHttpServer(createExpressApp({ client: shopClient, ...shop(async () => undefined, orders) })), '/checkout');
    try {
      const answer = await checkout(running.url, { orderNumber: 'cart-11', amount: 1, currency: 'USD' });
      expect(answer.status).toBe(200);
      expect(gateway.order('cart-11')).toMatchObject({ amount: 2500, currency: 'EUR', subject: 'Book' });
      expect((await checkout(running.url, { orderNumber: 'cart-404', amount: 1 })).status).toBe(404);
      expect((await checkout(running.url, { amount: 1 })).status).toBe(404);
      expect(gateway.order('cart-404')).toBeUndefined();
    } finally {
      await running.close();
    }
  });

  it('tracks each order it creates: with every notification lost, a sweep fulfils the paid order once', async () => {
    const store = memoryStore(); // before the mock, whose clock stands at its creation
    const gateway = createMockGateway({ merchants: [MERCHANT] });
    const shopClient = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch });
    const paid = vi.fn<OnPaid>().mockResolvedValue(undefined);
    const app = createExpressApp({ client: shopClient, ...shop(paid, orders), store });
    const running = await listenOnLoopback(createHttpServer(app), '/checkout');
    try {
      expect((await checkout(running.url, { orderNumber: 'cart-10' })).status).toBe(200);
      gateway.payOrder(gateway.order('cart-10')!.payOrderId); // no notifyUrl: no notification ever comes
      expect(await app.locals.processor.sweep({ olderThanMs: 0 })).toMatchObject({ checked: 1, paid: 1 });
      expect(await app.locals.processor.sweep({ olderThanMs: 0 })).toMatchObject({ checked: 0, paid: 0 });
      expect(paid).toHaveBeenCalledTimes(1);
      expect(paid.mock.calls[0]![0]).toMatchObject({ mchOrderNo: 'cart-10', amount: 500, currency: 'USD' });
    } finally {
      await running.close();
    }
  });

  it('answers payData even when the answer to the create was lost: the recovered order is replaced under a new number, whose payment is accepted', async () => {
    const gateway = createMockGateway({ merchants: [MERCHANT] });
    const shopClient = new GatewayClient({ baseUrl: 'https://gateway.test', ...MERCHANT, fetch: gateway.fetch });
    const paid = vi.fn<OnPaid>().mockResolvedValue(undefined);
    const app = createExpressApp({ client: shopClient, ...shop(paid, orders), notifyUrl: 'https://shop.example/pay/notify' });
    const running = await listenOnLoopback(createHttpServer(app), '/checkout');
    try {
      gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'after' });
      const answer = await checkout(running.url, { orderNumber: 'cart-9' });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ mchOrderNo: 'cart-9-2', payDataType: gateway.order('cart-9-2')?.payDataType, payData: gateway.order('cart-9-2')?.payData });
      expect(gateway.order('cart-9')?.state).toBe(PayOrderState.Closed);
      // The replacement's notification names cart-9-2: the shop recorded that number with its order.
      const notify = running.url.replace('/checkout', '/pay/notify');
      const delivered = await post(notify, freshFields({ mchOrderNo: 'cart-9-2', payOrderId: gateway.order('cart-9-2')!.payOrderId, amount: '1999', currency: 'USD' }));
      expect(await delivered.text()).toBe('SUCCESS');
      expect(paid).toHaveBeenCalledTimes(1);
      // The checkout tracked the order it created: a sweep finds it fulfilled already, and runs nothing again.
      const afterNotification = await app.locals.processor.sweep({ olderThanMs: 0 });
      expect(afterNotification).toMatchObject({ paid: 0 });
      expect(paid).toHaveBeenCalledTimes(1);
      // The recovered order cannot be closed (every close is cut off): no second order, an error answer.
      gateway.injectFault({ kind: 'connectionReset', operation: 'unifiedOrder', when: 'after' });
      gateway.injectFault({ kind: 'connectionReset', operation: 'close', when: 'before', times: 10 });
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      const refused = await checkout(running.url, { orderNumber: 'cart-10' });
      expect(refused.status).toBe(502);
      expect(gateway.order('cart-10-2')).toBeUndefined();
    } finally {
      await running.close();
      vi.restoreAllMocks();
    }
  });
});
