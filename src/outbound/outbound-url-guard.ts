import * as dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import * as os from 'node:os';
import { alwaysRefusedReason, canonicalAddress, embeddedIpv4, isLoopback, METADATA_HOSTS, normaliseHost, OutboundAllowList } from '../config';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to (dns.lookup with all: true, so /etc/hosts counts). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: HostResolver = (hostname) => dns.promises.lookup(hostname, { all: true });

export type OutboundVerdict =
  | { allowed: true }
  /** `unresolved`: the host name did not resolve, so nothing was refused for what it is. */
  | { allowed: false; reason: string; unresolved?: boolean };

/** The code of the error a guarded connection fails with when the guard refuses its address at connect time. */
export const OUTBOUND_REFUSED = 'ERR_OUTBOUND_REFUSED';

/** URLs whose DNS-free verdict is kept; past this the cache starts over (sessions name few webhooks). */
const KEPT_VERDICTS = 1000;

export class OutboundConnectRefusedError extends Error {
  readonly code = OUTBOUND_REFUSED;
}

export interface OutboundUrlGuardOptions {
  /** SWITCHBOARD_OUTBOUND_ALLOW entries. */
  allow: readonly string[];
  /** The port this service's HTTP listener is bound to, when known: calls to it are self-calls. */
  ownPort?: () => number | undefined;
  resolve?: HostResolver;
  /** This host's own interface addresses; default: os.networkInterfaces(). */
  localAddresses?: () => readonly string[];
}

/**
 * spec: issue 10 §2. Every outbound call the service makes for an API caller (webhook tools, inline
 * remote MCP servers) goes through here: link-local and cloud metadata addresses and names are
 * always refused, SWITCHBOARD_OUTBOUND_ALLOW narrows the rest, and the service's own listener is
 * refused. `check` resolves the host now; `lookupFor` re-checks what the name resolves to when the
 * connection is made, so a DNS answer that changes after the check (rebinding) cannot slip past.
 */
export class OutboundUrlGuard {
  private readonly allow: OutboundAllowList;
  private readonly resolve: HostResolver;
  private readonly ownPort: () => number | undefined;
  private readonly localAddresses: () => readonly string[];
  private interfaceAddresses?: Set<string>;
  /** checkWithoutDns's verdicts by URL (pure given the allow list and the own port), a bounded few. */
  private readonly withoutDns = new Map<string, { ownPort: number | undefined; verdict: OutboundVerdict }>();

  constructor(options: OutboundUrlGuardOptions) {
    this.allow = OutboundAllowList.parse(options.allow);
    this.resolve = options.resolve ?? systemResolver;
    this.ownPort = options.ownPort ?? (() => undefined);
    this.localAddresses = options.localAddresses ?? interfaceAddresses;
  }

  /** The full check, DNS included: for URLs given at session create. */
  async check(url: string): Promise<OutboundVerdict> {
    const target = this.parse(url);
    if ('reason' in target) return { allowed: false, reason: target.reason };
    if (target.literal) return this.verdict(target.host, [target.host], target.port);
    let resolved: ResolvedAddress[];
    try {
      resolved = await this.resolve(target.host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      return { allowed: false, unresolved: true, reason: `${target.host} does not resolve (${code})` };
    }
    if (resolved.length === 0) return { allowed: false, unresolved: true, reason: `${target.host} does not resolve` };
    return this.verdict(
      target.host,
      resolved.map((r) => r.address),
      target.port,
    );
  }

  /**
   * What can be decided without DNS: the scheme, metadata names, an IP address given literally. A
   * name is allowed here and checked again by `lookupFor` when the connection is made.
   */
  checkWithoutDns(url: string): OutboundVerdict {
    // A webhook's URL is checked on every call: the verdict is kept while the own port it used stays.
    const ownPort = this.ownPort();
    const known = this.withoutDns.get(url);
    if (known && known.ownPort === ownPort) return known.verdict;
    const target = this.parse(url);
    let verdict: OutboundVerdict;
    if ('reason' in target) verdict = { allowed: false, reason: target.reason };
    else if (target.literal) verdict = this.verdict(target.host, [target.host], target.port);
    else verdict = { allowed: true };
    if (this.withoutDns.size >= KEPT_VERDICTS) this.withoutDns.clear();
    this.withoutDns.set(url, { ownPort, verdict });
    return verdict;
  }

  /** A `lookup` for http(s).request: resolves like dns.lookup, then refuses what `check` refuses. */
  lookupFor(port: number): LookupFunction {
    return (hostname, options, callback) => {
      const host = normaliseHost(hostname);
      const early = this.nameReason(host);
      if (early) {
        callback(new OutboundConnectRefusedError(early), '', 0);
        return;
      }
      this.resolve(hostname).then(
        (all) => {
          const verdict = this.verdict(
            host,
            all.map((r) => r.address),
            port,
          );
          if (!verdict.allowed) {
            callback(new OutboundConnectRefusedError(verdict.reason), '', 0);
            return;
          }
          const family = options.family === 4 || options.family === 6 ? options.family : undefined;
          const usable = family ? all.filter((r) => r.family === family) : all;
          if (usable.length === 0) {
            const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
            error.code = 'ENOTFOUND';
            callback(error, '', 0);
          } else if (options.all) callback(null, usable);
          else callback(null, usable[0].address, usable[0].family);
        },
        (error: NodeJS.ErrnoException) => callback(error, '', 0),
      );
    };
  }

  private parse(url: string): { host: string; port: number; literal: boolean } | { reason: string } {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return { reason: 'is not a valid URL' };
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') return { reason: `${target.protocol} is not http or https` };
    const host = normaliseHost(target.hostname);
    const reason = this.nameReason(host);
    if (reason) return { reason };
    const port = target.port ? Number(target.port) : target.protocol === 'https:' ? 443 : 80;
    return { host, port, literal: canonicalAddress(host) !== undefined };
  }

  private nameReason(host: string): string | undefined {
    if (METADATA_HOSTS.has(host)) return `${host} is a cloud metadata host`;
    return undefined;
  }

  /** An address that carries an IPv4 address (6to4, Teredo, NAT64) passes only if what it carries would too. */
  private verdict(host: string, addresses: readonly string[], port: number): OutboundVerdict {
    for (const raw of addresses) {
      const address = canonicalAddress(raw) ?? raw;
      const where = address === host ? address : `${host} (${address})`;
      for (const judged of [address, ...embeddedIpv4(address)]) {
        const reason = this.addressReason(judged === address ? where : `${where} embedding ${judged}`, host, judged, port);
        if (reason) return { allowed: false, reason };
      }
    }
    return { allowed: true };
  }

  /** Why `address` (called `subject` in the reason) may not be called; undefined when it may. */
  private addressReason(subject: string, host: string, address: string, port: number): string | undefined {
    const always = alwaysRefusedReason(address);
    if (always) return `${subject} is ${always}`;
    if (this.isOwnListener(address, port)) return `${subject}:${port} is this service's own HTTP listener`;
    if (this.allow.restricts && !this.allow.allowsName(host) && !this.allow.allowsAddress(address))
      return `${subject} is not in SWITCHBOARD_OUTBOUND_ALLOW`;
    return undefined;
  }

  private isOwnListener(address: string, port: number): boolean {
    if (port !== this.ownPort()) return false;
    if (isLoopback(address)) return true;
    this.interfaceAddresses ??= new Set(this.localAddresses().map((a) => canonicalAddress(a) ?? a));
    return this.interfaceAddresses.has(address);
  }
}

function interfaceAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flat()
    .filter((i): i is os.NetworkInterfaceInfo => i !== undefined)
    .map((i) => i.address);
}
