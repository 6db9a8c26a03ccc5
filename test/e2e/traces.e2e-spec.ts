import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { formatTraceparent, SpanIds } from '../../src/common/trace-context';
import { type AppStore, appStoreTargets } from '../fixtures/app-store-targets';
import { type Json, type JsonHttp, jsonHttp } from '../fixtures/json-http';
import { OtlpReceiver, type ReceivedSpan } from '../fixtures/otlp-receiver';
import { hasExited } from '../fixtures/process-tree';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { type ServiceProcess, startServiceProcess } from '../fixtures/service-process';
import { makeTempDir } from '../fixtures/temp-dir';
import { waitUntil } from '../fixtures/wait-until';
import { WebhookRecorder } from '../fixtures/webhook-recorder';

const TOKEN = 'traces-e2e-token-0123456789';
/** The provider key Switchboard forwards model calls with: never on a span. */
const PROVIDER_KEY = 'sk-traces-e2e-provider-key';
/** More than twice the heartbeat (the config refuses less): on PostgreSQL a killed instance's lease must expire. */
const LEASE = { SWITCHBOARD_LEASE_HEARTBEAT_MS: '400', SWITCHBOARD_LEASE_TTL_MS: '1500' };
/** The caller's span the team turn nests under (a W3C traceparent on POST /api/sessions/:id/messages). */
const CALLER = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };
/** Token counts the scripted model answers with, one pair per agent: a chat span's usage says whose call it was. */
const USAGE = {
  lead: { prompt_tokens: 101, completion_tokens: 11 },
  worker: { prompt_tokens: 202, completion_tokens: 22 },
  scribe: { prompt_tokens: 303, completion_tokens: 33 },
  other: { prompt_tokens: 404, completion_tokens: 44 },
};
const PRICES = { currency: 'USD', models: { 'gpt-4.1': { input: 2, output: 8 } } };
const SpanKind = { INTERNAL: 1, CLIENT: 3 } as const;
const StatusCode = { UNSET: 0, OK: 1, ERROR: 2 } as const;

/**
 * What reaches the collector, and whether the service hears back: an OTLP/HTTP hop in front of the
 * receiver. Passing, it forwards each export and its answer; holding, it forwards the export (the
 * collector has the spans) but keeps the answer from the service, so a kill lands in the middle of an
 * export the service never learned succeeded.
 */
class ExportHop {
  holding = false;
  /** Exports forwarded whose answer was kept from the service. */
  held = 0;
  /** Of those, the ones the service is still waiting on (its connection open). */
  waiting = 0;
  private server?: http.Server;
  private port = 0;
  constructor(private readonly receiver: OtlpReceiver) {}

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const upstream = http.request(
          `${this.receiver.endpoint}${req.url ?? '/'}`,
          { method: req.method, headers: { ...req.headers, host: new URL(this.receiver.endpoint).host } },
          (answer) => {
            const body: Buffer[] = [];
            answer.on('data', (chunk: Buffer) => body.push(chunk));
            answer.on('end', () => {
              if (this.holding) {
                // Never answered: the service's exporter waits until it gives up or dies.
                this.held += 1;
                this.waiting += 1;
                res.once('close', () => (this.waiting -= 1));
                return;
              }
              res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(body));
            });
          },
        );
        // A collector that is gone: the service sees its connection dropped.
        upstream.on('error', () => res.socket?.destroy());
        upstream.end(Buffer.concat(chunks));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** A span as exported, without what belongs to the process that sent it (its resource): two exports of one span compare equal. */
function contentOf(span: ReceivedSpan): string {
  const { resource: _resource, encoding: _encoding, ...content } = span;
  return JSON.stringify(content, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
}

/**
 * spec: issue 28, Tests. The team's work as one OpenTelemetry trace, on the real service process with
 * the real Copilot CLI and the scripted model, exported over real OTLP/HTTP to a receiver that decodes
 * the official protobuf. One turn of a lead agent, called with a caller's traceparent, calls a webhook
 * tool (under a hook) and delegates two levels: an `agent_run` run whose agent hands work to a CLI
 * `task` sub-agent, whose shell command waits for a person (a named key) to approve it. Then the
 * collector goes away for a while, and the service is killed (-9) in the middle of an export.
 */
describe.each(appStoreTargets())('traces of a team turn (%s)', (_name, storeTarget) => {
  const model = new ScriptedModelServer();
  const webhooks = new WebhookRecorder();
  const receiver = new OtlpReceiver();
  const hop = new ExportHop(receiver);
  const tmp = makeTempDir();
  let store: AppStore;
  let service: ServiceProcess | undefined;
  const baseUrl = () => (service as ServiceProcess).baseUrl;
  const admin: JsonHttp = (...args) => jsonHttp(baseUrl, { authorization: `Bearer ${TOKEN}` })(...args);
  let approver: JsonHttp;
  let approverKeyId = '';

  /** What the first turn left in the log: the ids a trace is derived from. */
  const scenario = {
    sessionId: '',
    runId: '',
    runThreadId: '',
    events: [] as Json[],
    approvalId: '',
    turnStarted: performance.now(),
    turnMs: 0,
  };

  const start = async () => {
    service = await startServiceProcess(
      {
        ...store.env,
        ...LEASE,
        ...model.providerEnv(),
        COPILOT_PROVIDER_API_KEY: PROVIDER_KEY,
        COPILOT_CLI_HOME: path.join(tmp.dir, 'copilot-home'),
        SWITCHBOARD_WORKING_DIRECTORY: path.join(tmp.dir, 'workspace'),
        SWITCHBOARD_API_TOKEN: TOKEN,
        SWITCHBOARD_ALLOW_HOST_PERMISSIONS: 'true',
        SWITCHBOARD_MODEL_PRICES: path.join(tmp.dir, 'prices.json'),
        SWITCHBOARD_TRACES: 'on',
        OTEL_EXPORTER_OTLP_ENDPOINT: hop.endpoint,
        OTEL_SERVICE_NAME: 'switchboard-traces-e2e',
      },
      { readyPath: '/health/live' },
    );
  };

  /** Every event in the log, in order. */
  async function allEvents(): Promise<Json[]> {
    const events: Json[] = [];
    for (let after = 0; ;) {
      const page = (await admin('GET', `/api/events?after=${after}&limit=1000`)).body;
      events.push(...(page.events as Json[]));
      if (page.events.length < 1000) break;
      after = Number(page.nextAfter);
    }
    return events;
  }

  const sessionStatus = async (id: string) => (await admin('GET', `/api/sessions/${id}`)).body.status as string;

  beforeAll(async () => {
    fs.mkdirSync(path.join(tmp.dir, 'workspace'), { recursive: true });
    fs.writeFileSync(path.join(tmp.dir, 'prices.json'), JSON.stringify(PRICES));
    store = await storeTarget(tmp.dir);
    await Promise.all([model.start(), webhooks.start(), receiver.start()]);
    await hop.start();
    webhooks.answer('/save_note', (call) => ({ body: { result: `saved:${String((call.body.arguments as Json).content)}` } }));
    webhooks.answer('/hook/observe', { body: {} });
    model.setScript([
      // The CLI sub-agent the worker's run hands its work to: a shell command a person must approve.
      {
        name: 'scribe runs a command',
        who: 'child',
        lastIsToolResult: false,
        usage: USAGE.scribe,
        answer: { toolCalls: [{ name: 'bash', arguments: { command: 'echo SCRIBE_$((6*7))', description: 'print a number' } }] },
      },
      { name: 'scribe reports', who: 'child', lastIsToolResult: true, usage: USAGE.scribe, answer: { text: 'SCRIBE_DONE' } },
      // The worker's run (its own CLI session): delegates to the scribe with `task`.
      {
        name: 'worker delegates to the scribe',
        systemIncludes: 'WORKER_P',
        lastIsToolResult: false,
        usage: USAGE.worker,
        answer: {
          toolCalls: [
            { name: 'task', arguments: { agent_type: 'scribe', name: 'scribe-1', description: 'Write it down', prompt: 'SCRIBE_TASK', mode: 'sync' } },
          ],
        },
      },
      { name: 'worker reports', systemIncludes: 'WORKER_P', lastIsToolResult: true, usage: USAGE.worker, answer: { text: 'WORKER_DONE' } },
      // The lead: a webhook tool, then agent_run, then its answer.
      {
        name: 'lead saves a note',
        systemIncludes: 'LEAD_P',
        lastMessageIncludes: 'TRACE_SCENARIO',
        usage: USAGE.lead,
        answer: { toolCalls: [{ name: 'save_note', arguments: { content: 'lead-note' } }] },
      },
      {
        name: 'lead delegates with agent_run',
        systemIncludes: 'LEAD_P',
        lastIsToolResult: true,
        lastMessageIncludes: 'saved:lead-note',
        usage: USAGE.lead,
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'worker', prompt: 'WORKER_TASK write it down' } }] },
      },
      {
        name: 'lead wraps up',
        systemIncludes: 'LEAD_P',
        lastIsToolResult: true,
        lastMessageIncludes: 'WORKER_DONE',
        usage: USAGE.lead,
        answer: { text: 'LEAD_DONE' },
      },
      // Later turns: one while the collector is away, one the kill lands in.
      { name: 'crew answers', lastMessageIncludes: 'OUTAGE_SCENARIO', usage: USAGE.other, answer: { text: 'OUTAGE_DONE' } },
      {
        name: 'lead saves another note',
        systemIncludes: 'LEAD_P',
        lastMessageIncludes: 'KILL_SCENARIO',
        usage: USAGE.other,
        answer: { toolCalls: [{ name: 'save_note', arguments: { content: 'kill-note' } }] },
      },
      {
        name: 'lead answers after the note',
        lastIsToolResult: true,
        lastMessageIncludes: 'saved:kill-note',
        usage: USAGE.other,
        answer: { text: 'KILL_DONE' },
      },
    ]);
    await start();

    for (const agent of [
      {
        id: 'scribe',
        name: 'Scribe',
        description: 'Writes things down with shell commands',
        system_message: { mode: 'replace', content: 'SCRIBE_P you write.' },
      },
      {
        id: 'worker',
        name: 'Worker',
        description: 'Gets things written',
        system_message: { mode: 'append', content: 'WORKER_P you delegate.' },
        sub_agents: ['scribe'],
      },
      { id: 'lead', name: 'Lead', description: 'Leads', system_message: { mode: 'append', content: 'LEAD_P you delegate.' } },
      { id: 'crew', name: 'Crew', description: 'A team', system_message: { mode: 'append', content: 'CREW_P you lead a team.' }, sub_agents: ['scribe'] },
    ]) {
      const created = await admin('POST', '/api/agents', agent);
      expect(created).toMatchObject({ status: 201 });
    }
    const key = await admin('POST', '/api/keys', { name: 'release-approver', role: 'approver' });
    expect(key.status).toBe(201);
    approverKeyId = key.body.apiKey.id;
    approver = jsonHttp(baseUrl, { authorization: `Bearer ${key.body.key}` });

    // The team turn: a caller's trace, a webhook tool under a hook, a run, its CLI sub-agent, a person's approval.
    const created = await admin('POST', '/api/sessions', {
      agentId: 'lead',
      delegation: true,
      permissionPolicy: { askKinds: ['shell'] },
      hooks: [{ type: 'preToolUse', url: webhooks.url('/hook/observe') }],
      tools: [
        {
          name: 'save_note',
          description: 'Save a note',
          parameters: { type: 'object', properties: { content: { type: 'string' } }, required: ['content'] },
          handler: { type: 'webhook', url: webhooks.url('/save_note') },
        },
      ],
    });
    expect(created.status).toBe(201);
    scenario.sessionId = created.body.sessionId;
    const caller = jsonHttp(baseUrl, { authorization: `Bearer ${TOKEN}`, traceparent: formatTraceparent(CALLER.traceId, CALLER.spanId) });
    scenario.turnStarted = performance.now();
    expect((await caller('POST', `/api/sessions/${scenario.sessionId}/messages`, { prompt: 'TRACE_SCENARIO get it written down' })).status).toBe(202);

    const asked = await waitUntil(
      async () => ((await admin('GET', '/api/approvals?status=pending')).body.approvals as Json[])[0],
      "the scribe's shell command to wait for a person",
      90_000,
    );
    scenario.approvalId = asked.id;
    expect((await approver('POST', `/api/approvals/${asked.id}`, { decision: 'approve', reason: 'harmless echo' })).status).toBe(200);
    await waitUntil(
      async () => model.requests.some((r) => r.rule === 'lead wraps up') && (await sessionStatus(scenario.sessionId)) === 'idle',
      'the team turn to end',
      90_000,
    );
    scenario.turnMs = performance.now() - scenario.turnStarted;
    // The last call's model_call.finished may land just after the idle that ends the turn (the answer's
    // end is recorded once the stream closed): the log of the turn is whole once every call has ended.
    scenario.events = await waitUntil(
      async () => {
        const events = await allEvents();
        const ended = new Set(events.filter((e) => e.type === 'model_call.finished').map((e) => e.data.callId));
        return events.filter((e) => e.type === 'model_call.started').every((e) => ended.has(e.data.callId)) && events;
      },
      'every model call of the turn recorded finished',
      10_000,
    );
    const run = scenario.events.find((e) => e.type === 'run.started');
    scenario.runId = run.data.runId;
    scenario.runThreadId = `sub-agent-${scenario.runId}`;
  }, 180_000);

  afterAll(async () => {
    if (service) {
      service.child.kill('SIGTERM');
      await service.exited.catch(() => undefined);
    }
    await Promise.all([model.stop(), webhooks.stop(), hop.stop(), receiver.stop()]);
    tmp.cleanup();
  });

  /** The events of the first turn of type `type` (optionally on one stream). */
  const eventsOf = (type: string, streamId?: string) => scenario.events.filter((e) => e.type === type && (!streamId || e.streamId === streamId));
  /** The id of the first call of `toolName` the CLI ran in `sessionId` (its record's payload names it). */
  const toolCallOf = (sessionId: string, toolName: string): string => {
    const started = scenario.events.find(
      (e) => e.type === 'cli.tool.execution_start' && e.streamId === `session-${sessionId}` && e.data.payload?.toolName === toolName,
    );
    const id: unknown = started?.data.payload.toolCallId;
    if (typeof id !== 'string') throw new Error(`no ${toolName} tool call recorded in ${sessionId}`);
    return id;
  };

  /** The spans of the caller's trace, once every span the first turn makes has arrived (each id once). */
  async function teamTrace(): Promise<Map<string, ReceivedSpan>> {
    // Every span the turn's log names, by the ids SpanIds derives (the exporter sends them as they end, in any order).
    const expected = [
      eventsOf('session.message_sent', `session-${scenario.sessionId}`)[0].data.trace.spanId as string,
      ...eventsOf('model_call.started').map((e) => SpanIds.modelCall(e.data.callId)),
      ...eventsOf('cli.tool.execution_start').map((e) => SpanIds.tool(e.streamId.slice('session-'.length), e.data.payload.toolCallId)),
      ...eventsOf('subagent.started').map((e) => SpanIds.subagent(e.data.parentSessionId, e.data.childSessionId)),
      ...eventsOf('hook.invoked').map((e) => SpanIds.hook(e.data.parentSessionId, e.data.requestId)),
      SpanIds.run(scenario.runId, 1),
      SpanIds.approval(scenario.approvalId),
    ];
    await waitUntil(() => expected.every((id) => receiver.spansWithId(id).length > 0), 'every span of the team turn at the collector', 30_000);
    const spans = new Map<string, ReceivedSpan>();
    for (const span of receiver.spans.filter((s) => s.traceId === CALLER.traceId)) spans.set(span.spanId, span);
    return spans;
  }

  it('runs the team turn: a webhook tool, a hook, a run, its CLI sub-agent, and an approval decided by the named key', () => {
    expect(model.requests.filter((r) => r.rule === null)).toEqual([]);
    expect(eventsOf('run.completed')).toHaveLength(1);
    expect(eventsOf('subagent.started', `session-${scenario.runThreadId}`)).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ agentName: 'scribe' }) }),
    ]);
    expect(eventsOf('approval.decided')).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({ decision: 'approve' }),
        metadata: expect.objectContaining({ by: expect.objectContaining({ kind: 'key', id: approverKeyId, name: 'release-approver' }) }),
      }),
    ]);
    expect(webhooks.callsTo('/save_note')).toHaveLength(1);
    expect(webhooks.callsTo('/hook/observe').map((c) => (c.body.input as Json).toolName)).toEqual(['save_note', 'agent_run', 'task', 'bash']);
    expect(eventsOf('model_call.finished').length).toBe(eventsOf('model_call.started').length);
    // How long the team turn takes on this store, for the report (not asserted).
    process.stdout.write(`traces e2e (${_name}): the team turn took ${Math.round(scenario.turnMs)} ms\n`);
  });

  it("exports one trace under the caller's span: the turn, the lead's tool calls, the run, the sub-agent, the approval", async () => {
    const spans = await teamTrace();
    const { sessionId, runId, runThreadId } = scenario;
    // One trace (nothing else happened yet), every parent a span of it but the turn's, the caller's.
    expect(new Set(receiver.spans.map((s) => s.traceId))).toEqual(new Set([CALLER.traceId]));
    for (const span of spans.values()) {
      if (span.parentSpanId !== CALLER.spanId)
        expect({ span: span.name, parent: spans.has(span.parentSpanId) }).toEqual({ span: span.name, parent: true });
    }
    // One span per thing that happened: 3 agents (the turn, the run, the sub-agent), 7 model calls, 4 tool calls, 1 approval, the hooks.
    const operations = new Map<string, number>();
    for (const span of spans.values()) operations.set(span.name.split(' ')[0], (operations.get(span.name.split(' ')[0]) ?? 0) + 1);
    expect(Object.fromEntries(operations)).toEqual({
      invoke_agent: 3,
      chat: eventsOf('model_call.started').length,
      execute_tool: eventsOf('cli.tool.execution_start').length,
      await_approval: 1,
      execute_hook: eventsOf('hook.invoked').length,
    });
    expect(eventsOf('cli.tool.execution_start').map((e) => e.data.payload.toolName)).toEqual(['save_note', 'agent_run', 'task', 'bash']);

    const message = eventsOf('session.message_sent', `session-${sessionId}`)[0];
    const turnSpanId = message.data.trace.spanId as string;
    const turn = spans.get(turnSpanId);
    expect(turn).toMatchObject({
      name: 'invoke_agent Lead',
      parentSpanId: CALLER.spanId,
      attributes: expect.objectContaining({
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.id': 'lead',
        'gen_ai.agent.name': 'Lead',
        'gen_ai.conversation.id': sessionId,
      }),
    });
    expect(turn?.status.code).not.toBe(StatusCode.ERROR);
    // Span timing is the recorded timing: the turn starts when its message was recorded.
    expect(turn?.startTimeUnixNano).toBe(BigInt(Date.parse(message.recordedAt)) * 1_000_000n);
    const idle = eventsOf('cli.session.idle', `session-${sessionId}`).at(-1);
    expect(turn?.endTimeUnixNano).toBe(BigInt(Date.parse(idle.recordedAt)) * 1_000_000n);
    expect([...spans.values()].filter((s) => s.parentSpanId === CALLER.spanId)).toHaveLength(1);

    // The lead's tool calls: real names, their routing, under the turn.
    const saveNote = spans.get(SpanIds.tool(sessionId, toolCallOf(sessionId, 'save_note')));
    const agentRun = spans.get(SpanIds.tool(sessionId, toolCallOf(sessionId, 'agent_run')));
    for (const [span, tool] of [
      [saveNote, 'save_note'],
      [agentRun, 'agent_run'],
    ] as const) {
      expect(span).toMatchObject({
        name: `execute_tool ${tool}`,
        parentSpanId: turnSpanId,
        attributes: expect.objectContaining({
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': tool,
          'gen_ai.tool.call.id': toolCallOf(sessionId, tool),
          'switchboard.tool.routing': expect.any(String),
        }),
      });
    }

    // The run: an agent under the agent_run call that started it.
    const run = spans.get(SpanIds.run(runId, 1));
    expect(run).toMatchObject({
      name: 'invoke_agent Worker',
      parentSpanId: agentRun?.spanId,
      status: { code: StatusCode.OK },
      attributes: expect.objectContaining({
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.agent.id': 'worker',
        'gen_ai.agent.name': 'Worker',
        'gen_ai.conversation.id': runThreadId,
        'switchboard.run.id': runId,
      }),
    });
    expect(eventsOf('run.started')[0].data.trace).toEqual({ traceId: CALLER.traceId, spanId: run?.spanId, parentSpanId: agentRun?.spanId });

    // The run's task call, and the CLI sub-agent under it.
    const taskCallId = toolCallOf(runThreadId, 'task');
    const task = spans.get(SpanIds.tool(runThreadId, taskCallId));
    expect(task).toMatchObject({ name: 'execute_tool task', parentSpanId: run?.spanId });
    const scribeCalls = eventsOf('model_call.started').filter((e) => e.data.subagentId);
    expect(scribeCalls.length).toBeGreaterThan(0);
    const scribe = spans.get(SpanIds.subagent(runThreadId, scribeCalls[0].data.subagentId));
    expect(scribe).toMatchObject({
      name: 'invoke_agent scribe',
      parentSpanId: task?.spanId,
      attributes: expect.objectContaining({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'scribe' }),
    });

    // The scribe's shell command and the person who let it run.
    const bash = [...spans.values()].find((s) => s.name === 'execute_tool bash');
    expect(bash).toMatchObject({ parentSpanId: scribe?.spanId, attributes: expect.objectContaining({ 'gen_ai.tool.name': 'bash' }) });
    const approval = spans.get(SpanIds.approval(scenario.approvalId));
    expect(approval).toMatchObject({
      name: expect.stringMatching(/^await_approval /),
      parentSpanId: bash?.spanId,
      attributes: expect.objectContaining({
        'switchboard.approval.decision': 'approve',
        'switchboard.approval.reason': 'harmless echo',
        'switchboard.decider.kind': 'key',
        'switchboard.decider.id': approverKeyId,
        'switchboard.decider.name': 'release-approver',
      }),
    });
    // The wait is the recorded one: it ends after it starts, inside the scribe's span.
    expect(approval!.endTimeUnixNano).toBeGreaterThan(approval!.startTimeUnixNano);
    expect(approval!.startTimeUnixNano).toBeGreaterThanOrEqual(scribe!.startTimeUnixNano);
    expect(approval!.endTimeUnixNano).toBeLessThanOrEqual(scribe!.endTimeUnixNano);

    // Hooks: one span per call (the CLI's hook points the session has no webhook for too).
    for (const hook of eventsOf('hook.invoked')) {
      expect(spans.get(SpanIds.hook(hook.data.parentSessionId, hook.data.requestId))).toMatchObject({
        name: `execute_hook ${hook.data.arguments.hookType}`,
        attributes: expect.objectContaining({ 'switchboard.hook.outcome': hook.data.outcome }),
      });
    }
  }, 60_000);

  it('puts each model call under the agent that made it, with its usage, response id and cost', async () => {
    const spans = await teamTrace();
    const { sessionId, runId, runThreadId } = scenario;
    const turnSpanId = eventsOf('session.message_sent', `session-${sessionId}`)[0].data.trace.spanId as string;
    const started = eventsOf('model_call.started');
    expect(started.length).toBe(7); // lead ×3, worker ×2, scribe ×2
    for (const call of started) {
      const finished = scenario.events.find((e) => e.type === 'model_call.finished' && e.data.callId === call.data.callId);
      const span = spans.get(SpanIds.modelCall(call.data.callId));
      const [usage, parent, agentName] =
        call.data.sessionId === sessionId
          ? [USAGE.lead, turnSpanId, 'Lead']
          : call.data.subagentId
            ? [USAGE.scribe, SpanIds.subagent(runThreadId, call.data.subagentId), 'scribe']
            : [USAGE.worker, SpanIds.run(runId, 1), 'Worker'];
      // The agent a call is filed under is the one its parent span names: filtering by agent finds both.
      expect(spans.get(parent)?.attributes['gen_ai.agent.name']).toBe(agentName);
      expect(span).toMatchObject({
        name: 'chat gpt-4.1',
        kind: SpanKind.CLIENT,
        parentSpanId: parent,
        attributes: expect.objectContaining({
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': 'gpt-4.1',
          'gen_ai.usage.input_tokens': usage.prompt_tokens,
          'gen_ai.usage.output_tokens': usage.completion_tokens,
          'gen_ai.response.id': finished.data.responseId,
          'gen_ai.agent.name': agentName,
          'gen_ai.conversation.id': call.data.sessionId,
          'switchboard.cost.amount': finished.data.cost.amount,
          'switchboard.cost.currency': 'USD',
          'switchboard.model_call.id': call.data.callId,
        }),
      });
      expect(finished.data.cost.amount).toBeGreaterThan(0);
      expect(span?.attributes['gen_ai.response.finish_reasons']).toEqual(expect.arrayContaining([expect.any(String)]));
    }
    // No prompt, answer or tool argument leaves without SWITCHBOARD_TRACE_CONTENT=true, and never a key.
    const exported = JSON.stringify([...spans.values()].map((s) => [s.attributes, s.events, s.resource]));
    for (const text of ['TRACE_SCENARIO', 'WORKER_TASK', 'lead-note', 'SCRIBE_DONE', PROVIDER_KEY, TOKEN]) expect(exported).not.toContain(text);
  }, 60_000);

  it("sends a webhook tool and a hook the traceparent of their own span in the team's trace", async () => {
    const { sessionId } = scenario;
    const [toolCall] = webhooks.callsTo('/save_note');
    expect(toolCall.headers.traceparent).toBe(formatTraceparent(CALLER.traceId, SpanIds.tool(sessionId, toolCallOf(sessionId, 'save_note'))));
    // The hook points that called the session's webhook: one pre-tool-use call per tool call.
    const hooks = eventsOf('hook.invoked').filter((h) => h.data.result?.handlers?.length);
    expect(hooks.map((h) => h.data.toolName)).toEqual(['save_note', 'agent_run', 'task', 'bash']);
    const hookCalls = webhooks.callsTo('/hook/observe');
    expect(hookCalls.map((c) => c.headers.traceparent).sort()).toEqual(
      hooks.map((h) => formatTraceparent(CALLER.traceId, SpanIds.hook(h.data.parentSessionId, h.data.requestId))).sort(),
    );
    // Those are spans the collector has: the tool server's own spans nest in the trace.
    const spans = await teamTrace();
    expect(spans.get(SpanIds.tool(sessionId, toolCallOf(sessionId, 'save_note')))?.name).toBe('execute_tool save_note');
  }, 60_000);

  it('keeps the spans while the collector is away, answering requests meanwhile and showing them waiting in /health; all arrive once it is back', async () => {
    await receiver.down();
    const before = receiver.requests.length;
    const created = await admin('POST', '/api/sessions', { agentId: 'crew' });
    expect(created.status).toBe(201);
    const crewSession = created.body.sessionId as string;
    expect((await admin('POST', `/api/sessions/${crewSession}/messages`, { prompt: 'OUTAGE_SCENARIO hello' })).status).toBe(202);
    await waitUntil(async () => (await sessionStatus(crewSession)) === 'idle', 'the turn during the outage to end', 60_000);
    // The service answers while its exports fail; /health shows what waits.
    const waiting = await waitUntil(
      async () => {
        const health = (await admin('GET', '/health')).body;
        const traces = health.traces ?? health.checks?.traces ?? health.detail?.traces;
        return traces?.waiting > 0 && traces.lastError ? traces : undefined;
      },
      '/health to show spans waiting for the collector',
      30_000,
    );
    expect(waiting).toMatchObject({ enabled: true, waiting: expect.any(Number), oldestWaitingMs: expect.any(Number) });
    expect((await admin('GET', '/api/sessions')).status).toBe(200);
    expect((await admin('GET', `/api/sessions/${crewSession}`)).body.status).toBe('idle');
    expect(receiver.requests.length).toBe(before); // nothing got through
    await new Promise((resolve) => setTimeout(resolve, 2000)); // a few more failed tries

    await receiver.up();
    const events = await allEvents();
    const message = events.find((e) => e.type === 'session.message_sent' && e.streamId === `session-${crewSession}`);
    const calls = events.filter((e) => e.type === 'model_call.started' && e.data.sessionId === crewSession);
    const turnId = message.data.trace.spanId as string;
    await waitUntil(
      () => [turnId, ...calls.map((c) => SpanIds.modelCall(c.data.callId))].every((id) => receiver.spansWithId(id).length > 0),
      'the spans of the outage turn once the collector is back',
      30_000,
    );
    // A team's turn (its agent has sub-agents) is a workflow.
    expect(receiver.spansWithId(turnId)[0]).toMatchObject({
      name: 'invoke_workflow Crew',
      parentSpanId: '',
      traceId: message.data.trace.traceId,
      attributes: expect.objectContaining({
        'gen_ai.operation.name': 'invoke_workflow',
        'gen_ai.workflow.name': 'Crew',
        'gen_ai.conversation.id': crewSession,
      }),
    });
    await waitUntil(
      async () => {
        const health = (await admin('GET', '/health')).body;
        return (health.traces ?? health.checks?.traces ?? health.detail?.traces)?.waiting === 0;
      },
      '/health to show nothing waiting',
      30_000,
    );
  }, 120_000);

  it('re-exports what a kill -9 cut off mid-export after the restart: the trace complete, each span id with one content', async () => {
    hop.holding = true;
    const { sessionId } = scenario;
    expect((await admin('POST', `/api/sessions/${sessionId}/messages`, { prompt: 'KILL_SCENARIO one more note' })).status).toBe(202);
    await waitUntil(async () => (await sessionStatus(sessionId)) === 'idle', 'the turn the kill lands after', 60_000);
    const events = await allEvents();
    const message = events.filter((e) => e.type === 'session.message_sent' && e.streamId === `session-${sessionId}`).at(-1);
    const turnId = message.data.trace.spanId as string;
    const calls = events.filter((e) => e.type === 'model_call.started' && e.data.sessionId === sessionId).slice(-2);
    const note = events.filter((e) => e.type === 'tool_call.routed' && e.data.parentSessionId === sessionId && e.data.toolName === 'save_note').at(-1);
    const expected = [turnId, SpanIds.tool(sessionId, note.data.toolCallId), ...calls.map((c) => SpanIds.modelCall(c.data.callId))];
    // An export the collector received and the service is waiting to hear back about.
    await waitUntil(() => hop.waiting > 0 && receiver.spansWithId(expected[2]).length > 0, 'an export in flight', 30_000);

    const cliPid = (await admin('GET', '/health')).body.copilotCli?.pid as number | undefined;
    (service as ServiceProcess).child.kill('SIGKILL');
    await (service as ServiceProcess).exited;
    service = undefined;
    if (cliPid) await waitUntil(() => hasExited(cliPid), 'the orphaned CLI to exit', 10_000);
    hop.holding = false;
    const beforeRestart = receiver.requests.length;
    await start();

    // None of the turn's spans was acknowledged: the restarted service sends every one of them (again).
    const resent = () => new Set(receiver.requests.slice(beforeRestart).flatMap((r) => r.spans.map((s) => s.spanId)));
    // Soon, not a claim's TTL (60 s) later: the dead process's claim is freed when its lease is taken over.
    await waitUntil(() => expected.every((id) => resent().has(id)), 'the cut-off export to be sent again', 15_000);
    expect(receiver.spansWithId(turnId)[0]).toMatchObject({ name: 'invoke_agent Lead', parentSpanId: '', traceId: message.data.trace.traceId });
    // The trace is whole: every span of it hangs from a span of it, up to the turn.
    const trace = receiver.spans.filter((s) => s.traceId === message.data.trace.traceId);
    const ids = new Set(trace.map((s) => s.spanId));
    expect(trace.filter((s) => s.spanId !== turnId && !ids.has(s.parentSpanId)).map((s) => s.name)).toEqual([]);
    expect(trace.filter((s) => s.name === 'execute_tool save_note')).not.toHaveLength(0);
    // Each span id the collector ever got, every copy alike: a re-export is the same span, not a second one.
    const copies = new Map<string, Set<string>>();
    for (const span of receiver.spans) copies.set(span.spanId, (copies.get(span.spanId) ?? new Set()).add(contentOf(span)));
    expect([...copies].filter(([, contents]) => contents.size > 1)).toEqual([]);
    expect([...copies.keys()].some((id) => receiver.spansWithId(id).length > 1)).toBe(true);
    // The first trace is still whole.
    await teamTrace();
  }, 180_000);
});
