import type { LookupAddress } from 'node:dns';
import { canonicalAddress, embeddedIpv4, isLoopback, normaliseHost, OutboundAllowList } from '../config';
import { type HostResolver, OUTBOUND_REFUSED, OutboundUrlGuard, type ResolvedAddress } from './outbound-url-guard';

/** A resolver answering from a table; a name not in it does not resolve (ENOTFOUND). */
function table(entries: Record<string, string | string[]>): HostResolver {
  return async (hostname) => {
    const answer = entries[hostname.toLowerCase()];
    if (answer === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return (Array.isArray(answer) ? answer : [answer]).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

const OWN_PORT = 3000;
const guard = (allow: string[] = [], resolve: HostResolver = table({})) =>
  new OutboundUrlGuard({ allow, resolve, ownPort: () => OWN_PORT, localAddresses: () => ['10.9.8.7', 'fe80::1'] });

const lookup = (g: OutboundUrlGuard, host: string, port: number, options: { all?: boolean; family?: number } = {}) =>
  new Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number }>((resolve) =>
    g.lookupFor(port)(host, options, (error, address, family) => resolve({ error, address, family })),
  );

describe('normaliseHost / canonicalAddress', () => {
  it.each([
    ['127.0.0.1.', '127.0.0.1'],
    ['[::1]', '::1'],
    ['[::ffff:a9fe:a9fe]', '169.254.169.254'],
    ['::ffff:169.254.169.254', '169.254.169.254'],
    ['0:0:0:0:0:ffff:7f00:1', '127.0.0.1'],
    ['[64:ff9b::a9fe:a9fe]', '169.254.169.254'],
    ['::a9fe:a9fe', '169.254.169.254'],
    ['[FD00:EC2:0:0:0:0:0:254]', 'fd00:ec2::254'],
    ['Metadata.Google.Internal..', 'metadata.google.internal'],
    ['fe80::1%eth0', 'fe80::1'],
    ['::', '::'],
    ['::ffff:0:a9fe:a9fe', '169.254.169.254'],
    ['2002:a9fe:a9fe::1', '2002:a9fe:a9fe::1'],
  ])('%s -> %s', (input, expected) => {
    expect(normaliseHost(input)).toBe(expected);
  });

  it.each([
    ['2002:a9fe:a9fe::1', ['169.254.169.254']], // 6to4: bits 16-47
    ['2002:7f00:1:5::9', ['127.0.0.1']],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', ['65.54.227.120', '192.0.2.45']], // Teredo (RFC 4380's example): server, then client inverted
    ['2001::a9fe:a9fe:0:0:5601:5601', ['169.254.169.254', '169.254.169.254']],
    ['64:ff9b:1::a9fe:a9fe', ['169.254.169.254']], // NAT64 local-use
    ['2001:db8::a9fe:a9fe', []],
    ['169.254.169.254', []],
  ])('%s embeds %p', (address, embedded) => {
    expect(embeddedIpv4(canonicalAddress(address)!)).toEqual(embedded);
  });

  it('tells addresses from names', () => {
    expect(canonicalAddress('example.com')).toBeUndefined();
    expect(canonicalAddress('10.0.0.1')).toBe('10.0.0.1');
  });

  it.each(['127.0.0.1', '127.8.9.10', '::1', '[::1]', 'localhost', 'LOCALHOST.', 'api.localhost', '::ffff:127.0.0.1'])('%s is loopback', (host) => {
    expect(isLoopback(host)).toBe(true);
  });

  it.each(['0.0.0.0', '::', '10.0.0.1', 'example.com', '192.168.1.1'])('%s is not loopback', (host) => {
    expect(isLoopback(host)).toBe(false);
  });
});

describe('OutboundUrlGuard', () => {
  describe('always refuses link-local and cloud metadata, in every spelling', () => {
    it.each([
      'http://169.254.169.254/latest/meta-data/',
      'http://2852039166/', // 169.254.169.254 as one decimal number
      'http://0xa9fea9fe/',
      'http://0251.0376.0251.0376/',
      'http://169.254.43518/',
      'http://[::ffff:169.254.169.254]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[fd00:ec2::254]/',
      'http://100.100.100.200/latest/meta-data/',
      'http://169.254.170.2/v2/credentials',
      'https://169.254.1.1/',
      'http://[fe80::1]/',
      'http://[fe80::abcd:1]:8080/',
      'http://168.63.129.16/machine?comp=goalstate', // Azure WireServer
      'http://192.0.0.192/latest/', // Oracle Cloud
      'http://[::ffff:0:a9fe:a9fe]/', // IPv4-translated
      'http://[::a9fe:a9fe]/', // IPv4-compatible
      'http://[2002:a9fe:a9fe::]/', // 6to4
      'http://[2002:a83f:8110::1]/', // 6to4 of 168.63.129.16
      'http://[2001:0:a9fe:a9fe::1]/', // Teredo server
      'http://[2001:0:cb00:7101::5601:5601]/', // Teredo client 169.254.169.254 (inverted) behind a public server
      'http://[64:ff9b:1::c000:c0]/', // NAT64 local-use of 192.0.0.192
    ])('%s', async (url) => {
      const verdict = await guard().check(url);
      expect(verdict).toEqual({ allowed: false, reason: expect.stringMatching(/cloud metadata address|link-local address/) });
      expect(guard().checkWithoutDns(url)).toEqual(verdict);
    });

    it.each(['http://metadata.google.internal/computeMetadata/v1/', 'http://METADATA.google.internal./', 'http://metadata/', 'http://metadata.goog/'])(
      '%s is refused by name, without resolving it',
      async (url) => {
        const resolve = jest.fn(table({}));
        expect(await guard([], resolve).check(url)).toEqual({ allowed: false, reason: expect.stringContaining('is a cloud metadata host') });
        expect(resolve).not.toHaveBeenCalled();
      },
    );

    it.each(['http://0.0.0.0:8080/', 'http://0/', 'http://[::]/', 'http://0.1.2.3/'])('%s (the unspecified address reaches this host)', async (url) => {
      expect(await guard().check(url)).toEqual({ allowed: false, reason: expect.stringContaining('the unspecified address') });
    });

    it('refuses a name that resolves to a metadata address, naming both', async () => {
      const verdict = await guard([], table({ 'evil.example': '169.254.169.254' })).check('http://evil.example/');
      expect(verdict).toEqual({ allowed: false, reason: 'evil.example (169.254.169.254) is a cloud metadata address' });
    });

    it('refuses a name when any one of its addresses is refused', async () => {
      const verdict = await guard([], table({ 'mixed.example': ['93.184.216.34', '::ffff:169.254.169.254'] })).check('http://mixed.example/');
      expect(verdict).toMatchObject({ allowed: false, reason: 'mixed.example (169.254.169.254) is a cloud metadata address' });
    });

    it('names the address a 6to4, Teredo or NAT64 address embeds', async () => {
      expect(await guard().check('http://[2002:a9fe:a9fe::1]/')).toEqual({
        allowed: false,
        reason: '2002:a9fe:a9fe::1 embedding 169.254.169.254 is a cloud metadata address',
      });
      const viaName = await guard([], table({ 'tunnel.example': '2001:0:4136:e378::5601:5601' })).check('http://tunnel.example/');
      expect(viaName).toEqual({
        allowed: false,
        reason: 'tunnel.example (2001:0:4136:e378::5601:5601) embedding 169.254.169.254 is a cloud metadata address',
      });
    });

    it('refuses metadata even when the allow list names it', async () => {
      const g = guard(['169.254.0.0/16', '*', 'metadata.google.internal', '2002::/16', '2001::/32', '64:ff9b:1::/48', '168.63.129.16', '192.0.0.192']);
      expect(await g.check('http://169.254.169.254/')).toMatchObject({ allowed: false });
      expect(await g.check('http://168.63.129.16/')).toMatchObject({ allowed: false });
      expect(await g.check('http://192.0.0.192/')).toMatchObject({ allowed: false });
      expect(await g.check('http://[2002:a9fe:a9fe::]/')).toMatchObject({ allowed: false });
      expect(await g.check('http://[2001:0:a9fe:a9fe::]/')).toMatchObject({ allowed: false });
      expect(await g.check('http://[64:ff9b:1::a9fe:a9fe]/')).toMatchObject({ allowed: false });
      expect(await g.check('http://metadata.google.internal/')).toMatchObject({ allowed: false });
    });
  });

  describe('the default allows public, private and loopback addresses (sidecars keep working)', () => {
    it.each([
      'http://10.1.2.3/hook',
      'http://172.16.0.5/',
      'http://192.168.1.10:8080/',
      'http://127.0.0.1:9/',
      'https://93.184.216.34/',
      'http://[::1]:8080/',
      'http://[fd12::1]/',
    ])('%s', async (url) => {
      expect(await guard().check(url)).toEqual({ allowed: true });
    });

    it('allows a name resolving to loopback on another port', async () => {
      expect(await guard([], table({ 'sidecar.local': '127.0.0.1' })).check('http://sidecar.local:8081/')).toEqual({ allowed: true });
    });
  });

  describe("the service's own listener", () => {
    it.each([
      'http://127.0.0.1:3000/api/sessions',
      'http://2130706433:3000/api/sessions',
      'http://0x7f.0.0.1:3000/',
      'http://0177.0.0.1:3000/',
      'http://127.1:3000/',
      'http://[::1]:3000/',
      'http://[::ffff:127.0.0.1]:3000/',
      'http://10.9.8.7:3000/', // one of this host's interface addresses
      'http://[2002:7f00:1::]:3000/', // 6to4 of 127.0.0.1
      'http://[64:ff9b:1::a09:807]:3000/', // NAT64 local-use of 10.9.8.7
    ])('%s is refused as a self-call', async (url) => {
      expect(await guard().check(url)).toEqual({ allowed: false, reason: expect.stringContaining(":3000 is this service's own HTTP listener") });
    });

    it('refuses a name that resolves to loopback on the own port', async () => {
      const verdict = await guard([], table({ localhost: ['::1', '127.0.0.1'] })).check('http://localhost:3000/health');
      expect(verdict).toMatchObject({ allowed: false, reason: "localhost (::1):3000 is this service's own HTTP listener" });
    });

    it('allows the same port on another host, and reads the port when it checks (a listener bound after start)', async () => {
      let port: number | undefined = undefined; // read through ownPort before it is set
      const g = new OutboundUrlGuard({ allow: [], ownPort: () => port, localAddresses: () => [] });
      expect(await g.check('http://127.0.0.1:3000/')).toEqual({ allowed: true });
      port = 3000;
      expect(await g.check('http://127.0.0.1:3000/')).toMatchObject({ allowed: false });
      expect(await g.check('http://10.0.0.1:3000/')).toEqual({ allowed: true });
    });

    it('checkWithoutDns, asked again for a URL it allowed, refuses it once the listener is bound to its port', () => {
      let port: number | undefined = undefined;
      const g = new OutboundUrlGuard({ allow: [], ownPort: () => port, localAddresses: () => [] });
      expect(g.checkWithoutDns('http://127.0.0.1:3000/tool')).toEqual({ allowed: true });
      port = 3000;
      expect(g.checkWithoutDns('http://127.0.0.1:3000/tool')).toMatchObject({ allowed: false, reason: expect.stringContaining('own HTTP listener') });
      expect(g.checkWithoutDns('http://127.0.0.1:3000/tool')).toMatchObject({ allowed: false });
    });
  });

  describe('SWITCHBOARD_OUTBOUND_ALLOW narrows', () => {
    const resolve = table({
      'a.corp.example': '192.168.5.5',
      'x.y.corp.example': '192.168.5.6',
      'corp.example': '192.168.5.7',
      'hooks.internal': '172.20.0.3',
      'inside.example': '10.20.30.40',
      'public.example': '93.184.216.34',
      'sneaky.corp.example': '169.254.169.254',
    });
    const g = guard(['10.0.0.0/8', '*.corp.example', 'hooks.internal', 'fd00::/8', '203.0.113.7'], resolve);

    it.each([
      'http://10.2.3.4/', // CIDR
      'http://a.corp.example/', // wildcard, one level
      'http://x.y.corp.example:8443/', // wildcard, deeper
      'http://HOOKS.internal./', // exact name, normalised
      'http://inside.example/', // a name outside the list whose address is inside a CIDR
      'http://[fd00::1]/',
      'http://203.0.113.7/',
    ])('allows %s', async (url) => {
      expect(await g.check(url)).toEqual({ allowed: true });
    });

    it.each([
      ['http://corp.example/', 'corp.example (192.168.5.7) is not in SWITCHBOARD_OUTBOUND_ALLOW'], // the wildcard is not its apex
      ['http://public.example/', 'public.example (93.184.216.34) is not in SWITCHBOARD_OUTBOUND_ALLOW'],
      ['http://127.0.0.1:9/', '127.0.0.1 is not in SWITCHBOARD_OUTBOUND_ALLOW'],
      ['http://2130706433:9/', '127.0.0.1 is not in SWITCHBOARD_OUTBOUND_ALLOW'],
      ['http://11.0.0.1/', '11.0.0.1 is not in SWITCHBOARD_OUTBOUND_ALLOW'],
      ['http://sneaky.corp.example/', 'sneaky.corp.example (169.254.169.254) is a cloud metadata address'],
      ['http://[2002:b00:1::]/', '2002:b00:1:: is not in SWITCHBOARD_OUTBOUND_ALLOW'],
    ])('refuses %s', async (url, reason) => {
      expect(await g.check(url)).toEqual({ allowed: false, reason });
    });

    it('"*" is the same as no list', async () => {
      expect(await guard(['*'], resolve).check('http://public.example/')).toEqual({ allowed: true });
    });

    it.each([
      ['http://hooks.internal', 'ports and schemes are not accepted'],
      ['10.0.0.0/33', 'is not a CIDR'],
      ['10.0.0.0/8/1', 'is not a CIDR'],
      ['hooks.internal:8080', 'ports and schemes are not accepted'],
      ['*.', 'not a wildcard'],
      ['a b', 'not a host name'],
    ])('refuses the entry %s', (entry, problem) => {
      expect(OutboundAllowList.problems([entry])).toEqual([expect.stringContaining(problem)]);
      expect(() => guard([entry])).toThrow(problem);
    });
  });

  describe('other refusals', () => {
    it.each([
      ['ftp://example.com/', 'ftp: is not http or https'],
      ['file:///etc/passwd', 'file: is not http or https'],
      ['not a url', 'is not a valid URL'],
    ])('%s', async (url, reason) => {
      expect(await guard().check(url)).toEqual({ allowed: false, reason });
    });

    it('a name that does not resolve is refused as unresolved, so callers can tell it from a refusal', async () => {
      expect(await guard().check('http://nowhere.invalid/')).toEqual({
        allowed: false,
        unresolved: true,
        reason: 'nowhere.invalid does not resolve (ENOTFOUND)',
      });
    });

    it('checkWithoutDns leaves names to the connection', () => {
      const resolve = jest.fn(table({}));
      expect(guard([], resolve).checkWithoutDns('http://anything.example/')).toEqual({ allowed: true });
      expect(resolve).not.toHaveBeenCalled();
    });
  });

  describe('lookupFor: the check again at connect time', () => {
    it('refuses a name whose second answer is a metadata address (DNS rebinding)', async () => {
      const answers: ResolvedAddress[][] = [[{ address: '93.184.216.34', family: 4 }], [{ address: '169.254.169.254', family: 4 }]];
      const g = guard([], async () => answers.shift() ?? []);

      expect(await g.check('http://rebind.example/')).toEqual({ allowed: true });
      const connect = await lookup(g, 'rebind.example', 80, { all: true });
      expect(connect.error).toMatchObject({ code: OUTBOUND_REFUSED, message: 'rebind.example (169.254.169.254) is a cloud metadata address' });
    });

    it('refuses a rebinding to the own listener, which only the port tells apart', async () => {
      const g = guard([], table({ 'self.example': '127.0.0.1' }));
      expect((await lookup(g, 'self.example', OWN_PORT)).error).toMatchObject({ code: OUTBOUND_REFUSED });
      expect((await lookup(g, 'self.example', 8080)).error).toBeNull();
    });

    it('refuses a metadata name without resolving it', async () => {
      const resolve = jest.fn(table({}));
      expect((await lookup(guard([], resolve), 'metadata.google.internal', 80)).error).toMatchObject({ code: OUTBOUND_REFUSED });
      expect(resolve).not.toHaveBeenCalled();
    });

    it('answers like dns.lookup: all addresses, one address, or one family', async () => {
      const g = guard([], table({ 'dual.example': ['10.0.0.5', 'fd00::5'] }));
      expect(await lookup(g, 'dual.example', 80, { all: true })).toMatchObject({
        error: null,
        address: [
          { address: '10.0.0.5', family: 4 },
          { address: 'fd00::5', family: 6 },
        ],
      });
      expect(await lookup(g, 'dual.example', 80)).toMatchObject({ error: null, address: '10.0.0.5', family: 4 });
      expect(await lookup(g, 'dual.example', 80, { family: 6 })).toMatchObject({ error: null, address: 'fd00::5', family: 6 });
    });

    it('passes a resolution failure through', async () => {
      expect((await lookup(guard(), 'nowhere.invalid', 80)).error).toMatchObject({ code: 'ENOTFOUND' });
    });
  });
});
