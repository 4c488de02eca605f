import * as z from 'zod/mini';

/**
 * Checks the response envelope (spec 2.2). A member sent as `null` counts as absent (the client removes
 * nulls before parsing).
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

/**
 * The response envelope (spec 2.2): `{ code, msg, data, sign }`; a refusal has no `data` and no `sign`.
 *
 * @interface
 * @example
 * ```ts
 * import { expect } from 'vitest';
 * import { GatewayApiError, GatewayClient } from 'payment-gateway-sdk';
 * import { type ResponseEnvelope } from './envelope.js'; // internal: not exported by the package
 *
 * // A test of your refusal handling: the gateway refuses unsigned, with no data.
 * const refusal: ResponseEnvelope = { code: 9999, msg: 'duplicate mchOrderNo' };
 * const client = new GatewayClient({ ...credentials, fetch: async () => Response.json(refusal) });
 * await expect(client.query({ mchOrderNo: 'order-1001' })).rejects.toBeInstanceOf(GatewayApiError);
 * ```
 */
export type ResponseEnvelope = z.output<typeof responseEnvelopeSchema>;
