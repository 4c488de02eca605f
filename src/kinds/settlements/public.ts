/**
 * The settlement kind's public names, as `Settlements.*` from the package root: what `settleAddressApply`,
 * `settleRequest` and `settleRequestGet` take and resolve to, and the notification and what it must match.
 *
 * @example
 * ```ts
 * import type { Settlements } from 'payment-gateway-sdk';
 *
 * const params: Settlements.RequestParams = { requestId: 'settle-2024-07', tokenId: 'TRON_USDT', amount: 150000, currency: 'USD', payoutChannel: 'Crypto', address: 'TXYZ1234' };
 * const result: Settlements.Result = await client.settleRequest(params);
 * const record: Settlements.Settlement = await client.settleRequestGet({ requestId: params.requestId });
 * ```
 *
 * @module
 */
export type {
  SettleAddressApplyParams as AddressApplyParams,
  SettleRequestGetParams as RequestGetParams,
  SettleRequestParams as RequestParams,
  SettlementRecord as Settlement,
  SettlementResult as Result,
} from './schemas.js';
import type { KindExpectation, KindNotification, VerifyOptionsOf } from '../../notify/verify.js';
import type { Handler, NotificationProcessorOptions } from '../../notify/processor-options.js';
import type { ProcessingContext } from '../../notify/store.js';

/**
 * A verified settlement notification: the settlement-record fields (`amount` and `status` as numbers),
 * `mchNo`, `appId` and `reqTime` (required: a signed `settleRequestGet` answer lacks them), unknown extra
 * fields kept, and `idempotencyKey`
 * (`${serverRequestId}:${status}`).
 *
 * @interface
 * @example
 * ```ts
 * const s: Settlements.Notification = await client.verifySettlementNotification(request);
 * console.log(s.requestId, s.status, s.amount);
 * ```
 */
export type Notification = KindNotification<'settlement'>;

/**
 * What a settlement notification must match, e.g. from your settlement record.
 *
 * @interface
 * @example
 * ```ts
 * import type { Settlements } from 'payment-gateway-sdk';
 *
 * const asRequested: Settlements.Expectation = { requestId: 'settle-2024-07', amount: 150000, currency: 'USD', tokenId: 'TRON_USDT' };
 * ```
 */
export type Expectation = KindExpectation<'settlement'>;

/**
 * Options of {@link verifySettlementNotification}: {@link NotificationOptions} and what the callback must
 * match (`expect`; a mismatch is a {@link GatewayValidationError}).
 *
 * @interface
 * @example
 * ```ts
 * const options: Settlements.VerifyOptions = {
 *   secret: process.env.GATEWAY_SECRET!, mchNo: 'M1623984572', appId: '60cc09bce4b0f1c0b83761c9',
 *   expect: { requestId: 'settle-2024-07', amount: 150000, currency: 'USD' },
 * };
 * ```
 */
export type VerifyOptions = VerifyOptionsOf<'settlement'>;


/**
 * Options of a processor with `onSettlement` (see {@link NotificationProcessorOptions}).
 *
 * @example
 * ```ts
 * const options: Settlements.ProcessorOptions = {
 *   ...credentials,
 *   onSettlement: async (settlement) => recordSettlement(settlement.requestId, settlement.status),
 * };
 * ```
 */
export type ProcessorOptions<Context extends ProcessingContext = ProcessingContext> = NotificationProcessorOptions<Context> & { readonly onSettlement: Handler<Notification, Context> };
