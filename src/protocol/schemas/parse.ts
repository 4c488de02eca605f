import type * as z from 'zod/mini';
import { GatewayValidationError } from '../../errors/index.js';
import { REPORT_INPUT, toValidationIssues } from './issues.js';

/**
 * Parses input (parameters or options) with its zod schema: the one way every input of the SDK is checked.
 * Every problem is reported at once as a {@link GatewayValidationError}; unknown keys are named, with a
 * "did you mean" for a case slip. String values are never echoed (they may be personal data or the secret).
 *
 * @param of - what the input is, for the message about an unknown key: the fields of a request or options
 */
export function parseInput<S extends z.ZodMiniType>(schema: S, input: unknown, summary: string, of: 'request' | 'options', operation?: string): z.output<S> {
  const parsed = schema.safeParse(input, REPORT_INPUT);
  if (parsed.success) return parsed.data;
  const shape = (schema as unknown as { def?: { shape?: object } }).def?.shape;
  throw new GatewayValidationError(summary, toValidationIssues(parsed.error.issues, shape ? { keys: Object.keys(shape), of } : undefined), { operation });
}
