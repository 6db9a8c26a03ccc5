import { BlockList, isIP } from 'node:net';

// In config rather than outbound: loadConfig checks HOST and SWITCHBOARD_OUTBOUND_ALLOW with these,
// and config imports no feature module (the outbound guard imports them from here).

/**
 * Host names that answer with cloud instance metadata (credentials, user data). Refused by name so
 * the refusal is clear even where they do not resolve; their addresses are refused below as well.
 */
export const METADATA_HOSTS: ReadonlySet<string> = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.internal',
  'instance-data',
  'instance-data.ec2.internal',
]);

function blockList(entries: Array<[string, number]>): BlockList {
  const list = new BlockList();
  for (const [address, prefix] of entries) list.addSubnet(address, prefix, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  return list;
}

/** Never reachable from a webhook or an inline MCP server, whatever SWITCHBOARD_OUTBOUND_ALLOW says. First match names the reason. */
const ALWAYS_REFUSED: ReadonlyArray<{ list: BlockList; reason: string }> = [
  {
    list: blockList([
      ['169.254.169.254', 32],
      ['169.254.170.2', 32],
      ['100.100.100.200', 32],
      ['168.63.129.16', 32], // Azure WireServer (platform agent and DHCP, outside link-local)
      ['192.0.0.192', 32], // Oracle Cloud metadata
      ['fd00:ec2::254', 128],
    ]),
    reason: 'a cloud metadata address',
  },
  {
    list: blockList([
      ['169.254.0.0', 16],
      ['fe80::', 10],
    ]),
    reason: 'a link-local address',
  },
  {
    list: blockList([
      ['0.0.0.0', 8],
      ['::', 128],
    ]),
    reason: 'the unspecified address (it reaches this host)',
  },
  {
    list: blockList([
      ['224.0.0.0', 4],
      ['240.0.0.0', 4],
      ['ff00::', 8],
    ]),
    reason: 'a multicast or reserved address',
  },
];

const LOOPBACK = blockList([
  ['127.0.0.0', 8],
  ['::1', 128],
]);

/**
 * IPv6 forms that are an IPv4 address (its last 32 bits), canonicalised to it: mapped `::ffff:a.b.c.d`,
 * translated `::ffff:0:a.b.c.d`, compatible `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`.
 */
const EMBEDDING_IPV4 = blockList([
  ['::ffff:0:0', 96],
  ['::ffff:0:0:0', 96],
  ['::', 96],
  ['64:ff9b::', 96],
]);

const SIX_TO_FOUR = blockList([['2002::', 16]]);
const TEREDO = blockList([['2001::', 32]]);
const NAT64_LOCAL_USE = blockList([['64:ff9b:1::', 48]]);

const ipv4Of = (high: number, low: number): string => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');

/** The 8 groups of an IPv6 address (any valid text form, dotted IPv4 tail included). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  return tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * An IP address in one form: IPv4 dotted quad (also for IPv4 embedded in IPv6), IPv6 lowercase and
 * compressed; undefined when it is not an IP address. A zone (`fe80::1%eth0`) is dropped.
 */
export function canonicalAddress(value: string): string | undefined {
  const address = value
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase();
  const family = isIP(address);
  if (family === 4) return address;
  if (family !== 6) return undefined;
  const groups = ipv6Groups(address);
  const isUnspecifiedOrLoopback = groups.slice(0, 7).every((g) => g === 0) && groups[7] <= 1;
  if (!isUnspecifiedOrLoopback && EMBEDDING_IPV4.check(address, 'ipv6')) {
    return ipv4Of(groups[6], groups[7]);
  }
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

/**
 * IPv4 addresses an IPv6 address carries and is routed towards, which the guard judges like the
 * plain address: 6to4 `2002:AABB:CCDD::/48` (bits 16-47), Teredo `2001:0::/32` (the server in bits
 * 32-63, the client's public address inverted in the last 32 bits), and NAT64 local-use
 * `64:ff9b:1::/48` (the last 32 bits, as a /96 prefix embeds them). `address` must be canonical.
 */
export function embeddedIpv4(address: string): string[] {
  if (isIP(address) !== 6) return [];
  const groups = ipv6Groups(address);
  if (SIX_TO_FOUR.check(address, 'ipv6')) return [ipv4Of(groups[1], groups[2])];
  if (TEREDO.check(address, 'ipv6')) return [ipv4Of(groups[2], groups[3]), ipv4Of(groups[6] ^ 0xffff, groups[7] ^ 0xffff)];
  if (NAT64_LOCAL_USE.check(address, 'ipv6')) return [ipv4Of(groups[6], groups[7])];
  return [];
}

export function addressFamily(address: string): 'ipv4' | 'ipv6' {
  return isIP(address) === 6 ? 'ipv6' : 'ipv4';
}

/** A DNS name as config lists it (labels of letters, digits, `-`, `_`; 253 characters at most), normalised. */
export const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,62}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,62}[a-z0-9_])?)*$/;

/**
 * A URL's host as the guard compares it: lowercase, without IPv6 brackets or trailing dots, an IP
 * address in canonical form. WHATWG URL has already turned `2130706433` and `0x7f.0.0.1` into 127.0.0.1.
 */
export function normaliseHost(hostname: string): string {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '');
  return canonicalAddress(host) ?? host;
}

/** Why an address may never be called, or undefined. `address` must be canonical. */
export function alwaysRefusedReason(address: string): string | undefined {
  const family = addressFamily(address);
  return ALWAYS_REFUSED.find(({ list }) => list.check(address, family))?.reason;
}

/** 127.0.0.0/8 or ::1 (canonical address); `localhost` names count too, for HOST. */
export function isLoopback(hostOrAddress: string): boolean {
  const host = normaliseHost(hostOrAddress);
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && LOOPBACK.check(host, addressFamily(host));
}
