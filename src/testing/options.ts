/**
 * The options of `createMockGateway`, checked by one zod schema as the SDK checks its own.
 *
 * @module
 */
import * as z from 'zod/mini';
import { httpUrl, safeInteger, timerDelayMs } from '../protocol/schemas/fields.js';
import { merchantsSchema } from './domain/merchants.js';
import { notificationRoutingSchema } from './domain/notifier.js';
import type { MockGatewayEvent } from './log-lines.js';

const fn = <T>(error: string) => z.optional(z.custom<T>((v) => typeof v === 'function', { error }));

/** Checks {@link MockGatewayOptions}; an unknown option is an error. */
export const mockGatewayOptionsSchema = z.strictObject(
  {
    /** The merchant applications the gateway knows; requests from others are refused. */
    merchants: z.readonly(merchantsSchema),
    /** Start of the simulated clock (milliseconds since the epoch); default `Date.now()` at creation. Ignored by the `real` clock. */
    startTime: z.optional(
      z.number({ error: 'must be a number' }).check(
        z.refine((ms) => Number.isSafeInteger(ms) && ms >= 1e12 && ms < 1e13, { error: 'must be milliseconds since the epoch (13 digits), e.g. Date.UTC(2024, 6, 1)' }),
      ),
    ),
    /**
     * `manual` (default): time moves only through {@link MockGateway.advanceTime}, and notifications go out
     * when you call {@link MockGateway.deliverNotifications}. `real`: the wall clock (plus what you advance);
     * expiries happen on time, each notification is sent at once and retried on schedule by itself.
     */
    clock: z.optional(z.enum(['manual', 'real'], { error: "must be 'manual' or 'real'" })),
    /** Where notifications go (forwarding, loopback only) and the retry step; default each `notifyUrl`, 30 s steps. */
    notifications: z.optional(notificationRoutingSchema),
    /** The envelope `code` of a success; default `200` (the open-source Jeepay uses `0`). */
    successCode: z.optional(safeInteger(Number.MIN_SAFE_INTEGER)),
    /** The fetch that delivers notifications to your `notifyUrl`; default the global `fetch` at delivery time. */
    notifyFetch: fn<typeof globalThis.fetch>('must be a fetch-compatible function'),
    /** Milliseconds (real time) before an unanswered notification attempt fails; default 20000, as the gateway. */
    notifyTimeout: z.optional(timerDelayMs(1)),
    /** The gateway's base URL: msw handlers intercept only below it, and every path is routed below its path. Default any origin, no path. */
    baseUrl: z.optional(httpUrl('https://gateway.test').check(z.minLength(1, { error: 'must not be empty, e.g. https://gateway.test' }))),
    /** How many of the latest requests {@link MockGateway.requests} keeps; default 1000, so long soak runs stay flat. */
    requestLogLimit: z.optional(safeInteger(0)),
    /**
     * Receives each request once answered and each notification attempt, with a line to print
     * ({@link MockGatewayEvent}); the `mock` command prints them. Default: the mock logs nothing.
     */
    log: fn<(event: MockGatewayEvent) => void>('must be a function receiving each event, e.g. (event) => console.log(event.line)'),
  },
  { error: 'must be an object such as { merchants: [{ mchNo, appId, secret }] }' },
);
/**
 * Options of {@link createMockGateway}. Only `merchants` is required; an unknown option is an error.
 *
 * @interface
 * @example
 * ```ts
 * const gateway = createMockGateway({
 *   merchants: [{ mchNo: 'M1700000001', appId: 'app-1', secret: 'test-secret-1' }],
 *   startTime: Date.UTC(2024, 6, 1),
 *   log: (event) => console.log(event.line),
 * });
 * ```
 */
export type MockGatewayOptions = z.input<typeof mockGatewayOptionsSchema>;
