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
} from '../protocol/schemas/settlement.js';
export type { SettlementExpectation as Expectation, SettlementNotification as Notification, VerifySettlementNotificationOptions as VerifyOptions } from '../notify/verify.js';
export type { SettlementProcessorOptions as ProcessorOptions } from '../notify/processor-options.js';
