/**
 * The two ways a client carries its exchanges on Node (issue 39): node:http(s) with a keep-alive agent, the
 * default, and `fetch`, taken whenever the merchant gives one. The transport and fault suites run on both.
 */
export const CARRIERS = [
  { carrier: 'node:http', fetch: undefined },
  { carrier: 'fetch', fetch: (url: string, init: RequestInit) => globalThis.fetch(url, init) },
] as const;
