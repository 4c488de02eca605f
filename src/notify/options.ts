/**
 * The options of notification verification: zod schemas, and the types derived from them.
 *
 * @module
 */
import * as z from 'zod/mini';
import { GatewayValidationError, type ValidationIssue } from '../errors/index.js';
import { requiredText, secretText, safeInteger } from '../protocol/schemas/fields.js';
import { lazySchema } from '../protocol/schemas/lazy.js';
import { parseInput } from '../protocol/schemas/parse.js';
import { telemetryOption } from '../telemetry/option.js';
import { notificationKinds, type DeclaredKind, type NotificationKindName } from './kinds.js';

/**
 * The options of a `GatewayClient` that verification has no use for. They are accepted and ignored, so one
 * configuration object serves the client and the verifiers alike (test/notify/options.test.ts holds this
 * list to the client's options).
 */
export const CLIENT_ONLY_OPTIONS = [
  'baseUrl',
  'version',
  'successCode',
  'timeout',
  'totalTimeout',
  'retry',
  'hooks',
  'fetch',
  'verifyResponses',
  'maxResponseBytes',
  'logLevel',
  'logger',
  'telemetry',
] as const;

// The fields are built by the kinds' schemas, on first use (kindOptionsSchemas), not at import.
// `telemetry` keeps its type, so that one configuration object with it also types as a processor's options.
const ignored = () => ({ ...Object.fromEntries(CLIENT_ONLY_OPTIONS.map((name) => [name, z.optional(z.unknown())])), telemetry: telemetryOption() }) as {
  [K in Exclude<(typeof CLIENT_ONLY_OPTIONS)[number], 'telemetry'>]: z.ZodMiniOptional<z.ZodMiniUnknown>;
} & { telemetry: ReturnType<typeof telemetryOption> };

const notificationOptionsShape = () => ({
  /** The merchant application's signing secret. */
  secret: secretText(),
  /** The merchant number the notification must be addressed to. */
  mchNo: requiredText(),
  /** The application id the notification must be addressed to. */
  appId: requiredText(),
  /**
   * Fields to leave out of the signature check and the result: the query parameters of your own
   * `notifyUrl`, which the gateway adds unsigned. A field the gateway signs cannot be ignored. Default `[]`.
   */
  ignoreKeys: z.optional(z.array(requiredText(), { error: 'must be an array of field names' })),
  /**
   * Reject a `reqTime` further than this many milliseconds from `now()`. **Off by default**: the gateway
   * re-sends the original `reqTime` on every retry (minutes later) and on a manual re-send (any time
   * later), so an age limit turns genuine deliveries away.
   */
  maxAgeMs: z.optional(safeInteger(1)),
  /**
   * The most bytes of a body read. A stream or `Request` is cancelled as soon as it passes this, and a
   * larger string, buffer or parsed object is refused, as {@link GatewayPayloadTooLargeError}. Default `65536`.
   */
  maxBodyBytes: z.optional(safeInteger(1)),
  /** The clock for `maxAgeMs`, milliseconds since the epoch. Default `Date.now`. */
  now: z.optional(z.custom<() => number>((v) => typeof v === 'function', { error: 'must be a function returning milliseconds since the epoch' })),
});

// Read for its type: each kind's schema is this one with an `expect` (optionsExpecting).
const notificationOptionsSchema = () => z.strictObject({ ...ignored(), ...notificationOptionsShape() });

/**
 * What both kinds of notification verification take: the merchant application the notification must be
 * signed for and addressed to, and the optional checks. A `GatewayClient`'s options object serves too:
 * its other options (`baseUrl`, `timeout`, ...) are ignored here.
 *
 * @interface
 * @example
 * ```ts
 * import { GatewayClient, verifyNotification, type GatewayClientOptions } from 'payment-gateway-sdk';
 *
 * // One configuration for the client and the notification endpoint.
 * const config: GatewayClientOptions = { baseUrl: 'https://pay.example.com', mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9', secret: process.env.GATEWAY_SECRET! };
 * const client = new GatewayClient(config);
 * await verifyNotification(body, { ...config, expect: { amount: 1999, currency: 'USD' } });
 * ```
 */
export type NotificationOptions = Omit<z.input<ReturnType<typeof notificationOptionsSchema>>, IgnoredClientOption>;

/**
 * A client's options that verification accepts and ignores, so that one configuration object serves both: they
 * are left out of the options' types, whose documentation then lists only what verification reads.
 */
export type IgnoredClientOption = Exclude<(typeof CLIENT_ONLY_OPTIONS)[number], 'telemetry'>;

/** The options of one kind of notification: the common ones, the client's ignored, and the fields its `expect` can pin. */
function optionsExpecting<const Expect extends z.ZodMiniObject>(expect: Expect) {
  return z.strictObject({ ...ignored(), ...notificationOptionsShape(), expect: z.optional(expect) });
}

/** The options schema of a notification kind, as {@link kindOptionsSchemas} holds it. */
export type KindOptionsSchema<Name extends NotificationKindName> = ReturnType<typeof optionsExpecting<(typeof notificationKinds)[Name]['expect']>>;

/**
 * Each kind's options (unknown options are an error), derived from its row in `kinds.ts`. Each is a getter
 * that builds the schema on first use (protocol/schemas/lazy.ts): an import builds none.
 */
export const kindOptionsSchemas = Object.defineProperties(
  {},
  Object.fromEntries(Object.values(notificationKinds).map((kind) => [kind.name, { get: lazySchema(() => optionsExpecting(kind.expect)), enumerable: true }])),
) as { readonly [Name in NotificationKindName]: KindOptionsSchema<Name> };

/**
 * The options a {@link GatewayClient} takes for a notification: its own credentials are used.
 *
 * @example
 * ```ts
 * const checks: Parameters<GatewayClient['verifyNotification']>[1] = { expect: { amount: 1999, currency: 'USD' } };
 * await client.verifyNotification(body, checks);
 * ```
 */
export type ClientNotificationOptions<Options> = Omit<Options, 'secret' | 'mchNo' | 'appId'>;

/**
 * What an expectation must be to check anything (a check with nothing to compare fails closed): every field
 * it names holds a value (`undefined` and `null` are what a record read under another name gives), an amount
 * comes with its currency, and it names at least one field. The schema judges each value's type; these are
 * the issues it cannot see, with paths under `path`.
 */
export function expectationIssues(kind: Pick<DeclaredKind, 'amountField'>, expected: unknown, path: readonly string[]): ValidationIssue[] {
  if (expected === null) return [{ path: [...path], message: 'is null: give the fields the notification must match, or leave expect out' }];
  if (typeof expected !== 'object' || Array.isArray(expected)) return [];
  const fields = expected as Readonly<Record<string, unknown>>;
  const issues: ValidationIssue[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null) {
      issues.push({ path: [...path, key], message: `is ${value}, so it would check nothing: give the value to compare (a record column read under another name, e.g. total_minor as totalMinor, is undefined), or leave ${key} out` });
    }
  }
  const amount = fields[kind.amountField];
  if (amount !== undefined && amount !== null && (fields.currency === undefined || fields.currency === null)) {
    issues.push({ path: [...path, 'currency'], message: `is missing: an amount is checked only with its currency (1000 USD is not 1000 JPY), so give currency with ${kind.amountField}` });
  }
  if (Object.keys(fields).length === 0) issues.push({ path: [...path], message: `checks nothing: give the fields the notification must match (e.g. ${kind.amountField} and currency)` });
  return issues;
}

/** Throws a configuration error when a fixed expectation would check nothing or too little ({@link expectationIssues}). */
export function assertExpectation(kind: Pick<DeclaredKind, 'amountField'>, expected: unknown, summary: string, option = 'expect'): void {
  const issues = expectationIssues(kind, expected, [option]);
  if (issues.length > 0) throw new GatewayValidationError(summary, issues);
}

/**
 * Parses options once, never echoing the secret. `signedFields` are the fields the notification's schema
 * declares: ignoring one of them would return an unverified value as if it were signed, so it is refused.
 */
export function resolveNotificationOptions<Name extends NotificationKindName>(kind: DeclaredKind & { readonly name: Name }, options: unknown): z.output<KindOptionsSchema<Name>> {
  const parsed = parseInput(kindOptionsSchemas[kind.name], options ?? {}, 'Invalid notification options', 'options');
  const signedFields = Object.keys(kind.schema.def.shape);
  const { expect } = parsed as { expect?: unknown };
  if (expect !== undefined) assertExpectation(kind, (options as { expect?: unknown }).expect, 'Invalid notification options');
  const ignoredKeys = (parsed as { ignoreKeys?: readonly string[] }).ignoreKeys ?? [];
  const refused = ignoredKeys.filter((key) => key === 'sign' || signedFields.includes(key));
  if (refused.length > 0) {
    throw new GatewayValidationError(
      'Invalid notification options',
      refused.map((key) => ({ path: ['ignoreKeys'], message: `cannot ignore '${key}': it is a field the gateway signs; list only the query parameters of your own notifyUrl` })),
    );
  }
  return parsed as z.output<KindOptionsSchema<Name>>;
}
