/**
 * Child tool-call dispatch through Switchboard against the floor a bare JSON-RPC round trip sets.
 *
 *   npm run bench:dispatch
 *
 * (a) raw: vscode-jsonrpc `echo` requests to a tiny child Node process over a stdio pipe
 *     (StreamMessageReader/Writer), the transport Switchboard uses for a spawned CLI.
 * (b) routed: the real app, in a process of its own (bench/dispatch-service.ts), on a temp SQLite
 *     file, connected to a FakeCopilotCli in this process
 *     (protocol 2) over loopback TCP. The fake sends `tool.call` requests keyed by a CHILD session id;
 *     each one is resolved to its parent, checked against the agent's allowlist, run by the parent's
 *     webhook (a local HTTP server that answers at once) and audited as an event, then answered.
 * (c) routed-builtin: the same path with a built-in handler that returns at once instead of the
 *     webhook: no HTTP, so it isolates Switchboard's own cost (resolve, allowlist, audit append).
 * (d) raw+webhook: the composite limit of (b): the raw echo, whose handler in the child process first
 *     POSTs the same body to the same webhook server over a keep-alive agent (one JSON-RPC round trip
 *     plus one bare HTTP POST per request, each crossing the processes (b)'s cross).
 *
 * (b) and (c) run on each store: SQLite (a temp file, synchronous=FULL) and PostgreSQL (a private
 * server, fsync on, from test/fixtures/postgres-server.ts); BENCH_STORES=sqlite leaves PostgreSQL out.
 *
 * Both sides span two processes: raw crosses a pipe, routed crosses loopback TCP, and here the
 * fake CLI (the load generator) and the webhook server share this process while Switchboard has its
 * own. Nothing is asserted; the target is printed beside the ratio.
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { FakeCopilotCli } from '../test/fixtures/fake-copilot-cli';
import { startPostgresServer } from '../test/fixtures/postgres-server';

/** Requests per case and concurrency, after WARMUP unmeasured ones. Sized for ~30 s on a 2-core VM. */
const REQUESTS = 3000;
const WARMUP = 300;
const CONCURRENCIES = [1, 64] as const;
/** issue 41 (issue 29's 0.6x and 0.5x raised): each routed case against its limit, at concurrency 64. */
const TARGETS = [
  { routed: 'routed-builtin', limit: 'raw', concurrency: 64, min: 0.8 },
  { routed: 'routed', limit: 'raw+webhook', concurrency: 64, min: 0.6 },
] as const;
const STORES = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',').filter((s): s is Store => s === 'sqlite' || s === 'postgres');
type Store = 'sqlite' | 'postgres';

const CHILD = 'bench-child-1';
/** What a tool.call carries; the echo request carries the same object so both frames weigh the same. */
const callParams = (i: number) => ({ sessionId: CHILD, toolCallId: `call_${i}`, toolName: 'lookup', arguments: { key: `k${i}` } });

interface Result {
  name: string;
  /** The store Switchboard ran on (routed cases only). */
  store?: Store;
  concurrency: number;
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** What the case did besides answering: webhook connections, event-store commits. */
  notes: string[];
}

/** Something counted before and after a measured run, printed as the difference. */
interface Counter {
  label: string;
  read(): number | Promise<number>;
  /** How the difference is printed; default: as it is. */
  format?(delta: number): string;
}

type Call = (i: number) => Promise<unknown>;

/** `concurrency` loops share `count` requests, each awaiting its answer before sending the next. */
async function runLoad(call: Call, concurrency: number, count: number, offset: number): Promise<{ latencies: Float64Array; elapsedMs: number }> {
  const latencies = new Float64Array(count);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) {
        const t0 = performance.now();
        await call(offset + i);
        latencies[i] = performance.now() - t0;
      }
    }),
  );
  return { latencies, elapsedMs: performance.now() - started };
}

async function measure(name: string, call: Call, concurrency: number, counters: Counter[] = [], store?: Store): Promise<Result> {
  await runLoad(call, concurrency, WARMUP, 1_000_000 * concurrency);
  const before = await Promise.all(counters.map(async (c) => c.read()));
  const { latencies, elapsedMs } = await runLoad(call, concurrency, REQUESTS, 0);
  const after = await Promise.all(counters.map(async (c) => c.read()));
  const deltas = after.map((value, i) => value - before[i]);
  latencies.sort();
  return {
    name,
    store,
    concurrency,
    requests: REQUESTS,
    perSecond: (REQUESTS / elapsedMs) * 1000,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    notes: counters.map((c, i) => `${c.label} ${c.format ? c.format(deltas[i]) : deltas[i]}`),
  };
}

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
}

// ---- (a) raw vscode-jsonrpc echo over a stdio pipe ----

const ECHO_SERVER = `
const http = require('node:http');
const { createMessageConnection, StreamMessageReader, StreamMessageWriter } = require(process.argv[2]);
const webhook = new URL(process.argv[3]);
// As Switchboard's SignedWebhook posts: node:http, a keep-alive agent, the invocation as a JSON body.
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const post = (params) =>
  new Promise((resolve, reject) => {
    const body = JSON.stringify({ sessionId: params.sessionId, childSessionId: null, agentName: null, toolCallId: params.toolCallId, toolName: params.toolName, arguments: params.arguments });
    const request = http.request(webhook, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
const connection = createMessageConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
connection.onRequest('echo', (params) => params);
connection.onRequest('echoAfterPost', async (params) => ({ ...params, webhook: await post(params) }));
connection.listen();
`;

/** `call`: the bare echo; `callWithPost`: the echo after a POST to `webhookUrl` (the composite limit). */
async function startEcho(dir: string, webhookUrl: string): Promise<{ call: Call; callWithPost: Call; stop(): Promise<void> }> {
  const script = path.join(dir, 'echo-server.js');
  fs.writeFileSync(script, ECHO_SERVER);
  const child = spawn(process.execPath, [script, require.resolve('vscode-jsonrpc/node'), webhookUrl], { stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  connection.listen();
  await connection.sendRequest('echo', { hello: 1 }); // up and answering
  return {
    call: (i) => connection.sendRequest('echo', callParams(i)),
    callWithPost: (i) => connection.sendRequest('echoAfterPost', callParams(i)),
    async stop() {
      connection.dispose();
      child.stdin.end();
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

// ---- (b)/(c) routed through Switchboard ----

/** A tool webhook that answers at once; counts the TCP connections it accepted (keep-alive or not). */
async function startWebhook(): Promise<{ url: string; connections: () => number; stop(): Promise<void> }> {
  let connections = 0;
  const body = JSON.stringify({ result: 'ok' });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/lookup`,
    connections: () => connections,
    stop: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

interface Routed {
  fake: FakeCopilotCli;
  baseUrl: string;
  /** CPU time (user + system) Switchboard's process has used, in ms: what a routed call costs it, however loaded the machine. */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** A process's CPU time so far from /proc (Linux), in ms; NaN where there is no /proc. */
function processCpuMs(pid: number | undefined): number {
  try {
    // Fields after the command (which may hold spaces): utime and stime are the 12th and 13th, in clock ticks (100 a second).
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/**
 * Switchboard in its own process (bench/dispatch-service.ts), reaching the fake CLI of this one over TCP.
 * BENCH_SERVICE_NODE_ARGS passes flags to that process, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
 */
async function startSwitchboard(dir: string, store: Store, postgresUrl?: string): Promise<Routed> {
  const fake = await new FakeCopilotCli({ protocolVersion: 2 }).start();
  const database = store === 'postgres' ? { SWITCHBOARD_DATABASE_URL: postgresUrl } : { SWITCHBOARD_DB: path.join(dir, 'switchboard.db') };
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean), '-r', '@swc-node/register', path.join(__dirname, 'dispatch-service.ts')],
    {
      cwd: path.resolve(__dirname, '..'),
      env: {
        ...process.env,
        ...database,
        LOG_LEVEL: 'silent',
        COPILOT_CLI_URL: fake.url,
        COPILOT_PROVIDER_BASE_URL: 'http://127.0.0.1:9/v1',
        COPILOT_PROVIDER_API_KEY: 'bench',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /LISTENING (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`dispatch-service exited with code ${code} before listening`)));
  });
  return {
    fake,
    baseUrl: `http://127.0.0.1:${port}`,
    cpuMs: () => processCpuMs(child.pid),
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await fake.stop();
    },
  };
}

/** A parent session whose `lookup` tool has `handler`, and a child of agent keeper (tools: [lookup]) mapped to it. */
async function sessionWithChild(routed: Routed, handler: Record<string, unknown>, child: string): Promise<void> {
  const response = await fetch(`${routed.baseUrl}/api/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      tools: [
        { name: 'lookup', description: 'Look up a value', parameters: { type: 'object', properties: { key: { type: 'string' } } }, handler },
        { name: 'secret', description: 'Not for the child', handler },
      ],
      customAgents: [{ name: 'keeper', description: 'Looks things up', prompt: 'You look things up.', tools: ['lookup'] }],
    }),
  });
  if (response.status !== 201) throw new Error(`create session answered ${response.status}: ${await response.text()}`);
  const { sessionId } = (await response.json()) as { sessionId: string };
  await routed.fake.emitEvent(sessionId, { type: 'subagent.started', data: { remoteSessionId: child, toolCallId: `call_${child}`, agentName: 'keeper' } });
  for (const deadline = Date.now() + 5000; ;) {
    const answer = await routed.fake
      .request<{ result: { resultType: string } }>('tool.call', { ...callParams(0), sessionId: child })
      .catch(() => undefined);
    if (answer?.result.resultType === 'success') return;
    if (Date.now() > deadline) throw new Error(`child ${child} does not route: ${JSON.stringify(answer)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function routedCall(fake: FakeCopilotCli, child: string): Call {
  return async (i) => {
    const answer = await fake.request<{ result: { resultType: string; textResultForLlm: string } }>('tool.call', { ...callParams(i), sessionId: child });
    if (answer.result.resultType !== 'success') throw new Error(`tool.call ${i} failed: ${answer.result.textResultForLlm}`);
  };
}

// ---- report ----

/** What each routed case is measured against: the built-in against the bare round trip, the webhook against the composite. */
const LIMIT_OF: Record<string, string> = { 'routed-builtin': 'raw', routed: 'raw+webhook' };

function printResults(results: Result[]): void {
  const header = ['case', 'store', 'concurrency', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'vs raw', 'vs limit'];
  const find = (name: string, concurrency: number) => results.find((x) => x.name === name && x.concurrency === concurrency);
  const ratio = (r: Result, limit: string) => {
    const base = find(limit, r.concurrency);
    return base ? `${(r.perSecond / base.perSecond).toFixed(3)}x` : '';
  };
  const rows = results.map((r) => [
    r.name,
    r.store ?? '',
    String(r.concurrency),
    String(r.requests),
    r.perSecond.toFixed(0),
    r.p50Ms.toFixed(3),
    r.p99Ms.toFixed(3),
    r.name === 'raw' ? '' : ratio(r, 'raw'),
    LIMIT_OF[r.name] ? `${ratio(r, LIMIT_OF[r.name])} of ${LIMIT_OF[r.name]}` : '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i <= 1 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  rows.forEach((row) => console.log(line(row)));
  console.log('');
  for (const r of results.filter((x) => x.notes.length > 0))
    console.log(`during ${`${r.name}${r.store ? ` [${r.store}]` : ''}`.padEnd(25)} @${String(r.concurrency).padStart(2)}: ${r.notes.join(', ')}`);
  console.log('');
  for (const target of TARGETS) {
    const limit = find(target.limit, target.concurrency);
    for (const r of results.filter((x) => x.name === target.routed && x.concurrency === target.concurrency)) {
      if (!limit) continue;
      const value = r.perSecond / limit.perSecond;
      console.log(
        `${`${r.name} [${r.store}]`.padEnd(25)} ${value.toFixed(3)}x of ${target.limit} at concurrency ${target.concurrency}` +
          `   target >= ${target.min}x: ${value >= target.min ? 'met' : 'MISSED'}`,
      );
    }
  }
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-dispatch-bench-'));
  const stops: (() => Promise<void>)[] = [];
  try {
    const cpus = os.cpus();
    console.log('Child tool-call dispatch benchmark');
    console.log(`  node           ${process.version} (${process.platform}/${process.arch})`);
    console.log(`  cpu            ${cpus.length} x ${cpus[0]?.model.trim() ?? 'unknown'}, load average ${os.loadavg()[0].toFixed(2)}`);
    console.log(`  raw            vscode-jsonrpc echo to a child node process over a STDIO PIPE (two processes, two event loops)`);
    console.log(`  raw+webhook    the same echo, its handler first POSTing the call to the webhook server (keep-alive): the composite limit`);
    console.log(`  routed         tool.call from a FakeCopilotCli over LOOPBACK TCP (protocol 2) -> Switchboard (resolve child, allowlist,`);
    console.log(`                 webhook POST to a local server that answers at once, audit event on the store) -> answer;`);
    console.log(`                 Switchboard runs in its OWN process; the fake CLI (load generator) and the webhook server share this one`);
    console.log(`  routed-builtin the same with a built-in handler that returns at once: no HTTP, Switchboard's own routing + audit`);
    console.log(`  stores         ${STORES.join(', ')} (SQLite synchronous=FULL; PostgreSQL a private server, fsync on)`);
    console.log(`  load           ${REQUESTS} measured requests after ${WARMUP} warm-up ones per case; transports differ, so the ratio is indicative`);
    console.log('');

    const webhook = await startWebhook();
    stops.push(() => webhook.stop());
    const echo = await startEcho(dir, webhook.url);
    stops.unshift(() => echo.stop());
    const services: { store: Store; routed: Routed }[] = [];
    for (const store of STORES) {
      let postgresUrl: string | undefined;
      if (store === 'postgres') {
        const server = await startPostgresServer();
        stops.push(() => Promise.resolve(server.stop()));
        postgresUrl = await server.createDatabase('dispatch_bench');
      }
      const routed = await startSwitchboard(dir, store, postgresUrl);
      stops.unshift(() => routed.stop());
      await sessionWithChild(routed, { type: 'webhook', url: webhook.url }, CHILD);
      await sessionWithChild(routed, { type: 'builtin', name: 'bench_noop' }, `${CHILD}-builtin`);
      services.push({ store, routed });
    }

    const webhookCounter: Counter = { label: 'new webhook TCP connections', read: () => webhook.connections() };
    const results: Result[] = [];
    for (const concurrency of CONCURRENCIES) {
      results.push(await measure('raw', echo.call, concurrency));
      results.push(await measure('raw+webhook', echo.callWithPost, concurrency, [webhookCounter]));
      for (const { store, routed } of services) {
        // The service's group-commit counters, as /health reports them.
        const groupCommit = async () =>
          ((await (await fetch(`${routed.baseUrl}/health`)).json()) as { database: { groupCommit?: { appends: number; commits: number } } }).database
            .groupCommit ?? { appends: NaN, commits: NaN };
        const storeCounters: Counter[] = [
          { label: 'event-store appends', read: async () => (await groupCommit()).appends },
          { label: 'event-store commits', read: async () => (await groupCommit()).commits },
          { label: 'Switchboard CPU', read: () => routed.cpuMs(), format: (ms) => `${((ms / REQUESTS) * 1000).toFixed(0)} us/call` },
        ];
        results.push(await measure('routed', routedCall(routed.fake, CHILD), concurrency, [webhookCounter, ...storeCounters], store));
        results.push(await measure('routed-builtin', routedCall(routed.fake, `${CHILD}-builtin`), concurrency, storeCounters, store));
      }
    }
    printResults(results);
    const connections = webhook.connections();
    const verdict = connections <= Math.max(...CONCURRENCIES) * (services.length + 1) ? 'kept alive and reused' : 'NOT reused: new connections per call';
    console.log(`webhook server accepted ${connections} TCP connection(s) over the whole run, warm-ups included: ${verdict}`);
  } finally {
    for (const stop of stops) await stop().catch((error: unknown) => console.error('stop failed', error));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
