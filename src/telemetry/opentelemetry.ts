/**
 * The {@link Telemetry} of `payment-gateway-sdk/opentelemetry`, on `@opentelemetry/api` alone (never its SDK):
 * spans and metrics named as docs/guides/observability.md lists them. Only this entry imports the api.
 *
 * @module
 */
import {
  context,
  INVALID_SPAN_CONTEXT,
  metrics,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Counter,
  type Histogram,
  type MeterProvider,
  type Span,
  type TracerProvider,
} from '@opentelemetry/api';
import type { Telemetry, TelemetryAttempt, TelemetryNotificationOutcome, TelemetrySpan } from './telemetry.js';

/**
 * The providers {@link openTelemetry} reports to; each defaults to the global one of `@opentelemetry/api`.
 *
 * @example
 * ```ts
 * import { openTelemetry, type OpenTelemetryOptions } from 'payment-gateway-sdk/opentelemetry';
 *
 * // Payments to their own pipeline, the rest of the application to the global one.
 * const options: OpenTelemetryOptions = { tracerProvider: paymentsTracerProvider, meterProvider: paymentsMeterProvider };
 * const telemetry = openTelemetry(options);
 * ```
 */
export interface OpenTelemetryOptions {
  /** Where spans go. Default: the global tracer provider (`trace.setGlobalTracerProvider`, which the Node SDK sets). */
  tracerProvider?: TracerProvider | undefined;
  /** Where metrics go. Default: the global meter provider, looked up again when it changes (registered after this call). */
  meterProvider?: MeterProvider | undefined;
}

const SCOPE = 'payment-gateway-sdk';
// The buckets OpenTelemetry's HTTP semantic conventions advise for durations in seconds.
const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/**
 * OpenTelemetry traces and metrics for a `GatewayClient` and a notification processor: pass the result as
 * their `telemetry` option. Spans: `payment_gateway.<method>` per call (a child of your active span), `POST`
 * per HTTP attempt, lookups of a reconciliation as their own children, `payment_gateway.notification` per
 * delivery with `payment_gateway.on_paid` (or `on_settlement`) around your handler, `payment_gateway.sweep`.
 * Metrics: `http.client.request.duration`, `payment_gateway.client.operation.duration` (seconds),
 * `payment_gateway.notifications`, `payment_gateway.sweep.orders` and `payment_gateway.sweep.refunds`. Nothing recorded holds the secret, a
 * `sign`, the signing string or a body; a failure of the providers never changes an outcome.
 *
 * Needs `@opentelemetry/api` (1.9 or a later 1.x), an optional peer dependency: install it, and an
 * OpenTelemetry SDK to export what is recorded (without one, the api records nothing).
 *
 * @example
 * ```ts
 * import { GatewayClient, createNotificationProcessor } from 'payment-gateway-sdk';
 * import { openTelemetry } from 'payment-gateway-sdk/opentelemetry';
 *
 * const telemetry = openTelemetry(); // the global providers, e.g. those the Node SDK registers
 * const client = new GatewayClient({ ...credentials, telemetry });
 * const processor = createNotificationProcessor({ ...credentials, telemetry, onPaid });
 * ```
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): Telemetry {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE);
  const instruments = instrumentsFrom(options.meterProvider);
  const targetOf = lastTarget();

  const start = (name: string, kind: SpanKind, attributes: Attributes, parent: Context): Span => {
    try {
      return tracer.startSpan(name, { kind, attributes }, parent);
    } catch {
      return trace.wrapSpanContext(INVALID_SPAN_CONTEXT); // a broken provider records nothing, and the call goes on
    }
  };

  /** Runs `run` with `span` active; ends it, ERROR with `error.type` when `run` rejects, and tells `ended`. */
  async function within<R>(span: Span, parent: Context, run: () => Promise<R> | R, ended?: (errorType: string | undefined) => void): Promise<R> {
    let result: R;
    try {
      result = await context.with(trace.setSpan(parent, span), run);
    } catch (error) {
      const type = errorType(error);
      quietly(() => {
        span.setAttribute('error.type', type);
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
        ended?.(type);
      });
      throw error;
    }
    quietly(() => {
      span.end();
      ended?.(undefined);
    });
    return result;
  }

  /** A call's or a lookup's span, with its attempts (their resend count numbered on it) and its own lookups. */
  function callSpan(span: Span, operation: string, parent: Context): TelemetrySpan {
    const active = trace.setSpan(parent, span);
    let attempts = 0;
    return {
      identify: (ids) => quietly(() => span.setAttributes(idAttributes(ids))),
      attempt(url: string): TelemetryAttempt {
        const resent = attempts++;
        const target = targetOf(url);
        const attributes: Attributes = { 'http.request.method': 'POST', ...target };
        if (resent > 0) attributes['http.request.resend_count'] = resent;
        const attempt = start('POST', SpanKind.CLIENT, attributes, active);
        const started = performance.now();
        return {
          end: (status, error) =>
            quietly(() => {
              const outcome: Attributes = {};
              if (status !== undefined) outcome['http.response.status_code'] = status;
              if (error) outcome['error.type'] = errorType(error);
              attempt.setAttributes(outcome);
              if (error) attempt.setStatus({ code: SpanStatusCode.ERROR });
              attempt.end();
              const { 'url.full': _url, ...server } = target;
              instruments().requestDuration.record(secondsSince(started), { 'http.request.method': 'POST', ...server, ...outcome, 'payment_gateway.operation': operation });
            }),
        };
      },
      lookup(lookupOperation, purpose, run) {
        const child = start(`payment_gateway.${lookupOperation}`, SpanKind.INTERNAL, { 'payment_gateway.operation': lookupOperation, 'payment_gateway.purpose': purpose }, active);
        return within(child, active, () => run(callSpan(child, lookupOperation, active)));
      },
    };
  }

  return {
    operation(operation, ids, run) {
      const parent = context.active();
      const span = start(`payment_gateway.${operation}`, SpanKind.INTERNAL, { 'payment_gateway.operation': operation, ...idAttributes(ids) }, parent);
      const started = performance.now();
      return within(span, parent, () => run(callSpan(span, operation, parent)), (type) => {
        const attributes: Attributes = { 'payment_gateway.operation': operation };
        if (type !== undefined) attributes['error.type'] = type;
        instruments().operationDuration.record(secondsSince(started), attributes);
      });
    },

    async notification<R extends TelemetryNotificationOutcome>(kind: string, run: () => Promise<R>, ids: readonly string[] = []): Promise<R> {
      const parent = context.active();
      const span = start('payment_gateway.notification', SpanKind.INTERNAL, { 'payment_gateway.notification.kind': kind }, parent);
      let outcome: R;
      try {
        outcome = await context.with(trace.setSpan(parent, span), run);
      } catch (error) {
        quietly(() => notified(span, kind, { kind: 'failed', error }, ids));
        throw error;
      }
      quietly(() => notified(span, kind, outcome, ids));
      return outcome;
    },

    handler(name, run) {
      const parent = context.active();
      return within(start(`payment_gateway.${name}`, SpanKind.INTERNAL, {}, parent), parent, run);
    },

    sweep(run) {
      const parent = context.active();
      const span = start('payment_gateway.sweep', SpanKind.INTERNAL, {}, parent);
      return within(span, parent, async () => {
        const report = await run();
        quietly(() => {
          for (const [name, value] of countsOf(report)) {
            const count = snakeCase(name);
            span.setAttribute(`payment_gateway.sweep.${count}`, value);
            // The counter counts orders: the sweep's duration is the span's attribute only.
            if (name !== 'durationMs') instruments().sweepOrders.add(value, { 'payment_gateway.sweep.count': count });
          }
          // Each other kind's counts (an object: `refunds`, `transfers`) are on the span as `<field>.<count>`, and each has its counter.
          for (const [field, counts] of Object.entries(report as unknown as Record<string, unknown>)) {
            for (const [name, value] of countsOf(counts)) {
              const count = snakeCase(name);
              span.setAttribute(`payment_gateway.sweep.${field}.${count}`, value);
              instruments().sweepKind(field).add(value, { 'payment_gateway.sweep.count': count });
            }
          }
        });
        return report;
      });
    },
  };

  /** Ends a notification's span with its outcome (and the record's ids, `ids` alone, once verified), and counts it. */
  function notified(span: Span, kind: string, outcome: TelemetryNotificationOutcome, ids: readonly string[]): void {
    span.setAttribute('payment_gateway.notification.outcome', outcome.kind);
    // An allow-list: the notification carries amounts, free text and personal data besides its ids.
    const notification = outcome.notification as Readonly<Record<string, unknown>> | undefined;
    if (notification) span.setAttributes(idAttributes(Object.fromEntries(ids.map((field) => [field, notification[field]]))));
    if (outcome.kind === 'refused' || outcome.kind === 'unhandled' || outcome.kind === 'stale' || outcome.kind === 'failed') {
      span.setAttribute('error.type', errorType(outcome.error));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
    instruments().notifications.add(1, { 'payment_gateway.notification.outcome': outcome.kind, 'payment_gateway.notification.kind': kind });
  }
}

interface Instruments {
  readonly requestDuration: Histogram;
  readonly operationDuration: Histogram;
  readonly notifications: Counter;
  readonly sweepOrders: Counter;
  /** The counter of the sweep report's field that holds another kind's counts: `payment_gateway.sweep.refunds`. */
  sweepKind(field: string): Counter;
}

/** The finite numbers among an object's own fields (a report's counts); none of anything else. */
function countsOf(report: unknown): [string, number][] {
  if (typeof report !== 'object' || report === null) return [];
  return Object.entries(report).filter((entry): entry is [string, number] => typeof entry[1] === 'number' && Number.isFinite(entry[1]));
}

/**
 * The instruments, made again when the global meter provider changes: the api's global meter provider,
 * unlike its tracer provider, has no proxy, and a telemetry made before the SDK starts must not stay silent.
 */
function instrumentsFrom(provider: MeterProvider | undefined): () => Instruments {
  let madeFrom: MeterProvider | undefined;
  let made: Instruments | undefined;
  return () => {
    const current = provider ?? metrics.getMeterProvider();
    if (made && current === madeFrom) return made;
    const meter = current.getMeter(SCOPE);
    const kindCounters = new Map<string, Counter>();
    madeFrom = current;
    return (made = {
      requestDuration: meter.createHistogram('http.client.request.duration', { unit: 's', description: 'Duration of HTTP client requests.', advice: { explicitBucketBoundaries: SECONDS_BUCKETS } }),
      operationDuration: meter.createHistogram('payment_gateway.client.operation.duration', {
        unit: 's',
        description: 'Duration of payment gateway client calls, attempts, waits and lookups included.',
        advice: { explicitBucketBoundaries: SECONDS_BUCKETS },
      }),
      notifications: meter.createCounter('payment_gateway.notifications', { unit: '{notification}', description: 'Notification deliveries handled, by outcome.' }),
      sweepOrders: meter.createCounter('payment_gateway.sweep.orders', { unit: '{order}', description: "Orders counted by sweeps, by the report's count (checked is the total of the others)." }),
      // One per field of the SDK's own report (`refunds`, `transfers`), made when first counted.
      sweepKind(field) {
        const counter =
          kindCounters.get(field) ??
          meter.createCounter(`payment_gateway.sweep.${field}`, {
            unit: `{${field.replace(/s$/, '')}}`,
            description: `${field.charAt(0).toUpperCase()}${field.slice(1)} counted by sweeps, by the count of the report's ${field} (checked is the total of the others).`,
          });
        kindCounters.set(field, counter);
        return counter;
      },
    });
  };
}

/**
 * `url.full` (without credentials, query or fragment), `server.address` and `server.port` of a URL: the
 * client's own (base URL and path), the same for every attempt of an operation, so the last one is kept.
 */
function lastTarget(): (url: string) => Attributes {
  let lastUrl: string | undefined;
  let last: Attributes = {};
  return (url) => {
    if (url === lastUrl) return last;
    lastUrl = url;
    last = {};
    if (!URL.canParse(url)) return last;
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    parsed.hash = '';
    const port = Number(parsed.port) || (parsed.protocol === 'https:' ? 443 : 80);
    return (last = { 'url.full': parsed.href, 'server.address': parsed.hostname.replace(/^\[(.*)\]$/, '$1'), 'server.port': port });
  };
}

/**
 * A record's ids as attributes, `payOrderId` as `payment_gateway.pay_order_id`: the SDK hands only the fields its
 * declarations name records by (the operation rows' and the notification kinds'), never a body or an amount.
 */
function idAttributes(ids: Readonly<Record<string, unknown>>): Attributes {
  const attributes: Attributes = {};
  for (const [field, value] of Object.entries(ids)) {
    if (typeof value === 'string' && value !== '') attributes[`payment_gateway.${snakeCase(field)}`] = value;
  }
  return attributes;
}

/** The error's class name (a `GatewayError`'s `name` is its class), `_OTHER` for what is no Error. */
function errorType(error: unknown): string {
  try {
    return error instanceof Error && typeof error.name === 'string' && error.name ? error.name : '_OTHER';
  } catch {
    return '_OTHER'; // a name getter that throws must not replace the error the caller gets
  }
}

const secondsSince = (started: number) => (performance.now() - started) / 1000;

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Recording must never change an outcome: a failure of the providers is dropped. */
function quietly(record: () => void): void {
  try {
    record();
  } catch {
    /* ignored on purpose */
  }
}
