import type * as z from 'zod/mini';
import { GatewayValidationError } from '../../errors/index.js';
import { REPORT_INPUT, toValidationIssues } from './issues.js';

/** Validates a factory's options when it is called, so that a wrong option fails at start-up, not on a payment. */
export function parseFactoryOptions<Schema extends z.ZodMiniObject>(factory: string, schema: Schema, options: unknown): z.output<Schema> {
  const parsed = schema.safeParse(options ?? {}, REPORT_INPUT);
  if (!parsed.success) {
    throw new GatewayValidationError(`Invalid ${factory} options`, toValidationIssues(parsed.error.issues, { keys: Object.keys(schema.def.shape), of: 'options' }));
  }
  return parsed.data;
}
