/**
 * The rules of the `baseUrl` option beyond "an absolute http(s) URL": what would send requests elsewhere
 * than meant, or print a password in every error and log line.
 *
 * @module
 */
import { definitionOf, OPERATION_NAMES } from '../operations/table.js';

// The leading segments of every operation's path (`/api`, `/api/pay`, `/api/pay/query`, ...): a base URL
// ending in one of them doubles it, since each path is appended to the base URL.
const GATEWAY_PREFIXES = [
  ...new Set(
    OPERATION_NAMES.flatMap((operation) => {
      const segments = definitionOf(operation).path.split('/').slice(1);
      return segments.map((_, i) => `/${segments.slice(0, i + 1).join('/')}`);
    }),
  ),
].sort((a, b) => b.length - a.length);

/**
 * What is wrong with a base URL that parses as an http(s) URL, or `undefined` when nothing is. The message
 * never repeats the URL: it may hold a password.
 */
export function baseUrlMistake(baseUrl: string): string | undefined {
  const url = new URL(baseUrl);
  if (url.username !== '' || url.password !== '') {
    return 'must not hold credentials (user:password@): the gateway authenticates each request by its signature, and a base URL is shown in errors and logs; remove them';
  }
  if (url.search !== '' || url.hash !== '' || /[?#]/.test(baseUrl)) {
    return "must not have a query (?...) or a fragment (#...): each operation's path is appended to baseUrl, so its requests would go elsewhere; give the gateway's root, e.g. https://pay.example.com";
  }
  const path = url.pathname.replace(/\/+$/, '');
  const prefix = GATEWAY_PREFIXES.find((p) => path.endsWith(p));
  if (prefix !== undefined) {
    return `ends in ${prefix}, which the operations' paths already start with (e.g. /api/pay/query), so requests would go to ...${prefix}/api/...; leave ${prefix} out: give the gateway's root, e.g. https://pay.example.com`;
  }
  return undefined;
}
