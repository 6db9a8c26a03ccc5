import { type RequestFacts, RequestOriginRules, type ServedNamesConfig } from './request-origin-rules';

const PORT = 3000;

const rules = (config: Partial<ServedNamesConfig> = {}) =>
  new RequestOriginRules({ listenHost: '127.0.0.1', publicUrl: undefined, allowedHosts: [], allowedOrigins: [], ...config });

/** A request a non-browser client (curl, an SDK) sends to 127.0.0.1:3000; each test changes what it is about. */
const request = (facts: Partial<RequestFacts> = {}): RequestFacts => ({
  method: 'GET',
  host: `127.0.0.1:${PORT}`,
  origin: undefined,
  secFetchSite: undefined,
  secFetchMode: undefined,
  secFetchDest: undefined,
  contentType: undefined,
  localAddress: '127.0.0.1',
  localPort: PORT,
  upgrade: false,
  ...facts,
});

const codeOf = (r: RequestOriginRules, facts: Partial<RequestFacts>) => r.refusalOf(request(facts))?.code;

describe('RequestOriginRules', () => {
  describe('Host: only names of this service are served (DNS rebinding)', () => {
    it.each(['127.0.0.1:3000', 'localhost:3000', 'LOCALHOST.:3000', 'app.localhost:3000', '127.1.2.3:3000', '[::1]:3000'])(
      'serves the loopback name %s on the port the request arrived at',
      (host) => {
        expect(rules().refusalOf(request({ host }))).toBeUndefined();
      },
    );

    it.each([
      ['a rebound DNS name', 'attacker.example:3000'],
      ['a rebound name without a port', 'attacker.example'],
      ['a loopback name on another port', 'localhost:8080'],
      ['a loopback name with no port (80)', 'localhost'],
      ['a user part that a lax parser reads as the host', 'attacker.example@127.0.0.1:3000'],
      ['a path', '127.0.0.1:3000/x'],
      ['two hosts', '127.0.0.1:3000, attacker.example:3000'],
      ['an empty header', ''],
      ['no header', undefined],
      ['a decimal IPv4 (not the address it arrived at)', '2130706433:3000'],
    ])('refuses %s (%s) with 421 unknown_host naming SWITCHBOARD_ALLOWED_HOSTS', (_what, host) => {
      const refusal = rules().refusalOf(request({ host }));
      expect(refusal).toMatchObject({ statusCode: 421, code: 'unknown_host' });
      expect(refusal?.message).toContain('SWITCHBOARD_ALLOWED_HOSTS');
    });

    it('serves the IP address the request arrived at on its port, and no other address', () => {
      const onLan = rules({ listenHost: '0.0.0.0' });
      expect(codeOf(onLan, { host: '192.0.2.10:3000', localAddress: '192.0.2.10' })).toBeUndefined();
      expect(codeOf(onLan, { host: '192.0.2.10:3000', localAddress: '::ffff:192.0.2.10' })).toBeUndefined();
      expect(codeOf(onLan, { host: '[fd00::5]:3000', localAddress: 'fd00:0::5' })).toBeUndefined();
      expect(codeOf(onLan, { host: '192.0.2.11:3000', localAddress: '192.0.2.10' })).toBe('unknown_host');
      expect(codeOf(onLan, { host: '192.0.2.10:4000', localAddress: '192.0.2.10' })).toBe('unknown_host');
      // The machine's DNS name is not known to it: listed or refused.
      expect(codeOf(onLan, { host: 'build-box.lan:3000', localAddress: '192.0.2.10' })).toBe('unknown_host');
    });

    it('serves a specific HOST, by name or address, on the listening port', () => {
      expect(codeOf(rules({ listenHost: 'switchboard.lan' }), { host: 'switchboard.lan:3000', localAddress: '192.0.2.10' })).toBeUndefined();
      expect(codeOf(rules({ listenHost: 'fd00::7' }), { host: '[fd00::7]:3000', localAddress: '192.0.2.10' })).toBeUndefined();
      expect(codeOf(rules({ listenHost: '0.0.0.0' }), { host: '0.0.0.0:3000', localAddress: '192.0.2.10' })).toBe('unknown_host');
    });

    it("serves SWITCHBOARD_PUBLIC_URL's host on its own port (a proxy or a published port in front)", () => {
      const behindProxy = rules({ publicUrl: 'https://switchboard.example.com/base' });
      expect(codeOf(behindProxy, { host: 'switchboard.example.com' })).toBeUndefined();
      expect(codeOf(behindProxy, { host: 'Switchboard.Example.com:443' })).toBeUndefined();
      expect(codeOf(behindProxy, { host: 'switchboard.example.com:3000' })).toBe('unknown_host');
      const published = rules({ publicUrl: 'http://localhost:3001' });
      expect(codeOf(published, { host: 'localhost:3001', localPort: 3000 })).toBeUndefined();
      expect(codeOf(published, { host: 'localhost:3002', localPort: 3000 })).toBe('unknown_host');
    });

    it('serves SWITCHBOARD_ALLOWED_HOSTS: names on any port or one, subdomain wildcards, addresses', () => {
      const listed = rules({ allowedHosts: ['switchboard.lan', '*.corp.example:8443', '[fd00::1]', 'localhost:8080'] });
      expect(codeOf(listed, { host: 'switchboard.lan' })).toBeUndefined();
      expect(codeOf(listed, { host: 'switchboard.lan:9999' })).toBeUndefined();
      expect(codeOf(listed, { host: 'sb.corp.example:8443' })).toBeUndefined();
      expect(codeOf(listed, { host: 'sb.corp.example:8444' })).toBe('unknown_host');
      expect(codeOf(listed, { host: 'corp.example:8443' })).toBe('unknown_host');
      expect(codeOf(listed, { host: 'evilcorp.example:8443' })).toBe('unknown_host');
      expect(codeOf(listed, { host: '[fd00:0:0::1]:1' })).toBeUndefined();
      expect(codeOf(listed, { host: 'localhost:8080' })).toBeUndefined();
      expect(codeOf(listed, { host: 'switchboard.lan.attacker.example' })).toBe('unknown_host');
    });
  });

  describe('Origin: pages of other origins get nothing and change nothing', () => {
    it.each([
      ['the same origin as the Host', 'http://127.0.0.1:3000', '127.0.0.1:3000'],
      ['the same origin under localhost', 'http://localhost:3000', 'localhost:3000'],
      ['https behind a proxy on the default port', 'https://switchboard.example.com', 'switchboard.example.com'],
      // One server holds a host and port: the scheme a proxy in front adds does not make it another.
      ['the other scheme on the same host and port', 'https://127.0.0.1:3000', '127.0.0.1:3000'],
    ])('serves %s', (_what, origin, host) => {
      const r = rules({ allowedHosts: ['switchboard.example.com'] });
      for (const method of ['GET', 'POST', 'DELETE']) {
        expect(r.refusalOf(request({ method, origin, host, contentType: 'application/json' }))).toBeUndefined();
      }
      expect(r.refusalOf(request({ origin, host, upgrade: true }))).toBeUndefined();
    });

    it.each([
      ['another port on the same host', 'http://127.0.0.1:8080'],
      ['localhost for a request to 127.0.0.1', 'http://localhost:3000'],
      ['another site', 'https://attacker.example'],
      ['an opaque origin', 'null'],
      ['not a serialized origin', 'http://127.0.0.1:3000/path'],
      ['upper case (no browser sends it)', 'HTTP://127.0.0.1:3000'],
      ['another scheme', 'chrome-extension://abc'],
      ['two origins', 'http://127.0.0.1:3000, https://attacker.example'],
    ])('refuses %s (%s) with 403 on reads, writes and the WebSocket handshake', (_what, origin) => {
      for (const facts of [{ method: 'GET' }, { method: 'POST', contentType: 'application/json' }, { method: 'OPTIONS' }, { upgrade: true }]) {
        const refusal = rules().refusalOf(request({ origin, ...facts }));
        expect(refusal).toMatchObject({ statusCode: 403, code: 'cross_origin_refused' });
        expect(refusal?.message).toContain('SWITCHBOARD_ALLOWED_ORIGINS');
      }
    });

    it('serves SWITCHBOARD_ALLOWED_ORIGINS and the origin of SWITCHBOARD_PUBLIC_URL', () => {
      const r = rules({ allowedOrigins: ['http://localhost:5173'], publicUrl: 'https://switchboard.example.com' });
      expect(codeOf(r, { origin: 'http://localhost:5173', method: 'POST', contentType: 'application/json' })).toBeUndefined();
      expect(codeOf(r, { origin: 'https://switchboard.example.com', upgrade: true })).toBeUndefined();
      expect(codeOf(r, { origin: 'http://localhost:5174', upgrade: true })).toBe('cross_origin_refused');
    });

    it('reads Sec-Fetch-Site when there is no Origin: a no-cors read from another site is refused', () => {
      expect(codeOf(rules(), { secFetchSite: 'cross-site' })).toBe('cross_origin_refused');
      expect(codeOf(rules(), { secFetchSite: 'same-site' })).toBe('cross_origin_refused');
      expect(codeOf(rules(), { secFetchSite: 'same-origin' })).toBeUndefined();
      expect(codeOf(rules(), { secFetchSite: 'none' })).toBeUndefined();
    });

    it('lets a person follow a link from another site (a top-level GET navigation), nothing else', () => {
      const topLevel = { secFetchMode: 'navigate', secFetchDest: 'document' };
      expect(codeOf(rules(), { secFetchSite: 'cross-site', ...topLevel })).toBeUndefined();
      expect(codeOf(rules(), { method: 'HEAD', secFetchSite: 'cross-site', ...topLevel })).toBeUndefined();
      expect(codeOf(rules(), { secFetchSite: 'Cross-Site', secFetchMode: 'Navigate', secFetchDest: 'Document' })).toBeUndefined();
      expect(codeOf(rules(), { method: 'POST', origin: 'https://attacker.example', ...topLevel, contentType: 'application/json' })).toBe(
        'cross_origin_refused',
      );
      expect(codeOf(rules(), { origin: 'https://attacker.example', ...topLevel, upgrade: true })).toBe('cross_origin_refused');
    });

    // issue 39: a frame's load is a navigation, but it puts the page inside the other site's, which can
    // hide it under its own and have the person click through it (clickjacking).
    it.each(['iframe', 'frame', 'embed', 'object', 'fencedframe', 'IFRAME', '', undefined])(
      'refuses a navigation from another site into a frame or an embedding (Sec-Fetch-Dest: %s)',
      (secFetchDest) => {
        for (const method of ['GET', 'HEAD']) {
          const refusal = rules().refusalOf(request({ method, secFetchSite: 'cross-site', secFetchMode: 'navigate', secFetchDest }));
          expect(refusal).toMatchObject({ statusCode: 403, code: 'cross_origin_refused' });
          expect(codeOf(rules(), { method, secFetchSite: 'same-site', secFetchMode: 'navigate', secFetchDest })).toBe('cross_origin_refused');
        }
      },
    );

    it('frames of its own pages and frames of allowed origins are served', () => {
      const framed = { secFetchMode: 'navigate', secFetchDest: 'iframe' };
      expect(codeOf(rules(), { secFetchSite: 'same-origin', ...framed })).toBeUndefined();
      expect(codeOf(rules({ allowedOrigins: ['http://localhost:5173'] }), { origin: 'http://localhost:5173', ...framed })).toBeUndefined();
    });

    it('a foreign Host is refused as such before its Origin is looked at', () => {
      expect(codeOf(rules(), { host: 'attacker.example:3000', origin: 'http://attacker.example:3000' })).toBe('unknown_host');
    });
  });

  describe('Content type: a POST a browser could send cross-site without a preflight never reaches a route', () => {
    it.each([
      undefined,
      'text/plain',
      'text/plain; charset=utf-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/vnd.api+json',
      '',
    ])('refuses a POST with Content-Type %s (415, naming application/json)', (contentType) => {
      const refusal = rules().refusalOf(request({ method: 'POST', contentType }));
      expect(refusal).toMatchObject({ statusCode: 415, code: 'unsupported_media_type' });
      expect(refusal?.message).toContain('Content-Type: application/json');
    });

    it('serves a JSON POST (charset or not, body or none) and methods a browser must preflight', () => {
      expect(codeOf(rules(), { method: 'POST', contentType: 'application/json' })).toBeUndefined();
      expect(codeOf(rules(), { method: 'POST', contentType: 'Application/JSON; charset=utf-8' })).toBeUndefined();
      expect(codeOf(rules(), { method: 'DELETE' })).toBeUndefined();
      expect(codeOf(rules(), { method: 'GET' })).toBeUndefined();
    });
  });

  it('lists the hosts it serves for the start log', () => {
    expect(
      rules({ listenHost: '0.0.0.0', publicUrl: 'https://sb.example.com', allowedHosts: ['*.corp.example:8443', 'fd00::1'] }).servedHosts(3000),
    ).toEqual([
      'localhost, *.localhost, 127.0.0.0/8 and [::1] on port 3000',
      'the IP address a request arrives at, on its port',
      'sb.example.com:443',
      '*.corp.example:8443',
      '[fd00::1]',
    ]);
  });
});
