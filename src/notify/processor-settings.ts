/**
 * `createNotificationProcessor`'s options, checked and read once: the store and its wait, and for every kind of
 * notification its row, its verifier, what its notifications must match and the handlers given for it.
 *
 * @module
 */
import * as z from 'zod/mini';
import { GatewayValidationError } from '../errors/index.js';
import { timerDelayMs } from '../protocol/schemas/fields.js';
import { lazySchema } from '../protocol/schemas/lazy.js';
import { parseInput } from '../protocol/schemas/parse.js';
import { telemetryOption } from '../telemetry/option.js';
import type { Telemetry } from '../telemetry/telemetry.js';
import { memoryStore } from './memory-store.js';
import type { NotificationStore, ProcessingContext } from './store.js';
import { notificationKinds, type DeclaredKind, type Expected } from './kinds.js';
import { assertExpectation, kindOptionsSchemas, type NotificationOptions } from './options.js';
import type { SweepClient } from './sweep-settings.js';
import { trackedKinds } from './sweep-kinds.js';
import type { RequiredClientMethod } from './tracked-types.js';
import { receivedVerifier, type IdempotentNotification, type ReceivedVerifier } from './verify-received.js';

const SUMMARY = 'Invalid createNotificationProcessor options';
const MAX_BUSY_WAIT_MS = 15_000;
const DEFAULT_BUSY_WAIT_MS = 5_000;
/** What a processor's `store` can be, as its errors name them. */
const STORE_CHOICES = 'sqliteStore({ path }) from payment-gateway-sdk/stores/sqlite on one machine, postgresStore({ pool }) or redisStore({ client }) for a fleet, or memoryStore() to accept forgetting every event on a restart';

/** Every row, and each handler option a row declares with the row's name for it. */
// Pure: a bundle that makes no processor drops them (the dist chunk holds every module, so only this tells the bundler).
const KINDS: readonly DeclaredKind[] = /* @__PURE__ */ Object.values(notificationKinds);
const HANDLER_OPTIONS: readonly string[] = /* @__PURE__ */ KINDS.flatMap((kind) => Object.keys(kind.handlers));
const handlerList = () => `handler options: ${HANDLER_OPTIONS.join(', ')}`;
/** The client methods every processor's client must have, as SweepClient requires them: each expiring kind's read and close. */
const CLIENT_METHODS = /* @__PURE__ */ trackedKinds.flatMap((kind) => (kind.tracking.expiry === undefined ? [] : [kind.tracking.read, kind.tracking.expiry.close])) as readonly RequiredClientMethod[];
/** The options a processor takes that verification does not. */
const PROCESSOR_ONLY_OPTIONS = ['store', 'busyWaitMs', 'telemetry', 'client', 'leaveUnhandled'];

// Built on first use (protocol/schemas/lazy.ts), not at import.
const processorSchema = lazySchema(() =>
  z.object({
    store: z.optional(z.custom<NotificationStore<ProcessingContext>>((v) => typeof (v as { runOnce?: unknown } | null)?.runOnce === 'function', {
      error: `must be a store: ${STORE_CHOICES}`,
    })),
    busyWaitMs: z.optional(timerDelayMs(0).check(z.refine((value: number) => value <= MAX_BUSY_WAIT_MS, { error: `must be at most ${MAX_BUSY_WAIT_MS} ms: the gateway waits 20 s for an answer` }))),
    // One option per handler a row declares (onPaid, onRefunded...).
    ...(Object.fromEntries(HANDLER_OPTIONS.map((option) => [option, z.optional(z.custom<() => unknown>((v) => typeof v === 'function', { error: 'must be a function' }))])) as Record<string, z.ZodMiniOptional<z.ZodMiniCustom<() => unknown>>>),
    leaveUnhandled: z.optional(z.array(z.custom<string>((v) => HANDLER_OPTIONS.includes(v as string), { error: `must name ${handlerList()}` }), { error: `must be an array of ${handlerList()}` })),
    telemetry: telemetryOption(),
    client: z.optional(z.custom<SweepClient>((v) => CLIENT_METHODS.every((method) => typeof (v as Partial<SweepClient> | null)?.[method] === 'function'), {
      error: `must be a GatewayClient (something with ${CLIENT_METHODS.join(' and ')})`,
    })),
  }),
);

/** A merchant's handler, as the processor calls it. */
export type Handler<Notification> = (notification: Notification, context: ProcessingContext) => unknown;
/** An `expect` function, as the processor calls it. */
export type ExpectFunction = (notification: unknown) => unknown;

/** A handler given to the processor, with what its row says of it. */
export interface GivenHandler {
  /** Its option, e.g. `onPaid`. */
  readonly option: string;
  /** Its name in telemetry, e.g. `on_paid`. */
  readonly name: `on_${string}`;
  /** The states it takes; absent: all. */
  readonly states?: readonly number[] | undefined;
  readonly run: Handler<IdempotentNotification>;
}

/** One kind as a processor handles it: every kind has one, with no handler when none of its was given. */
export interface ProcessedKind {
  readonly row: DeclaredKind;
  readonly verifier: ReceivedVerifier<z.ZodMiniObject>;
  /** What an expectation function may return: the kind's `expect` schema (read only when the kind has one). */
  readonly expectSchema: z.ZodMiniType;
  readonly fixedExpect: Readonly<Record<string, Expected>> | undefined;
  readonly expectFunction: ExpectFunction | undefined;
  readonly handlers: readonly GivenHandler[];
  /** The row's handler options the merchant named in `leaveUnhandled`: their notifications are `unhandled` on purpose. */
  readonly leftUnhandled: readonly string[];
  /** Called once the event is processed (now or before): a payment's tracked order is forgotten, sweeps need not read it. */
  readonly settled?: ((notification: IdempotentNotification) => Promise<void>) | undefined;
}

/** How every kind is processed: the store, its wait and the telemetry. */
export interface ProcessorSettings {
  readonly store: NotificationStore<ProcessingContext>;
  readonly busyWaitMs: number;
  readonly telemetry: Telemetry | undefined;
}

/** The checked options: the settings, every kind, and the verification options the kinds share. */
export interface ParsedProcessorOptions {
  readonly settings: ProcessorSettings;
  readonly kinds: readonly ProcessedKind[];
  readonly ignoreKeys: readonly string[];
  readonly client: SweepClient | undefined;
}

/**
 * Checks a processor's options and reads them once.
 *
 * @throws {@link GatewayValidationError} for invalid options: no handler, an expectation without a handler of its
 *   kind, a kind's handlers given in part (unless `leaveUnhandled` names the others), a `client` without a tracked
 *   kind's handler, no `store` outside tests
 */
export function parseProcessorOptions(options: unknown): ParsedProcessorOptions {
  const checked = parseInput(processorSchema(), options ?? {}, SUMMARY, 'options') as Record<string, unknown>;
  const given = options as Readonly<Record<string, unknown>>;
  if (!HANDLER_OPTIONS.some((option) => checked[option] !== undefined)) {
    const choices = KINDS.flatMap((kind) => Object.entries(kind.handlers).map(([option, handler]) => `${option} for ${kind.label}s${handler?.states ? ` of state ${handler.states.join(' or ')}` : ''}`));
    throw new GatewayValidationError(SUMMARY, [{ path: [], message: `pass a handler at least: ${choices.join(', ')} (one processor for every kind your notifyUrl receives)` }]);
  }
  // What verification takes: everything but the processor's own options (its handlers and expectations too).
  const own = new Set([...PROCESSOR_ONLY_OPTIONS, ...HANDLER_OPTIONS, ...KINDS.map((kind) => kind.expectOption)]);
  const credentials = Object.fromEntries(Object.entries(given).filter(([name]) => !own.has(name))) as NotificationOptions;
  const leftUnhandled = (checked.leaveUnhandled as readonly string[] | undefined) ?? [];
  const kinds = KINDS.map((row) => processedKind(row, given, credentials, leftUnhandled));
  const withoutExpectation = kinds.filter((kind) => kind.handlers.length > 0 && kind.fixedExpect === undefined && kind.expectFunction === undefined);
  if (withoutExpectation.length > 0) warnWithoutExpect(withoutExpectation.map((kind) => kind.row));
  const client = checked.client as SweepClient | undefined;
  if (client !== undefined && !kinds.some((kind) => kind.row.tracking !== undefined && kind.handlers.length > 0)) {
    const tracking = KINDS.filter((row) => row.tracking !== undefined).flatMap((row) => Object.keys(row.handlers));
    throw new GatewayValidationError(SUMMARY, [{ path: ['client'], message: `is for track and sweep, which serve ${tracking.join(', ')}: leave it out, or give one of them` }]);
  }
  const settings: ProcessorSettings = {
    store: (checked.store as NotificationStore<ProcessingContext> | undefined) ?? defaultStore(),
    busyWaitMs: (checked.busyWaitMs as number | undefined) ?? DEFAULT_BUSY_WAIT_MS,
    telemetry: checked.telemetry as Telemetry | undefined,
  };
  return { settings, kinds, ignoreKeys: credentials.ignoreKeys ?? [], client };
}

/** A row with the handlers and the expectation given for it, and its verifier (which requires the row's default expectation). */
function processedKind(row: DeclaredKind, options: Readonly<Record<string, unknown>>, credentials: NotificationOptions, leftUnhandled: readonly string[]): ProcessedKind {
  const handlers = Object.entries(row.handlers).flatMap(([option, declared]) => {
    const run = options[option] as Handler<IdempotentNotification> | undefined;
    return run === undefined || declared === undefined ? [] : [{ option, name: declared.name, states: declared.states, run }];
  });
  checkEveryOutcome(row, handlers, leftUnhandled);
  const expectation = options[row.expectOption];
  if (expectation !== undefined && handlers.length === 0) {
    throw new GatewayValidationError(SUMMARY, [
      { path: [row.expectOption], message: `is what ${row.label}s must match, but no handler of theirs is given (${Object.keys(row.handlers).join(', ')}): give one, or leave ${row.expectOption} out` },
    ]);
  }
  const expectFunction = typeof expectation === 'function' ? (expectation as ExpectFunction) : undefined;
  const fixedExpect = typeof expectation === 'function' ? undefined : (expectation as Readonly<Record<string, Expected>> | undefined);
  // Checked as given, under the option's own name: the kind's default expectation is added below, which would make
  // `{}` look like a check, and verification names its option `expect`.
  if (fixedExpect !== undefined) {
    assertExpectation(row, fixedExpect, SUMMARY, row.expectOption);
    checkExpectationFields(row, fixedExpect);
  }
  const build = () => receivedVerifier(row, { ...credentials, expect: row.defaultExpect === undefined ? fixedExpect : { ...fixedExpect, ...row.defaultExpect } });
  // A kind without a handler is verified only to say it is unhandled: its schemas are built when one arrives, not at start-up.
  const verifier = handlers.length > 0 ? build() : builtOnFirstUse(build);
  return {
    row, verifier, fixedExpect, expectFunction, handlers,
    leftUnhandled: Object.keys(row.handlers).filter((option) => leftUnhandled.includes(option)),
    get expectSchema() {
      return kindOptionsSchemas[row.name].def.shape.expect;
    },
  };
}

/**
 * A kind whose handlers are given in part would answer `FAIL: unhandled` to every delivery of the states no given
 * handler takes (a failed refund to a processor with `onRefunded` only), on each of the gateway's six attempts: each
 * of the row's other handlers must then be given, or named in `leaveUnhandled`, never both.
 */
function checkEveryOutcome(row: DeclaredKind, handlers: readonly GivenHandler[], leftUnhandled: readonly string[]): void {
  const given = handlers.map((handler) => handler.option);
  const issues = Object.entries(row.handlers).flatMap(([option, declared]) => {
    if (given.includes(option)) {
      return leftUnhandled.includes(option) ? [{ path: ['leaveUnhandled'], message: `names ${option}, which is given too: leave it out of one of them` }] : [];
    }
    if (given.length === 0 || leftUnhandled.includes(option)) return [];
    const of = declared?.states === undefined || row.stateField === undefined ? '' : ` of ${row.stateField} ${declared.states.join(' or ')}`;
    const message =
      `is missing, but ${given.join(' and ')} is given: every ${row.label}${of} would be answered FAIL (outcome unhandled) on each of the gateway's six attempts, then never sent again. ` +
      `Give ${option}, or leave those notifications to the gateway's retries on purpose with leaveUnhandled: ['${option}']`;
    return [{ path: [option], message }];
  });
  if (issues.length > 0) throw new GatewayValidationError(SUMMARY, issues);
}

/** A fixed expectation's fields, checked by the kind's `expect` schema with its errors under the option's name (`expectRefund.refundAmount`). */
function checkExpectationFields(row: DeclaredKind, expected: unknown): void {
  try {
    parseInput(row.expect, expected, SUMMARY, 'options');
  } catch (error) {
    if (!(error instanceof GatewayValidationError)) throw error;
    const { issues } = error;
    throw new GatewayValidationError(SUMMARY, issues.map((issue) => ({ ...issue, path: [row.expectOption, ...issue.path] })));
  }
}

function builtOnFirstUse(build: () => ReceivedVerifier<z.ZodMiniObject>): ReceivedVerifier<z.ZodMiniObject> {
  let built: ReceivedVerifier<z.ZodMiniObject> | undefined;
  const verifier = () => (built ??= build());
  return { read: (input) => verifier().read(input), verify: (fields) => verifier().verify(fields) };
}

/** The code of the warning a processor without an expectation gives, once per process (for `--disable-warning`). */
const NO_EXPECT_WARNING = 'PGSDK_NO_EXPECT';
// Once per process: a processor made per request (serverless handlers) must not flood the log.
let warnedWithoutExpect = false;

function warnWithoutExpect(rows: readonly DeclaredKind[]): void {
  if (warnedWithoutExpect) return;
  warnedWithoutExpect = true;
  const options = rows.map((row) => row.expectOption).join(', ');
  // What each tracked kind's expectation holds, from its row: `your refund record's { mchRefundNo, refundAmount, currency }`.
  const record = ({ tracking, amountField }: (typeof trackedKinds)[number]) => `${tracking.noun} record's { ${tracking.by[1]}, ${amountField}, currency }`;
  const [firstKind, ...others] = trackedKinds as [(typeof trackedKinds)[number], ...(typeof trackedKinds)[number][]];
  const first = firstKind.expectOption;
  const message =
    `createNotificationProcessor was created without ${options}: its handler will run for any genuine notification of this merchant application, ` +
    'whatever its order, amount or currency. A signature proves the gateway sent it, not that it is the payment your order asks for ' +
    `(an order created with a price taken from the browser is paid genuinely too). Pass ${first}: a function that returns your ${record(firstKind)}` +
    `${others.length > 0 ? ` (and ${others.map((kind) => `${kind.expectOption}: your ${record(kind)}`).join(', ')})` : ''} (docs/guides/notifications-in-production.md, "expect").`;
  const { process } = globalThis as { process?: { emitWarning?: (message: string, options: { code: string }) => void } };
  if (typeof process?.emitWarning === 'function') process.emitWarning(message, { code: NO_EXPECT_WARNING });
  else console.warn(`Warning: ${message}`);
}

/** A memory store in tests; elsewhere the merchant must choose, since the memory store forgets on a restart. */
function defaultStore(): NotificationStore<ProcessingContext> {
  if ((globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.NODE_ENV === 'test') return memoryStore();
  throw new GatewayValidationError(SUMMARY, [
    { path: ['store'], message: `is required outside tests (NODE_ENV=test), so that a restart cannot forget which notifications ran their handler: pass ${STORE_CHOICES}` },
  ]);
}
