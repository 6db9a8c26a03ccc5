import type { ModelPriceTable } from './model-prices';

/**
 * The roles of `src/identity/principal.ts` (config imports no context; identity compiles only while
 * the two lists agree, where the default role becomes a principal's).
 */
export const SIGN_IN_ROLES = ['viewer', 'operator', 'approver', 'admin'] as const;

/** What `loadConfig` makes of the environment: every setting checked and resolved, as the contexts read it. */
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
  /** issue 42: each session's and run's own git worktree; `repositories` empty: off, every session works in `cli.workingDirectory`. */
  workspaces: {
    /** Absolute folders (resolved at start) a session's `workspace.repository` must be, or be inside. */
    repositories: string[];
    /** The absolute folder the worktrees are made in, one per session (`<dir>/<sessionId>`). */
    dir: string;
    /** How long an ended session's worktree is kept. */
    retentionMs: number;
  };
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

  // ---- Security (issue 10 §1-2) ----
  security: {
    /** Listen on a non-loopback HOST without SWITCHBOARD_API_TOKEN or OIDC sign-in (refused at start otherwise). */
    allowUnauthenticated: boolean;
    /** Accept inline customAgents[].mcpServers that run a command: lets API callers run programs on this host. */
    allowInlineMcp: boolean;
    /** Sessions may approve the model's shell commands, file writes and URL fetches (permissionPolicy.allowKinds). */
    allowHostPermissions: boolean;
    /** Variable names (or PREFIX_*) the CLI child gets on top of its minimal environment. */
    cliEnvPassthrough: string[];
    /** Hosts, *.wildcards, IPs and CIDRs outbound calls may reach; empty: any but link-local and metadata. */
    outboundAllow: string[];
  };

  // Operations (issue 10, section 5).
  /** `/metrics` (Prometheus): behind the API token like /api unless `public`. */
  metrics: { public: boolean };
  /** `/api/docs` (Swagger UI) and `/api/docs-json`: behind the API token like /api unless `public`. */
  apiDocs: { public: boolean };

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

  /** The web console: the built bundle's folder, or undefined when SWITCHBOARD_CONSOLE=false. */
  console: { dir: string | undefined };

  // ---- Model calls (issue 25) ----
  modelCalls: {
    /**
     * Whether Switchboard asks the CLI for its model calls (`llmInference.setProvider`). Off: the CLI
     * calls the provider itself, with the key, and nothing is recorded (for comparing, and as a way back).
     */
    route: boolean;
    /** `full` keeps each call's request and answer (replay and fork need them); `metadata` keeps neither. */
    content: 'full' | 'metadata';
    /** A kept request or answer is cut at this many bytes (marked truncated). */
    contentMaxBytes: number;
    /** Prices per model (`SWITCHBOARD_MODEL_PRICES`); undefined: every cost unknown. */
    prices: ModelPriceTable | undefined;
  };

  // ---- Traces (issue 28) ----
  traces: {
    /** Whether the log is projected into OpenTelemetry spans and exported over OTLP (off: the module is not loaded). */
    enabled: boolean;
    /** Whether spans carry prompts, answers, tool arguments and results (GenAI's content opt-in). */
    content: boolean;
  };

  // ---- Remote agents (issue 43) ----
  a2a: {
    /** The bearer token sent to each A2A service, by origin (`SWITCHBOARD_A2A_CREDENTIALS`); none: calls go without one. */
    credentials: Record<string, string>;
    /** How often a remote task is asked for its state while a run waits on it. */
    pollMs: number;
    /**
     * `SWITCHBOARD_SECRETS_KEY`: what seals a push-notification client's token before it is recorded (every
     * event stream is readable with `read`); unset: A2A push notifications are off.
     */
    secretsKey: string | undefined;
  };

  // ---- Approvals (issue 14) ----
  approvals: {
    /** A permission request waiting for a person is denied after this long, with that reason. */
    timeoutMs: number;
  };

  // ---- Several instances (issue 15) ----
  instances: InstancesConfig;

  // ---- Schedules (issue 30) ----
  /** How often this instance looks for due schedules; 0: it never fires schedules (others on the database do). */
  /**
   * `minIntervalSeconds`: the closest two firings of one cron may be (issue 39: a schedule every second
   * started 33 runs in 23 s); a cron that fires closer is refused (422 invalid_schedule).
   */
  scheduler: { tickMs: number; minIntervalSeconds: number };

  // ---- Browsers (issue 22) ----
  /**
   * Who may call the service besides loopback names, the address a request arrives at and
   * SWITCHBOARD_PUBLIC_URL (`instances.publicUrl`): Host names (DNS rebinding) and page origins.
   */
  requestOrigin: {
    /** SWITCHBOARD_ALLOWED_HOSTS: `name`, `name:port`, `*.suffix`, IP addresses; any other Host is answered 421. */
    allowedHosts: string[];
    /** SWITCHBOARD_ALLOWED_ORIGINS: origins (`https://console.example.com`) whose pages may call the API. */
    allowedOrigins: string[];
  };

  // ---- Sign-in (issue 27) ----
  signIn: SignInConfig;

  // ---- PostgreSQL (issue 15) ----
  /** Set: the event log and the read models are in this PostgreSQL database (`database` is unused); unset: SQLite. */
  postgres: { url: string; poolSize: number } | undefined;
}

/** People signing in to the console through OpenID Connect (`src/identity/sign-in`). */
export interface SignInConfig {
  /** undefined: no sign-in (SWITCHBOARD_OIDC_ISSUER unset). */
  oidc:
    | {
        issuer: string;
        clientId: string;
        /** undefined: a public client (PKCE alone). */
        clientSecret: string | undefined;
        /** `<SWITCHBOARD_PUBLIC_URL>/auth/callback`. */
        redirectUrl: string;
        /** The console's origin: a cookie-authenticated request must come from a page of it. */
        publicOrigin: string;
        /** The ID token claim holding the person's roles (a string or an array). */
        rolesClaim: string;
        /** The role of a signed-in person whose claim names none. */
        defaultRole: (typeof SIGN_IN_ROLES)[number];
      }
    | undefined;
  /** A sign-in session ends this long after it started; the person signs in again. */
  sessionTtlMs: number;
}

/** This instance's lease on the database (`src/instances`). */
export interface InstancesConfig {
  /** What other instances tell clients to use for a session this one holds; undefined: http://<host>:<port>. */
  publicUrl: string | undefined;
  /** How often the lease is renewed and expired leases are looked for. */
  heartbeatMs: number;
  /** A lease not renewed for this long is expired: another instance takes its sessions and runs over. */
  leaseTtlMs: number;
}

export interface CopilotCliConfig {
  /** Binary to spawn; undefined: the one of the installed @github/copilot package. */
  path: string | undefined;
  extraArgs: string[];
  /** host:port of an already running CLI; when set nothing is spawned. */
  url: string | undefined;
  /** Isolated HOME / COPILOT_HOME / XDG dirs for the spawned CLI; undefined: inherit. */
  home: string | undefined;
  /**
   * The absolute folder every session works in (session.create's `workingDirectory`): created when a
   * session starts; a `read` approved by policy reaches nothing outside it (issue 22 §2).
   */
  workingDirectory: string;
  requestTimeoutMs: number;
  provider: { type: 'openai' | 'azure' | 'anthropic'; baseUrl: string; apiKey: string | undefined } | undefined;
  defaultModel: string;
  githubToken: string | undefined;
}
