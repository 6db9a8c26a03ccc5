import { BlockList, isIP } from 'node:net';
import { entryProblems } from './served-names';
import { addressFamily, canonicalAddress, HOST_NAME, normaliseHost } from './outbound-address';

const NOT_AN_ENTRY = 'is not a host name, *.wildcard, IP address or CIDR (ports and schemes are not accepted)';

/**
 * SWITCHBOARD_OUTBOUND_ALLOW: host names (`hooks.internal`), wildcards (`*.example.com`: any name
 * under it, not the name itself), IP addresses and CIDRs (`10.0.0.0/8`, `fd00::/8`). Empty: no
 * narrowing. Never widens past the addresses the guard always refuses.
 */
export class OutboundAllowList {
  private readonly names = new Set<string>();
  private readonly suffixes: string[] = [];
  private readonly addresses = new BlockList();
  private anyHost = false;
  readonly restricts: boolean;

  private constructor(entries: readonly string[]) {
    for (const entry of entries) this.add(entry);
    this.restricts = entries.length > 0 && !this.anyHost;
  }

  /** Throws an Error naming the first entry that is none of the accepted forms. */
  static parse(entries: readonly string[]): OutboundAllowList {
    return new OutboundAllowList(entries);
  }

  /** Problems with the entries, one per bad entry; empty when every entry is usable. */
  static problems(entries: readonly string[]): string[] {
    return entryProblems(entries, (entry) => new OutboundAllowList([entry]));
  }

  /** A name entry (exact or wildcard) matches the host; `host` must be normalised. */
  allowsName(host: string): boolean {
    if (this.anyHost || this.names.has(host)) return true;
    return this.suffixes.some((suffix) => host.endsWith(suffix));
  }

  /** An address or CIDR entry contains the address; `address` must be canonical. */
  allowsAddress(address: string): boolean {
    return this.anyHost || this.addresses.check(address, addressFamily(address));
  }

  private add(raw: string): void {
    const entry = raw.trim().toLowerCase();
    if (entry === '*') {
      this.anyHost = true;
      return;
    }
    if (entry.includes('://')) throw new Error(`"${raw}" ${NOT_AN_ENTRY}`);
    if (entry.includes('/')) {
      const [base, bits, ...rest] = entry.split('/');
      const address = canonicalAddress(base);
      const prefix = Number(bits);
      const max = address && isIP(address) === 6 ? 128 : 32;
      if (!address || rest.length > 0 || !/^\d{1,3}$/.test(bits) || prefix > max) {
        throw new Error(`"${raw}" is not a CIDR (e.g. 10.0.0.0/8 or fd00::/8)`);
      }
      this.addresses.addSubnet(address, prefix, addressFamily(address));
      return;
    }
    const address = canonicalAddress(entry);
    if (address) {
      this.addresses.addAddress(address, addressFamily(address));
      return;
    }
    if (entry.startsWith('*.')) {
      const suffix = normaliseHost(entry.slice(2));
      if (!HOST_NAME.test(suffix)) throw new Error(`"${raw}" is not a wildcard of the form *.example.com`);
      this.suffixes.push(`.${suffix}`);
      return;
    }
    const name = normaliseHost(entry);
    if (!HOST_NAME.test(name)) {
      throw new Error(`"${raw}" ${NOT_AN_ENTRY}`);
    }
    this.names.add(name);
  }
}
