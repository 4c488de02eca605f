import * as z from 'zod/mini';

/**
 * Zod schema of the response envelope (spec 2.2): `{ code, msg, data, sign }`; error responses have no
 * `data`/`sign`. A member sent as `null` counts as absent (the client removes nulls before parsing).
 */
export const responseEnvelopeSchema = z.looseObject({
  /** Business code: the success code (200) or an error code (9999, 10, 11, 12, ...). */
  code: z.number({ error: 'must be the numeric business code' }).check(z.refine(Number.isSafeInteger, { error: 'must be an integer' })),
  /** Business message. */
  msg: z.optional(z.string()),
  /** Operation-specific data. */
  data: z.optional(z.unknown()),
  /** Signature over the members of `data`. */
  sign: z.optional(z.string()),
});

/** The response envelope (spec 2.2). */
export type ResponseEnvelope = z.output<typeof responseEnvelopeSchema>;
