/**
 * bench:team-turn (issue 29): a team turn, end to end, through Switchboard against the peer a user
 * would pick instead, `@github/copilot-sdk` driving the same Copilot CLI binary
 * (node_modules/@github/copilot, the real one) on the same scripted model server, which answers at
 * once. Both legs in one run, at 1 and 16 concurrent sessions, a few turns on each session, the legs
 * taking turns round by round so that drift on a shared machine falls on both.
 *
 * The same work on both legs, one turn:
 *   1. the lead calls the `lookup` tool;
 *   2. the lead delegates with the CLI's own `task` tool to the custom agent `keeper` (tools: [lookup]),
 *      which calls `lookup` and answers;
 *   3. the lead calls `agent_run` for the agent `researcher`, which answers on a session of its own;
 *   4. the lead answers. Every answer with text is streamed in 40-character chunks.
 * Switchboard: a session created over REST with `lookup` a webhook on this process's loopback
 * server, `keeper` an inline custom agent, delegation on and `researcher` a registered agent; the
 * turn is sent over REST and its end seen over SSE (`cli.session.idle` of the lead), as a user
 * would. Default configuration: model calls routed through Switchboard and recorded (the ledger).
 * The SDK: one client (one CLI process, as Switchboard has one) started as Switchboard starts its CLI
 * without a GitHub token (issue 41): `useLoggedInUser: false` (--no-auto-login), the environment and
 * folder layout of Switchboard's `cliEnvironment` (its own HOME, COPILOT_HOME and XDG folders, the
 * user's cache shared between runs); after the warm-up both CLIs' command lines, working directories
 * and environments are read from /proc and compared ("fair: yes/no" and every difference). A session
 * per lead with `lookup` an in-process tool and `agent_run` an in-process tool that does what Switchboard's does for a
 * foreground run: a second session with the researcher's system message, the prompt sent, its
 * answer awaited and returned; the session stays live (Switchboard keeps a run's session, a run can
 * be continued) and ends with its lead. The turn is `sendAndWait` (until session.idle).
 * Not measured on either leg: starting the service / the client, opening the SSE stream, ending sessions.
 *
 * Each leg's turn is split by the lead's CLI events' timestamps: send → the CLI's user.message, the
 * CLI's turn, the CLI's session.idle → end seen; Switchboard's store work a turn (events, appends,
 * commits and their time) comes from its /metrics counters.
 *
 * Targets: Switchboard's wall time <= 1.10x the SDK's, p50 and p99 (p99 of a few dozen turns is
 * close to their maximum). Also printed: session create (the same ratio), Switchboard's CPU time
 * per create and per turn (process.cpuUsage of its process, the CLI not included), appends the
 * store refused (version conflicts retried) per turn, and the memory Switchboard holds per live
 * idle session (RSS growth over 100 idle sessions, after a full GC).
 *
 *   npm run bench:team-turn
 *   TEAM_TURN_ROUNDS_1=8 TEAM_TURN_ROUNDS_16=1 TEAM_TURN_TURNS=3   (the defaults; the SDK leg takes ~90 s a turn at 16)
 *   TEAM_TURN_PROFILE=/tmp/prof   (--cpu-prof of the service process into that folder)
 *   TEAM_TURN_LEGS=switchboard    (one leg only, e.g. while profiling)
 *   TEAM_TURN_DEBUG=1             (each round's model calls by rule, and their timeline)
 */
import 'reflect-metadata';
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { type RequestContext, ScriptedModelServer } from '../test/fixtures/scripted-model-server';
import { SseClient, type SseEvent } from '../test/fixtures/sse-client';
import { peerVersion, requirePeer } from './peers';
import type { ServiceUsage } from './team-turn-service';
import { percentile } from './figures';
import { cliChildOf, compareClis, type Placeholders } from './cli-fairness';
import { cliEnvironment } from '../src/copilot-cli/cli-environment';

const TARGET = 1.1;
const TURNS = Number(process.env.TEAM_TURN_TURNS ?? 3);
const ROUNDS: Record<number, number> = { 1: Number(process.env.TEAM_TURN_ROUNDS_1 ?? 8), 16: Number(process.env.TEAM_TURN_ROUNDS_16 ?? 1) };
const roundsAt = (concurrency: number): number => ROUNDS[concurrency] ?? 1;
const CONCURRENCY = (process.env.TEAM_TURN_CONCURRENCY ?? '1,16').split(',').map(Number);
const IDLE_SESSIONS = Number(process.env.TEAM_TURN_IDLE_SESSIONS ?? 100);
const LEGS = (process.env.TEAM_TURN_LEGS ?? 'switchboard,sdk').split(',');
const TURN_TIMEOUT_MS = 300_000;
const MODEL = 'gpt-4.1';

const LEAD_PROMPT = 'LEAD_P You lead a small team: look things up, ask the keeper, ask the researcher, then answer.';
const KEEPER_PROMPT = 'KEEPER_P You keep facts. Use lookup.';
const RESEARCHER_PROMPT = 'RESEARCHER_P You research facts.';
const LOOKUP_PARAMETERS = { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] };
const LEAD_ANSWER = 'TEAM_DONE: alpha is 42, the keeper says beta is 42 and the researcher found gamma; '.repeat(3);
const KEEPER_ANSWER = 'KEEPER_DONE: beta is 42, as lookup said, and that is all I keep on it for now. ';
const RESEARCHER_ANSWER = 'RESEARCH_DONE: gamma is 7; three sources agree, none disagrees, and it has not changed. '.repeat(2);

/** How many tool results the agent got since the prompt of this turn (its position within the turn). */
function stepInTurn(ctx: RequestContext): number {
  const messages = ctx.messages as Array<{ role?: string }>;
  let lastUser = -1;
  messages.forEach((m, i) => {
    if (m.role === 'user') lastUser = i;
  });
  return messages.slice(lastUser + 1).filter((m) => m.role === 'tool').length;
}

function teamScript(model: ScriptedModelServer): void {
  model.setScript([
    { name: 'researcher answers', systemIncludes: 'RESEARCHER_P', answer: { text: RESEARCHER_ANSWER } },
    {
      name: 'keeper',
      who: 'child',
      answer: (ctx) => (stepInTurn(ctx) === 0 ? { toolCalls: [{ name: 'lookup', arguments: { key: 'beta' } }] } : { text: KEEPER_ANSWER }),
    },
    {
      name: 'lead',
      who: 'parent',
      systemIncludes: 'LEAD_P',
      answer: (ctx) => {
        switch (stepInTurn(ctx)) {
          case 0:
            return { toolCalls: [{ name: 'lookup', arguments: { key: 'alpha' } }] };
          case 1:
            return {
              toolCalls: [
                {
                  name: 'task',
                  arguments: { agent_type: 'keeper', name: 'keeper-1', description: 'Ask the keeper', prompt: 'What is beta?', mode: 'sync' },
                },
              ],
            };
          case 2:
            return { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'researcher', prompt: 'Find gamma.' } }] };
          default:
            return { text: LEAD_ANSWER };
        }
      },
    },
  ]);
}

/** The answer of the lookup tool on both legs. */
function lookupAnswer(key: unknown): string {
  return `${String(key)} is 42`;
}

// ---------------------------------------------------------------------------------------------
// The two legs behind one shape: create a session, run a turn on it, end it.

interface TeamSession {
  /** What a user does before a turn and is not timed (Switchboard: open the session's SSE stream). */
  ready(): Promise<void>;
  /** One turn, prompt sent to its end seen: its wall time, and where it went. */
  turn(n: number): Promise<TurnTiming>;
  end(): Promise<void>;
}

/**
 * A turn's wall time, split by the lead's CLI events' own timestamps (the CLI's clock is this machine's):
 * from the send to the CLI's `user.message` (the CLI has the prompt), and from the CLI's `session.idle`
 * to the caller seeing the turn's end. What lies between is the CLI's turn, tool calls and runs included.
 */
interface TurnTiming {
  wallMs: number;
  toCliMs: number;
  fromIdleMs: number;
}

/** The lead's CLI event of a type (not a sub-agent's), recorded at or after `since` (epoch ms), by the CLI's timestamp. */
function cliTime(events: Array<{ type: string; timestamp?: string; agentId?: string }>, type: string, since: number): number {
  const times = events
    .filter((e) => e.type === type && !e.agentId && e.timestamp)
    .map((e) => Date.parse(e.timestamp!))
    .filter((t) => t >= since - 1);
  return times.length > 0 ? Math.min(...times) : Number.NaN;
}

interface Leg {
  name: string;
  /** The process that spawns this leg's CLI, and the leg's own folders (named alike in the fairness check). */
  cliParent: number;
  placeholders: Placeholders;
  create(): Promise<TeamSession>;
  stop(): Promise<void>;
}

// ---- Switchboard -------------------------------------------------------------------------------

interface Service {
  baseUrl: string;
  pid: number;
  usage(afterGc?: boolean): Promise<ServiceUsage>;
  metric(name: string): Promise<number>;
  stop(): Promise<void>;
}

async function startService(dir: string, model: ScriptedModelServer): Promise<Service> {
  const nodeArgs = ['--expose-gc'];
  if (process.env.TEAM_TURN_PROFILE) nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.TEAM_TURN_PROFILE)}`);
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, '-r', '@swc-node/register', path.join(__dirname, 'team-turn-service.ts')], {
    cwd: path.resolve(__dirname, '..'),
    env: {
      ...process.env,
      SWITCHBOARD_DB: path.join(dir, 'switchboard.db'),
      LOG_LEVEL: 'silent',
      COPILOT_CLI_HOME: path.join(dir, 'switchboard-cli-home'),
      SWITCHBOARD_WORKING_DIRECTORY: path.join(dir, 'switchboard-work'),
      SWITCHBOARD_MAX_LIVE_SESSIONS: '1000',
      SWITCHBOARD_CONSOLE: 'false',
      ...model.providerEnv(),
      COPILOT_MODEL: MODEL,
    },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /LISTENING (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`team-turn-service exited with code ${code} before listening`)));
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    pid: child.pid!,
    usage: (afterGc = false) =>
      new Promise<ServiceUsage>((resolve) => {
        const onMessage = (message: { usage?: ServiceUsage }) => {
          if (!message.usage) return;
          child.off('message', onMessage);
          resolve(message.usage);
        };
        child.on('message', onMessage);
        child.send(afterGc ? 'usage-after-gc' : 'usage');
      }),
    async metric(name: string) {
      const text = await (await fetch(`${baseUrl}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith(`${name} `));
      return line ? Number(line.split(' ')[1]) : 0;
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The lookup webhook: answers at once, keep-alive. */
async function startWebhook(): Promise<{ url: string; stop(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { arguments?: { key?: unknown } };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ result: lookupAnswer(body.arguments?.key) }));
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/lookup`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function api(baseUrl: string, method: string, url: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function switchboardLeg(dir: string, service: Service, webhookUrl: string): Promise<Leg> {
  const created = await api(service.baseUrl, 'POST', '/api/agents', {
    id: 'researcher',
    name: 'Researcher',
    description: 'Finds facts',
    system_message: { mode: 'append', content: RESEARCHER_PROMPT },
  });
  if (created.status !== 201) throw new Error(`POST /api/agents answered ${created.status}: ${JSON.stringify(created.body)}`);
  const isLeadIdle = (e: SseEvent): boolean => e.event === 'cli.session.idle' && !(e.data as { data?: { agentId?: string } }).data?.agentId;
  return {
    name: 'switchboard',
    cliParent: service.pid,
    placeholders: [
      [path.join(dir, 'switchboard-cli-home'), '<cli home>'],
      [path.join(dir, 'switchboard-work'), '<work>'],
    ],
    async create() {
      const session = await api(service.baseUrl, 'POST', '/api/sessions', {
        systemMessage: { mode: 'append', content: LEAD_PROMPT },
        delegation: true,
        tools: [{ name: 'lookup', description: 'Look up a fact by key', parameters: LOOKUP_PARAMETERS, handler: { type: 'webhook', url: webhookUrl } }],
        customAgents: [{ name: 'keeper', displayName: 'Keeper', description: 'Keeps facts', prompt: KEEPER_PROMPT, tools: ['lookup'], infer: true }],
      });
      if (session.status !== 201) throw new Error(`POST /api/sessions answered ${session.status}: ${JSON.stringify(session.body)}`);
      const sessionId = session.body.sessionId as string;
      let sse: SseClient | undefined;
      const seen = new Set<SseEvent>();
      return {
        async ready() {
          sse = await new SseClient().open(`${service.baseUrl}/api/sessions/${sessionId}/events`);
        },
        async turn(n) {
          const events = sse!;
          for (const e of events.events) if (isLeadIdle(e)) seen.add(e);
          const since = events.events.length;
          const startedAt = Date.now();
          const started = performance.now();
          const sent = await api(service.baseUrl, 'POST', `/api/sessions/${sessionId}/messages`, {
            prompt: `TEAM_TURN ${n}: what are alpha, beta and gamma?`,
          });
          if (sent.status !== 202) throw new Error(`POST messages answered ${sent.status}: ${JSON.stringify(sent.body)}`);
          await events.waitFor((e) => isLeadIdle(e) && !seen.has(e), `the end of turn ${n}`, TURN_TIMEOUT_MS);
          const wallMs = performance.now() - started;
          const endedAt = startedAt + wallMs;
          // The recorded CLI events as the SSE stream gives them: { type: 'cli.<type>', data: { agentId?, timestamp, payload } }.
          const cli = events.events.slice(since).map((e) => {
            const stored = e.data as { type: string; data: { agentId?: string; timestamp?: string } };
            return { type: stored.type.replace(/^cli\./, ''), timestamp: stored.data?.timestamp, agentId: stored.data?.agentId };
          });
          return { wallMs, toCliMs: cliTime(cli, 'user.message', startedAt) - startedAt, fromIdleMs: endedAt - cliTime(cli, 'session.idle', startedAt) };
        },
        async end() {
          await sse?.close();
          await api(service.baseUrl, 'DELETE', `/api/sessions/${sessionId}`);
        },
      };
    },
    stop: async () => undefined,
  };
}

// ---- The SDK -----------------------------------------------------------------------------------

/** The part of @github/copilot-sdk 1.0.x the bench calls. */
interface CopilotSdk {
  CopilotClient: new (options: Record<string, unknown>) => SdkClient;
  RuntimeConnection: { forStdio(options: { path: string; args?: string[] }): unknown };
  approveAll: unknown;
}
interface SdkClient {
  start(): Promise<void>;
  stop(): Promise<unknown>;
  deleteSession(sessionId: string): Promise<void>;
  createSession(config: Record<string, unknown>): Promise<SdkSession>;
}
interface SdkSession {
  readonly sessionId: string;
  sendAndWait(options: { prompt: string }, timeoutMs?: number): Promise<{ data: { content: string } } | undefined>;
  on(handler: (event: { type: string; timestamp?: string; agentId?: string }) => void): () => void;
  disconnect(): Promise<void>;
}
interface SdkTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  handler(args: Record<string, unknown>): Promise<string>;
}

function cliBinary(): string {
  return require.resolve(`@github/copilot-${process.platform}-${process.arch}`);
}

async function sdkLeg(dir: string, model: ScriptedModelServer): Promise<Leg> {
  const sdk = requirePeer<CopilotSdk>('@github/copilot-sdk');
  const home = path.join(dir, 'sdk-cli-home');
  const workingDirectory = path.join(dir, 'sdk-work');
  fs.mkdirSync(workingDirectory, { recursive: true });
  // The environment and folder layout Switchboard gives its CLI (src/copilot-cli/cli-environment.ts, from the
  // same variables its service process has): its own HOME, COPILOT_HOME, XDG config/state/data folders under it,
  // the user's XDG cache shared between runs (the binary unpacks itself there once), the provider's address and
  // the model, never its key. bench:team-turn checks the two CLIs' command lines and environments (cli-fairness.ts).
  const env = cliEnvironment({ ...process.env, ...model.providerEnv(), COPILOT_MODEL: MODEL }, { passthrough: [], home });
  const client = new sdk.CopilotClient({
    connection: sdk.RuntimeConnection.forStdio({ path: process.env.TEAM_TURN_SDK_CLI ?? cliBinary() }),
    // Where the SDK keeps the CLI's state: the COPILOT_HOME above (the SDK sets COPILOT_HOME to it).
    baseDirectory: env.COPILOT_HOME,
    workingDirectory,
    // Switchboard without a GitHub token starts its CLI with --no-auto-login; the SDK does so only when told.
    useLoggedInUser: false,
    env,
  });
  await client.start();
  const provider = { type: 'openai', baseUrl: model.baseUrl, apiKey: 'scripted' };
  const common = {
    model: MODEL,
    provider,
    streaming: true,
    onPermissionRequest: sdk.approveAll,
    workingDirectory,
  };
  const lookup: SdkTool = {
    name: 'lookup',
    description: 'Look up a fact by key',
    parameters: LOOKUP_PARAMETERS,
    handler: async (args) => lookupAnswer(args.key),
  };
  /** Each lead's researcher sessions: kept live after their run, as Switchboard keeps a run's session, ended with the lead. */
  const children = new Map<string, SdkSession[]>();
  const agentRun = (lead: string): SdkTool => ({
    name: 'agent_run',
    description: 'Run an agent on a prompt and wait for its output',
    parameters: { type: 'object', properties: { agent_id: { type: 'string' }, prompt: { type: 'string' } }, required: ['agent_id', 'prompt'] },
    handler: async (args) => {
      const child = await client.createSession({ ...common, systemMessage: { mode: 'append', content: RESEARCHER_PROMPT } });
      children.get(lead)!.push(child);
      const answer = await child.sendAndWait({ prompt: String(args.prompt) }, TURN_TIMEOUT_MS);
      return JSON.stringify({ agentId: args.agent_id, status: 'completed', output: answer?.data.content ?? null });
    },
  });
  return {
    name: 'sdk',
    cliParent: process.pid,
    placeholders: [
      [home, '<cli home>'],
      [workingDirectory, '<work>'],
    ],
    async create() {
      const lead = randomUUID();
      children.set(lead, []);
      const session = await client.createSession({
        ...common,
        sessionId: lead,
        systemMessage: { mode: 'append', content: LEAD_PROMPT },
        includeSubAgentStreamingEvents: true,
        tools: [lookup, agentRun(lead)],
        customAgents: [{ name: 'keeper', displayName: 'Keeper', description: 'Keeps facts', prompt: KEEPER_PROMPT, tools: ['lookup'], infer: true }],
      });
      const events: Array<{ type: string; timestamp?: string; agentId?: string }> = [];
      session.on((event) => events.push(event));
      return {
        ready: async () => undefined,
        async turn(n: number) {
          events.length = 0;
          const startedAt = Date.now();
          const started = performance.now();
          const answer = await session.sendAndWait({ prompt: `TEAM_TURN ${n}: what are alpha, beta and gamma?` }, TURN_TIMEOUT_MS);
          const wallMs = performance.now() - started;
          if (!answer?.data.content.includes('TEAM_DONE')) throw new Error(`sdk turn ${n} ended without the lead's answer: ${JSON.stringify(answer)}`);
          const endedAt = startedAt + wallMs;
          return {
            wallMs,
            toCliMs: cliTime(events, 'user.message', startedAt) - startedAt,
            fromIdleMs: endedAt - cliTime(events, 'session.idle', startedAt),
          };
        },
        async end() {
          // Switchboard's DELETE destroys a session and its runs' sessions in the CLI; the SDK's match is deleteSession
          // (a disconnect alone leaves it on disk, and the CLI's session create slows with every one left there).
          await Promise.all(
            [session, ...children.get(lead)!].map(async (s) => {
              await s.disconnect();
              await client.deleteSession(s.sessionId);
            }),
          );
          children.delete(lead);
        },
      };
    },
    stop: async () => {
      await client.stop();
    },
  };
}

// ---------------------------------------------------------------------------------------------

interface Samples {
  create: number[];
  turn: number[];
  toCli: number[];
  fromIdle: number[];
}

const noSamples = (): Samples => ({ create: [], turn: [], toCli: [], fromIdle: [] });

/** One round on one leg: `concurrency` sessions created at once, then `TURNS` turns on each, all sessions at once. */
async function round(leg: Leg, concurrency: number, samples: Samples, turnBase: number): Promise<{ createMs: number; turnsMs: number }> {
  const t0 = performance.now();
  const sessions = await Promise.all(
    Array.from({ length: concurrency }, async () => {
      const started = performance.now();
      const session = await leg.create();
      samples.create.push(performance.now() - started);
      return session;
    }),
  );
  const t1 = performance.now();
  await Promise.all(sessions.map((s) => s.ready()));
  await Promise.all(
    sessions.map(async (session) => {
      for (let t = 0; t < TURNS; t++) {
        const timing = await session.turn(turnBase + t);
        samples.turn.push(timing.wallMs);
        samples.toCli.push(timing.toCliMs);
        samples.fromIdle.push(timing.fromIdleMs);
      }
    }),
  );
  const t2 = performance.now();
  await Promise.all(sessions.map((s) => s.end()));
  return { createMs: t1 - t0, turnsMs: t2 - t1 };
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const verdict = (ratio: number) => (ratio <= TARGET ? 'met' : 'MISSED');

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-team-turn-'));
  const model = await new ScriptedModelServer().start();
  teamScript(model);
  const webhook = await startWebhook();
  const service = await startService(dir, model);
  const legs: Leg[] = [];
  if (LEGS.includes('switchboard')) legs.push(await switchboardLeg(dir, service, webhook.url));
  if (LEGS.includes('sdk')) legs.push(await sdkLeg(dir, model));
  console.log(
    `bench:team-turn — Copilot CLI ${peerVersionOf('@github/copilot')} (${cliBinary()}), @github/copilot-sdk ${peerVersion('@github/copilot-sdk')}, ` +
      `${TURNS} turns a session, node ${process.version}, ${os.cpus().length} cores`,
  );
  try {
    // Warm-up: the first session of each leg pays the CLI's and the JIT's first costs.
    for (const leg of legs) await round(leg, 1, noSamples(), 0);
    model.requests.length = 0;
    printFairness(legs);

    for (const concurrency of CONCURRENCY) {
      const samples = new Map<string, Samples>(legs.map((leg) => [leg.name, noSamples()]));
      let cpuCreate = 0;
      let cpuTurns = 0;
      let refused = 0;
      const storeInTurns: StoreFigures = { appends: 0, commits: 0, events: 0, commitMs: 0 };
      for (let r = 0; r < roundsAt(concurrency); r++) {
        const order = r % 2 === 0 ? legs : [...legs].reverse();
        for (const leg of order) {
          const before = leg.name === 'switchboard' ? await service.usage() : undefined;
          const refusedBefore = leg.name === 'switchboard' ? await service.metric('switchboard_event_store_appends_refused_total') : 0;
          const cpuMark: { at: number; store?: StoreFigures } = { at: 0 };
          const roundSamples = samples.get(leg.name)!;
          const createdBefore = roundSamples.create.length;
          // CPU of the create phase and of the turn phase, split by a usage read between them.
          const wrapped: Leg =
            leg.name === 'switchboard'
              ? {
                  ...leg,
                  create: async () => {
                    const session = await leg.create();
                    if (roundSamples.create.length + 1 - createdBefore === concurrency) {
                      cpuMark.at = (await service.usage()).cpuMicros;
                      cpuMark.store = await storeFigures(service);
                    }
                    return session;
                  },
                }
              : leg;
          await round(wrapped, concurrency, roundSamples, (r + 1) * 100);
          if (before) {
            const after = await service.usage();
            if (cpuMark.at === 0) cpuMark.at = after.cpuMicros;
            cpuCreate += cpuMark.at - before.cpuMicros;
            cpuTurns += after.cpuMicros - cpuMark.at;
            refused += (await service.metric('switchboard_event_store_appends_refused_total')) - refusedBefore;
            const storeAfter = await storeFigures(service);
            const mark = cpuMark.store ?? storeAfter;
            for (const key of Object.keys(storeInTurns) as Array<keyof StoreFigures>) storeInTurns[key] += storeAfter[key] - mark[key];
          }
          if (process.env.TEAM_TURN_DEBUG) {
            // Which model calls each leg made (the same work) and when, from the first call of the round.
            console.log(leg.name, summarise(model));
            const t0 = model.requests[0]?.t ?? 0;
            console.log(
              model.requests
                .map(
                  (q) =>
                    `${q.t - t0}:${q.rule}${'toolCalls' in (q.answer ?? {}) ? '>' + (q.answer as { toolCalls: Array<{ name: string }> }).toolCalls[0].name : ''}`,
                )
                .join(' '),
            );
          }
          model.requests.length = 0;
          model.httpLog.length = 0;
        }
      }
      if (roundsAt(concurrency) === 0) continue;
      console.log(`\n  ${concurrency} concurrent session${concurrency === 1 ? '' : 's'} (${roundsAt(concurrency)} rounds):`);
      for (const [name, s] of samples) {
        console.log(
          `    ${name.padEnd(12)} turn p50 ${fmt(percentile(s.turn, 50))}  p99 ${fmt(percentile(s.turn, 99))}  (${s.turn.length} turns)   ` +
            `create p50 ${fmt(percentile(s.create, 50))}  p99 ${fmt(percentile(s.create, 99))}  (${s.create.length})`,
        );
        const between = s.turn.map((wall, i) => wall - s.toCli[i] - s.fromIdle[i]);
        console.log(
          `    ${''.padEnd(12)} a turn, p50: send → the CLI's user.message ${fmt(percentile(s.toCli, 50))}, ` +
            `the CLI's turn (tools, runs, model calls) ${fmt(percentile(between, 50))}, the CLI's session.idle → end seen ${fmt(percentile(s.fromIdle, 50))}`,
        );
      }
      const sb = samples.get('switchboard');
      const peer = samples.get('sdk');
      if (sb && peer) {
        for (const p of [50, 99]) {
          const ratio = percentile(sb.turn, p) / percentile(peer.turn, p);
          console.log(`    turn p${p}: switchboard / sdk = ${ratio.toFixed(2)}x (target <= ${TARGET.toFixed(2)}x: ${verdict(ratio)})`);
        }
        for (const p of [50, 99]) {
          const ratio = percentile(sb.create, p) / percentile(peer.create, p);
          console.log(`    create p${p}: switchboard / sdk = ${ratio.toFixed(2)}x (target <= ${TARGET.toFixed(2)}x: ${verdict(ratio)})`);
        }
      }
      if (sb) {
        const perCreate = cpuCreate / 1000 / sb.create.length;
        const perTurn = cpuTurns / 1000 / sb.turn.length;
        console.log(
          `    switchboard CPU: ${perCreate.toFixed(1)} ms a create, ${perTurn.toFixed(1)} ms a turn, ${(perCreate + perTurn).toFixed(1)} ms a create+turn; ` +
            `${(refused / sb.turn.length).toFixed(1)} appends refused (version conflicts, retried) a turn`,
        );
        const perTurnOf = (n: number) => (n / sb.turn.length).toFixed(1);
        console.log(
          `    switchboard store, a turn: ${perTurnOf(storeInTurns.events)} events in ${perTurnOf(storeInTurns.appends)} appends, ` +
            `${perTurnOf(storeInTurns.commits)} commits taking ${perTurnOf(storeInTurns.commitMs)} ms (on the event loop; the WAL sync runs beside it)`,
        );
      }
    }

    if (LEGS.includes('switchboard') && IDLE_SESSIONS > 0)
      await idleMemory(
        service,
        legs.find((l) => l.name === 'switchboard')!,
      );
  } finally {
    for (const leg of legs) await leg.stop();
    await service.stop();
    await webhook.stop();
    await model.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Both legs' CLIs as the kernel sees them: each command line, and whether they run alike (the same
 * arguments, working directory and environment once each leg's own folders carry one name).
 */
function printFairness(legs: Leg[]): void {
  const seen = legs.map((leg) => ({ name: leg.name, cli: cliChildOf(leg.cliParent), placeholders: leg.placeholders }));
  for (const { name, cli } of seen) {
    if (!cli) console.log(`  ${name} CLI: not found among the children of pid ${legs.find((l) => l.name === name)!.cliParent}`);
    else console.log(`  ${name} CLI (pid ${cli.pid}, in ${cli.cwd}): ${cli.argv.join(' ')}`);
  }
  const [a, b] = seen;
  if (seen.length !== 2 || !a.cli || !b.cli) {
    console.log("  fair: not checked (both legs' CLIs are needed)");
    return;
  }
  const fairness = compareClis({ ...a, cli: a.cli }, { ...b, cli: b.cli });
  console.log(
    `  fair: ${fairness.fair ? 'yes' : 'no'} (command line, working directory and ${Object.keys(a.cli.env).length} environment variables compared)`,
  );
  for (const difference of fairness.differences) console.log(`    ${difference}`);
}

interface StoreFigures {
  appends: number;
  commits: number;
  events: number;
  commitMs: number;
}

/** The event store's own counters (GET /metrics): what a turn costs the log. */
async function storeFigures(service: Service): Promise<StoreFigures> {
  return {
    appends: await service.metric('switchboard_event_store_appends_total'),
    commits: await service.metric('switchboard_event_store_commits_total{outcome="committed"}'),
    events: await service.metric('switchboard_event_store_events_total'),
    commitMs: (await service.metric('switchboard_event_store_commit_duration_seconds_sum')) * 1000,
  };
}

/** RSS Switchboard's process grows by over IDLE_SESSIONS live idle sessions (created, never sent a turn), after a full GC. */
async function idleMemory(service: Service, leg: Leg): Promise<void> {
  const before = await service.usage(true);
  const sessions: TeamSession[] = [];
  for (let i = 0; i < IDLE_SESSIONS; i += 10) sessions.push(...(await Promise.all(Array.from({ length: 10 }, () => leg.create()))));
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = await service.usage(true);
  console.log(
    `\n  memory: ${IDLE_SESSIONS} live idle sessions grow Switchboard's RSS by ${((after.rssBytes - before.rssBytes) / 1024 / 1024).toFixed(1)} MB ` +
      `(${((after.rssBytes - before.rssBytes) / 1024 / IDLE_SESSIONS).toFixed(0)} KB a session; heap ${((after.heapUsedBytes - before.heapUsedBytes) / 1024 / IDLE_SESSIONS).toFixed(0)} KB a session)` +
      `${after.gcRan ? ', after a full GC' : ''}; the CLI's own memory not included`,
  );
  await Promise.all(sessions.map((s) => s.end()));
}

/** Model calls by rule and step, to check both legs did the same work. */
function summarise(model: ScriptedModelServer): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of model.requests) {
    const key = `${r.rule}/${r.who}/${'toolCalls' in (r.answer ?? {}) ? 'tools' : 'text'}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

function peerVersionOf(name: string): string {
  return (JSON.parse(fs.readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
