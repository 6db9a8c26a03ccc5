import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { freePort, REPO_ROOT, spawnTs, waitForHttp } from '../../test/fixtures/service-process';
import { makeTempDir } from '../../test/fixtures/temp-dir';

/** The built console the service serves at / (npm run build:web writes it). */
export const CONSOLE_DIR = path.join(REPO_ROOT, 'web', 'dist');

/** The operator's MCP registry the editor's "MCP servers" selector offers: one remote, one local server. */
export const MCP_SERVERS = {
  github: { type: 'http', url: 'https://api.githubcopilot.com/mcp/' },
  files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] },
} as const;

export interface ServiceOptions {
  /** SWITCHBOARD_API_TOKEN (16+ characters); unset: the API is open, as in development. */
  apiToken?: string;
  /** More environment for the service (e.g. COPILOT_CLI_URL for part 2's sessions). */
  env?: Record<string, string>;
  /** Its port (one known before it starts: the sign-in's public URL and redirect name it); unset: a free one. */
  port?: number;
  /** The price table (SWITCHBOARD_MODEL_PRICES' file format: prices per million tokens); unset: every cost unknown. */
  modelPrices?: { currency: string; models: Record<string, { input: number; output: number; cached_input?: number }> };
}

/** An agent as the REST API returns it (the fields the scenarios read). */
export interface AgentView {
  id: string;
  name: string;
  description: string;
  version: number;
  composable: boolean;
  composable_reasons: string[];
  sub_agents: string[];
  included_in?: string[];
  [field: string]: unknown;
}

/** A REST call the service refused: its status and body, so a scenario can read the service's message. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what} answered HTTP ${status}: ${JSON.stringify(body)}`);
    this.name = 'ApiCallError';
  }
}

/**
 * The REST API as a scenario (or the benchmark) uses it to change things behind the console's back:
 * fetch with the token, JSON in and out, any status other than 2xx thrown with the service's body.
 */
export class AgentsApi {
  constructor(
    readonly baseURL: string,
    private readonly token: string | undefined,
  ) {}

  async call<T = unknown>(method: string, route: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const response = await fetch(new URL(route, this.baseURL), {
      method,
      headers: {
        Accept: 'application/json',
        ...(this.token ? { Authorization: `Bearer ${this.token}` } : {}),
        ...(body === undefined && method !== 'POST' ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    if (!response.ok) throw new ApiCallError(response.status, parsed, `${method} ${route}`);
    return parsed as T;
  }

  async listAgents(): Promise<AgentView[]> {
    return (await this.call<{ agents: AgentView[] }>('GET', '/api/agents')).agents;
  }

  getAgent(id: string): Promise<AgentView> {
    return this.call('GET', `/api/agents/${encodeURIComponent(id)}`);
  }

  createAgent(agent: Record<string, unknown>): Promise<AgentView> {
    return this.call('POST', '/api/agents', agent);
  }

  /**
   * Changes some fields of an agent the way another client would: reads it, PUTs the whole definition
   * back with `If-Match: <version>` (so it never overwrites a change it did not see).
   */
  async updateAgent(id: string, change: Record<string, unknown>): Promise<AgentView> {
    const current = await this.getAgent(id);
    return this.call('PUT', `/api/agents/${encodeURIComponent(id)}`, { ...current, ...change }, { 'If-Match': String(current.version) });
  }

  deleteAgent(id: string): Promise<unknown> {
    return this.call('DELETE', `/api/agents/${encodeURIComponent(id)}`);
  }

  /** POST /api/agents/import: all files or none (the service's rule). */
  importFiles(files: Array<{ name: string; content: string }>): Promise<{ created: string[]; updated: string[]; unchanged: string[] }> {
    return this.call('POST', '/api/agents/import', { files });
  }

  /** Deletes every agent, teams first so no delete leaves a dangling reference mid-way. */
  async deleteAllAgents(): Promise<void> {
    const agents = await this.listAgents();
    const teams = agents.filter((a) => a.sub_agents.length > 0);
    const others = agents.filter((a) => a.sub_agents.length === 0);
    for (const agent of [...teams, ...others]) await this.deleteAgent(agent.id);
  }
}

export interface RunningService {
  url: string;
  apiToken: string | undefined;
  databaseFile: string;
  api: AgentsApi;
  /** What the service wrote (last 64 KB), for a failure message. */
  output(): string;
  /** SIGTERM, waits for the exit, and starts it again on the same port, database and CLI home (a restart as an operator does one). */
  restart(): Promise<void>;
  /** SIGTERM, then waits for the exit (SIGKILL after 15 s) and removes the temp folder. */
  stop(): Promise<void>;
}

/**
 * The real service (`node -r @swc-node/register src/main.ts`, as the e2e tests start it) on a free port,
 * a fresh SQLite file and its own mcp-config.json, serving the built console. The Copilot CLI starts
 * lazily, on the first session, so the agent library and editor need none.
 */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  if (!fs.existsSync(path.join(CONSOLE_DIR, 'index.html'))) {
    throw new Error(`No built console in ${CONSOLE_DIR}: run npm run build:web first (npm run test:console does)`);
  }
  const tmp = makeTempDir('switchboard-console-');
  const mcpConfig = path.join(tmp.dir, 'mcp-config.json');
  fs.writeFileSync(mcpConfig, JSON.stringify({ mcpServers: MCP_SERVERS }, null, 2));
  const databaseFile = path.join(tmp.dir, 'switchboard.db');
  const pricesFile = path.join(tmp.dir, 'model-prices.json');
  if (options.modelPrices) fs.writeFileSync(pricesFile, JSON.stringify(options.modelPrices));
  const port = options.port ?? (await freePort());
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    SWITCHBOARD_DB: databaseFile,
    SWITCHBOARD_CONSOLE_DIR: CONSOLE_DIR,
    SWITCHBOARD_MCP_CONFIG: mcpConfig,
    LOG_LEVEL: 'warn',
    SWITCHBOARD_API_TOKEN: options.apiToken ?? '',
    // The Copilot CLI (started on the first session) keeps its state in this service's own folder.
    COPILOT_CLI_HOME: path.join(tmp.dir, 'copilot-home'),
    ...(options.modelPrices ? { SWITCHBOARD_MODEL_PRICES: pricesFile } : {}),
    ...options.env,
  };
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-65_536));
  const url = `http://127.0.0.1:${port}`;
  const spawn = async () => {
    const child = spawnTs('src/main.ts', [], env);
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      await waitForHttp(`${url}/health`, child, 60_000);
    } catch (error) {
      await stopChild(child, exited);
      throw new Error(`${(error as Error).message}\n${output}`, { cause: error });
    }
    return { child, exited };
  };
  let running: Awaited<ReturnType<typeof spawn>>;
  try {
    running = await spawn();
  } catch (error) {
    tmp.cleanup();
    throw error;
  }
  return {
    url,
    apiToken: options.apiToken,
    databaseFile,
    api: new AgentsApi(url, options.apiToken),
    output: () => output,
    restart: async () => {
      await stopChild(running.child, running.exited);
      running = await spawn();
    },
    stop: async () => {
      await stopChild(running.child, running.exited);
      tmp.cleanup();
    },
  };
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(killer);
}
