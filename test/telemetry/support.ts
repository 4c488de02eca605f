// The real OpenTelemetry SDK, in memory: spans to an InMemorySpanExporter, metrics to a reader collected on demand.
import type { Attributes } from '@opentelemetry/api';
import { MeterProvider, MetricReader, type DataPoint, type MetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

class CollectingReader extends MetricReader {
  protected onForceFlush = () => Promise.resolve();
  protected onShutdown = () => Promise.resolve();
}

export interface InMemoryOpenTelemetry {
  readonly exporter: InMemorySpanExporter;
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  spans(): ReadableSpan[];
  /** Every metric recorded so far (cumulative), by name. */
  metrics(): Promise<Map<string, MetricData>>;
}

export function inMemoryOpenTelemetry(): InMemoryOpenTelemetry {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    exporter,
    tracerProvider,
    meterProvider,
    spans: () => exporter.getFinishedSpans(),
    async metrics() {
      const { resourceMetrics } = await reader.collect();
      return new Map(resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics.map((metric) => [metric.descriptor.name, metric] as const)));
    },
  };
}

export const idOf = (span: ReadableSpan) => span.spanContext().spanId;
export const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
export const childrenOf = (spans: readonly ReadableSpan[], parent: ReadableSpan) => spans.filter((span) => parentOf(span) === idOf(parent)).sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);

/** A span tree as text, one span a line: what the observability guide shows. */
export function spanTree(spans: readonly ReadableSpan[], root: ReadableSpan, depth = 0): string {
  const shown = Object.entries(root.attributes).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ');
  const line = `${'  '.repeat(depth)}${root.name}${shown ? ` ${shown}` : ''}${root.status.code === 2 ? ' [ERROR]' : ''}`;
  return [line, ...childrenOf(spans, root).map((child) => spanTree(spans, child, depth + 1))].join('\n');
}

/** The points of a metric whose attributes include `match`. */
export function pointsOf(metric: MetricData | undefined, match: Attributes = {}): DataPoint<unknown>[] {
  return ((metric?.dataPoints ?? []) as DataPoint<unknown>[]).filter((point) => Object.entries(match).every(([k, v]) => point.attributes[k] === v));
}
