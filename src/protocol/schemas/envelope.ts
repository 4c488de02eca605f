import * as z from 'zod/mini';
import type { Assert, SameShape } from './shape-check.js';

/**
 * Checks the response envelope (spec 2.2). A member sent as `null` counts as absent (the client removes
 * nulls before parsing).
 */
export const responseEnvelopeSchema = z.looseObject({
  code: z.number({ error: 'must be the numeric business code' }).check(z.refine(Number.isSafeInteger, { error: 'must be an integer' })),
  msg: z.optional(z.string()),
  data: z.optional(z.unknown()),
  sign: z.optional(z.string()),
});

/**
 * The response envelope (spec 2.2): `{ code, msg, data, sign }`; a refusal has no `data` and no `sign`.
 *
 * @example
 * ```ts
 * import { expect } from 'vitest';
 * import { GatewayApiError, GatewayClient, type ResponseEnvelope } from 'payment-gateway-sdk';
 *
 * // A test of your refusal handling: the gateway refuses unsigned, with no data.
 * const refusal: ResponseEnvelope = { code: 9999, msg: 'duplicate mchOrderNo' };
 * const client = new GatewayClient({ ...credentials, fetch: async () => Response.json(refusal) });
 * await expect(client.query({ mchOrderNo: 'order-1001' })).rejects.toBeInstanceOf(GatewayApiError);
 * ```
 */
export interface ResponseEnvelope {
  /** Business code: the success code (200) or an error code (9999, 10, 11, 12, ...). */
  code: number;
  /** Business message. */
  msg?: string | undefined;
  /** Operation-specific data. */
  data?: unknown;
  /** Signature over the members of `data`. */
  sign?: string | undefined;
  /** Any other member the gateway adds. */
  [member: string]: unknown;
}
type _ResponseEnvelopeMatch = Assert<SameShape<ResponseEnvelope, z.output<typeof responseEnvelopeSchema>>>;
