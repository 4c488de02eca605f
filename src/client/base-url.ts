/**
 * Checks of the `baseUrl` option that explain a wrong one: the client's warning when it is created and the
 * message of a 404 both use them.
 *
 * @module
 */

/**
 * Whether a base URL ends in `/api` (trailing slashes aside): every operation's path already starts with
 * `/api`, so its requests would go to `.../api/api/...`.
 */
export function baseUrlEndsInApi(baseUrl: string): boolean {
  return /\/api\/*$/.test(new URL(baseUrl).pathname);
}
