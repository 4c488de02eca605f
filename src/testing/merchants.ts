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

/** The configured applications, looked up as the reference server does. */
export class MerchantRegistry {
  readonly #byAppId = new Map<string, MockMerchant>();
  readonly #mchNos = new Set<string>();

  constructor(merchants: readonly MockMerchant[]) {
    if (!Array.isArray(merchants) || merchants.length === 0) {
      throw new TypeError('createMockGateway: give at least one merchant, e.g. { merchants: [{ mchNo, appId, secret }] }');
    }
    for (const [i, merchant] of merchants.entries()) {
      for (const key of ['mchNo', 'appId', 'secret'] as const) {
        if (typeof merchant?.[key] !== 'string' || merchant[key] === '') {
          throw new TypeError(`createMockGateway: merchants[${i}].${key} must be a non-empty string`);
        }
      }
      if (this.#byAppId.has(merchant.appId)) throw new TypeError(`createMockGateway: appId ${merchant.appId} is configured twice`);
      this.#byAppId.set(merchant.appId, { mchNo: merchant.mchNo, appId: merchant.appId, secret: merchant.secret });
      this.#mchNos.add(merchant.mchNo);
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
