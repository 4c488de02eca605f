// The README's "Observability" block: the lines between the readme markers are the README's, written by npm run docs:readme.
import { createNotificationProcessor, GatewayClient, type GatewayClientOptions, type NotificationStore, type PaymentExpectation, type PayOrderNotification } from 'payment-gateway-sdk';

declare const credentials: GatewayClientOptions;
declare const store: NotificationStore;
declare const expect: (n: PayOrderNotification) => Promise<PaymentExpectation | undefined>;
declare const onPaid: (n: PayOrderNotification) => Promise<void>;

// #region readme
import { openTelemetry } from 'payment-gateway-sdk/opentelemetry';

const telemetry = openTelemetry(); // the global providers; or openTelemetry({ tracerProvider, meterProvider })
const client = new GatewayClient({ ...credentials, telemetry });
const processor = createNotificationProcessor({ ...credentials, store, expect, telemetry, onPaid });
// #endregion readme
void client;
void processor;
