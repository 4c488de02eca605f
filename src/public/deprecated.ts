/**
 * Root names kept for one release after their kind's group took them over.
 *
 * @module
 */
import { State } from './refunds.js';

/**
 * A refund's state codes: {@link Refunds.State}, under its name before the groups.
 *
 * @deprecated Use `Refunds.State` (`Refunds.State.Succeeded`); this name leaves the root in the next release.
 * @example
 * ```ts
 * const refund = await client.refundQuery({ mchRefundNo: 'refund-1001' });
 * if (refund.state === RefundOrderState.Succeeded) console.log('refunded');
 * ```
 */
export const RefundOrderState = State;
/** A refund state code, 0 to 4: {@link Refunds.State}. @deprecated Use `Refunds.State`. */
export type RefundOrderState = State;
