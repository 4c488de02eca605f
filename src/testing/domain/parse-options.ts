/**
 * The mock's options and control arguments are checked as the SDK checks its own: a zod schema, and a
 * {@link GatewayValidationError} listing every issue with its path.
 *
 * @module
 */
import type * as z from 'zod/mini';
import { GatewayValidationError } from '../../errors/index.js';
import { REPORT_INPUT, toValidationIssues } from '../../protocol/schemas/issues.js';

/**
 * `value` as `schema` reads it.
 *
 * @param what - what was given, for the message: `createMockGateway options`, `injectFault options`...
 * @throws {@link GatewayValidationError} naming each problem and what to give instead
 */
export function parseOptions<Schema extends z.ZodMiniType>(schema: Schema, value: unknown, what: string): z.output<Schema> {
  const parsed = schema.safeParse(value, REPORT_INPUT);
  if (parsed.success) return parsed.data;
  const shape = (schema.def as { shape?: Record<string, unknown> }).shape;
  throw new GatewayValidationError(`Invalid ${what}`, toValidationIssues(parsed.error.issues, shape && { keys: Object.keys(shape), of: 'options' }));
}
