import {
  canonicalAddress,
  isLoopback,
  normaliseHost,
  type AllowedHost,
  formatAuthority,
  type HostAndPort,
  parseAllowedHost,
  parseAuthority,
} from '../../config';

/** What the rules read of a request (an HTTP request or a WebSocket handshake), headers as sent. */
export interface RequestFacts {
  method: string;
  host: string | undefined;
  origin: string | undefined;
  secFetchSite: string | undefined;
  secFetchMode: string | undefined;
  /** `Sec-Fetch-Dest`: what the answer becomes (`document` for a top-level page, `iframe` for a frame, …). */
  secFetchDest: string | undefined;
  contentType: string | undefined;
  /** The address and port of this service the connection arrived at. */
  localAddress: string | undefined;
  localPort: number | undefined;
  /** A WebSocket handshake (`Upgrade: websocket`): it opens a channel for queries and mutations. */
  upgrade: boolean;
}

/** The answer to a refused request, in the API's error shape. */
export interface RequestRefusal {
  statusCode: 403 | 415 | 421;
  code: 'unknown_host' | 'cross_origin_refused' | 'unsupported_media_type';
  message: string;
}

export interface ServedNamesConfig {
  /** HOST: a specific address or name is one more name of this service; 0.0.0.0 and :: are not. */
  listenHost: string;
  /** SWITCHBOARD_PUBLIC_URL: its host (and port) is served, its origin may call. */
  publicUrl: string | undefined;
  /** SWITCHBOARD_ALLOWED_HOSTS entries. */
  allowedHosts: readonly string[];
  /** SWITCHBOARD_ALLOWED_ORIGINS, each already an `URL.origin`. */
  allowedOrigins: readonly string[];
}

const UNSPECIFIED = new Set(['0.0.0.0', '::', '']);
const DEFAULT_PORT: Record<string, number> = { 'http:': 80, 'https:': 443 };
/** The only request methods a browser sends cross-origin without asking first (CORS "simple" methods). */
const SAFE_METHODS = new Set(['GET', 'HEAD']);
/**
 * A navigation that shows the page in its own tab or window. `iframe`, `frame`, `embed`, `object` and
 * `fencedframe` navigate too, but inside the other site's page (clickjacking, issue 39).
 */
const TOP_LEVEL_DESTINATION = 'document';

/**
 * Which requests this service answers (issue 22: cross-site WebSocket hijacking, DNS rebinding,
 * cross-site simple requests). Pure: every decision comes from the request's headers and the
 * socket's local address, so the HTTP middleware and the WebSocket upgrade share it.
 *
 * 1. Host (421 `unknown_host`): the request must name this service: a loopback name or address on the
 *    port it arrived at, the IP address it arrived at, HOST when specific, SWITCHBOARD_PUBLIC_URL's host,
 *    or an entry of SWITCHBOARD_ALLOWED_HOSTS. A DNS name an attacker rebinds to this machine is none
 *    of these, so a page on it is never served, not even the console.
 * 2. Origin (403 `cross_origin_refused`): a browser request (it carries `Origin`, or `Sec-Fetch-Site`)
 *    from a page that is not this service's own origin (the accepted Host, SWITCHBOARD_PUBLIC_URL's
 *    origin) or in SWITCHBOARD_ALLOWED_ORIGINS is refused: every WebSocket handshake and every method
 *    on every path, reads included (an EventSource or a no-cors GET gets nothing), save one: a
 *    top-level navigation (GET, `Sec-Fetch-Mode: navigate`, `Sec-Fetch-Dest: document`), which shows
 *    the person a page and hands the other site nothing. A frame's load is a navigation too, but into
 *    the other site's page, where it could be overlaid and clicked through: it is refused like a fetch. Clients that are not browsers send neither header and are not concerned.
 * 3. Content type (415): a POST must say `Content-Type: application/json` (a body is optional), so a
 *    form, a `text/plain` or a body-less POST (the requests a browser sends cross-site without a
 *    preflight) never reaches a route. Other methods cannot be sent cross-site without a preflight.
 */
export class RequestOriginRules {
  private readonly listenHost: string | undefined;
  private readonly publicHost: HostAndPort | undefined;
  private readonly publicOrigin: string | undefined;
  private readonly allowedHosts: AllowedHost[];
  private readonly allowedOrigins: ReadonlySet<string>;

  constructor(config: ServedNamesConfig) {
    const listen = canonicalAddress(config.listenHost.trim()) ?? normaliseHost(config.listenHost.trim());
    this.listenHost = UNSPECIFIED.has(listen) ? undefined : listen;
    if (config.publicUrl) {
      const url = new URL(config.publicUrl);
      this.publicOrigin = url.origin;
      this.publicHost = { host: parseAuthority(url.host)?.host ?? url.hostname, port: url.port ? Number(url.port) : DEFAULT_PORT[url.protocol] };
    }
    this.allowedHosts = config.allowedHosts.map(parseAllowedHost);
    this.allowedOrigins = new Set(config.allowedOrigins);
  }

  /** Why the request is refused, the first rule it breaks; undefined when it is served. */
  refusalOf(facts: RequestFacts): RequestRefusal | undefined {
    return this.hostRefusal(facts) ?? this.originRefusal(facts) ?? contentTypeRefusal(facts);
  }

  /** The Host names served besides SWITCHBOARD_ALLOWED_HOSTS' entries, for the start log. */
  servedHosts(port: number): string[] {
    return [
      `localhost, *.localhost, 127.0.0.0/8 and [::1] on port ${port}`,
      'the IP address a request arrives at, on its port',
      ...(this.listenHost ? [formatAuthority({ host: this.listenHost, port })] : []),
      ...(this.publicHost ? [formatAuthority(this.publicHost)] : []),
      ...this.allowedHosts.map((entry) => formatAuthority({ host: entry.wildcard ? `*${entry.host}` : entry.host, port: entry.port })),
    ];
  }

  /** A name of this service other than loopback and the arrival address: what a non-loopback HOST needs for names. */
  get namesConfigured(): boolean {
    return this.publicHost !== undefined || this.allowedHosts.length > 0;
  }

  private hostRefusal(facts: RequestFacts): RequestRefusal | undefined {
    const named = facts.host === undefined ? undefined : parseAuthority(facts.host);
    if (named && this.serves(named, facts)) return undefined;
    const what = facts.host === undefined ? 'A request without a Host header' : `Host ${JSON.stringify(facts.host.slice(0, 200))}`;
    return {
      statusCode: 421,
      code: 'unknown_host',
      message:
        `${what} does not name this service, so it is not served (a DNS name rebound to this machine looks like this). ` +
        'Call it by localhost or its IP address, or add the name clients use to SWITCHBOARD_ALLOWED_HOSTS (or set SWITCHBOARD_PUBLIC_URL)',
    };
  }

  private serves(named: HostAndPort, facts: RequestFacts): boolean {
    const onArrivalPort = (named.port ?? DEFAULT_PORT['http:']) === facts.localPort;
    if (onArrivalPort && isLoopback(named.host)) return true;
    const arrival = facts.localAddress === undefined ? undefined : canonicalAddress(facts.localAddress);
    if (onArrivalPort && arrival !== undefined && named.host === arrival) return true;
    if (onArrivalPort && named.host === this.listenHost) return true;
    if (this.publicHost && named.host === this.publicHost.host && (named.port ?? this.publicHost.port) === this.publicHost.port) return true;
    return this.allowedHosts.some(
      (entry) => (entry.wildcard ? named.host.endsWith(entry.host) : named.host === entry.host) && (entry.port === undefined || entry.port === named.port),
    );
  }

  private originRefusal(facts: RequestFacts): RequestRefusal | undefined {
    const foreign = this.foreignOrigin(facts);
    if (foreign === undefined) return undefined;
    if (isTopLevelNavigation(facts)) return undefined;
    return {
      statusCode: 403,
      code: 'cross_origin_refused',
      message:
        `${foreign}: only pages this service serves may call it. ` +
        'A console or tool on another origin must be listed in SWITCHBOARD_ALLOWED_ORIGINS (scheme://host[:port])',
    };
  }

  /** What makes the request a foreign browser request, or undefined when it is same-origin or not from a browser. */
  private foreignOrigin(facts: RequestFacts): string | undefined {
    if (facts.origin !== undefined) {
      const origin = facts.origin.trim();
      if (origin === 'null') return 'A request from an opaque origin (Origin: null: a sandboxed frame, a file: page, a redirect) is refused';
      if (this.isOwnOrigin(origin, facts.host)) return undefined;
      return `A request from a page on ${JSON.stringify(origin.slice(0, 200))} is refused`;
    }
    const site = facts.secFetchSite?.trim().toLowerCase();
    if (site === undefined || site === 'same-origin' || site === 'none') return undefined;
    return `A browser request from another site (Sec-Fetch-Site: ${JSON.stringify(site.slice(0, 40))}) is refused`;
  }

  private isOwnOrigin(origin: string, host: string | undefined): boolean {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    // A browser sends the serialized origin (lowercase, no default port, no path); anything else is no page's.
    const port = DEFAULT_PORT[url.protocol];
    if (port === undefined || url.origin !== origin) return false;
    if (this.allowedOrigins.has(url.origin) || url.origin === this.publicOrigin) return true;
    // Same origin: the page was served under the very Host this request names (accepted by the Host rule).
    const named = host === undefined ? undefined : parseAuthority(host);
    const page = parseAuthority(url.host);
    if (!named || !page) return false;
    return named.host === page.host && (named.port ?? port) === (page.port ?? port);
  }
}

/** A person opening a page in a tab or window (a link, the address bar), not a frame inside another page. */
function isTopLevelNavigation(facts: RequestFacts): boolean {
  return (
    SAFE_METHODS.has(facts.method) &&
    !facts.upgrade &&
    facts.secFetchMode?.trim().toLowerCase() === 'navigate' &&
    facts.secFetchDest?.trim().toLowerCase() === TOP_LEVEL_DESTINATION
  );
}

function contentTypeRefusal(facts: RequestFacts): RequestRefusal | undefined {
  if (facts.method !== 'POST') return undefined;
  const mediaType = (facts.contentType ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType === 'application/json') return undefined;
  return {
    statusCode: 415,
    code: 'unsupported_media_type',
    message:
      `${facts.contentType === undefined ? 'A POST without Content-Type' : `Content-Type ${JSON.stringify(facts.contentType.slice(0, 100))}`} is refused: ` +
      'send Content-Type: application/json (with {} when there is nothing to say)',
  };
}
