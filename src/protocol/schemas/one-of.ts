/**
 * `T` with at least one of the keys `K` present, so a call that names no record does not compile.
 *
 * @example
 * ```ts
 * import type { QueryParams } from 'payment-gateway-sdk';
 *
 * // QueryParams needs at least one of payOrderId and mchOrderNo.
 * const byNumber: QueryParams = { mchOrderNo: 'order-1001' };
 * // const nothing: QueryParams = {}; // does not compile
 * ```
 */
export type AtLeastOne<T, K extends keyof T> = { [P in K]-?: Omit<T, P> & { [Q in P]-?: Exclude<T[Q], undefined> } }[K];

/**
 * `T` with exactly one of the keys `K` present (the others may not be given), so an ambiguous choice
 * does not compile.
 *
 * @example
 * ```ts
 * import type { Settlements } from 'payment-gateway-sdk';
 *
 * // Settlements.RequestParams takes exactly one destination: a declared address's id, or an address.
 * const toDeclared: Settlements.RequestParams = {
 *   requestId: 'settle-2024-07', amount: 150000, tokenId: 'TRON_USDT', payoutChannel: 'Crypto', currency: 'USD', addrServerRequestId: 'SRV-ADDR-1',
 * };
 * // const both: Settlements.RequestParams = { ...toDeclared, address: 'TXYZ…' }; // does not compile
 * ```
 */
export type ExactlyOne<T, K extends keyof T> = {
  [P in K]-?: Omit<T, K> & { [Q in P]-?: Exclude<T[Q], undefined> } & { [Q in Exclude<K, P>]?: never };
}[K];
