import * as fs from 'node:fs';
import * as path from 'node:path';

/** What a process needs to run at all, find its files and reach the network through the operator's proxy. */
const BASE_NAMES = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  // Windows cannot start a process without these.
  'SYSTEMROOT',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
]);
const BASE_NAMES_ANY_CASE = new Set(['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY']);
/** The CLI's own settings (COPILOT_HOME, COPILOT_GITHUB_TOKEN, ...), locale, XDG dirs; GitHub auth it reads as a fallback. */
const BASE_PREFIXES = ['LC_', 'COPILOT_', 'XDG_'];
const GITHUB_AUTH = new Set(['GH_TOKEN', 'GITHUB_TOKEN', 'GH_HOST']);
/**
 * Switchboard's own settings for starting and reaching the CLI, which the CLI does not read: left out of the
 * COPILOT_ prefix, so the CLI runs in the environment a user of the bare CLI or the SDK would give it (issue 41).
 */
const SWITCHBOARD_CLI_SETTINGS = new Set([
  'COPILOT_CLI_PATH',
  'COPILOT_CLI_ARGS',
  'COPILOT_CLI_URL',
  'COPILOT_CLI_HOME',
  'COPILOT_CLI_REQUEST_TIMEOUT_MS',
]);
/**
 * Switchboard's own settings, the API token and every secret among them, never reach the CLI or the
 * programs it starts. The provider key goes to the CLI inside session.create, not through the environment.
 */
const NEVER = (name: string) => /^SWITCHBOARD_/i.test(name) || name === 'COPILOT_PROVIDER_API_KEY';
/**
 * issue 28: the CLI's own OpenTelemetry exporter (`COPILOT_OTEL_*`) and the standard `OTEL_*` settings
 * (collector endpoint, headers, service name) reach it only when the operator opts in with
 * COPILOT_OTEL_ENABLED=true: Switchboard exports the team's spans itself, and a CLI that also exported
 * would write each turn's spans twice. Opted in, the CLI's spans join the turn's trace (session.send's traceparent).
 */
const CLI_OTEL = (name: string) => name.startsWith('COPILOT_OTEL_') || name.startsWith('OTEL_');

export interface CliEnvironmentOptions {
  /** SWITCHBOARD_CLI_ENV_PASSTHROUGH: names, or PREFIX_* patterns. */
  passthrough: readonly string[];
  /** COPILOT_CLI_HOME: isolated HOME / COPILOT_HOME / XDG dirs. */
  home?: string;
  githubToken?: string;
}

/**
 * The CLI child's environment: a minimal set from the service's own environment plus the operator's
 * passthrough names, never the whole of it. The CLI runs MCP servers and shell tools with it.
 */
export function cliEnvironment(source: NodeJS.ProcessEnv, options: CliEnvironmentOptions): NodeJS.ProcessEnv {
  const names = options.passthrough.filter((p) => !p.endsWith('*'));
  const prefixes = options.passthrough.filter((p) => p.endsWith('*')).map((p) => p.slice(0, -1));
  const wanted = (name: string) =>
    BASE_NAMES.has(name) ||
    BASE_NAMES_ANY_CASE.has(name.toUpperCase()) ||
    GITHUB_AUTH.has(name) ||
    (BASE_PREFIXES.some((p) => name.startsWith(p)) && !SWITCHBOARD_CLI_SETTINGS.has(name)) ||
    names.includes(name) ||
    prefixes.some((p) => name.startsWith(p));
  const otelOptedIn = source.COPILOT_OTEL_ENABLED?.trim().toLowerCase() === 'true';
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || NEVER(name)) continue;
    // The opt-in decides for every OTel variable, whatever the passthrough says.
    if (CLI_OTEL(name) ? otelOptedIn : wanted(name)) env[name] = value;
  }
  if (options.githubToken) env.GITHUB_TOKEN = options.githubToken;
  const home = options.home;
  if (home) {
    // Keeps the CLI's config, logs and session state out of the operator's own ~/.copilot.
    fs.mkdirSync(home, { recursive: true });
    Object.assign(env, {
      HOME: home,
      COPILOT_HOME: path.join(home, '.copilot'),
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_STATE_HOME: path.join(home, '.local', 'state'),
      XDG_DATA_HOME: path.join(home, '.local', 'share'),
      // The binary unpacks ~235 MB into $XDG_CACHE_HOME on first run: keep sharing the user's cache.
      XDG_CACHE_HOME: source.XDG_CACHE_HOME ?? path.join(source.HOME ?? home, '.cache'),
    });
  }
  return env;
}
