import { definitionOf } from '../operations/table.js';
import { LOG_LEVELS, type LogLevel } from '../util/log-levels.js';
import { observe, type AttemptPurpose, type GatewayHooks, type ReconcileEvent, type ResponseEvent, type RetryEvent } from './hooks.js';

export { LOG_LEVELS, type LogLevel };

/**
 * Where the client's log lines go: the console by default, or any object with these four methods
 * (pino, winston, a test spy). Each call gets one line starting with `[payment-gateway-sdk]`, and the
 * same facts as an object of plain values for a structured logger.
 *
 * @example
 * ```ts
 * import { GatewayClient, type GatewayLogger } from 'payment-gateway-sdk';
 *
 * // Into the application's own logger, the facts as fields.
 * const logger: GatewayLogger = {
 *   error: (message, fields) => appLog.error(fields, message),
 *   warn: (message, fields) => appLog.warn(fields, message),
 *   info: (message, fields) => appLog.info(fields, message),
 *   debug: (message, fields) => appLog.debug(fields, message),
 * };
 * const client = new GatewayClient({ ...credentials, logLevel: 'info', logger });
 * ```
 */
export interface GatewayLogger {
  /** A failed call. */
  error(message: string, fields: Readonly<Record<string, unknown>>): void;
  /** An unsafe setting. */
  warn(message: string, fields: Readonly<Record<string, unknown>>): void;
  /** A retry or a reconciliation. */
  info(message: string, fields: Readonly<Record<string, unknown>>): void;
  /** An HTTP attempt. */
  debug(message: string, fields: Readonly<Record<string, unknown>>): void;
}

/**
 * The default logger: the console, one line per event. The fields repeat what the line says, so they are
 * left to structured loggers (Node would print them over several lines). Looked up on each call, so a
 * console replaced or spied on later is the one written to.
 */
export const consoleLogger: GatewayLogger = {
  error: (line) => console.error(line),
  warn: (line) => console.warn(line),
  info: (line) => console.info(line),
  debug: (line) => console.debug(line),
};

/** The environment variable that sets the level when the `logLevel` option is not given. */
const LOG_LEVEL_VARIABLE = 'PAYMENT_GATEWAY_LOG';

const PREFIX = '[payment-gateway-sdk]';
// An error message may carry the gateway's own text: hostile, and of any length.
const MESSAGE_LIMIT = 500;

/**
 * The level `PAYMENT_GATEWAY_LOG` asks for, case-insensitively; `off` when it is unset or not a level.
 * Browsers and edge runtimes have no `process`, and Deno throws without `--allow-env`: both mean `off`.
 */
export function logLevelFromEnvironment(): LogLevel {
  try {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
    const value = env?.[LOG_LEVEL_VARIABLE]?.trim().toLowerCase();
    return LOG_LEVELS.find((level) => level === value) ?? 'off';
  } catch {
    return 'off';
  }
}

/**
 * Turns a level and a logger into observers of the client: hooks for attempts, retries and
 * reconciliations, plus what the hooks cannot see (the client's creation and a call's final failure).
 * Below a level, the hook is absent, so the runner does no work for it.
 */
export class LogObserver {
  readonly hooks: GatewayHooks;
  readonly #level: number;
  readonly #logger: GatewayLogger;

  constructor(level: LogLevel, logger: GatewayLogger) {
    this.#level = LOG_LEVELS.indexOf(level);
    this.#logger = logger;
    this.hooks = {
      ...(this.#enabled('debug') && { onResponse: (event: ResponseEvent) => this.#attempt(event) }),
      ...(this.#enabled('info') && { onRetry: (event: RetryEvent) => this.#retry(event), onReconcile: (event: ReconcileEvent) => this.#reconcile(event) }),
    };
  }

  /** Whether a call's final failure is logged: callers skip the extra promise step when it is not. */
  get logsFailures(): boolean {
    return this.#enabled('error');
  }

  /** Once, when the client is created: settings that are unsafe or likely wrong. */
  created(settings: { readonly verifyResponses: boolean }): void {
    if (!this.#enabled('warn')) return;
    if (!settings.verifyResponses) {
      this.#write('warn', 'verifyResponses is false: response signatures are not checked, so a forged or corrupted response would be accepted', { verifyResponses: false });
    }
  }

  /** Before a call is sent: parameters its operation's row finds likely mistaken (`caution`); nothing when `warning` is `undefined`. */
  caution(operation: string, ids: Readonly<Record<string, string>>, warning: string | undefined): void {
    if (warning === undefined || !this.#enabled('warn')) return;
    this.#write('warn', `${operation}${keys(ids)}: ${warning}`, { operation, ids, warning });
  }

  /** A call that rejected, with the error it rejected with. */
  failed(operation: string, ids: Readonly<Record<string, string>>, error: unknown): void {
    if (!this.#enabled('error')) return;
    const name = error instanceof Error ? error.name : typeof error;
    const message = bounded(error instanceof Error ? error.message : String(error));
    this.#write('error', `${operation}${keys(ids)} failed: error=${name} message=${quote(message)}`, { operation, ids, error: name, message });
  }

  #enabled(level: LogLevel): boolean {
    return this.#level >= LOG_LEVELS.indexOf(level);
  }

  // Never throws nor rejects: a logger's bug must not replace a call's result or error, nor stop a client being created.
  #write(level: Exclude<LogLevel, 'off'>, line: string, fields: Readonly<Record<string, unknown>>): void {
    observe((message: string) => this.#logger[level](message, fields), `${PREFIX} ${line}`);
  }

  #attempt({ operation, purpose, ids, attempt, status, durationMs, signatureVerified, error }: ResponseEvent): void {
    const path = definitionOf(operation).path;
    const ms = Math.round(durationMs);
    const outcome = error ? `failed: error=${error.name}` : signatureVerified ? 'signature verified' : 'signature not checked';
    this.#write('debug', `${operation}${PURPOSES[purpose]} attempt ${attempt} POST ${path}${keys(ids)} -> ${status ?? 'no response'} in ${ms} ms, ${outcome}`, {
      operation,
      purpose,
      ids,
      path,
      attempt,
      status,
      durationMs: ms,
      signatureVerified,
      ...(error && { error: error.name }),
    });
  }

  #retry({ operation, purpose, ids, attempt, delayMs, reason }: RetryEvent): void {
    this.#write('info', `${operation}${PURPOSES[purpose]} attempt ${attempt}${keys(ids)} failed (${reason}): retrying after ${delayMs} ms`, { operation, purpose, ids, attempt, delayMs, reason });
  }

  #reconcile({ operation, key, outcome }: ReconcileEvent): void {
    this.#write('info', `${operation} outcome was ambiguous; lookup by ${key.name}=${quote(bounded(key.value))} -> ${outcome}`, {
      operation,
      key: { name: key.name, value: key.value },
      outcome,
    });
  }
}

// How a line names an attempt that is not the operation called itself.
const PURPOSES: Readonly<Record<AttemptPurpose, string>> = {
  request: '',
  reconcile: ' (reconcile lookup)',
  confirm: ' (confirm read-back)',
  fallback: ' (close check)',
  wait: ' (wait poll)',
};

/** The record's keys, as ` mchOrderNo="order-1001"`, for a line that must say which record it is about. */
function keys(ids: Readonly<Record<string, string>>): string {
  let text = '';
  for (const [name, value] of Object.entries(ids)) text += ` ${name}=${quote(bounded(value))}`;
  return text;
}

function bounded(text: string): string {
  return text.length <= MESSAGE_LIMIT ? text : `${text.slice(0, MESSAGE_LIMIT)}…`;
}

/** A JSON string, and one line: also escapes the separators and direction marks a terminal would honour. */
function quote(text: string): string {
  return JSON.stringify(text).replace(/[\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
