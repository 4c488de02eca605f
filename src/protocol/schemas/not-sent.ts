/**
 * Parameters the SDK reads and never sends: the caller's own words that the parameter schema turns into wire fields
 * (`releaseAllToMerchant: true` is sent as an empty `receivers`). The gateway does not know them, so they are not
 * among an operation's wire fields: the client never signs one, and the mock refuses one signed (`验签失败`), as
 * the reference does.
 *
 * @module
 */
import * as z from 'zod/mini';
import { marked } from './free-text.js';

// The SDK's own parameter schemas marked not sent: filled by the schema builders, never by received data.
const notSentFields = z.registry<{ readonly notSent: true }>();

/** Marks a parameter's schema as never sent: `releaseAllToMerchant: z.optional(notSent(z.literal(true)))`. */
export function notSent<S extends z.ZodMiniType>(schema: S): S {
  notSentFields.add(schema, { notSent: true });
  return schema;
}

/** Whether a parameter's schema (or the schema it wraps) is marked {@link notSent}. */
export const isNotSent = (schema: z.core.$ZodType | undefined): boolean => marked(notSentFields, schema);
