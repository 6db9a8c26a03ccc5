import { isIP } from 'node:net';
import { canonicalAddress, HOST_NAME, normaliseHost } from './outbound-address';

// In config rather than common: loadConfig checks SWITCHBOARD_ALLOWED_HOSTS and SWITCHBOARD_ALLOWED_ORIGINS
// with these, and config imports nothing of common (the request-origin rules import them from here).

/** `name`, `1.2.3.4` or `[v6]`, then an optional `:port`; no user part, path or space (a Host header never has them). */
const AUTHORITY = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s[\]@/\\?#:]+))(?::(\d{1,5}))?$/;

/** A host and port as a request names them; `port` undefined when the request gave none. */
export interface HostAndPort {
  /** Lowercase, no trailing dot, an IP address in canonical form (IPv6 without brackets). */
  host: string;
  port: number | undefined;
}

/** A Host header (or an allowed-host entry) read strictly; undefined when it is not `host[:port]`. */
export function parseAuthority(value: string): HostAndPort | undefined {
  const match = AUTHORITY.exec(value.trim());
  if (!match) return undefined;
  const [, bracketed, plain, portText] = match;
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && (port < 1 || port > 65535)) return undefined;
  if (bracketed !== undefined) {
    if (isIP(bracketed) !== 6) return undefined;
    return { host: canonicalAddress(bracketed) ?? bracketed.toLowerCase(), port };
  }
  const host = normaliseHost(plain);
  if (isIP(host) === 0 && !HOST_NAME.test(host)) return undefined;
  return { host, port };
}

/** `host[:port]` again, IPv6 in brackets: for messages and the start log. */
export function formatAuthority({ host, port }: HostAndPort): string {
  const name = isIP(host) === 6 ? `[${host}]` : host;
  return port === undefined ? name : `${name}:${port}`;
}

/** One SWITCHBOARD_ALLOWED_HOSTS entry: a name (or `*.suffix`: any name under it) or an IP address, on one port or any. */
export interface AllowedHost {
  host: string;
  /** `*.example.com`: `host` is `.example.com` and matches names that end with it. */
  wildcard: boolean;
  port: number | undefined;
}

const NOT_A_HOST = 'is not a host name, *.wildcard or IP address with an optional :port (schemes and paths are not accepted)';

/** Throws an Error naming the entry when it is none of the accepted forms. */
export function parseAllowedHost(entry: string): AllowedHost {
  const text = entry.trim();
  if (text === '*' || text.startsWith('*:')) {
    throw new Error(`"${entry}" would let any Host through, DNS-rebound names included: list the names clients use instead`);
  }
  const wildcard = text.startsWith('*.');
  // A bare IPv6 address has no port: its colons are its own.
  const parsed = parseAuthority(wildcard ? text.slice(2) : isIP(text) === 6 ? `[${text}]` : text);
  if (!parsed || (wildcard && isIP(parsed.host) !== 0)) throw new Error(`"${entry}" ${NOT_A_HOST}`);
  return { host: wildcard ? `.${parsed.host}` : parsed.host, wildcard, port: parsed.port };
}

/** An http(s) origin, as a browser sends it in `Origin` (`URL.origin`: no default port, lowercase host). */
export function parseAllowedOrigin(entry: string): string {
  const text = entry.trim();
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  const bare = url !== undefined && url.username === '' && url.password === '' && url.search === '' && url.hash === '' && url.pathname === '/';
  if (!url || !/^https?:$/.test(url.protocol) || !bare || text.includes('*') || !/^https?:\/\/[^/]+\/?$/i.test(text)) {
    throw new Error(`"${entry}" is not an origin: write scheme://host[:port], e.g. https://console.example.com (no path, no wildcard)`);
  }
  return url.origin;
}

/** Problems with the entries, one per bad entry; empty when every entry is usable. */
export function entryProblems(entries: readonly string[], parse: (entry: string) => unknown): string[] {
  return entries.flatMap((entry) => {
    try {
      parse(entry);
      return [];
    } catch (error) {
      return [(error as Error).message];
    }
  });
}
