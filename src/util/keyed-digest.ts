/**
 * A digest keyed by a secret, kept where a later check must compare a value that may not be stored (a payee's
 * account): HMAC-SHA-256 through Web Crypto (Node, Bun, Deno and Workers have it), lower-case hex. Without the
 * secret, nobody can tell which value a digest is of, however few the values are.
 *
 * @module
 */

const encoder = new TextEncoder();

/** Makes the digest function of one secret; its key is imported once, on first use. */
export function keyedDigest(secret: string): (text: string) => Promise<string> {
  let key: Promise<CryptoKey> | undefined;
  return async (text) => {
    key ??= crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await key, encoder.encode(text)));
    return Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
  };
}
