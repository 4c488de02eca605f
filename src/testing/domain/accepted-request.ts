import type { MockMerchant } from './merchants.js';

/** A request the gateway bound, authenticated and verified: the merchant application and the operation's own fields. */
export interface AcceptedRequest {
  readonly app: MockMerchant;
  /** The operation's own fields that have a value (`""` counts as not given, as in the reference's checks). */
  readonly params: Readonly<Record<string, string | number>>;
  /** Fields sent as `""`: the reference stores them, so queries and notifications echo them (unsigned). */
  readonly blank: ReadonlySet<string>;
}
