/**
 * The merchant applications the mock knows, looked up as the reference server does.
 *
 * @module
 */
import * as z from 'zod/mini';
import { requiredText } from '../../protocol/schemas/fields.js';
import { MESSAGES, refuse } from './refusals.js';

/**
 * A merchant application the mock gateway knows: its merchant number, application id and signing secret.
 * Several applications may share one `mchNo`.
 *
 * @example
 * ```ts
 * const merchant: MockMerchant = { mchNo: 'M1700000001', appId: 'app-1', secret: 'test-secret-1' };
 * createMockGateway({ merchants: [merchant] });
 * ```
 */
export interface MockMerchant {
  readonly mchNo: string;
  readonly appId: string;
  readonly secret: string;
}

/** The interfaces every mock application is configured for (of these, only alipay and wxpay transfer and divide). */
export const CONFIGURED_IF_CODES: readonly string[] = ['alipay', 'wxpay', 'ysfpay'];

/** The key of a merchant's own reference (its mchOrderNo, its requestId): the same text from two merchants is two records. */
export function merchantScoped(mchNo: string, reference: string): string {
  return `${mchNo}\u0000${reference}`;
}

/** At least one application, each `appId` once; other members are ignored, so the client's options object can serve. */
export const merchantsSchema = z.array(z.object({ mchNo: requiredText(), appId: requiredText(), secret: requiredText() }), { error: 'must be an array of { mchNo, appId, secret }' }).check(
  z.minLength(1, { error: 'must list at least one merchant application, e.g. [{ mchNo, appId, secret }]' }),
  z.superRefine((merchants, ctx) => {
    const seen = new Set<string>();
    for (const [i, { appId }] of merchants.entries()) {
      if (seen.has(appId)) ctx.issues.push({ code: 'custom', message: `appId ${appId} is configured twice: give each application once`, input: appId, path: [i, 'appId'] });
      seen.add(appId);
    }
  }),
);

export class MerchantRegistry {
  readonly #byAppId = new Map<string, MockMerchant>();
  readonly #mchNos = new Set<string>();

  /** @param merchants - checked by {@link merchantsSchema} */
  constructor(merchants: readonly MockMerchant[]) {
    for (const { mchNo, appId, secret } of merchants) {
      this.#byAppId.set(appId, { mchNo, appId, secret });
      this.#mchNos.add(mchNo);
    }
  }

  /** The application for a request, or the reference server's refusal. */
  authenticate(mchNo: string, appId: string): MockMerchant {
    const app = this.#byAppId.get(appId);
    if (!app || !this.#mchNos.has(mchNo)) throw refuse(MESSAGES.unknownMerchant);
    if (app.mchNo !== mchNo) throw refuse(MESSAGES.appIdMismatch);
    return app;
  }

  /** Every application, in the order configured. */
  list(): MockMerchant[] {
    return [...this.#byAppId.values()];
  }

  /** The application by id (for signing notifications). */
  get(appId: string): MockMerchant | undefined {
    return this.#byAppId.get(appId);
  }
}
