import * as path from 'node:path';
import { InvalidConfigurationError, loadConfig, withoutPassword } from './switchboard-config';

/** A bad value of one variable: refused as a configuration error whose message names the variable. */
function refusedNamingTheVariable(variable: string, value: string): void {
  expect(() => loadConfig({ [variable]: value })).toThrow(InvalidConfigurationError);
  expect(() => loadConfig({ [variable]: value })).toThrow(new RegExp(variable));
}

describe('loadConfig', () => {
  it('uses the documented defaults on an empty environment', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      port: 3000,
      host: '127.0.0.1',
      database: { file: './data/switchboard.db', synchronous: 'FULL', busyTimeoutMs: 5000, integrityCheck: true },
      apiToken: undefined,
      logLevel: 'info',
      mcpConfigFile: './mcp-config.json',
      cli: {
        path: undefined,
        extraArgs: [],
        url: undefined,
        home: undefined,
        workingDirectory: path.resolve('workspace'),
        requestTimeoutMs: 60_000,
        provider: undefined,
        defaultModel: 'gpt-4.1',
        githubToken: undefined,
      },
      workspaces: { repositories: [], dir: path.resolve('data', 'workspaces'), retentionMs: 7 * 86_400_000 },
      tools: { webhookTimeoutMs: 30_000, webhookSecret: undefined, userInputTimeoutMs: 300_000 },
      runs: { maxDepth: 5, maxConcurrentChildren: 8, timeoutMs: 1_800_000, stopGraceMs: 5_000 },
      security: { allowUnauthenticated: false, allowInlineMcp: false, allowHostPermissions: false, cliEnvPassthrough: [], outboundAllow: [] },
      metrics: { public: false },
      apiDocs: { public: false },
      resilience: { cliMaxMessageBytes: 8 * 1024 * 1024, maxLiveSessions: 100, projectionRetryMaxMs: 30_000, readyMaxProjectionLag: 1_000 },
      console: { dir: path.resolve(__dirname, '..', '..', 'web', 'dist') },
      modelCalls: { route: true, content: 'full', contentMaxBytes: 1024 * 1024, prices: undefined },
      traces: { enabled: false, content: false },
      a2a: { credentials: {}, pollMs: 1_000, secretsKey: undefined },
      approvals: { timeoutMs: 600_000 },
      instances: { publicUrl: undefined, heartbeatMs: 2_000, leaseTtlMs: 10_000 },
      scheduler: { tickMs: 1_000, minIntervalSeconds: 60 },
      requestOrigin: { allowedHosts: [], allowedOrigins: [] },
      signIn: { oidc: undefined, sessionTtlMs: 12 * 3_600_000 },
      postgres: undefined,
    });
  });

  it('derives the OIDC sign-in from the issuer, client and public URL, and names what is missing (issue 27)', () => {
    const oidc = {
      SWITCHBOARD_OIDC_ISSUER: 'https://id.example.com/realms/team',
      SWITCHBOARD_OIDC_CLIENT_ID: 'switchboard',
      SWITCHBOARD_PUBLIC_URL: 'https://switchboard.example.com/',
    };
    expect(loadConfig(oidc).signIn.oidc).toEqual({
      issuer: 'https://id.example.com/realms/team',
      clientId: 'switchboard',
      clientSecret: undefined,
      redirectUrl: 'https://switchboard.example.com/auth/callback',
      publicOrigin: 'https://switchboard.example.com',
      rolesClaim: 'roles',
      defaultRole: 'viewer',
    });
    expect(loadConfig({ ...oidc, SWITCHBOARD_OIDC_DEFAULT_ROLE: 'Operator' }).signIn.oidc?.defaultRole).toBe('operator');
    expect(() => loadConfig({ ...oidc, SWITCHBOARD_OIDC_DEFAULT_ROLE: 'root' })).toThrow(/SWITCHBOARD_OIDC_DEFAULT_ROLE must be one of viewer/);
    expect(() => loadConfig({ SWITCHBOARD_OIDC_ISSUER: oidc.SWITCHBOARD_OIDC_ISSUER })).toThrow(
      /SWITCHBOARD_OIDC_CLIENT_ID must be set[\s\S]*SWITCHBOARD_PUBLIC_URL must be set/,
    );
  });

  it('reads the workspace retention in days or hours, blank as the default, and names the variable otherwise', () => {
    expect(loadConfig({ SWITCHBOARD_WORKSPACE_RETENTION: '' }).workspaces.retentionMs).toBe(7 * 86_400_000);
    expect(loadConfig({ SWITCHBOARD_WORKSPACE_RETENTION: '12h' }).workspaces.retentionMs).toBe(12 * 3_600_000);
    expect(() => loadConfig({ SWITCHBOARD_WORKSPACE_RETENTION: 'soon' })).toThrow(
      /SWITCHBOARD_WORKSPACE_RETENTION must be a number of days or hours, like 7d or 12h \(got "soon"\)/,
    );
    expect(loadConfig({ SWITCHBOARD_REPOSITORIES: ' /srv/a , b ', SWITCHBOARD_DB: '/var/lib/sb/db.sqlite' }).workspaces).toMatchObject({
      repositories: ['/srv/a', path.resolve('b')],
      dir: '/var/lib/sb/workspaces',
    });
  });

  it('resolves SWITCHBOARD_WORKING_DIRECTORY to an absolute folder', () => {
    expect(loadConfig({ SWITCHBOARD_WORKING_DIRECTORY: '/srv/work/../projects' }).cli.workingDirectory).toBe('/srv/projects');
    expect(loadConfig({ SWITCHBOARD_WORKING_DIRECTORY: 'here' }).cli.workingDirectory).toBe(path.resolve('here'));
  });

  it('reads the approval timeout and refuses one below 100 ms naming the variable (issue 14)', () => {
    expect(loadConfig({ SWITCHBOARD_APPROVAL_TIMEOUT_MS: '2500' }).approvals).toEqual({ timeoutMs: 2500 });
    expect(() => loadConfig({ SWITCHBOARD_APPROVAL_TIMEOUT_MS: '5' })).toThrow(/SWITCHBOARD_APPROVAL_TIMEOUT_MS/);
  });

  it('reads the resilience bounds (issue 10 §4-5)', () => {
    const config = loadConfig({
      SWITCHBOARD_CLI_MAX_MESSAGE_BYTES: '1048576',
      SWITCHBOARD_MAX_LIVE_SESSIONS: '7',
      SWITCHBOARD_PROJECTION_RETRY_MAX_MS: '500',
      SWITCHBOARD_READY_MAX_PROJECTION_LAG: '0',
    });
    expect(config.resilience).toEqual({ cliMaxMessageBytes: 1_048_576, maxLiveSessions: 7, projectionRetryMaxMs: 500, readyMaxProjectionLag: 0 });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      SWITCHBOARD_DB: '/var/lib/sb.db',
      SWITCHBOARD_DB_SYNCHRONOUS: 'normal',
      SWITCHBOARD_API_TOKEN: 'a-token-of-16-chars',
      LOG_LEVEL: 'debug',
    });
    expect(config.port).toBe(8080);
    expect(config.database.file).toBe('/var/lib/sb.db');
    expect(config.database.synchronous).toBe('NORMAL');
    expect(config.apiToken).toBe('a-token-of-16-chars');
    expect(config.logLevel).toBe('debug');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['SWITCHBOARD_DB_SYNCHRONOUS', 'OFF'],
    ['SWITCHBOARD_DB_BUSY_TIMEOUT_MS', '-1'],
    ['SWITCHBOARD_DB_INTEGRITY_CHECK', 'maybe'],
    ['SWITCHBOARD_API_TOKEN', 'short'],
    ['LOG_LEVEL', 'loud'],
    ['COPILOT_CLI_URL', 'http://x'],
    ['COPILOT_PROVIDER_BASE_URL', 'localhost:8080'],
    ['COPILOT_PROVIDER_TYPE', 'llama'],
    ['SWITCHBOARD_METRICS_PUBLIC', 'sure'],
    ['SWITCHBOARD_API_DOCS_PUBLIC', 'sure'],
    ['SWITCHBOARD_CLI_MAX_MESSAGE_BYTES', '100'],
    ['SWITCHBOARD_MAX_LIVE_SESSIONS', '0'],
    ['SWITCHBOARD_PROJECTION_RETRY_MAX_MS', 'soon'],
    ['SWITCHBOARD_READY_MAX_PROJECTION_LAG', '-1'],
  ])('refuses a bad %s (%s) with a message naming the variable', refusedNamingTheVariable);

  it('lists every bad variable at once', () => {
    try {
      loadConfig({ PORT: 'x', LOG_LEVEL: 'y' });
      throw new Error('expected a refusal');
    } catch (error) {
      expect((error as InvalidConfigurationError).problems).toHaveLength(2);
    }
  });

  it('reads the Copilot CLI and provider settings', () => {
    const { cli } = loadConfig({
      COPILOT_CLI_ARGS: '--log-level debug',
      COPILOT_CLI_URL: 'tcp://127.0.0.1:4321',
      COPILOT_PROVIDER_BASE_URL: 'http://127.0.0.1:9999/v1',
      COPILOT_PROVIDER_API_KEY: 'k',
      COPILOT_MODEL: 'gpt-5',
    });
    expect(cli.extraArgs).toEqual(['--log-level', 'debug']);
    expect(cli.url).toBe('127.0.0.1:4321');
    expect(cli.provider).toEqual({ type: 'openai', baseUrl: 'http://127.0.0.1:9999/v1', apiKey: 'k' });
    expect(cli.defaultModel).toBe('gpt-5');
  });

  it('opens /metrics and /api/docs without the token only when asked', () => {
    const config = loadConfig({ SWITCHBOARD_METRICS_PUBLIC: 'true', SWITCHBOARD_API_DOCS_PUBLIC: 'yes' });
    expect(config.metrics).toEqual({ public: true });
    expect(config.apiDocs).toEqual({ public: true });
  });

  it('takes blank text settings as unset, as docker compose passes unset variables', () => {
    const config = loadConfig({ SWITCHBOARD_DB: '', COPILOT_MODEL: ' ', SWITCHBOARD_MCP_CONFIG: '' });
    expect(config.database.file).toBe('./data/switchboard.db');
    expect(config.cli.defaultModel).toBe('gpt-4.1');
    expect(config.mcpConfigFile).toBe('./mcp-config.json');
  });

  it('treats an empty token as no token', () => {
    expect(loadConfig({ SWITCHBOARD_API_TOKEN: '' }).apiToken).toBeUndefined();
  });

  describe('listen address and token (issue 10 §1)', () => {
    const TOKEN = 'a-token-of-16-chars';

    it('listens on loopback without a token and on every address with one', () => {
      expect(loadConfig({}).host).toBe('127.0.0.1');
      expect(loadConfig({ SWITCHBOARD_API_TOKEN: TOKEN }).host).toBe('0.0.0.0');
      expect(loadConfig({ SWITCHBOARD_API_TOKEN: TOKEN, HOST: '10.1.2.3' }).host).toBe('10.1.2.3');
    });

    it.each(['127.0.0.1', '127.0.0.53', '::1', 'localhost'])('accepts the loopback HOST %s without a token', (host) => {
      expect(loadConfig({ HOST: host }).host).toBe(host);
    });

    it.each(['0.0.0.0', '::', '10.0.0.5', 'myhost.example'])('refuses to start on HOST=%s without a token, naming both variables', (host) => {
      expect(() => loadConfig({ HOST: host })).toThrow(InvalidConfigurationError);
      expect(() => loadConfig({ HOST: host })).toThrow(/HOST=.*SWITCHBOARD_API_TOKEN.*SWITCHBOARD_ALLOW_UNAUTHENTICATED=true/s);
      expect(() => loadConfig({ HOST: host, SWITCHBOARD_API_TOKEN: '' })).toThrow(InvalidConfigurationError);
    });

    // issue 27: OpenID Connect sign-in closes the API as a token does (people sign in; programs use the keys they create).
    it('listens on every address by default, and may listen beyond loopback, with sign-in configured and no token', () => {
      const signIn = {
        SWITCHBOARD_OIDC_ISSUER: 'https://id.example.test',
        SWITCHBOARD_OIDC_CLIENT_ID: 'switchboard',
        SWITCHBOARD_PUBLIC_URL: 'https://sb.example.test',
      };
      expect(loadConfig(signIn).host).toBe('0.0.0.0');
      expect(loadConfig({ ...signIn, HOST: '10.1.2.3' }).host).toBe('10.1.2.3');
      expect(loadConfig({ ...signIn, HOST: '127.0.0.1' }).host).toBe('127.0.0.1');
      // Sign-in half set up is no credential: the start is refused for that, naming what is missing.
      expect(() => loadConfig({ HOST: '0.0.0.0', SWITCHBOARD_OIDC_ISSUER: 'https://id.example.test' })).toThrow(/SWITCHBOARD_OIDC_CLIENT_ID must be set/);
      expect(() => loadConfig({ HOST: '0.0.0.0', SWITCHBOARD_OIDC_CLIENT_ID: 'switchboard', SWITCHBOARD_PUBLIC_URL: 'https://sb.example.test' })).toThrow(
        /SWITCHBOARD_OIDC_ISSUER/,
      );
    });

    it('starts on a non-loopback HOST without a token when the operator accepts an open API', () => {
      const config = loadConfig({ HOST: '0.0.0.0', SWITCHBOARD_ALLOW_UNAUTHENTICATED: 'true' });
      expect(config.host).toBe('0.0.0.0');
      expect(config.security.allowUnauthenticated).toBe(true);
    });
  });

  describe('security settings (issue 10 §1-2)', () => {
    it('reads every variable', () => {
      const { security } = loadConfig({
        SWITCHBOARD_ALLOW_INLINE_MCP: 'true',
        SWITCHBOARD_ALLOW_HOST_PERMISSIONS: 'on',
        SWITCHBOARD_ALLOW_UNAUTHENTICATED: 'yes',
        SWITCHBOARD_CLI_ENV_PASSTHROUGH: ' AWS_REGION, MY_TOOL_* ,,',
        SWITCHBOARD_OUTBOUND_ALLOW: '10.0.0.0/8, *.corp.example,hooks.internal, fd00::/8',
      });
      expect(security).toEqual({
        allowInlineMcp: true,
        allowHostPermissions: true,
        allowUnauthenticated: true,
        cliEnvPassthrough: ['AWS_REGION', 'MY_TOOL_*'],
        outboundAllow: ['10.0.0.0/8', '*.corp.example', 'hooks.internal', 'fd00::/8'],
      });
    });

    it.each([
      ['SWITCHBOARD_ALLOW_INLINE_MCP', 'sometimes'],
      ['SWITCHBOARD_ALLOW_HOST_PERMISSIONS', 'perhaps'],
      ['SWITCHBOARD_ALLOW_UNAUTHENTICATED', 'maybe'],
      ['SWITCHBOARD_CLI_ENV_PASSTHROUGH', 'FOO-BAR'],
      ['SWITCHBOARD_CLI_ENV_PASSTHROUGH', '*'],
      ['SWITCHBOARD_OUTBOUND_ALLOW', 'https://hooks.example.com'],
      ['SWITCHBOARD_OUTBOUND_ALLOW', '10.0.0.0/40'],
    ])('refuses a bad %s (%s) with a message naming the variable', refusedNamingTheVariable);

    it.each(['SWITCHBOARD_API_TOKEN', 'SWITCHBOARD_WEBHOOK_SECRET', 'switchboard_metrics_token', 'SWITCHBOARD_*'])(
      'refuses to pass %s to the CLI',
      (name) => {
        expect(() => loadConfig({ SWITCHBOARD_CLI_ENV_PASSTHROUGH: `PATH,${name}` })).toThrow(/never reach the Copilot CLI/);
      },
    );
  });

  describe('remote agents (issue 43)', () => {
    it('reads each A2A credential as origin=token, the token kept whole', () => {
      const config = loadConfig({
        SWITCHBOARD_A2A_CREDENTIALS: 'https://agents.example.com=abc==, http://10.0.0.7:8080/=t2',
        SWITCHBOARD_A2A_POLL_MS: '250',
      });
      expect(config.a2a).toEqual({
        credentials: { 'https://agents.example.com': 'abc==', 'http://10.0.0.7:8080': 't2' },
        pollMs: 250,
        secretsKey: undefined,
      });
      expect(loadConfig({ SWITCHBOARD_SECRETS_KEY: 'k'.repeat(32) }).a2a.secretsKey).toBe('k'.repeat(32));
      expect(() => loadConfig({ SWITCHBOARD_SECRETS_KEY: 'short' })).toThrow(/SWITCHBOARD_SECRETS_KEY must be at least 32 characters/);
    });

    it.each([
      ['agents.example.com=abc', /is not a URL; write origin=token/],
      ['https://agents.example.com/a2a=abc', /must be an http\(s\) origin with no path/],
      ['ftp://agents.example.com=abc', /must be an http\(s\) origin/],
      ['https://agents.example.com', /has no token; write origin=token/],
    ])('refuses the credential %s, saying how to write one', (entry, message) => {
      expect(() => loadConfig({ SWITCHBOARD_A2A_CREDENTIALS: entry })).toThrow(message);
      expect(() => loadConfig({ SWITCHBOARD_A2A_CREDENTIALS: entry })).toThrow(/SWITCHBOARD_A2A_CREDENTIALS/);
    });
  });

  describe('hosts and origins served to browsers (issue 22)', () => {
    it('reads both lists, origins in the form a browser sends them', () => {
      expect(
        loadConfig({
          SWITCHBOARD_ALLOWED_HOSTS: 'switchboard.lan, *.corp.example:8443,10.0.0.5:3000,[fd00::1]',
          SWITCHBOARD_ALLOWED_ORIGINS: 'https://Console.Example.com:443, http://localhost:5173/',
        }).requestOrigin,
      ).toEqual({
        allowedHosts: ['switchboard.lan', '*.corp.example:8443', '10.0.0.5:3000', '[fd00::1]'],
        allowedOrigins: ['https://console.example.com', 'http://localhost:5173'],
      });
      expect(loadConfig({}).requestOrigin).toEqual({ allowedHosts: [], allowedOrigins: [] });
    });

    it.each([
      ['SWITCHBOARD_ALLOWED_HOSTS', '*', /would let any Host through/],
      ['SWITCHBOARD_ALLOWED_HOSTS', 'https://switchboard.lan', /not a host name/],
      ['SWITCHBOARD_ALLOWED_HOSTS', 'switchboard.lan/api', /not a host name/],
      ['SWITCHBOARD_ALLOWED_HOSTS', 'switchboard.lan:99999', /not a host name/],
      ['SWITCHBOARD_ALLOWED_HOSTS', 'user@switchboard.lan', /not a host name/],
      ['SWITCHBOARD_ALLOWED_ORIGINS', 'console.example.com', /not an origin/],
      ['SWITCHBOARD_ALLOWED_ORIGINS', 'https://console.example.com/app', /not an origin/],
      ['SWITCHBOARD_ALLOWED_ORIGINS', 'https://*.example.com', /not an origin/],
      ['SWITCHBOARD_ALLOWED_ORIGINS', 'null', /not an origin/],
      ['SWITCHBOARD_ALLOWED_ORIGINS', 'file:///tmp/page.html', /not an origin/],
    ])('refuses %s=%s with a message naming the variable', (variable, value, reason) => {
      expect(() => loadConfig({ [variable]: value })).toThrow(new RegExp(variable));
      expect(() => loadConfig({ [variable]: value })).toThrow(reason);
    });
  });

  it('serves the console from web/dist, another folder, or not at all', () => {
    expect(loadConfig({ SWITCHBOARD_CONSOLE_DIR: '/srv/console' }).console).toEqual({ dir: '/srv/console' });
    expect(loadConfig({ SWITCHBOARD_CONSOLE: 'false', SWITCHBOARD_CONSOLE_DIR: '/srv/console' }).console).toEqual({ dir: undefined });
    expect(() => loadConfig({ SWITCHBOARD_CONSOLE: 'maybe' })).toThrow(/SWITCHBOARD_CONSOLE/);
  });

  describe('instance lease (issue 15)', () => {
    it('reads the public URL (without a trailing slash), the heartbeat and the TTL', () => {
      const config = loadConfig({
        SWITCHBOARD_PUBLIC_URL: 'https://sb-1.internal:8443/',
        SWITCHBOARD_LEASE_HEARTBEAT_MS: '500',
        SWITCHBOARD_LEASE_TTL_MS: '1001',
      });
      expect(config.instances).toEqual({ publicUrl: 'https://sb-1.internal:8443', heartbeatMs: 500, leaseTtlMs: 1001 });
    });

    it('refuses a TTL of two heartbeats or less, naming both variables', () => {
      const refusal = () => loadConfig({ SWITCHBOARD_LEASE_HEARTBEAT_MS: '5000' });
      expect(refusal).toThrow(InvalidConfigurationError);
      expect(refusal).toThrow(/SWITCHBOARD_LEASE_TTL_MS \(10000\) must be more than twice SWITCHBOARD_LEASE_HEARTBEAT_MS \(5000\)/);
      expect(() => loadConfig({ SWITCHBOARD_LEASE_HEARTBEAT_MS: '1000', SWITCHBOARD_LEASE_TTL_MS: '2000' })).toThrow(/more than twice/);
    });

    it.each([
      ['SWITCHBOARD_PUBLIC_URL', 'sb-1:3000'],
      ['SWITCHBOARD_LEASE_HEARTBEAT_MS', '10'],
      ['SWITCHBOARD_LEASE_TTL_MS', 'soon'],
    ])('refuses a bad %s (%s) naming it', (variable, value) => {
      expect(() => loadConfig({ [variable]: value })).toThrow(new RegExp(variable));
    });
  });

  describe('scheduler (issue 30)', () => {
    it('looks for due schedules every second by default, at the given interval, or never (0)', () => {
      expect(loadConfig({}).scheduler).toEqual({ tickMs: 1000, minIntervalSeconds: 60 });
      expect(loadConfig({ SWITCHBOARD_SCHEDULER_TICK_MS: '250' }).scheduler.tickMs).toBe(250);
      expect(loadConfig({ SWITCHBOARD_SCHEDULER_TICK_MS: '0' }).scheduler.tickMs).toBe(0);
    });

    it('keeps firings of one cron at least a minute apart by default, or SWITCHBOARD_SCHEDULE_MIN_INTERVAL seconds (issue 39)', () => {
      expect(loadConfig({ SWITCHBOARD_SCHEDULE_MIN_INTERVAL: '1' }).scheduler.minIntervalSeconds).toBe(1);
      expect(loadConfig({ SWITCHBOARD_SCHEDULE_MIN_INTERVAL: '3600' }).scheduler.minIntervalSeconds).toBe(3600);
    });

    it.each(['0', '-5', 'minutely', '86401'])('refuses SWITCHBOARD_SCHEDULE_MIN_INTERVAL=%s naming it', (value) => {
      expect(() => loadConfig({ SWITCHBOARD_SCHEDULE_MIN_INTERVAL: value })).toThrow(/SWITCHBOARD_SCHEDULE_MIN_INTERVAL/);
    });

    it.each(['-1', 'often', '600000'])('refuses SWITCHBOARD_SCHEDULER_TICK_MS=%s naming it', (value) => {
      expect(() => loadConfig({ SWITCHBOARD_SCHEDULER_TICK_MS: value })).toThrow(/SWITCHBOARD_SCHEDULER_TICK_MS/);
    });
  });

  describe('PostgreSQL (issue 15)', () => {
    it('is off without SWITCHBOARD_DATABASE_URL (blank too), with a pool of 10 once set', () => {
      expect(loadConfig({}).postgres).toBeUndefined();
      expect(loadConfig({ SWITCHBOARD_DATABASE_URL: ' ', SWITCHBOARD_DATABASE_POOL_SIZE: '3' }).postgres).toBeUndefined();
      expect(loadConfig({ SWITCHBOARD_DATABASE_URL: 'postgres://sb:secret@db:5432/switchboard' }).postgres).toEqual({
        url: 'postgres://sb:secret@db:5432/switchboard',
        poolSize: 10,
      });
      expect(
        loadConfig({ SWITCHBOARD_DATABASE_URL: 'postgresql:///switchboard?host=/run/postgresql', SWITCHBOARD_DATABASE_POOL_SIZE: '25' }).postgres,
      ).toEqual({ url: 'postgresql:///switchboard?host=/run/postgresql', poolSize: 25 });
    });

    it.each(['mysql://sb:secret@db/switchboard', 'db:5432/switchboard', 'postgres:///switchboard', 'postgres://sb:se/cr@t@'])(
      'refuses %s naming the variable, never printing the password',
      (url) => {
        let problems: string[] = [];
        try {
          loadConfig({ SWITCHBOARD_DATABASE_URL: url });
        } catch (error) {
          problems = (error as InvalidConfigurationError).problems;
        }
        expect(problems).toEqual([expect.stringMatching(/^SWITCHBOARD_DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/)]);
        expect(problems.join('')).not.toMatch(/secret|se\/cr/);
      },
    );

    it('refuses a pool size outside 1 to 1000, naming the variable', () => {
      expect(() => loadConfig({ SWITCHBOARD_DATABASE_URL: 'postgres://db/sb', SWITCHBOARD_DATABASE_POOL_SIZE: '0' })).toThrow(
        /SWITCHBOARD_DATABASE_POOL_SIZE must be an integer from 1 to 1000/,
      );
      expect(() => loadConfig({ SWITCHBOARD_DATABASE_POOL_SIZE: 'ten' })).toThrow(/SWITCHBOARD_DATABASE_POOL_SIZE/);
    });
  });

  it('withoutPassword hides the password up to the last @, and leaves a URL without one as it is', () => {
    expect(withoutPassword('postgres://sb:secret@db:5432/switchboard')).toBe('postgres://sb:***@db:5432/switchboard');
    expect(withoutPassword('postgres://sb:p@ss/w:rd@db/x')).toBe('postgres://sb:***@db/x');
    expect(withoutPassword('postgres://sb@db/x')).toBe('postgres://sb@db/x');
    expect(withoutPassword('postgres://db/x')).toBe('postgres://db/x');
  });
});
