import { formatTraceparent, SpanIds } from '../../src/common/trace-context';
import { graphqlHttp } from '../fixtures/graphql-client';
import { type Json, type JsonHttp, jsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { waitUntil } from '../fixtures/wait-until';
import { WebhookRecorder } from '../fixtures/webhook-recorder';

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const API_TRACE = '0af7651916cd43dd8448eb211c80319c';
const API_SPAN = 'b7ad6b7169203331';

/**
 * issue 28, carrying a caller's trace in and out, on the real Copilot CLI with the scripted model: a
 * caller's traceparent on a message makes the turn its child; the turn's webhook tool call, its hook
 * calls and the run its agent starts with agent_run are recorded and sent in that trace, under the
 * spans the traces projection names (`SpanIds`); a root run over the API nests under its caller's span.
 */
describe("a caller's trace carried through a turn, its tool calls, hooks and runs", () => {
  const model = new ScriptedModelServer();
  const webhooks = new WebhookRecorder();
  let running: RealCliApp;
  const http: JsonHttp = (...args) => running.http(...args);
  const traced = (traceparent: string): JsonHttp => jsonHttp(() => running.app.baseUrl, { traceparent });

  beforeAll(async () => {
    await Promise.all([model.start(), webhooks.start()]);
    webhooks.answer('/hook', { body: {} });
    model.setScript([
      { name: 'helper answers', systemIncludes: 'HELPER_P', answer: { text: 'HELPED' } },
      { name: 'lead looks up', systemIncludes: 'LEAD_P', lastIsToolResult: false, answer: { toolCalls: [{ name: 'lookup', arguments: { key: 'k' } }] } },
      {
        name: 'lead delegates',
        systemIncludes: 'LEAD_P',
        lastMessageIncludes: 'ok:lookup',
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'helper', prompt: 'Help, please.' } }] },
      },
      { name: 'lead wraps up', systemIncludes: 'LEAD_P', lastIsToolResult: true, answer: { text: 'LEAD_DONE' } },
    ]);
    running = await startRealCliApp(model);
    for (const agent of [
      { id: 'lead', name: 'Lead', system_message: { mode: 'append', content: 'LEAD_P you delegate.' } },
      { id: 'helper', name: 'Helper', description: 'Helps', system_message: { mode: 'append', content: 'HELPER_P you help.' } },
    ]) {
      expect((await http('POST', '/api/agents', agent)).status).toBe(201);
    }
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await Promise.all([model.stop(), webhooks.stop()]);
  });

  async function eventsOf(stream: string): Promise<Json[]> {
    return (await http('GET', `/api/streams/${stream}/events?limit=1000`)).body.events as Json[];
  }

  it("nests the turn under the caller's span and sends the turn's trace on to the tool, the hooks and the run", async () => {
    const created = await http('POST', '/api/sessions', {
      agentId: 'lead',
      delegation: true,
      tools: [
        {
          name: 'lookup',
          description: 'Look a key up',
          parameters: { type: 'object', properties: { key: { type: 'string' } } },
          handler: { type: 'webhook', url: webhooks.url('/lookup') },
        },
      ],
      hooks: [{ type: 'preToolUse', url: webhooks.url('/hook') }],
    });
    expect(created.status).toBe(201);
    const sessionId = created.body.sessionId as string;

    const sent = await traced(formatTraceparent(CALLER_TRACE, CALLER_SPAN))('POST', `/api/sessions/${sessionId}/messages`, {
      prompt: 'Look up and delegate.',
    });
    expect(sent.status).toBe(202);
    // A whole real-CLI turn (a webhook tool, hooks and a delegated run): seconds on a loaded machine, not 5.
    const events = await waitUntil(
      async () => {
        const all = await eventsOf(`session-${sessionId}`);
        return all.some((e) => e.type === 'run.ended') && all.some((e) => e.type === 'cli.assistant.message' && e.data.payload.content === 'LEAD_DONE')
          ? all
          : undefined;
      },
      'the turn with its run to end',
      60_000,
    );

    // The turn: a span of its own in the caller's trace, the caller's span its parent.
    const turn = events.find((e) => e.type === 'session.message_sent').data.trace;
    expect(turn).toEqual({ traceId: CALLER_TRACE, spanId: expect.stringMatching(/^[0-9a-f]{16}$/), parentSpanId: CALLER_SPAN });

    // The webhook tool: the traceparent of its execute_tool span in the turn's trace.
    const [lookup] = webhooks.callsTo('/lookup');
    expect(lookup.headers.traceparent).toBe(formatTraceparent(CALLER_TRACE, SpanIds.tool(sessionId, lookup.body.toolCallId as string)));

    // The run agent_run started: in the turn's trace, under that call's execute_tool span, named by its agent.
    const agentRunCall = events.find((e) => e.type === 'tool_call.routed' && e.data.toolName === 'agent_run').data;
    const runId = events.find((e) => e.type === 'run.ended').data.runId as string;
    const started = (await eventsOf(`run-${runId}`)).find((e) => e.type === 'run.started').data;
    expect(started.agentName).toBe('Helper');
    expect(started.trace).toEqual({
      traceId: CALLER_TRACE,
      spanId: SpanIds.run(runId, 1),
      parentSpanId: SpanIds.tool(sessionId, agentRunCall.toolCallId),
    });
    // Its thread's work nests under the run's span: no turn span of its own.
    const threadMessage = (await eventsOf(`session-sub-agent-${runId}`)).find((e) => e.type === 'session.message_sent').data;
    expect(threadMessage.trace).toEqual({ traceId: CALLER_TRACE, spanId: SpanIds.run(runId, 1) });

    // Each hook call: the traceparent of its execute_hook span, keyed by the request id hook.invoked records.
    const hookSpans = new Set<string>();
    for (const thread of [sessionId, `sub-agent-${runId}`]) {
      for (const e of await eventsOf(`session-${thread}`)) {
        if (e.type === 'hook.invoked') hookSpans.add(SpanIds.hook(thread, e.data.requestId));
      }
    }
    const hookCalls = webhooks.callsTo('/hook');
    expect(hookCalls.length).toBeGreaterThanOrEqual(2);
    for (const call of hookCalls) {
      const [, traceId, spanId] = String(call.headers.traceparent).split('-');
      expect(traceId).toBe(CALLER_TRACE);
      expect(hookSpans).toContain(spanId);
    }
  }, 90_000);

  it("nests a root run started over the API under the caller's span", async () => {
    const started = await traced(formatTraceparent(API_TRACE, API_SPAN))('POST', '/api/runs', { agentId: 'helper', prompt: 'Help over the API.' });
    expect(started.status).toBe(201);
    const runId = started.body.runId as string;
    const run = (await eventsOf(`run-${runId}`)).find((e) => e.type === 'run.started').data;
    expect(run.trace).toEqual({ traceId: API_TRACE, spanId: SpanIds.run(runId, 1), parentSpanId: API_SPAN });
    // A real-CLI run (a session and a model turn): seconds on a loaded machine, not waitUntil's default 5.
    await waitUntil(async () => (await http('GET', `/api/runs/${runId}`)).body.status === 'completed', 'the run to complete', 50_000);
  }, 60_000);

  it("reads the traceparent of a GraphQL mutation's HTTP request, and ignores a malformed one", async () => {
    const gql = graphqlHttp(() => running.app.baseUrl);
    const agentRun = `mutation ($input: AgentRunInput!) { agentRun(input: $input) { runId } }`;
    const input = { agentId: 'helper', prompt: 'Help over GraphQL.', background: false };
    const overGraphql = await gql(agentRun, { input }, { traceparent: formatTraceparent(API_TRACE, API_SPAN) });
    expect(overGraphql.body.errors).toBeUndefined();
    const graphqlRunId = overGraphql.body.data.agentRun.runId as string;
    const graphqlRun = (await eventsOf(`run-${graphqlRunId}`)).find((e) => e.type === 'run.started').data;
    expect(graphqlRun.trace).toEqual({ traceId: API_TRACE, spanId: SpanIds.run(graphqlRunId, 1), parentSpanId: API_SPAN });

    // W3C: a header that does not parse is ignored, never refused; the run starts a trace of its own.
    const malformed = await gql(agentRun, { input }, { traceparent: `00-${'0'.repeat(32)}-${API_SPAN}-01` });
    expect(malformed.body.errors).toBeUndefined();
    const ownRunId = malformed.body.data.agentRun.runId as string;
    const ownRun = (await eventsOf(`run-${ownRunId}`)).find((e) => e.type === 'run.started').data;
    expect(ownRun.trace).toEqual({ traceId: expect.stringMatching(/^[0-9a-f]{32}$/), spanId: SpanIds.run(ownRunId, 1) });
    expect(ownRun.trace.traceId).not.toBe(API_TRACE);
  }, 60_000);
});
