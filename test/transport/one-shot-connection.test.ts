// A create the gateway offers no lookup for (a division receiver's bind, an order's division, a settlement address
// declared) is sent on a connection of its own over node:http: a pooled keep-alive connection that the server closes as it is
// reused fails with a reset after the request may have left, which for these is an unknown outcome only the
// merchant portal settles. Every other call keeps the pooled connection.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, expect, it, vi } from 'vitest';
import { GatewayClient, GatewayOutcomeUnknownError } from '../../src/index.js';
import { createMockGateway } from '../../src/testing/index.js';
import { rejection } from '../support/rejection.js';

const MERCHANT = { mchNo: 'M1700000001', appId: 'app-0001', secret: 'mock-test-secret-1' };
let server: Server | undefined;

afterEach(async () => {
  vi.restoreAllMocks();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

/** The mock gateway behind a node:http server of the test's own, which counts connections and keeps each request's Connection header. */
async function countingGateway(options: { dropReused?: boolean } = {}) {
  const gateway = createMockGateway({ merchants: [MERCHANT] });
  const seen: { connections: number; requests: { path: string; connection: string | undefined; socket: number }[] } = { connections: 0, requests: [] };
  const sockets = new WeakMap<object, number>();
  const served = new WeakSet<object>();
  server = createServer(async (req: IncomingMessage, res) => {
    // A server closing an idle keep-alive connection as the client reuses it: the request is cut, unanswered.
    if (options.dropReused && served.has(req.socket)) return req.socket.destroy();
    served.add(req.socket);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    seen.requests.push({ path: req.url ?? '', connection: req.headers.connection, socket: sockets.get(req.socket) ?? -1 });
    const answer = await gateway.fetch(`http://gateway.test${req.url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks).toString() });
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(await answer.text());
  });
  server.on('connection', (socket) => sockets.set(socket, ++seen.connections));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  // No fetch given: the client carries its calls over node:http with the process's keep-alive agent.
  const client = new GatewayClient({ baseUrl: `http://127.0.0.1:${port}`, ...MERCHANT });
  return { gateway, client, seen };
}

it('a bind, an exec and an address declared each go on a new connection, closed after; reads and creates with a lookup reuse the pooled one', async () => {
  const { gateway, client, seen } = await countingGateway();
  const order = await client.unifiedOrder({ mchOrderNo: 'order-d', wayCode: 'WX_NATIVE', amount: 1000, currency: 'USD', subject: 's', body: 'b', divisionMode: 2 });
  await client.query({ payOrderId: order.payOrderId });
  gateway.payOrder(order.payOrderId);
  const { receiverGroupId } = gateway.createDivisionGroup();
  const bound = await client.bindDivisionReceiver({ ifCode: 'wxpay', receiverGroupId, accType: 0, accNo: 'o8xYz0123456789', relationType: 'PARTNER', divisionProfit: '0.1' });
  expect(bound.bindState).toBe(1);
  await client.executeDivision({ payOrderId: order.payOrderId, receivers: [{ receiverId: bound.receiverId! }] });
  await client.query({ payOrderId: order.payOrderId });
  await client.settleAddressApply({ requestId: 'addr-1', tokenId: 'TRON_USDT', address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf' });

  const byPath = (part: string) => seen.requests.filter((request) => request.path.includes(part));
  const pooled = byPath('/api/pay/')[0]!.socket;
  expect(byPath('/api/pay/').map((request) => request.socket)).toEqual([pooled, pooled, pooled]);
  const [bind, exec, address] = [byPath('/receiver/bind')[0]!, byPath('/division/exec')[0]!, byPath('/settleAddressApply')[0]!];
  for (const own of [bind, exec, address]) expect(own.connection).toBe('close');
  expect(new Set([pooled, bind.socket, exec.socket, address.socket]).size).toBe(4);
  expect(seen.connections).toBe(4);
});

it('a server that drops a reused connection never turns a bind into an unknown outcome: it had a connection of its own', async () => {
  const { gateway, client, seen } = await countingGateway({ dropReused: true });
  await client.unifiedOrder({ mchOrderNo: 'order-1', wayCode: 'WX_NATIVE', amount: 1000, currency: 'USD', subject: 's', body: 'b' });
  const { receiverGroupId } = gateway.createDivisionGroup();
  const bound = await client.bindDivisionReceiver({ ifCode: 'wxpay', receiverGroupId, accType: 0, accNo: 'o8xYz0123456789', relationType: 'PARTNER', divisionProfit: '0.1' });
  expect(bound.bindState).toBe(1);
  expect(gateway.state().divisionReceivers).toHaveLength(1);
  expect(seen.connections).toBe(2);
});

it('a failure reported after the connection was made is never read as "not sent", whatever its code: the bind is not sent again', async () => {
  // Linux reports a host unreachable on a connection that was made once its retransmissions give up (minutes): by
  // then the request's bytes may have arrived, though the code reads as one that comes before any connection.
  const builtin = process.getBuiltinModule.bind(process);
  const http = builtin('node:http');
  let clientSocket: Socket | undefined;
  vi.spyOn(process, 'getBuiltinModule').mockImplementation(((id: string) =>
    id === 'node:http'
      ? { ...http, request: (...args: Parameters<typeof http.request>) => http.request(...args).on('socket', (socket) => (clientSocket = socket)) }
      : builtin(id)) as never);
  let binds = 0;
  server = createServer((req) => {
    binds++;
    req.resume();
    req.on('end', () => clientSocket?.destroy(Object.assign(new Error('read EHOSTUNREACH'), { code: 'EHOSTUNREACH' })));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const client = new GatewayClient({ baseUrl: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, ...MERCHANT, retry: { initialDelayMs: 1, maxDelayMs: 2 } });
  const error = await rejection(client.bindDivisionReceiver({ ifCode: 'wxpay', receiverGroupId: 100001, accType: 0, accNo: 'o8xYz0123456789', relationType: 'PARTNER', divisionProfit: '0.1' }));
  expect(error).toBeInstanceOf(GatewayOutcomeUnknownError);
  expect(String((error as Error).cause)).toMatch(/EHOSTUNREACH/);
  expect(binds).toBe(1);
});
