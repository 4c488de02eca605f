// The processor behind real servers on 127.0.0.1, each wired with the one line the guide shows: Express, Fastify,
// node:http, and a Web Request -> Response route (Hono, Next.js, Workers) served by @hono/node-server.
import { createServer, type Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createNotificationProcessor, type NotificationProcessor, type PayOrderNotification } from '../../src/index.js';
import { restoreFetchGlobalsAfterAll } from '../support/fetch-globals.js';
import { listenOnLoopback, type Running } from '../support/loopback-server.js';
import { formBody, freshFields, MERCHANT } from '../support/notification.js';

restoreFetchGlobalsAfterAll();

type Processor = NotificationProcessor<PayOrderNotification>;

const adapters: [string, (processor: Processor) => Promise<Running>][] = [
  [
    'Express',
    (processor) => {
      const app = express();
      app.post('/pay/notify', express.urlencoded({ extended: false }), async (req, res) => {
        const { status, headers, body } = await processor.handle(req.body);
        res.status(status).set(headers).send(body);
      });
      return listenOnLoopback(createServer(app));
    },
  ],
  [
    'Fastify',
    async (processor) => {
      const app = Fastify();
      app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      app.post('/pay/notify', async (request, reply) => {
        const { status, headers, body } = await processor.handle(request.body as Buffer);
        return reply.code(status).headers(headers).send(body);
      });
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      return { url: `${address}/pay/notify`, close: () => app.close() };
    },
  ],
  [
    'node:http',
    (processor) =>
      listenOnLoopback(
        createServer(async (req, res) => {
          const { status, headers, body } = await processor.handle(req);
          res.writeHead(status, headers).end(body);
        }),
      ),
  ],
  [
    'a Web Request -> Response route (Hono)',
    (processor) => {
      const app = new Hono();
      app.post('/pay/notify', (c) => processor.handleRequest(c.req.raw));
      return listenOnLoopback(createAdaptorServer({ fetch: app.fetch }) as Server);
    },
  ],
  ['a bare fetch handler (Next.js route, Workers, Bun)', (processor) => listenOnLoopback(createAdaptorServer({ fetch: processor.handleRequest }) as Server)],
];

function post(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: formBody(fields) });
}

describe.each(adapters)('the processor behind %s', (_name, start) => {
  let running: Running;
  let release = () => {};
  const onPaid = vi.fn<(n: PayOrderNotification) => Promise<void>>();

  beforeEach(async () => {
    onPaid.mockReset();
    onPaid.mockImplementation(() => new Promise<void>((resolve) => (release = resolve)));
    running = await start(createNotificationProcessor({ ...MERCHANT, onPaid, maxBodyBytes: 4_096 }));
  });

  afterEach(async () => {
    await running.close();
  });

  it('runs onPaid once for three concurrent deliveries and one later, each answered exactly SUCCESS', async () => {
    const deliveries = [post(running.url, freshFields()), post(running.url, freshFields()), post(running.url, freshFields())];
    await vi.waitFor(() => expect(onPaid).toHaveBeenCalled());
    release();
    const responses = await Promise.all(deliveries);
    expect(await Promise.all(responses.map((r) => r.text()))).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS']);
    expect(responses.map((r) => [r.status, r.headers.get('content-type')])).toEqual(Array(3).fill([200, 'text/plain; charset=utf-8']));
    const later = await post(running.url, freshFields());
    expect([later.status, await later.text()]).toEqual([200, 'SUCCESS']);
    expect(onPaid).toHaveBeenCalledTimes(1);
  });

  it('answers 400 to a forgery and 413 to an oversized body, running nothing', async () => {
    const forged = await post(running.url, { ...freshFields(), amount: '1' });
    expect([forged.status, await forged.text()]).toEqual([400, 'FAIL: refused']);
    const oversized = await post(running.url, freshFields({ body: 'x'.repeat(8_000) }));
    expect([oversized.status, await oversized.text()]).toEqual([413, 'FAIL: too large']);
    expect(onPaid).not.toHaveBeenCalled();
  });

  it('answers 500 when onPaid fails, and the retry runs it again', async () => {
    onPaid.mockRejectedValueOnce(new Error('warehouse API down'));
    const failed = await post(running.url, freshFields());
    expect([failed.status, await failed.text()]).toEqual([500, 'FAIL: processing failed']);
    onPaid.mockResolvedValueOnce(undefined);
    const retried = await post(running.url, freshFields());
    expect(await retried.text()).toBe('SUCCESS');
    expect(onPaid).toHaveBeenCalledTimes(2);
  });
});
