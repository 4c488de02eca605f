/**
 * `T` with at least one of the keys `K` present, so a call that names no record does not compile.
 *
 * @example
 * ```ts
 * import type { AtLeastOne } from './one-of.js'; // internal: not exported by the package
 *
 * type CustomerLookup = AtLeastOne<{ email?: string; phone?: string }, 'email' | 'phone'>;
 * const byEmail: CustomerLookup = { email: 'payer@example.com' };
 * // const nothing: CustomerLookup = {}; // does not compile
 * ```
 */
export type AtLeastOne<T, K extends keyof T> = { [P in K]-?: Omit<T, P> & { [Q in P]-?: Exclude<T[Q], undefined> } }[K];

/**
 * `T` with exactly one of the keys `K` present (the others may not be given), so an ambiguous choice
 * does not compile.
 *
 * @example
 * ```ts
 * import type { ExactlyOne } from './one-of.js'; // internal: not exported by the package
 *
 * type Payout = ExactlyOne<{ amount: number; addrServerRequestId?: string; address?: string }, 'addrServerRequestId' | 'address'>;
 * const toDeclared: Payout = { amount: 150000, addrServerRequestId: 'SRV-ADDR-1' };
 * // const both: Payout = { amount: 150000, addrServerRequestId: 'SRV-ADDR-1', address: 'TXYZ…' }; // does not compile
 * ```
 */
export type ExactlyOne<T, K extends keyof T> = {
  [P in K]-?: Omit<T, K> & { [Q in P]-?: Exclude<T[Q], undefined> } & { [Q in Exclude<K, P>]?: never };
}[K];
