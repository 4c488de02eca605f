// Bounded input (issue 9, defect 3, notification side): verifyNotification reads at most maxBodyBytes,
// from a real node:http server on loopback streaming a 200 MiB body, and from every in-memory input kind.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { GatewayPayloadTooLargeError, GatewayValidationError, verifyNotification } from '../../src/index.js';
import { formBody, MERCHANT, signedFields } from '../support/notification.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MiB = 1024 * 1024;
const HUGE = 200 * MiB;

interface Refusal {
  error: unknown;
  /** Bytes the server's socket had read when verifyNotification gave up. */
  socketBytesRead: number;
  heapGrowth: number;
  rssGrowth: number;
}

/** A real server on 127.0.0.1 whose handler gives the request to verifyNotification the way `toInput` says. */
async function refusalOf200MiB(toInput: (req: IncomingMessage) => unknown, headers: Record<string, string>): Promise<Refusal> {
  gc();
  const before = process.memoryUsage();
  let resolveRefusal!: (refusal: Refusal) => void;
  const refused = new Promise<Refusal>((resolve) => (resolveRefusal = resolve));
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket; // gone from req once verifyNotification destroys a stream it gave up on
    const error = await verifyNotification(toInput(req) as Request, MERCHANT).catch((e: unknown) => e);
    const socketBytesRead = socket.bytesRead;
    gc();
    const after = process.memoryUsage();
    if (!socket.destroyed) res.writeHead(413, { connection: 'close' }).end();
    req.destroy();
    resolveRefusal({ error, socketBytesRead, heapGrowth: after.heapUsed - before.heapUsed, rssGrowth: after.rss - before.rss });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // 200 MiB made lazily from one 64 KiB chunk, so the sender holds no more than that.
  const chunk = Buffer.alloc(64 * 1024, 'a');
  const body = Readable.from((function* () {
    yield Buffer.from('payOrderId=');
    for (let sent = 0; sent < HUGE; sent += chunk.length) yield chunk;
  })());
  const client = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/pay/notify', headers });
  client.on('error', () => {}); // the server hangs up mid-body
  client.on('response', (response) => response.resume());
  body.pipe(client);
  const refusal = await refused;
  body.destroy();
  client.destroy();
  await new Promise((resolve) => server.close(resolve));
  server.closeAllConnections();
  return refusal;
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function toWebRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  return new Request(`http://127.0.0.1${req.url}`, { method: 'POST', headers, body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } as RequestInit);
}

describe('a 200 MiB notification body on loopback (default maxBodyBytes, 64 KiB)', () => {
  it('as a Web Request with no length (chunked): reading stops just past 64 KiB and memory stays flat', async () => {
    const refusal = await refusalOf200MiB(toWebRequest, FORM);
    console.log(`200 MiB chunked Request: socket read ${(refusal.socketBytesRead / 1024).toFixed(0)} KiB, heap +${(refusal.heapGrowth / MiB).toFixed(1)} MiB, rss +${(refusal.rssGrowth / MiB).toFixed(1)} MiB`);
    expect(refusal.error).toBeInstanceOf(GatewayPayloadTooLargeError);
    expect(refusal.error).toBeInstanceOf(GatewayValidationError);
    expect((refusal.error as GatewayPayloadTooLargeError).maxBytes).toBe(65_536);
    expect(refusal.socketBytesRead).toBeLessThan(4 * MiB);
    expect(refusal.heapGrowth).toBeLessThan(16 * MiB);
  });

  it('as a Web Request declaring its length: refused before reading', async () => {
    const refusal = await refusalOf200MiB(toWebRequest, { ...FORM, 'content-length': String(HUGE + 11) });
    console.log(`200 MiB Request with content-length: socket read ${(refusal.socketBytesRead / 1024).toFixed(0)} KiB, heap +${(refusal.heapGrowth / MiB).toFixed(1)} MiB`);
    expect(refusal.error).toBeInstanceOf(GatewayPayloadTooLargeError);
    expect(refusal.socketBytesRead).toBeLessThan(4 * MiB);
  });

  it("as node:http's IncomingMessage (an async iterable): the stream is left early and destroyed", async () => {
    let destroyed = false;
    const refusal = await refusalOf200MiB((req) => {
      req.once('close', () => (destroyed = true));
      return req;
    }, FORM);
    console.log(`200 MiB IncomingMessage: socket read ${(refusal.socketBytesRead / 1024).toFixed(0)} KiB, heap +${(refusal.heapGrowth / MiB).toFixed(1)} MiB, rss +${(refusal.rssGrowth / MiB).toFixed(1)} MiB`);
    expect(refusal.error).toBeInstanceOf(GatewayPayloadTooLargeError);
    expect(refusal.socketBytesRead).toBeLessThan(4 * MiB);
    expect(refusal.heapGrowth).toBeLessThan(16 * MiB);
    expect(destroyed).toBe(true);
  });
});

describe('maxBodyBytes holds for every kind of input', () => {
  const body = formBody(signedFields());
  const bytes = new TextEncoder().encode(body);
  const fitting = { ...MERCHANT, maxBodyBytes: bytes.byteLength };
  const tooSmall = { ...MERCHANT, maxBodyBytes: bytes.byteLength - 1 };
  const kinds: Record<string, () => unknown> = {
    string: () => body,
    Uint8Array: () => bytes,
    ArrayBuffer: () => bytes.slice().buffer,
    Request: () => new Request('http://127.0.0.1/n', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }),
    ReadableStream: () => new Blob([bytes]).stream(),
    'async iterable': () => Readable.from([bytes.subarray(0, 10), bytes.subarray(10)]),
  };
  for (const [kind, make] of Object.entries(kinds)) {
    it(`${kind}: exactly maxBodyBytes is read, one byte more is refused`, async () => {
      await expect(verifyNotification(make() as string, fitting)).resolves.toMatchObject({ state: 2 });
      await expect(verifyNotification(make() as string, tooSmall)).rejects.toBeInstanceOf(GatewayPayloadTooLargeError);
    });
  }

  it('a string of multi-byte characters is counted in UTF-8 bytes', async () => {
    const cjk = formBody(signedFields({ subject: '商'.repeat(30_000) })); // 90,000 bytes, 30,000 characters plus the rest
    await expect(verifyNotification(cjk, MERCHANT)).rejects.toBeInstanceOf(GatewayPayloadTooLargeError);
  });

  it('parsed input (an object, URLSearchParams, FormData) is held to the size of its form body', async () => {
    const big = signedFields({ subject: 'x'.repeat(70_000) });
    await expect(verifyNotification(big, MERCHANT)).rejects.toBeInstanceOf(GatewayPayloadTooLargeError);
    await expect(verifyNotification(new URLSearchParams(big), MERCHANT)).rejects.toBeInstanceOf(GatewayPayloadTooLargeError);
    const form = new FormData();
    for (const [k, v] of Object.entries(big)) form.append(k, v);
    await expect(verifyNotification(form, MERCHANT)).rejects.toBeInstanceOf(GatewayPayloadTooLargeError);
    await expect(verifyNotification(big, { ...MERCHANT, maxBodyBytes: 100_000 })).resolves.toMatchObject({ state: 2 });
  });

  it('a stream that fails midway is a GatewayValidationError, not a raw stream error', async () => {
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('payOrderId=P1&'));
        controller.error(new Error('socket hang up'));
      },
    });
    await expect(verifyNotification(failing, MERCHANT)).rejects.toThrow(/could not be read to its end \(socket hang up\)/);
    await expect(verifyNotification(Readable.from((async function* () { yield new Uint8Array([97]); throw new Error('aborted'); })()), MERCHANT)).rejects.toBeInstanceOf(GatewayValidationError);
  });

  it('maxBodyBytes must be a positive integer', async () => {
    await expect(verifyNotification(body, { ...MERCHANT, maxBodyBytes: 0 })).rejects.toThrow(/maxBodyBytes: must be at least 1/);
  });
});
