/**
 * Who may talk to the mock's HTTP server (its own `Host`, no state change from another web page's `Origin`),
 * and the origin its links use, never the request's `Host`: docs/guides/mock-command.md, "What the mock accepts".
 *
 * @module
 */

import * as z from 'zod/mini';

/** `0.0.0.0` and `::` listen on every interface. */
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** The accepted `Host` and `Origin` values of one server, and the origin its pages and `payData` use. */
export class AddressPolicy {
  /** `http://host:port` of the listen address (an IPv6 address in brackets): the server's `url`. */
  readonly listenOrigin: string;
  /** Where people reach the mock unless a connection says otherwise: the public URL's origin, else {@link AddressPolicy.listenOrigin}. */
  readonly publicOrigin: string;
  readonly #port: number;
  readonly #publicUrl: URL | undefined;
  readonly #wildcard: boolean;
  readonly #interfaces: () => readonly string[];
  /** `host:port` of the listen address and of `localhost`: the own origins are `http://` + these. */
  readonly #ownHosts: readonly string[];

  /**
   * @param interfaces - the machine's interface addresses (asked on each request to a wildcard address, so a new DHCP lease counts)
   */
  constructor(listenHost: string, port: number, publicUrl: URL | undefined, interfaces: () => readonly string[]) {
    this.#port = port;
    this.#wildcard = WILDCARDS.has(listenHost);
    this.listenOrigin = `http://${bracketed(listenHost)}:${port}`;
    this.publicOrigin = publicUrl?.origin ?? this.listenOrigin;
    this.#publicUrl = publicUrl;
    this.#interfaces = interfaces;
    this.#ownHosts = [`${bracketed(listenHost).toLowerCase()}:${port}`, `localhost:${port}`];
  }

  /** The plain-text reason a request is refused (answered 403), or `undefined` when it may go on. */
  refusal(method: string, target: string, host: string | undefined, origin: string | undefined): string | undefined {
    if (!target.startsWith('/')) return `mock gateway: refused: the request target must be a path (received ${JSON.stringify(target.slice(0, 200))}).\n`;
    if (host === undefined || !this.#acceptsHost(host.toLowerCase())) {
      return (
        `mock gateway: refused: the Host header ${host === undefined ? 'is missing' : JSON.stringify(host.slice(0, 200))}; this mock answers only requests ` +
        `addressed to itself: ${this.#acceptedHosts().join(', ')}. A page of another name that resolves to this machine (DNS rebinding) ` +
        `must not read it. Reach it by one of those, or give the name you use as its public URL (--public-url URL, listen({ publicUrl })).\n`
      );
    }
    if (origin !== undefined && !SAFE_METHODS.has(method) && !this.#acceptsOrigin(origin.toLowerCase())) {
      return (
        `mock gateway: refused: a ${method} from the web page at ${JSON.stringify(origin.slice(0, 200))}; only the mock's own pages ` +
        `(${this.#acceptedOrigins().join(', ')}) may change its state. Requests without an Origin header (your backend, the SDK, curl) are accepted.\n`
      );
    }
    return undefined;
  }

  /**
   * The origin of the mock's links and `payData`: the public URL, else the listen address; on a wildcard
   * address, the address of the interface the connection came in on (a phone on the LAN gets the LAN address).
   */
  origin(localAddress: string | undefined): string {
    if (this.#wildcard && !this.#publicUrl && localAddress) return `http://${bracketed(unmapped(localAddress))}:${this.#port}`;
    return this.publicOrigin;
  }

  #acceptsHost(host: string): boolean {
    const port = `:${this.#port}`;
    // Browsers leave out a scheme's default port.
    const withPort = this.#port === 80 && !/:\d+$/.test(host) ? `${host}${port}` : host;
    if (this.#ownHosts.includes(withPort)) return true;
    if (this.#publicUrl && (host === this.#publicUrl.host || host === `${this.#publicUrl.hostname}:${this.#publicUrl.port || defaultPort(this.#publicUrl)}`)) return true;
    return this.#wildcard && this.#interfaceHosts().includes(withPort);
  }

  #acceptsOrigin(origin: string): boolean {
    if (this.#publicUrl && origin === this.#publicUrl.origin) return true;
    return origin.startsWith('http://') && this.#acceptsHost(origin.slice('http://'.length));
  }

  #interfaceHosts(): string[] {
    return this.#interfaces().map((address) => `${bracketed(unmapped(address)).toLowerCase()}:${this.#port}`);
  }

  #acceptedHosts(): string[] {
    return [...this.#ownHosts, ...(this.#publicUrl ? [this.#publicUrl.host] : []), ...(this.#wildcard ? this.#interfaceHosts() : [])];
  }

  #acceptedOrigins(): string[] {
    const own = [...this.#ownHosts, ...(this.#wildcard ? this.#interfaceHosts() : [])].map((h) => `http://${h}`);
    return this.#publicUrl ? [this.#publicUrl.origin, ...own] : own;
  }
}

/** A public URL for the mock: an http(s) origin (no path, query, fragment or credentials). */
export const publicOriginSchema = z.string({ error: 'must be a string' }).check(
  z.refine(isPublicOrigin, { error: 'must be an http(s) origin such as http://192.168.1.20:4010 or https://mock.example (no path, query or credentials)' }),
);

function isPublicOrigin(url: string): boolean {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  return parsed !== undefined && /^https?:$/.test(parsed.protocol) && !parsed.username && !parsed.password && parsed.pathname === '/' && !parsed.search && !parsed.hash;
}

function defaultPort(url: URL): number {
  return url.protocol === 'https:' ? 443 : 80;
}

/** An IPv6 address in brackets, as it appears in a `Host` header or a URL. */
function bracketed(address: string): string {
  return address.includes(':') && !address.startsWith('[') ? `[${address}]` : address;
}

/** `::ffff:127.0.0.1` (an IPv4 client of a `::` server) as `127.0.0.1`. */
function unmapped(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice('::ffff:'.length) : address;
}
