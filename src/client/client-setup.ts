import { createKyTransport } from '../transport/http.js';
import { ClientCalls } from './calls.js';
import { ChannelUserLinks } from './channel-user.js';
import { composeHooks } from './hooks.js';
import { LogObserver } from './logging.js';
import { resolveOptions, type GatewayClientOptions, type ResolvedOptions } from './options.js';
import { OperationRunner } from './runner.js';

/** What a `GatewayClient` is made of: its options checked once, a summary safe to log, and its calls. */
export interface ClientSetup {
  readonly options: ResolvedOptions;
  /** The options without the secret and the functions, for `toJSON` and `inspect`. */
  readonly summary: Readonly<Record<string, unknown>>;
  readonly calls: ClientCalls;
  /** The payer's channel user id: the signed jump URL and the unsigned way back. */
  readonly channelUser: ChannelUserLinks;
}

/** Parses a client's options (invalid ones throw `GatewayValidationError`) and builds its runner, transport and log. */
export function setUpClient(options: GatewayClientOptions): ClientSetup {
  const resolved = resolveOptions(options);
  const summary = summarize(resolved);
  const log = new LogObserver(resolved.logLevel, resolved.logger);
  const hooks = composeHooks(resolved.hooks, log.hooks);
  const runner = new OperationRunner({ ...resolved, hooks, transport: createKyTransport(resolved) }, resolved.secret);
  log.created(resolved);
  return { options: resolved, summary, calls: new ClientCalls(runner, log), channelUser: new ChannelUserLinks(resolved) };
}

function summarize(options: ResolvedOptions): Record<string, unknown> {
  const { fetch: _fetch, now: _now, hooks: _hooks, logger: _logger, telemetry: _telemetry, secret: _secret, ...rest } = options;
  return { ...rest, secret: '[redacted]' };
}
