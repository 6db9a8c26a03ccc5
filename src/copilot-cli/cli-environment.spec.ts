import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cliEnvironment } from './cli-environment';

/** What the CLI is given of the service's environment (with no passthrough). */
const KEPT_FOR_CLI: NodeJS.ProcessEnv = {
  PATH: '/usr/local/bin:/usr/bin',
  HOME: '/home/svc',
  USER: 'svc',
  LANG: 'en_US.UTF-8',
  LC_ALL: 'en_US.UTF-8',
  TZ: 'Europe/Paris',
  TMPDIR: '/var/tmp',
  HTTPS_PROXY: 'http://proxy:3128',
  http_proxy: 'http://proxy:3128',
  no_proxy: 'localhost',
  NODE_EXTRA_CA_CERTS: '/etc/ca.pem',
  SSL_CERT_FILE: '/etc/ssl/cert.pem',
  SSL_CERT_DIR: '/etc/ssl/certs',
  XDG_CACHE_HOME: '/cache',
  COPILOT_HOME: '/home/svc/.copilot',
  COPILOT_GITHUB_TOKEN: 'gho_copilot',
  GH_TOKEN: 'gho_gh',
};

const SERVICE_ENV: NodeJS.ProcessEnv = {
  ...KEPT_FOR_CLI,
  // Not for the CLI:
  SWITCHBOARD_API_TOKEN: 'api-token-of-16-chars',
  SWITCHBOARD_WEBHOOK_SECRET: 'webhook-secret',
  SWITCHBOARD_METRICS_TOKEN: 'metrics-token',
  SWITCHBOARD_DB: '/data/sb.db',
  COPILOT_PROVIDER_API_KEY: 'sk-provider',
  AWS_SECRET_ACCESS_KEY: 'aws-secret',
  DATABASE_URL: 'postgres://user:pw@db/x',
  NODE_OPTIONS: '--require /tmp/evil.js',
  ACME_MODE: 'fast',
  ACME_REGION: 'eu',
  OTHER_ACME: 'no',
  // Switchboard's own settings for starting the CLI, which the CLI does not read:
  COPILOT_CLI_PATH: '/opt/copilot',
  COPILOT_CLI_ARGS: '--log-level debug',
  COPILOT_CLI_URL: 'localhost:4321',
  COPILOT_CLI_HOME: '/data/cli-home',
  COPILOT_CLI_REQUEST_TIMEOUT_MS: '60000',
};

describe('cliEnvironment', () => {
  it('keeps what a process needs, the CLI settings, locale, proxy and CA variables, and nothing else', () => {
    expect(cliEnvironment(SERVICE_ENV, { passthrough: [] })).toEqual(KEPT_FOR_CLI);
  });

  it("leaves out Switchboard's own COPILOT_CLI_* settings unless passed through by name", () => {
    const env = cliEnvironment(SERVICE_ENV, { passthrough: [] });
    expect(Object.keys(env).filter((name) => name.startsWith('COPILOT_CLI_'))).toEqual([]);
    expect(cliEnvironment(SERVICE_ENV, { passthrough: ['COPILOT_CLI_HOME'] })).toMatchObject({ COPILOT_CLI_HOME: '/data/cli-home' });
  });

  it('adds the passthrough names and PREFIX_* patterns', () => {
    const env = cliEnvironment(SERVICE_ENV, { passthrough: ['DATABASE_URL', 'ACME_*'] });
    expect(env).toMatchObject({ DATABASE_URL: 'postgres://user:pw@db/x', ACME_MODE: 'fast', ACME_REGION: 'eu' });
    expect(env).not.toHaveProperty('OTHER_ACME');
  });

  it('never passes SWITCHBOARD_* or the provider key, even through a pattern that matches them', () => {
    const env = cliEnvironment(SERVICE_ENV, { passthrough: ['S*', 'C*', 'SWITCHBOARD_API_TOKEN', 'COPILOT_PROVIDER_API_KEY'] });
    for (const name of Object.keys(env)) expect(name).not.toMatch(/^SWITCHBOARD_|^COPILOT_PROVIDER_API_KEY$/);
    expect(Object.values(env)).not.toEqual(expect.arrayContaining(['api-token-of-16-chars', 'webhook-secret', 'metrics-token', 'sk-provider']));
  });

  describe("the CLI's own OpenTelemetry exporter (issue 28)", () => {
    const OTEL_ENV: NodeJS.ProcessEnv = {
      ...SERVICE_ENV,
      COPILOT_OTEL_EXPORTER_TYPE: 'otlp-http',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-tenant=acme',
      OTEL_SERVICE_NAME: 'switchboard',
      OTEL_BSP_SCHEDULE_DELAY: '1000',
    };
    const otelNames = (env: NodeJS.ProcessEnv) => Object.keys(env).filter((n) => n.startsWith('OTEL_') || n.startsWith('COPILOT_OTEL_'));

    it('keeps every OTel variable from the CLI unless the operator opts in: Switchboard exports the spans, once', () => {
      expect(otelNames(cliEnvironment(OTEL_ENV, { passthrough: [] }))).toEqual([]);
      expect(otelNames(cliEnvironment({ ...OTEL_ENV, COPILOT_OTEL_ENABLED: 'false' }, { passthrough: [] }))).toEqual([]);
      // Not even through the passthrough: the opt-in is the one switch.
      expect(otelNames(cliEnvironment(OTEL_ENV, { passthrough: ['OTEL_*', 'OTEL_SERVICE_NAME'] }))).toEqual([]);
    });

    it('passes COPILOT_OTEL_* and OTEL_* through with COPILOT_OTEL_ENABLED=true', () => {
      const env = cliEnvironment({ ...OTEL_ENV, COPILOT_OTEL_ENABLED: 'true' }, { passthrough: [] });
      expect(env).toMatchObject({
        COPILOT_OTEL_ENABLED: 'true',
        COPILOT_OTEL_EXPORTER_TYPE: 'otlp-http',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-tenant=acme',
        OTEL_SERVICE_NAME: 'switchboard',
        OTEL_BSP_SCHEDULE_DELAY: '1000',
      });
      expect(env).not.toHaveProperty('SWITCHBOARD_API_TOKEN');
    });
  });

  it('gives the configured GitHub token as GITHUB_TOKEN', () => {
    expect(cliEnvironment(SERVICE_ENV, { passthrough: [], githubToken: 'gho_config' }).GITHUB_TOKEN).toBe('gho_config');
  });

  it('isolates HOME, COPILOT_HOME and the XDG dirs under COPILOT_CLI_HOME, sharing the cache', () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-env-'));
    try {
      const env = cliEnvironment(SERVICE_ENV, { passthrough: [], home: path.join(home, 'copilot-home') });
      expect(env).toMatchObject({
        HOME: path.join(home, 'copilot-home'),
        COPILOT_HOME: path.join(home, 'copilot-home', '.copilot'),
        XDG_CONFIG_HOME: path.join(home, 'copilot-home', '.config'),
        XDG_STATE_HOME: path.join(home, 'copilot-home', '.local', 'state'),
        XDG_DATA_HOME: path.join(home, 'copilot-home', '.local', 'share'),
        XDG_CACHE_HOME: '/cache',
        PATH: '/usr/local/bin:/usr/bin',
      });
      expect(fs.statSync(path.join(home, 'copilot-home')).isDirectory()).toBe(true);
      expect(cliEnvironment({ HOME: '/home/u' }, { passthrough: [], home: path.join(home, 'h2') }).XDG_CACHE_HOME).toBe('/home/u/.cache');
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
