import * as path from 'node:path';
import { z } from 'zod';
import { loadModelPrices, type ModelPriceTable } from './model-prices';
import { isLoopback } from './outbound-address';
import { OutboundAllowList } from './outbound-allow-list';
import { entryProblems, parseAllowedHost, parseAllowedOrigin } from './served-names';
import { duration, flag, integer, list, oneOf, passthroughProblems, postgresUrl, text } from './environment-values';
import { type InstancesConfig, SIGN_IN_ROLES, type SignInConfig, type SwitchboardConfig } from './switchboard-config.types';

export { withoutPassword } from './environment-values';
export type { CopilotCliConfig, InstancesConfig, SignInConfig, SwitchboardConfig } from './switchboard-config.types';

/** Every setting Switchboard reads from the environment, with its default. */
const environmentSchema = z.object({
  PORT: integer('PORT', 1, 65535, 3000),
  /** Default: 0.0.0.0 with SWITCHBOARD_API_TOKEN, 127.0.0.1 without (see the security block). */
  HOST: z.string().optional(),
  SWITCHBOARD_DB: text('./data/switchboard.db'),
  SWITCHBOARD_DB_SYNCHRONOUS: oneOf('SWITCHBOARD_DB_SYNCHRONOUS', ['FULL', 'NORMAL'] as const, 'FULL'),
  SWITCHBOARD_DB_BUSY_TIMEOUT_MS: integer('SWITCHBOARD_DB_BUSY_TIMEOUT_MS', 0, 600_000, 5000),
  SWITCHBOARD_DB_INTEGRITY_CHECK: flag('SWITCHBOARD_DB_INTEGRITY_CHECK', true),
  SWITCHBOARD_API_TOKEN: z
    .string()
    .optional()
    .refine((v) => v === undefined || v.length === 0 || v.length >= 16, {
      message: 'SWITCHBOARD_API_TOKEN must be at least 16 characters when set',
    }),
  COPILOT_CLI_PATH: z.string().optional(),
  COPILOT_CLI_ARGS: z.string().optional(),
  COPILOT_CLI_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^(tcp:\/\/)?[^:/\s]+:\d{1,5}$/.test(v), {
      message: 'COPILOT_CLI_URL must be host:port of a CLI started with --headless --port (got something else)',
    }),
  COPILOT_CLI_HOME: z.string().optional(),
  /** The folder sessions work in: the CLI's working directory, and all a `read` approved by policy may reach. */
  SWITCHBOARD_WORKING_DIRECTORY: text('./workspace'),
  COPILOT_CLI_REQUEST_TIMEOUT_MS: integer('COPILOT_CLI_REQUEST_TIMEOUT_MS', 100, 3_600_000, 60_000),
  COPILOT_PROVIDER_TYPE: oneOf('COPILOT_PROVIDER_TYPE', ['openai', 'azure', 'anthropic'] as const, 'openai'),
  COPILOT_PROVIDER_BASE_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^https?:\/\/\S+$/.test(v), { message: 'COPILOT_PROVIDER_BASE_URL must be an http(s) URL' }),
  COPILOT_PROVIDER_API_KEY: z.string().optional(),
  COPILOT_MODEL: text('gpt-4.1'),
  COPILOT_GITHUB_TOKEN: z.string().optional(),
  SWITCHBOARD_WEBHOOK_TIMEOUT_MS: integer('SWITCHBOARD_WEBHOOK_TIMEOUT_MS', 100, 600_000, 30_000),
  SWITCHBOARD_WEBHOOK_SECRET: z.string().optional(),
  SWITCHBOARD_USER_INPUT_TIMEOUT_MS: integer('SWITCHBOARD_USER_INPUT_TIMEOUT_MS', 100, 86_400_000, 300_000),
  SWITCHBOARD_RUN_MAX_DEPTH: integer('SWITCHBOARD_RUN_MAX_DEPTH', 1, 32, 5),
  SWITCHBOARD_RUN_MAX_CHILDREN: integer('SWITCHBOARD_RUN_MAX_CHILDREN', 1, 1000, 8),
  SWITCHBOARD_RUN_TIMEOUT_MS: integer('SWITCHBOARD_RUN_TIMEOUT_MS', 1000, 86_400_000, 1_800_000),
  SWITCHBOARD_RUN_STOP_GRACE_MS: integer('SWITCHBOARD_RUN_STOP_GRACE_MS', 0, 600_000, 5_000),
  SWITCHBOARD_MCP_CONFIG: text('./mcp-config.json'),
  // ---- Workspaces (issue 42): a git worktree per session and per run, from the repositories listed here ----
  /** Folders sessions may name as `workspace.repository`: a repository, or a folder of them; unset: workspaces are off. */
  SWITCHBOARD_REPOSITORIES: list('SWITCHBOARD_REPOSITORIES', () => []),
  /** Where the worktrees live; default: a `workspaces` folder beside the SQLite file. */
  SWITCHBOARD_WORKSPACES_DIR: z.string().optional(),
  /** How long an ended session's worktree is kept before it is removed: `<n>d` or `<n>h`. */
  SWITCHBOARD_WORKSPACE_RETENTION: duration('SWITCHBOARD_WORKSPACE_RETENTION', '7d'),
  LOG_LEVEL: oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),

  // ---- Security (issue 10 §1-2): where the API listens, what API callers may make this host run or call ----
  SWITCHBOARD_ALLOW_UNAUTHENTICATED: flag('SWITCHBOARD_ALLOW_UNAUTHENTICATED', false),
  SWITCHBOARD_ALLOW_INLINE_MCP: flag('SWITCHBOARD_ALLOW_INLINE_MCP', false),
  SWITCHBOARD_ALLOW_HOST_PERMISSIONS: flag('SWITCHBOARD_ALLOW_HOST_PERMISSIONS', false),
  SWITCHBOARD_CLI_ENV_PASSTHROUGH: list('SWITCHBOARD_CLI_ENV_PASSTHROUGH', passthroughProblems),
  SWITCHBOARD_OUTBOUND_ALLOW: list('SWITCHBOARD_OUTBOUND_ALLOW', (entries) => OutboundAllowList.problems(entries)),

  // Operations (issue 10, section 5): who may read /metrics and /api/docs when a token is set.
  SWITCHBOARD_METRICS_PUBLIC: flag('SWITCHBOARD_METRICS_PUBLIC', false),
  SWITCHBOARD_API_DOCS_PUBLIC: flag('SWITCHBOARD_API_DOCS_PUBLIC', false),

  // issue 10 §4-5, nothing stays stuck: CLI input bound, live-session cap, projection retries, readiness.
  SWITCHBOARD_CLI_MAX_MESSAGE_BYTES: integer('SWITCHBOARD_CLI_MAX_MESSAGE_BYTES', 65_536, 1_073_741_824, 8 * 1024 * 1024),
  SWITCHBOARD_MAX_LIVE_SESSIONS: integer('SWITCHBOARD_MAX_LIVE_SESSIONS', 1, 100_000, 100),
  SWITCHBOARD_PROJECTION_RETRY_MAX_MS: integer('SWITCHBOARD_PROJECTION_RETRY_MAX_MS', 100, 3_600_000, 30_000),
  SWITCHBOARD_READY_MAX_PROJECTION_LAG: integer('SWITCHBOARD_READY_MAX_PROJECTION_LAG', 0, 100_000_000, 1_000),

  // The web console (issue 12): served at / from the built bundle.
  SWITCHBOARD_CONSOLE: flag('SWITCHBOARD_CONSOLE', true),
  SWITCHBOARD_CONSOLE_DIR: z.string().optional(),

  // ---- Model calls (issue 25) ----
  SWITCHBOARD_MODEL_ROUTE: flag('SWITCHBOARD_MODEL_ROUTE', true),
  SWITCHBOARD_MODEL_CONTENT: oneOf('SWITCHBOARD_MODEL_CONTENT', ['full', 'metadata'] as const, 'full'),
  SWITCHBOARD_MODEL_CONTENT_MAX_BYTES: integer('SWITCHBOARD_MODEL_CONTENT_MAX_BYTES', 1024, 64 * 1024 * 1024, 1024 * 1024),
  SWITCHBOARD_MODEL_PRICES: z.string().optional(),

  // ---- Traces (issue 28); the exporter reads the standard OTEL_* variables itself ----
  SWITCHBOARD_TRACES: flag('SWITCHBOARD_TRACES', false),
  SWITCHBOARD_TRACE_CONTENT: flag('SWITCHBOARD_TRACE_CONTENT', false),

  // ---- Remote agents (issue 43): A2A services the library's `remote` agents live on ----
  /** `origin=token` pairs: the bearer token sent to each A2A service; an operator's setting, never an API caller's. */
  SWITCHBOARD_A2A_CREDENTIALS: list('SWITCHBOARD_A2A_CREDENTIALS', a2aCredentialProblems),
  SWITCHBOARD_A2A_POLL_MS: integer('SWITCHBOARD_A2A_POLL_MS', 50, 600_000, 1_000),
  /** Seals secrets Switchboard must keep in the log (A2A clients' push-notification tokens); unset: nothing that needs one is offered. */
  SWITCHBOARD_SECRETS_KEY: z
    .string()
    .optional()
    .refine((v) => v === undefined || v.length === 0 || v.length >= 32, {
      message: 'SWITCHBOARD_SECRETS_KEY must be at least 32 characters when set (e.g. openssl rand -base64 32)',
    }),

  // ---- Approvals (issue 14) ----
  SWITCHBOARD_APPROVAL_TIMEOUT_MS: integer('SWITCHBOARD_APPROVAL_TIMEOUT_MS', 100, 86_400_000, 600_000),

  // ---- Several instances (issue 15): each holds a lease on the database; see instancesConfig below ----
  SWITCHBOARD_PUBLIC_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^https?:\/\/[^\s/]+(\/\S*)?$/.test(v), {
      message: 'SWITCHBOARD_PUBLIC_URL must be an http(s) URL (the base URL clients reach this instance at)',
    }),
  SWITCHBOARD_LEASE_HEARTBEAT_MS: integer('SWITCHBOARD_LEASE_HEARTBEAT_MS', 100, 600_000, 2_000),
  SWITCHBOARD_LEASE_TTL_MS: integer('SWITCHBOARD_LEASE_TTL_MS', 300, 3_600_000, 10_000),

  // ---- Schedules (issue 30) ----
  SWITCHBOARD_SCHEDULER_TICK_MS: integer('SWITCHBOARD_SCHEDULER_TICK_MS', 0, 60_000, 1_000),
  SWITCHBOARD_SCHEDULE_MIN_INTERVAL: integer('SWITCHBOARD_SCHEDULE_MIN_INTERVAL', 1, 86_400, 60),

  // ---- Browsers (issue 22): which Host names and page origins are served; see requestOrigin below ----
  SWITCHBOARD_ALLOWED_HOSTS: list('SWITCHBOARD_ALLOWED_HOSTS', (entries) => entryProblems(entries, parseAllowedHost)),
  SWITCHBOARD_ALLOWED_ORIGINS: list('SWITCHBOARD_ALLOWED_ORIGINS', (entries) => entryProblems(entries, parseAllowedOrigin)),

  // ---- Sign-in (issue 27): OpenID Connect for people in the console; see signIn below ----
  SWITCHBOARD_OIDC_ISSUER: z
    .string()
    .optional()
    .refine((v) => !v || /^https?:\/\/\S+$/.test(v), { message: 'SWITCHBOARD_OIDC_ISSUER must be the http(s) URL of the OpenID Connect issuer' }),
  SWITCHBOARD_OIDC_CLIENT_ID: z.string().optional(),
  SWITCHBOARD_OIDC_CLIENT_SECRET: z.string().optional(),
  SWITCHBOARD_OIDC_ROLES_CLAIM: text('roles'),
  SWITCHBOARD_OIDC_DEFAULT_ROLE: oneOf('SWITCHBOARD_OIDC_DEFAULT_ROLE', SIGN_IN_ROLES, 'viewer'),
  SWITCHBOARD_SESSION_TTL_MS: integer('SWITCHBOARD_SESSION_TTL_MS', 60_000, 90 * 86_400_000, 12 * 3_600_000),

  // ---- PostgreSQL (issue 15): set, the log and every read model live there instead of SWITCHBOARD_DB ----
  SWITCHBOARD_DATABASE_URL: postgresUrl('SWITCHBOARD_DATABASE_URL'),
  SWITCHBOARD_DATABASE_POOL_SIZE: integer('SWITCHBOARD_DATABASE_POOL_SIZE', 1, 1000, 10),
});

/** The name of every variable above: docker-compose.yml passes each of them through (a spec checks it). */
export const ENVIRONMENT_VARIABLES: readonly string[] = Object.keys(environmentSchema.shape);

export class InvalidConfigurationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'InvalidConfigurationError';
  }
}

/** Validates the environment once at start; a bad value stops the start with a message naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): SwitchboardConfig {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    throw new InvalidConfigurationError(
      parsed.error.issues.map((issue) => {
        const variable = String(issue.path[0] ?? '');
        return issue.message.includes(variable) ? issue.message : `${variable}: ${issue.message}`;
      }),
    );
  }
  const e = parsed.data;
  const apiToken = e.SWITCHBOARD_API_TOKEN ? e.SWITCHBOARD_API_TOKEN : undefined;
  const signIn = signInConfig(e);
  const host = listenAddress(e.HOST, { apiToken, signIn: signIn.oidc !== undefined }, e.SWITCHBOARD_ALLOW_UNAUTHENTICATED);
  return {
    port: e.PORT,
    host,
    database: {
      file: e.SWITCHBOARD_DB,
      synchronous: e.SWITCHBOARD_DB_SYNCHRONOUS,
      busyTimeoutMs: e.SWITCHBOARD_DB_BUSY_TIMEOUT_MS,
      integrityCheck: e.SWITCHBOARD_DB_INTEGRITY_CHECK,
    },
    apiToken,
    logLevel: e.LOG_LEVEL,
    mcpConfigFile: e.SWITCHBOARD_MCP_CONFIG,
    cli: {
      path: e.COPILOT_CLI_PATH || undefined,
      extraArgs: (e.COPILOT_CLI_ARGS ?? '').split(/\s+/).filter(Boolean),
      url: e.COPILOT_CLI_URL ? e.COPILOT_CLI_URL.replace(/^tcp:\/\//, '') : undefined,
      home: e.COPILOT_CLI_HOME || undefined,
      workingDirectory: path.resolve(e.SWITCHBOARD_WORKING_DIRECTORY),
      requestTimeoutMs: e.COPILOT_CLI_REQUEST_TIMEOUT_MS,
      provider: e.COPILOT_PROVIDER_BASE_URL
        ? { type: e.COPILOT_PROVIDER_TYPE, baseUrl: e.COPILOT_PROVIDER_BASE_URL, apiKey: e.COPILOT_PROVIDER_API_KEY }
        : undefined,
      defaultModel: e.COPILOT_MODEL,
      githubToken: e.COPILOT_GITHUB_TOKEN || undefined,
    },
    workspaces: {
      repositories: e.SWITCHBOARD_REPOSITORIES.map((r) => path.resolve(r)),
      dir: path.resolve(e.SWITCHBOARD_WORKSPACES_DIR || path.join(path.dirname(path.resolve(e.SWITCHBOARD_DB)), 'workspaces')),
      retentionMs: e.SWITCHBOARD_WORKSPACE_RETENTION,
    },
    tools: {
      webhookTimeoutMs: e.SWITCHBOARD_WEBHOOK_TIMEOUT_MS,
      webhookSecret: e.SWITCHBOARD_WEBHOOK_SECRET || undefined,
      userInputTimeoutMs: e.SWITCHBOARD_USER_INPUT_TIMEOUT_MS,
    },
    runs: {
      maxDepth: e.SWITCHBOARD_RUN_MAX_DEPTH,
      maxConcurrentChildren: e.SWITCHBOARD_RUN_MAX_CHILDREN,
      timeoutMs: e.SWITCHBOARD_RUN_TIMEOUT_MS,
      stopGraceMs: e.SWITCHBOARD_RUN_STOP_GRACE_MS,
    },
    security: {
      allowUnauthenticated: e.SWITCHBOARD_ALLOW_UNAUTHENTICATED,
      allowInlineMcp: e.SWITCHBOARD_ALLOW_INLINE_MCP,
      allowHostPermissions: e.SWITCHBOARD_ALLOW_HOST_PERMISSIONS,
      cliEnvPassthrough: e.SWITCHBOARD_CLI_ENV_PASSTHROUGH,
      outboundAllow: e.SWITCHBOARD_OUTBOUND_ALLOW,
    },

    // Operations (issue 10, section 5).
    metrics: { public: e.SWITCHBOARD_METRICS_PUBLIC },
    apiDocs: { public: e.SWITCHBOARD_API_DOCS_PUBLIC },
    resilience: {
      cliMaxMessageBytes: e.SWITCHBOARD_CLI_MAX_MESSAGE_BYTES,
      maxLiveSessions: e.SWITCHBOARD_MAX_LIVE_SESSIONS,
      projectionRetryMaxMs: e.SWITCHBOARD_PROJECTION_RETRY_MAX_MS,
      readyMaxProjectionLag: e.SWITCHBOARD_READY_MAX_PROJECTION_LAG,
    },
    console: { dir: e.SWITCHBOARD_CONSOLE ? path.resolve(e.SWITCHBOARD_CONSOLE_DIR || DEFAULT_CONSOLE_DIR) : undefined },

    // ---- Model calls (issue 25) ----
    modelCalls: {
      route: e.SWITCHBOARD_MODEL_ROUTE,
      content: e.SWITCHBOARD_MODEL_CONTENT,
      contentMaxBytes: e.SWITCHBOARD_MODEL_CONTENT_MAX_BYTES,
      prices: modelPrices(e.SWITCHBOARD_MODEL_PRICES),
    },

    // ---- Traces (issue 28) ----
    traces: { enabled: e.SWITCHBOARD_TRACES, content: e.SWITCHBOARD_TRACE_CONTENT },

    // ---- Remote agents (issue 43) ----
    a2a: {
      credentials: a2aCredentials(e.SWITCHBOARD_A2A_CREDENTIALS),
      pollMs: e.SWITCHBOARD_A2A_POLL_MS,
      secretsKey: e.SWITCHBOARD_SECRETS_KEY || undefined,
    },

    // ---- Approvals (issue 14) ----
    approvals: { timeoutMs: e.SWITCHBOARD_APPROVAL_TIMEOUT_MS },

    // ---- Several instances (issue 15) ----
    instances: instancesConfig(e.SWITCHBOARD_PUBLIC_URL, e.SWITCHBOARD_LEASE_HEARTBEAT_MS, e.SWITCHBOARD_LEASE_TTL_MS),

    // ---- Schedules (issue 30) ----
    scheduler: { tickMs: e.SWITCHBOARD_SCHEDULER_TICK_MS, minIntervalSeconds: e.SWITCHBOARD_SCHEDULE_MIN_INTERVAL },

    // ---- Browsers (issue 22) ----
    requestOrigin: { allowedHosts: e.SWITCHBOARD_ALLOWED_HOSTS, allowedOrigins: e.SWITCHBOARD_ALLOWED_ORIGINS.map(parseAllowedOrigin) },

    // ---- Sign-in (issue 27) ----
    signIn,

    // ---- PostgreSQL (issue 15) ----
    postgres: e.SWITCHBOARD_DATABASE_URL ? { url: e.SWITCHBOARD_DATABASE_URL, poolSize: e.SWITCHBOARD_DATABASE_POOL_SIZE } : undefined,
  };
}

/** `https://agents.example.com=<token>`: an http(s) origin (no path), `=`, then the token. */
function parseA2aCredential(entry: string): { origin: string; token: string } | string {
  const at = entry.indexOf('=');
  const [origin, token] = at < 0 ? [entry, ''] : [entry.slice(0, at), entry.slice(at + 1)];
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return `"${origin}" is not a URL; write origin=token (e.g. https://agents.example.com=s3cret)`;
  }
  if (!/^https?:$/.test(url.protocol) || url.origin !== origin.replace(/\/$/, '')) {
    return `"${origin}" must be an http(s) origin with no path (e.g. https://agents.example.com)`;
  }
  if (!token) return `${url.origin} has no token; write origin=token`;
  return { origin: url.origin, token };
}

function a2aCredentialProblems(entries: string[]): string[] {
  return entries.map(parseA2aCredential).filter((parsed): parsed is string => typeof parsed === 'string');
}

function a2aCredentials(entries: string[]): Record<string, string> {
  const credentials: Record<string, string> = {};
  for (const parsed of entries.map(parseA2aCredential)) if (typeof parsed !== 'string') credentials[parsed.origin] = parsed.token;
  return credentials;
}

function modelPrices(file: string | undefined): ModelPriceTable | undefined {
  if (!file) return undefined;
  try {
    return loadModelPrices(file);
  } catch (error) {
    throw new InvalidConfigurationError([(error as Error).message]);
  }
}

/**
 * A lease must survive a missed heartbeat or two (a GC pause, a slow commit): with a TTL of two
 * heartbeats or less, one late renewal would let another instance take a live instance's sessions over.
 */
function instancesConfig(publicUrl: string | undefined, heartbeatMs: number, leaseTtlMs: number): InstancesConfig {
  if (leaseTtlMs <= 2 * heartbeatMs) {
    throw new InvalidConfigurationError([
      `SWITCHBOARD_LEASE_TTL_MS (${leaseTtlMs}) must be more than twice SWITCHBOARD_LEASE_HEARTBEAT_MS (${heartbeatMs}): ` +
        "a lease that one late heartbeat lets expire hands a live instance's sessions to another",
    ]);
  }
  return { publicUrl: publicUrl ? publicUrl.replace(/\/+$/, '') : undefined, heartbeatMs, leaseTtlMs };
}

/** OIDC needs a client id and the public URL its redirect is derived from; both named when missing. */
function signInConfig(e: z.infer<typeof environmentSchema>): SignInConfig {
  const sessionTtlMs = e.SWITCHBOARD_SESSION_TTL_MS;
  if (!e.SWITCHBOARD_OIDC_ISSUER) return { oidc: undefined, sessionTtlMs };
  const problems: string[] = [];
  if (!e.SWITCHBOARD_OIDC_CLIENT_ID)
    problems.push('SWITCHBOARD_OIDC_CLIENT_ID must be set with SWITCHBOARD_OIDC_ISSUER (the client registered at the provider)');
  if (!e.SWITCHBOARD_PUBLIC_URL) {
    problems.push('SWITCHBOARD_PUBLIC_URL must be set with SWITCHBOARD_OIDC_ISSUER: the sign-in redirect is <SWITCHBOARD_PUBLIC_URL>/auth/callback');
  }
  if (problems.length > 0) throw new InvalidConfigurationError(problems);
  const publicUrl = (e.SWITCHBOARD_PUBLIC_URL ?? '').replace(/\/+$/, '');
  return {
    oidc: {
      issuer: e.SWITCHBOARD_OIDC_ISSUER,
      clientId: e.SWITCHBOARD_OIDC_CLIENT_ID ?? '',
      clientSecret: e.SWITCHBOARD_OIDC_CLIENT_SECRET || undefined,
      redirectUrl: `${publicUrl}/auth/callback`,
      publicOrigin: new URL(publicUrl).origin,
      rolesClaim: e.SWITCHBOARD_OIDC_ROLES_CLAIM.trim(),
      defaultRole: e.SWITCHBOARD_OIDC_DEFAULT_ROLE,
    },
    sessionTtlMs,
  };
}

/** web/dist of this checkout: src/config (tests) and dist/config (npm start) are both two levels down. */
const DEFAULT_CONSOLE_DIR = path.join(__dirname, '..', '..', 'web', 'dist');

/**
 * Without a credential the API is open, so by default it is reachable from this host only: HOST
 * defaults to 127.0.0.1 (0.0.0.0 with a token or with OpenID Connect sign-in, either of which closes the
 * API), and a non-loopback HOST without either stops the start unless the operator accepts an open API
 * with SWITCHBOARD_ALLOW_UNAUTHENTICATED=true. Named keys do not count: they are made through the API,
 * after the start, by someone holding one of these.
 */
function listenAddress(configured: string | undefined, credentials: { apiToken?: string; signIn: boolean }, allowUnauthenticated: boolean): string {
  const closed = Boolean(credentials.apiToken) || credentials.signIn;
  const host = configured?.trim() || (closed ? '0.0.0.0' : '127.0.0.1');
  if (!closed && !allowUnauthenticated && !isLoopback(host)) {
    throw new InvalidConfigurationError([
      `HOST=${host} listens beyond this machine but SWITCHBOARD_API_TOKEN is not set and sign-in (SWITCHBOARD_OIDC_ISSUER) is not configured, ` +
        'so anyone who reaches it could run sessions on this host. Set SWITCHBOARD_API_TOKEN (16+ characters) or configure sign-in ' +
        '(SWITCHBOARD_OIDC_ISSUER, see docs/security.md), or HOST=127.0.0.1, or SWITCHBOARD_ALLOW_UNAUTHENTICATED=true to accept an open API.',
    ]);
  }
  return host;
}
