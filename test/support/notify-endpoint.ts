import { createServer, type Server } from 'node:http';

export interface Received {
  path: string;
  contentType: string | undefined;
  body: string;
  fields: Record<string, string>;
}

/** A merchant's notify endpoint on loopback: records what arrives, answers what the test says. */
export async function startNotifyEndpoint() {
  const received: Received[] = [];
  let answer: (n: number) => string = () => 'SUCCESS';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ path: req.url ?? '', contentType: req.headers['content-type'], body, fields: Object.fromEntries(new URLSearchParams(body)) });
      res.end(answer(received.length));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    received,
    /** What the n-th notification (1-based) gets as the response body. */
    answerWith(fn: (n: number) => string) {
      answer = fn;
    },
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
