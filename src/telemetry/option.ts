import * as z from 'zod/mini';
import type { Telemetry } from './telemetry.js';

const TELEMETRY_METHODS = ['operation', 'notification', 'handler', 'sweep'] as const;

/** The `telemetry` option of the client and of the notification processor. */
export const telemetryOption = () =>
  z.optional(
    z.custom<Telemetry>((v: unknown) => typeof v === 'object' && v !== null && TELEMETRY_METHODS.every((m) => typeof (v as Record<string, unknown>)[m] === 'function'), {
      error: "must be a telemetry: openTelemetry() from 'payment-gateway-sdk/opentelemetry'",
    }),
  );
