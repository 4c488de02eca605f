/**
 * OpenTelemetry: the Node SDK exporting the SDK's traces and metrics over OTLP/HTTP to a collector (by default
 * http://localhost:4318; set OTEL_EXPORTER_OTLP_ENDPOINT), then the shop's client and notification processor
 * reporting to it. Load it before your application: `node --import ./opentelemetry.js server.js`.
 *
 * Needs, besides this SDK, versions that install together (docs/guides/observability.md):
 * npm install @opentelemetry/api@1.10.0 @opentelemetry/sdk-node@0.301.0 @opentelemetry/sdk-metrics@3.1.0
 * @opentelemetry/exporter-trace-otlp-http@0.301.0 @opentelemetry/exporter-metrics-otlp-http@0.301.0
 *
 * (Not run by the tests, which have no collector, and left out of `npm run typecheck`: the repository does
 * not install the Node SDK and the OTLP exporters. test/telemetry/ runs the same wiring on the in-memory SDK.)
 */
import { trace } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { GatewayClient, type NotificationStore, type PaidOrder, type PaymentNotificationProcessor } from 'payment-gateway-sdk';
import { openTelemetry } from 'payment-gateway-sdk/opentelemetry';
import { shopProcessor, type ShopOrders } from './shop.js';

// The Node SDK registers the global tracer and meter providers and the AsyncLocalStorage context manager.
const sdk = new NodeSDK({
  serviceName: 'shop',
  traceExporter: new OTLPTraceExporter(),
  metricReaders: [new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), exportIntervalMillis: 15_000 })],
});
sdk.start();
process.once('SIGTERM', () => void sdk.shutdown().finally(() => process.exit(0)));

// One telemetry for the client and the processor: the global providers the Node SDK registered.
const telemetry = openTelemetry();
const credentials = { mchNo: process.env.GATEWAY_MCH_NO!, appId: process.env.GATEWAY_APP_ID!, secret: process.env.GATEWAY_SECRET! };
const tracer = trace.getTracer('shop');

/**
 * The shop's client and processor, reporting to OpenTelemetry. The processor is the shop's (examples/shop.ts):
 * a notification is accepted only for one of `orders`, at the total and currency recorded, once per payment
 * through `store` (postgresStore or redisStore in production).
 */
export function instrumentedShop(orders: ShopOrders, store: NotificationStore): { client: GatewayClient; processor: PaymentNotificationProcessor } {
  const client = new GatewayClient({ baseUrl: 'https://pay.example.com', ...credentials, telemetry });
  const processor = shopProcessor({ merchant: { ...credentials, telemetry }, orders, store, onPaid: shipInSpan }, client);
  return { client, processor };
}

// Runs inside the payment_gateway.on_paid span: this span is its child, in the notification's trace.
const shipInSpan = (paid: PaidOrder) =>
  tracer.startActiveSpan('ship order', async (span) => {
    try {
      span.setAttribute('shop.order', paid.mchOrderNo);
      await shipOrder(paid.mchOrderNo);
    } finally {
      span.end();
    }
  });

async function shipOrder(mchOrderNo: string): Promise<void> {
  console.log(`shipping ${mchOrderNo}`);
}
