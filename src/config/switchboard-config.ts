import { z } from 'zod';

const integer = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `${name} must be an integer from ${min} to ${max} (got "${v}")` });
        return z.NEVER;
      }
      return n;
    });

const oneOf = <T extends string>(name: string, values: readonly T[], fallback: T) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      const upper = v.trim();
      const match = values.find((x) => x.toLowerCase() === upper.toLowerCase());
      if (!match) {
        ctx.addIssue({ code: 'custom', message: `${name} must be one of ${values.join(', ')} (got "${v}")` });
        return z.NEVER;
      }
      return match;
    });

const flag = (name: string, fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return fallback;
      if (['1', 'true', 'yes', 'on'].includes(v.toLowerCase())) return true;
      if (['0', 'false', 'no', 'off'].includes(v.toLowerCase())) return false;
      ctx.addIssue({ code: 'custom', message: `${name} must be true or false (got "${v}")` });
      return z.NEVER;
    });

/** Every setting Switchboard reads from the environment, with its default. */
const environmentSchema = z.object({
  PORT: integer('PORT', 1, 65535, 3000),
  HOST: z.string().optional().default('0.0.0.0'),
  SWITCHBOARD_DB: z.string().optional().default('./data/switchboard.db'),
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
  COPILOT_CLI_REQUEST_TIMEOUT_MS: integer('COPILOT_CLI_REQUEST_TIMEOUT_MS', 100, 3_600_000, 60_000),
  COPILOT_PROVIDER_TYPE: oneOf('COPILOT_PROVIDER_TYPE', ['openai', 'azure', 'anthropic'] as const, 'openai'),
  COPILOT_PROVIDER_BASE_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^https?:\/\/\S+$/.test(v), { message: 'COPILOT_PROVIDER_BASE_URL must be an http(s) URL' }),
  COPILOT_PROVIDER_API_KEY: z.string().optional(),
  COPILOT_MODEL: z.string().optional().default('gpt-4.1'),
  COPILOT_GITHUB_TOKEN: z.string().optional(),
  SWITCHBOARD_WEBHOOK_TIMEOUT_MS: integer('SWITCHBOARD_WEBHOOK_TIMEOUT_MS', 100, 600_000, 30_000),
  SWITCHBOARD_WEBHOOK_SECRET: z.string().optional(),
  SWITCHBOARD_USER_INPUT_TIMEOUT_MS: integer('SWITCHBOARD_USER_INPUT_TIMEOUT_MS', 100, 86_400_000, 300_000),
  SWITCHBOARD_RUN_MAX_DEPTH: integer('SWITCHBOARD_RUN_MAX_DEPTH', 1, 32, 5),
  SWITCHBOARD_RUN_MAX_CHILDREN: integer('SWITCHBOARD_RUN_MAX_CHILDREN', 1, 1000, 8),
  SWITCHBOARD_RUN_TIMEOUT_MS: integer('SWITCHBOARD_RUN_TIMEOUT_MS', 1000, 86_400_000, 1_800_000),
  SWITCHBOARD_RUN_STOP_GRACE_MS: integer('SWITCHBOARD_RUN_STOP_GRACE_MS', 0, 600_000, 5_000),
  SWITCHBOARD_MCP_CONFIG: z.string().optional().default('./mcp-config.json'),
  LOG_LEVEL: oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),

  // issue 10 §4-5, nothing stays stuck: CLI input bound, live-session cap, projection retries, readiness.
  SWITCHBOARD_CLI_MAX_MESSAGE_BYTES: integer('SWITCHBOARD_CLI_MAX_MESSAGE_BYTES', 65_536, 1_073_741_824, 8 * 1024 * 1024),
  SWITCHBOARD_MAX_LIVE_SESSIONS: integer('SWITCHBOARD_MAX_LIVE_SESSIONS', 1, 100_000, 100),
  SWITCHBOARD_PROJECTION_RETRY_MAX_MS: integer('SWITCHBOARD_PROJECTION_RETRY_MAX_MS', 100, 3_600_000, 30_000),
  SWITCHBOARD_READY_MAX_PROJECTION_LAG: integer('SWITCHBOARD_READY_MAX_PROJECTION_LAG', 0, 100_000_000, 1_000),
});

export interface SwitchboardConfig {
  port: number;
  host: string;
  database: {
    file: string;
    synchronous: 'FULL' | 'NORMAL';
    busyTimeoutMs: number;
    integrityCheck: boolean;
  };
  /** undefined: the API is open (development); set: every /api call needs the bearer token. */
  apiToken: string | undefined;
  logLevel: string;
  /** mcp-config.json (`{ "mcpServers": { name: {...} } }`) that agents' mcp_servers names resolve against. */
  mcpConfigFile: string;
  cli: CopilotCliConfig;
  tools: {
    webhookTimeoutMs: number;
    /** When set, each webhook call carries `X-Switchboard-Signature: sha256=<hmac of the body>`. */
    webhookSecret: string | undefined;
    userInputTimeoutMs: number;
  };
  /** Delegation defaults; an agent definition or the run itself may narrow them. */
  runs: {
    maxDepth: number;
    maxConcurrentChildren: number;
    timeoutMs: number;
    /** How long a stop waits for a graceful abort before it destroys the run's CLI session. */
    stopGraceMs: number;
  };

  // issue 10 §4-5, nothing stays stuck.
  resilience: {
    /** A CLI frame (header or announced Content-Length) over this is broken framing: the CLI is restarted. */
    cliMaxMessageBytes: number;
    /** Sessions the CLI holds at once (starting, active, running, idle); past it create and resume answer 429. */
    maxLiveSessions: number;
    /** A failed async projection batch is retried after 100 ms, doubling up to this. */
    projectionRetryMaxMs: number;
    /** /health/ready fails while an async projection is more than this many events behind the log. */
    readyMaxProjectionLag: number;
  };
}

export interface CopilotCliConfig {
  /** Binary to spawn; undefined: the one of the installed @github/copilot package. */
  path: string | undefined;
  extraArgs: string[];
  /** host:port of an already running CLI; when set nothing is spawned. */
  url: string | undefined;
  /** Isolated HOME / COPILOT_HOME / XDG dirs for the spawned CLI; undefined: inherit. */
  home: string | undefined;
  requestTimeoutMs: number;
  provider: { type: 'openai' | 'azure' | 'anthropic'; baseUrl: string; apiKey: string | undefined } | undefined;
  defaultModel: string;
  githubToken: string | undefined;
}

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
  return {
    port: e.PORT,
    host: e.HOST,
    database: {
      file: e.SWITCHBOARD_DB,
      synchronous: e.SWITCHBOARD_DB_SYNCHRONOUS,
      busyTimeoutMs: e.SWITCHBOARD_DB_BUSY_TIMEOUT_MS,
      integrityCheck: e.SWITCHBOARD_DB_INTEGRITY_CHECK,
    },
    apiToken: e.SWITCHBOARD_API_TOKEN ? e.SWITCHBOARD_API_TOKEN : undefined,
    logLevel: e.LOG_LEVEL,
    mcpConfigFile: e.SWITCHBOARD_MCP_CONFIG,
    cli: {
      path: e.COPILOT_CLI_PATH || undefined,
      extraArgs: (e.COPILOT_CLI_ARGS ?? '').split(/\s+/).filter(Boolean),
      url: e.COPILOT_CLI_URL ? e.COPILOT_CLI_URL.replace(/^tcp:\/\//, '') : undefined,
      home: e.COPILOT_CLI_HOME || undefined,
      requestTimeoutMs: e.COPILOT_CLI_REQUEST_TIMEOUT_MS,
      provider: e.COPILOT_PROVIDER_BASE_URL
        ? { type: e.COPILOT_PROVIDER_TYPE, baseUrl: e.COPILOT_PROVIDER_BASE_URL, apiKey: e.COPILOT_PROVIDER_API_KEY }
        : undefined,
      defaultModel: e.COPILOT_MODEL,
      githubToken: e.COPILOT_GITHUB_TOKEN || undefined,
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
    resilience: {
      cliMaxMessageBytes: e.SWITCHBOARD_CLI_MAX_MESSAGE_BYTES,
      maxLiveSessions: e.SWITCHBOARD_MAX_LIVE_SESSIONS,
      projectionRetryMaxMs: e.SWITCHBOARD_PROJECTION_RETRY_MAX_MS,
      readyMaxProjectionLag: e.SWITCHBOARD_READY_MAX_PROJECTION_LAG,
    },
  };
}
