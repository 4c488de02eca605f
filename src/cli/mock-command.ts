/**
 * `payment-gateway-sdk mock`: the mock gateway as a server until SIGINT, SIGTERM or SIGHUP, or until the
 * process that started it exits. The first line printed is the base URL alone (scripts read it); then a
 * summary for people, then one log line per request and per notification attempt unless `--quiet`.
 *
 * @module
 */
import { CONTROL_ROUTES } from '../testing/http/control-routes.js';
import { createMockGateway, type MockGatewayServer } from '../testing/index.js';
import type { MockCommandOptions } from './mock-options.js';
import packageJson from '../../package.json' with { type: 'json' };

/** Where the command writes, and what stops it (by default SIGINT or SIGTERM). */
export interface MockCommandIo {
  readonly out: NodeJS.WritableStream;
  readonly err: NodeJS.WritableStream;
  /** Resolves to the name of what stopped the mock; default the first of SIGINT and SIGTERM. */
  readonly stopped?: Promise<string> | undefined;
}

/** The control routes for the usage text, from their one declaration. */
export function controlApiUsage(): string {
  const routes = CONTROL_ROUTES.map((r) => `  ${r.method} ${r.path}${r.body ? ` ${r.body}` : ''}\n      ${r.calls}: ${r.does}\n`).join('');
  return `Control API (JSON, below the base URL; each route calls the mock's method of the same name):\n${routes}`;
}

/** Runs the mock until stopped; resolves to the exit code. */
export async function runMock(options: MockCommandOptions, io: MockCommandIo): Promise<number> {
  const print = writer(io.out);
  const gateway = createMockGateway({
    merchants: options.merchants,
    clock: options.clock,
    notifications: { loopbackOnly: true, forwardTo: options.forwardTo, retryStepMs: options.retryStepMs },
    log: options.quiet ? undefined : (event) => print(`${event.line}\n`),
  });
  // Listen for the signals first: a script may send one as soon as it has read the URL.
  const stopped = io.stopped ?? firstSignal();
  let server: MockGatewayServer;
  try {
    server = await gateway.listen({ port: options.port, host: options.host, publicUrl: options.publicUrl });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    io.err.write(`payment-gateway-sdk mock: cannot listen on ${options.host}:${options.port}${code === 'EADDRINUSE' ? ': the port is in use; choose another with --port (0 picks a free one)' : `: ${String(error)}`}\n`);
    return 1;
  }
  print(`${server.url}\n`);
  print(summary(options, server.publicUrl));
  print(`\n${await stopped}: stopping the mock gateway\n`);
  await server.close();
  return 0;
}

/** How often the mock checks that whoever started it is still there. */
const PARENT_CHECK_MS = 200;

/**
 * The first of SIGINT, SIGTERM, SIGHUP (the terminal closed), or the end of the launching process: a
 * launcher that dies without passing its signal on (`npx` on SIGTERM, a killed script) leaves the mock
 * re-parented, and an orphan holding its port is what nobody wants.
 */
function firstSignal(): Promise<string> {
  return new Promise<string>((resolve) => {
    const parent = process.ppid;
    const watch = setInterval(() => {
      if (process.ppid !== parent) stop('the process that started the mock exited');
    }, PARENT_CHECK_MS).unref();
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const handlers = signals.map((signal) => [signal, () => stop(signal)] as const);
    function stop(why: string): void {
      clearInterval(watch);
      for (const [signal, handler] of handlers) process.off(signal, handler);
      // A second Ctrl-C while closing ends the process at once, as people expect.
      for (const signal of signals) process.once(signal, () => process.exit(130));
      resolve(why);
    }
    for (const [signal, handler] of handlers) process.once(signal, handler);
  });
}

/** Writes to `stream` until it fails (a reader that closed the pipe: EPIPE), then drops the rest instead of crashing. */
function writer(stream: NodeJS.WritableStream): (text: string) => void {
  let open = true;
  stream.on('error', () => {
    open = false;
  });
  return (text) => {
    if (open && (stream as { writable?: boolean }).writable !== false) stream.write(text);
  };
}

/** `url`: where people reach it (the public URL, else the listen address). */
function summary(options: MockCommandOptions, url: string): string {
  const merchants = options.merchants.map((m) => `  mchNo ${m.mchNo}  appId ${m.appId}  secret ${options.generated ? m.secret : '(as given)'}`).join('\n');
  const delivery = options.forwardTo ? `every notification is forwarded to ${options.forwardTo}` : 'notifications go to loopback notifyUrls only (use --forward-to URL for others)';
  return `
Mock Payment Gateway (payment-gateway-sdk ${packageJson.version}) is listening.
${options.generated ? 'Generated merchant' : 'Merchants'}:
${merchants}
Dashboard:   ${url}/
Control API: ${url}/_mock/state
Clock: ${options.clock}; ${delivery}.

Next: point your client at it, e.g.
  new GatewayClient({ baseUrl: '${url}', mchNo: '${options.merchants[0]?.mchNo ?? ''}', appId: '${options.merchants[0]?.appId ?? ''}', secret })
create a QR_CASHIER order and open its payData in a browser.
${options.quiet ? '' : 'Each request and notification attempt is logged below (time UTC, what, keys, outcome, ms; --quiet: none). '}Ctrl-C stops.
`;
}
