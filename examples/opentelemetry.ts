/**
 * OpenTelemetry: the Node SDK exporting the SDK's traces and metrics over OTLP/HTTP to a collector (by default
 * http://localhost:4318; set OTEL_EXPORTER_OTLP_ENDPOINT), then a client and a notification processor reporting
 * to it. Load it before your application: `node --import ./opentelemetry.js server.js`.
 *
 * Needs, besides this SDK: npm install @opentelemetry/api @opentelemetry/sdk-node @opentelemetry/sdk-metrics
 * @opentelemetry/exporter-trace-otlp-http @opentelemetry/exporter-metrics-otlp-http
 *
 * (Not run by the tests, which have no collector, and left out of `npm run typecheck`: the repository does
 * not install the Node SDK and the OTLP exporters. test/telemetry/ runs the same wiring on the in-memory SDK.)
 */
import { trace } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { createNotificationProcessor, GatewayClient, type PayOrderNotification } from 'payment-gateway-sdk';
import { openTelemetry } from 'payment-gateway-sdk/opentelemetry';

// The Node SDK registers the global tracer and meter providers and the AsyncLocalStorage context manager.
const sdk = new NodeSDK({
  serviceName: 'shop',
  traceExporter: new OTLPTraceExporter(),
  metricReader: new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), exportIntervalMillis: 15_000 }),
});
sdk.start();
process.once('SIGTERM', () => void sdk.shutdown().finally(() => process.exit(0)));

// One telemetry for the client and the processor: the global providers the Node SDK registered.
const telemetry = openTelemetry();
const credentials = { mchNo: process.env.GATEWAY_MCH_NO!, appId: process.env.GATEWAY_APP_ID!, secret: process.env.GATEWAY_SECRET! };

export const client = new GatewayClient({ baseUrl: 'https://pay.example.com', ...credentials, telemetry });

const tracer = trace.getTracer('shop');
export const processor = createNotificationProcessor({
  ...credentials,
  telemetry,
  // Runs inside the payment_gateway.on_paid span: this span is its child, in the notification's trace.
  onPaid: (notification: PayOrderNotification) =>
    tracer.startActiveSpan('ship order', async (span) => {
      try {
        span.setAttribute('shop.order', notification.mchOrderNo);
        await shipOrder(notification.mchOrderNo);
      } finally {
        span.end();
      }
    }),
});

async function shipOrder(mchOrderNo: string): Promise<void> {
  console.log(`shipping ${mchOrderNo}`);
}
