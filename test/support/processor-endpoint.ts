import type { MockGateway } from '../../src/testing/index.js';
import type { useServers } from './http-server.js';

/** What a processor's `handle` answers, as far as the endpoint reads it. */
interface Handled {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly outcome: { readonly kind: string };
}

/** A merchant's notify endpoint on loopback that runs `processor.handle` on each body; `replies` keeps `${path} ${outcome}`. */
export async function serveProcessor(startServer: ReturnType<typeof useServers>, processor: { handle(body: string): Promise<Handled> }) {
  const replies: string[] = [];
  const server = await startServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void processor.handle(Buffer.concat(chunks).toString('utf8')).then(({ status, headers, body, outcome }) => {
        replies.push(`${req.url} ${outcome.kind}`);
        res.writeHead(status, headers).end(body);
      });
    });
  });
  return { url: server.url, replies };
}

/** Delivers every notification until none is due, moving the mock's clock to each retry. */
export async function deliverAll(gateway: MockGateway): Promise<void> {
  await gateway.deliverNotifications();
  for (let due = gateway.nextNotificationAt(); due !== undefined; due = gateway.nextNotificationAt()) {
    gateway.advanceTime(due - gateway.now());
    await gateway.deliverNotifications();
  }
}
