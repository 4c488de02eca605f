/** `T` with at least one of the keys `K` present. */
export type AtLeastOne<T, K extends keyof T> = { [P in K]: Omit<T, P> & Required<Pick<T, P>> }[K];

/** `T` with exactly one of the keys `K` present (the others may not be given). */
export type ExactlyOne<T, K extends keyof T> = {
  [P in K]: Omit<T, K> & Required<Pick<T, P>> & { [Q in Exclude<K, P>]?: never };
}[K];
