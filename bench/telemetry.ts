/**
 * The telemetry case of `npm run bench` (issue 27): the same query over loopback HTTP with and without
 * `openTelemetry()`, on the real OpenTelemetry SDK as a merchant's service runs it (spans batched to an exporter,
 * metrics aggregated for a periodic reader, AsyncLocalStorage context), so the figure is what tracing costs.
 */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { GatewayClient as Client } from '../src/index.js';
import type { openTelemetry as OpenTelemetry } from '../src/opentelemetry.js';
import { asyncBatch, concurrentBatch, medianRatio, race } from './harness.js';

/** Takes the batches and drops them, as an exporter does once they are sent. */
class DroppingExporter implements SpanExporter {
  exported = 0;
  export(spans: ReadableSpan[], done: (result: { code: 0 }) => void): void {
    this.exported += spans.length;
    done({ code: 0 });
  }
  shutdown = () => Promise.resolve();
}

/** Collected on demand (a periodic reader would collect every 60 s): recording still aggregates. */
class IdleReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected onForceFlush = () => Promise.resolve();
  protected onShutdown = () => Promise.resolve();
}

export interface TelemetryCost {
  readonly plainCpuUs: number;
  readonly tracedCpuUs: number;
  /** Median of per-round CPU-per-call ratios, traced / plain. */
  readonly cpuRatio: number;
  readonly spansExported: number;
  /** CPU per call of the telemetry alone, without a client: what the runner asks of it for a query (two spans, two histogram points). */
  readonly ownCpuUs: number;
}

export async function measureTelemetry(GatewayClient: typeof Client, openTelemetry: typeof OpenTelemetry, options: { origin: string; mchNo: string; appId: string; secret: string; mchOrderNo: string; inFlight: number }): Promise<TelemetryCost> {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  const exporter = new DroppingExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter, { maxQueueSize: 8192, scheduledDelayMillis: 200 })] });
  const meterProvider = new MeterProvider({ readers: [new IdleReader()] });
  try {
    const { origin, mchNo, appId, secret, mchOrderNo, inFlight } = options;
    const plain = new GatewayClient({ baseUrl: origin, mchNo, appId, secret });
    const traced = new GatewayClient({ baseUrl: origin, mchNo, appId, secret, telemetry: openTelemetry({ tracerProvider, meterProvider }) });
    const sides = await race(
      {
        plain: concurrentBatch(() => plain.query({ mchOrderNo }), inFlight),
        traced: concurrentBatch(() => traced.query({ mchOrderNo }), inFlight),
      },
      { batchMs: 250, warmupMs: 1_000 },
    );
    // Load on the machine moves the ratio above by several percent either way; the telemetry's own cost does not.
    const telemetry = openTelemetry({ tracerProvider, meterProvider });
    const url = `${origin}/api/pay/query`;
    const own = await race({
      telemetry: asyncBatch(() =>
        telemetry.operation('query', { mchOrderNo }, async (span) => {
          span.attempt(url).end(200);
          span.identify({ mchOrderNo, payOrderId: 'P0' });
        }),
      ),
    });
    await tracerProvider.forceFlush();
    return { plainCpuUs: sides.plain.cpuUsPerOp, tracedCpuUs: sides.traced.cpuUsPerOp, cpuRatio: medianRatio(sides.traced.cpuUs, sides.plain.cpuUs), spansExported: exporter.exported, ownCpuUs: own.telemetry.cpuUsPerOp };
  } finally {
    await tracerProvider.shutdown();
    await meterProvider.shutdown();
    context.disable();
  }
}
