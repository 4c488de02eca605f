/**
 * The transfer kind's public names, as `Transfers.*` from the package root: what `transferOrder` and
 * `transferQuery` take and resolve to, the state values and entry types, the notification and what it must match,
 * and what `processor.track` and `processor.sweep` take and hand over of a transfer. A transfer is money **leaving**
 * you: its state 2 is never a payment.
 *
 * @example
 * ```ts
 * import { Transfers } from 'payment-gateway-sdk';
 *
 * const params: Transfers.CreateParams = { mchOrderNo: 'payout-1001', ifCode: 'alipay', entryType: 'ALIPAY_CASH', amount: 1500, currency: 'CNY', accountNo: 'payee@example.com', transferDesc: 'Payout' };
 * const transfer: Transfers.Transfer = await client.transferQuery({ mchOrderNo: params.mchOrderNo });
 * if (transfer.state === Transfers.State.Succeeded) console.log(Transfers.stateName(transfer.state)); // 'Succeeded'
 * ```
 *
 * @module
 */
export {
  TransferOrderState as State,
  transferOrderStateName as stateName,
  TRANSFER_ENTRY_TYPES as ENTRY_TYPES,
  type Transfer,
  type TransferEntryType as EntryType,
  type TransferOrderParams as CreateParams,
  type TransferOrderResult as CreateResult,
  type TransferQueryParams as QueryParams,
} from './declaration.js';
import type { KindNotification, KindVerifyOptions } from '../../notify/verify.js';
import type { KindSweepProblem, KindSweepReport } from '../../notify/sweep-report.js';
import type { Swept as SweptOf, Trackable as TrackableOf, Unconfirmed as UnconfirmedOf } from '../../notify/tracked-types.js';

/**
 * What a transfer processor's notification must match (`expectTransfer`), e.g. from your payout record. The state is
 * not among them: `onTransferred` runs for state 2 only, `onTransferFailed` for 3 and 4.
 *
 * @example
 * ```ts
 * const expected: Transfers.Expectation = { mchOrderNo: 'payout-1001', amount: 1500, currency: 'CNY' };
 * ```
 */
export type Expectation = Omit<NonNullable<VerifyOptions['expect']>, 'state'>;

/**
 * A final transfer as a sweep hands it to `onTransferred` (2) or `onTransferFailed` (3 or 4): the
 * {@link Transfers.Transfer} of a **signed `transferQuery`**, checked against the tracked transfer, with the
 * `idempotencyKey` its notification has (`transfer:${transferId}:${state}`), and no `reqTime`.
 *
 * @interface
 * @example
 * ```ts
 * const onTransferred = async (transfer: Transfers.Notification | Transfers.Swept) => markPaidOut(transfer.mchOrderNo);
 * ```
 */
export type Swept = SweptOf<'transfer'>;

/**
 * A transfer `processor.track` takes: the {@link Transfers.CreateResult} `transferOrder` resolves to, a
 * {@link Transfers.Transfer}, or its two ids.
 *
 * @example
 * ```ts
 * await processor.track(await client.transferOrder(payout));
 * await processor.track({ transferId: 'T1623985459000001', mchOrderNo: 'payout-1000' });
 * ```
 */
export type Trackable = TrackableOf<'transfer'>;

/**
 * A transfer `processor.track` takes when `transferOrder` rejected with `GatewayOutcomeUnknownError`: your
 * `mchOrderNo`, the amount and currency sent, and the `entryType` (a payment is known by `mchOrderNo` too: the
 * parameters you sent may be given as they are). A sweep looks it up by `mchOrderNo`; found, it must be of that amount
 * and currency, else it is `mismatched`; proved absent, it is reported `neverMade`.
 *
 * @example
 * ```ts
 * await processor.track({ mchOrderNo: 'payout-1001', amount: 1500, currency: 'CNY', entryType: 'WX_CASH' });
 * ```
 */
export type Unconfirmed = UnconfirmedOf<'transfer'>;

/**
 * What one sweep did with tracked transfers (`report.transfers`): counts as a refund's, `transferred` and
 * `transferFailed` for the handlers run. A transfer still open a day after its creation is listed among its
 * `problems` as a `warning`: the gateway no longer asks the channel about it and never closes it.
 *
 * @example
 * ```ts
 * const { transfers } = await processor.sweep({ olderThanMs: 60_000 });
 * if (transfers.problems.length > 0) alertOnCall(transfers.problems);
 * ```
 */
export type SweepReport = KindSweepReport<'transfer'>;

/**
 * Why a sweep did not settle a transfer, or a warning about one (`transferId`, `mchOrderNo`, `kind`, `message`).
 *
 * @example
 * ```ts
 * for (const p of report.transfers.problems) log.warn(`${p.kind}: transfer ${p.mchOrderNo} (${p.transferId}): ${p.message}`);
 * ```
 */
export type SweepProblem = KindSweepProblem<'transfer'>;

/**
 * A verified transfer notification: the transfer's fields typed as `transferQuery` returns them, `reqTime`, and
 * `idempotencyKey` (`transfer:${transferId}:${state}`). Its `state` 2 is money that **left** you, never a payment.
 *
 * @interface
 * @example
 * ```ts
 * const transfer: Transfers.Notification = await client.verifyTransferNotification(request);
 * if (transfer.state === 2) await markPaidOut(transfer.mchOrderNo); // 2: succeeded, 3: failed
 * ```
 */
export type Notification = KindNotification<'transfer'>;

/**
 * Options of {@link verifyTransferNotification}: {@link NotificationOptions} and what the transfer must match
 * (`expect`: `mchOrderNo`, `amount` with `currency`, `state`, by default 2 or 3).
 *
 * @interface
 * @example
 * ```ts
 * const options: Transfers.VerifyOptions = {
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9',
 *   expect: { mchOrderNo: 'payout-1001', amount: 1500, currency: 'CNY' },
 * };
 * ```
 */
export type VerifyOptions = KindVerifyOptions<'transfer'>;
