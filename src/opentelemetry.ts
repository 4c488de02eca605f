/**
 * payment-gateway-sdk/opentelemetry: OpenTelemetry traces and metrics for the client and the notification
 * processor. It imports `@opentelemetry/api` (an optional peer dependency); the main entry never does.
 *
 * @example
 * ```ts
 * import { GatewayClient } from 'payment-gateway-sdk';
 * import { openTelemetry } from 'payment-gateway-sdk/opentelemetry';
 *
 * const client = new GatewayClient({ ...credentials, telemetry: openTelemetry() });
 * ```
 *
 * @packageDocumentation
 * @module payment-gateway-sdk/opentelemetry
 */
export { openTelemetry, type OpenTelemetryOptions } from './telemetry/opentelemetry.js';
// The SDK's own telemetry interface, for bridging another tracing system (the root entry's `telemetry` option takes it).
export type { Telemetry, TelemetryAttempt, TelemetryNotificationOutcome, TelemetrySpan } from './telemetry/telemetry.js';
