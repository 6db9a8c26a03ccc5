import { InMemoryTraceSpans } from '../../../test/fixtures/trace-spans-in-memory';
import { SpanIds, traceIdOf } from '../../common';
import type { StoredEvent } from '../../event-store';
import { TRACE_EVENT_TYPES, inputMessagesOfRequest, outputMessagesOfAnswer } from './trace-span-mapping';

const S = 'sess-1';
const RUN = 'run-1';
const THREAD = `sub-agent-${RUN}`;
const CHILD = 'cli-agent-7';
const T0 = Date.parse('2026-11-28T10:00:00.000Z');
const PERSON = { kind: 'user', id: 'u-ada', name: 'Ada', via: 'console' };

/** A log under construction: each event one second after the last, positions counting up. */
class Log {
  private position = 0;
  constructor(readonly fold: InMemoryTraceSpans) {}

  add(streamId: string, type: string, data: Record<string, unknown>, metadata: Record<string, unknown> = {}): StoredEvent {
    this.position += 1;
    const event: StoredEvent = {
      globalPosition: this.position,
      eventId: `e${this.position}`,
      streamId,
      streamPosition: this.position,
      type,
      data,
      metadata,
      recordedAt: new Date(T0 + this.position * 1000).toISOString(),
    };
    this.fold.apply(event);
    return event;
  }

  session(type: string, data: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}, session = S): StoredEvent {
    return this.add(`session-${session}`, type, data, metadata);
  }

  span(id: string) {
    const span = this.fold.spans.get(id);
    if (!span) throw new Error(`no span ${id}; spans: ${[...this.fold.spans.values()].map((s) => s.name).join(', ')}`);
    return span;
  }
}

const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const TRACE = 'aaaabbbbccccddddeeeeffff00001111';
const CALLER_SPAN = '1234567890abcdef';
const TURN_SPAN = SpanIds.turn(S, 'turn-1');

function withTurn(content = false): Log {
  const log = new Log(new InMemoryTraceSpans({ content }));
  log.session('session.created', { sessionId: S, config: { agentId: 'lead' } });
  log.session('session.message_sent', { prompt: 'SECRET_PROMPT', trace: { traceId: TRACE, spanId: TURN_SPAN, parentSpanId: CALLER_SPAN } });
  return log;
}

function modelCall(log: Log, callId: string, extra: Record<string, unknown> = {}, session = S): void {
  log.add(`model_call-${callId}`, 'model_call.started', {
    callId,
    requestId: 'r1',
    sessionId: session,
    cliAgentId: session,
    agentName: 'lead',
    lineagePath: ['lead'],
    model: 'gpt-4.1',
    provider: 'openai',
    method: 'POST',
    path: '/chat/completions',
    requestBytes: 10,
    messageCount: 1,
    toolCount: 0,
    stream: true,
    instanceId: 'i1',
    request: JSON.stringify({ messages: [{ role: 'user', content: 'SECRET_PROMPT' }] }),
    ...extra,
  });
}

describe('trace-span mapping', () => {
  it('a turn is a span from the message to the main agent going idle, under the caller, in the recorded trace', () => {
    const log = withTurn();
    log.session('cli.session.idle', { agentId: CHILD, payload: {} });
    expect(log.span(TURN_SPAN).endTime).toBeNull();
    log.session('cli.session.idle', { payload: {} });
    expect(log.span(TURN_SPAN)).toMatchObject({
      traceId: TRACE,
      parentSpanId: CALLER_SPAN,
      name: 'invoke_agent lead',
      kind: 'internal',
      startTime: at(2),
      endTime: at(4),
      statusCode: 'unset',
      openedPosition: 2,
      endedPosition: 4,
      attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.id': 'lead', 'gen_ai.agent.name': 'lead', 'gen_ai.conversation.id': S },
    });
    expect(log.fold.contexts.get(S)).toMatchObject({ traceId: TRACE, spanId: TURN_SPAN, agentName: 'lead', runId: null });
  });

  it("names the turn and its own model calls by the agent's name the session recorded (its id for older sessions)", () => {
    const log = new Log(new InMemoryTraceSpans({ content: false }));
    log.session('session.created', { sessionId: S, config: { agentId: 'lead', agentName: 'Engineering Lead' } });
    log.session('session.message_sent', { prompt: 'hi', trace: { traceId: TRACE, spanId: TURN_SPAN } });
    modelCall(log, 'call-own');
    modelCall(log, 'call-child', { subagentId: CHILD, cliAgentId: CHILD, agentName: 'reviewer' });
    expect(log.span(TURN_SPAN)).toMatchObject({
      name: 'invoke_agent Engineering Lead',
      attributes: { 'gen_ai.agent.id': 'lead', 'gen_ai.agent.name': 'Engineering Lead' },
    });
    // Filtering by agent name finds the agent's span and its calls alike; a sub-agent's calls keep the sub-agent's name.
    expect(log.span(SpanIds.modelCall('call-own')).attributes['gen_ai.agent.name']).toBe('Engineering Lead');
    expect(log.span(SpanIds.modelCall('call-child')).attributes['gen_ai.agent.name']).toBe('reviewer');
  });

  it('derives the ids of a turn recorded before turns named their trace, and a team lead runs a workflow', () => {
    const log = new Log(new InMemoryTraceSpans({ content: false }));
    log.session('session.created', { sessionId: S, config: {} });
    log.session('session.started', { teamAgents: [{ name: 'researcher' }, { name: 'writer' }] });
    const sent = log.session('session.message_sent', { prompt: 'hi' });
    expect(log.span(SpanIds.turn(S, sent.eventId))).toMatchObject({
      traceId: traceIdOf('turn', `session-${S}`, sent.eventId),
      parentSpanId: null,
      name: 'invoke_workflow main',
      attributes: { 'gen_ai.operation.name': 'invoke_workflow', 'gen_ai.workflow.name': 'main', 'switchboard.team.agents': ['researcher', 'writer'] },
    });
  });

  it.each([
    ['session.message_failed', { error: 'CLI gone' }, 'CLI gone'],
    ['session.interrupted', { reason: 'service restarted', wasRunning: true }, 'interrupted: service restarted'],
    ['session.destroyed', {}, 'session destroyed'],
  ])('%s ends an open turn with an error', (type, data, message) => {
    const log = withTurn();
    log.session(type, data);
    expect(log.span(TURN_SPAN)).toMatchObject({ statusCode: 'error', statusMessage: message, endTime: at(3) });
  });

  it('a session destroyed or steered after its turn ended leaves the turn as it was; steers and pauses are events on the open turn', () => {
    const log = withTurn();
    log.session('session.steered', { message: 'faster', target: 'main', agentName: 'lead', steeredBy: 'console' }, { by: PERSON });
    log.add(`pause-session-${S}`, 'pause.paused', { pauseId: 'p1', target: 'session', sessionId: S, pausedBy: 'console', pausedAt: at(4) });
    log.add(`pause-session-${S}`, 'pause.unpaused', { pauseId: 'p1', target: 'session', sessionId: S, unpausedBy: 'api', pausedMs: 1000 });
    log.session('cli.session.idle', { payload: {} });
    log.session('session.destroyed', {});
    // An ended span is on its way to the collector: a steer after it is no part of it.
    log.session('session.steered', { message: 'too late', target: 'main', agentName: 'lead', steeredBy: 'api' });
    const turn = log.span(TURN_SPAN);
    expect(turn).toMatchObject({ statusCode: 'unset', endTime: at(6) });
    expect(turn.events.map((e) => [e.name, e.time])).toEqual([
      ['session.steered', at(3)],
      ['pause.paused', at(4)],
      ['pause.unpaused', at(5)],
    ]);
    expect(turn.events[0].attributes).toMatchObject({ 'switchboard.steered_by': 'console', 'switchboard.actor': 'Ada' });
  });

  it('a run nests under the agent_run call that started it; its thread has no turn and its model calls nest under the run', () => {
    const log = withTurn();
    const runSpan = SpanIds.run(RUN, 1);
    const toolSpan = SpanIds.tool(S, 'call_agent_run');
    log.session('cli.tool.execution_start', { payload: { toolCallId: 'call_agent_run', toolName: 'agent_run', arguments: {} } });
    log.add(`run-${RUN}`, 'run.started', {
      runId: RUN,
      agentId: 'worker',
      agentName: 'Worker',
      background: true,
      depth: 1,
      threadId: THREAD,
      parentThreadId: S,
      ownerThreadId: S,
      rootRunId: RUN,
      epoch: 1,
      prompt: 'do it',
      trace: { traceId: TRACE, spanId: runSpan, parentSpanId: toolSpan },
    });
    log.session('session.created', { sessionId: THREAD, config: {} }, {}, THREAD);
    log.session('session.message_sent', { prompt: 'do it', trace: { traceId: TRACE, spanId: runSpan } }, {}, THREAD);
    modelCall(log, 'c1', { runId: RUN, agentName: 'Worker' }, THREAD);
    log.session('cli.session.idle', { payload: {} }, {}, THREAD);
    expect(log.span(runSpan)).toMatchObject({
      traceId: TRACE,
      parentSpanId: toolSpan,
      name: 'invoke_agent Worker',
      endTime: null,
      attributes: {
        'gen_ai.agent.id': 'worker',
        'gen_ai.agent.name': 'Worker',
        'gen_ai.conversation.id': THREAD,
        'switchboard.run.id': RUN,
        'switchboard.run.background': true,
        'switchboard.run.depth': 1,
      },
    });
    expect(log.span(SpanIds.modelCall('c1'))).toMatchObject({ traceId: TRACE, parentSpanId: runSpan });
    expect([...log.fold.spans.values()].filter((s) => s.attributes['gen_ai.conversation.id'] === THREAD).map((s) => s.name)).toEqual([
      'invoke_agent Worker',
      'chat gpt-4.1',
    ]);
    log.add(`run-${RUN}`, 'run.budget_warned', { runId: RUN, limit: 'max_tokens', used: 90, allowed: 100 });
    log.add(`run-${RUN}`, 'run.completed', { runId: RUN, epoch: 1, output: 'DONE' });
    expect(log.span(runSpan)).toMatchObject({ statusCode: 'ok', endTime: at(10) });
    expect(log.span(runSpan).events.map((e) => e.name)).toEqual(['run.budget_warned']);
  });

  it.each([
    ['run.failed', { error: 'boom' }, 'error', 'boom', []],
    ['run.interrupted', { reason: 'crash' }, 'error', 'interrupted', []],
    ['run.stopped', { stoppedBy: { actor: 'console', reason: 'enough' }, forced: false }, 'unset', null, ['run.stopped']],
  ])('%s ends the run span', (type, data, status, message, events) => {
    const log = withTurn();
    log.add(`run-${RUN}`, 'run.started', { runId: RUN, agentId: 'worker', threadId: THREAD, parentThreadId: S, rootRunId: RUN, epoch: 1 });
    log.add(`run-${RUN}`, type, { runId: RUN, epoch: 1, ...data });
    const span = log.span(SpanIds.run(RUN, 1));
    expect(span).toMatchObject({ statusCode: status, statusMessage: message });
    expect(span.events.map((e) => e.name)).toEqual(events);
  });

  it("a run recorded before runs named their trace goes under its caller's current span; a resumed run is a new span in the same trace", () => {
    const log = withTurn();
    log.add(`run-${RUN}`, 'run.started', { runId: RUN, agentId: 'worker', threadId: THREAD, parentThreadId: S, rootRunId: RUN, epoch: 1 });
    expect(log.span(SpanIds.run(RUN, 1))).toMatchObject({ traceId: TRACE, parentSpanId: TURN_SPAN, name: 'invoke_agent worker' });
    log.add(`run-${RUN}`, 'run.completed', { runId: RUN, epoch: 1, output: 'x' });
    log.add(`run-${RUN}`, 'run.resumed', { runId: RUN, epoch: 2, prompt: 'again', resumedBy: 'api' });
    expect(log.span(SpanIds.run(RUN, 2))).toMatchObject({ traceId: TRACE, parentSpanId: TURN_SPAN, name: 'invoke_agent worker', endTime: null });
    expect(log.fold.contexts.get(THREAD)?.spanId).toBe(SpanIds.run(RUN, 2));
  });

  it('a CLI sub-agent nests under its task call, and its model and tool calls under it; routing and failures land on the tool span', () => {
    const log = withTurn();
    log.session('cli.tool.execution_start', { payload: { toolCallId: 'call_task', toolName: 'task', arguments: {} } });
    log.session('subagent.started', { parentSessionId: S, childSessionId: CHILD, via: 'agentId', toolCallId: 'call_task', agentName: 'keeper' });
    modelCall(log, 'c2', { cliAgentId: CHILD, subagentId: CHILD, agentName: 'keeper' });
    log.session('cli.tool.execution_start', {
      agentId: CHILD,
      payload: { toolCallId: 'call_lookup', toolName: 'lookup_secret', arguments: { key: 'k' } },
    });
    log.session('tool_call.routed', { via: 'external_tool.requested', parentSessionId: S, toolCallId: 'call_lookup', outcome: 'success', latencyMs: 3 });
    log.session('cli.tool.execution_complete', { agentId: CHILD, payload: { toolCallId: 'call_lookup', success: true, result: { content: 'v' } } });
    log.session('cli.tool.execution_start', { agentId: CHILD, payload: { toolCallId: 'call_bad', toolName: 'forbidden', arguments: {} } });
    log.session('cli.tool.execution_complete', {
      agentId: CHILD,
      payload: { toolCallId: 'call_bad', success: false, error: { message: 'no such tool' } },
    });
    log.session('subagent.completed', { parentSessionId: S, childSessionId: CHILD, toolCallId: 'call_task', agentName: 'keeper', totalTokens: 45 });

    const sub = SpanIds.subagent(S, CHILD);
    expect(log.span(sub)).toMatchObject({
      parentSpanId: SpanIds.tool(S, 'call_task'),
      traceId: TRACE,
      name: 'invoke_agent keeper',
      endTime: at(11),
      attributes: { 'gen_ai.agent.id': CHILD, 'gen_ai.agent.name': 'keeper', 'switchboard.subagent.total_tokens': 45 },
    });
    expect(log.span(SpanIds.modelCall('c2')).parentSpanId).toBe(sub);
    expect(log.span(SpanIds.tool(S, 'call_lookup'))).toMatchObject({
      parentSpanId: sub,
      name: 'execute_tool lookup_secret',
      startTime: at(6),
      endTime: at(8),
      statusCode: 'unset',
      attributes: {
        'gen_ai.tool.name': 'lookup_secret',
        'gen_ai.tool.call.id': 'call_lookup',
        'switchboard.tool.routing': 'success',
        'switchboard.tool.routing.via': 'external_tool.requested',
      },
    });
    expect(log.span(SpanIds.tool(S, 'call_bad'))).toMatchObject({ statusCode: 'error', statusMessage: 'no such tool' });
  });

  it('a chat span carries the call, its usage, cost and answer facts, as a client span from start to finish', () => {
    const log = withTurn();
    modelCall(log, 'c3');
    log.add('model_call-c3', 'model_call.finished', {
      callId: 'c3',
      sessionId: S,
      status: 200,
      durationMs: 900,
      usage: { inputTokens: 120, outputTokens: 30, cachedInputTokens: 100, reasoningTokens: 7 },
      responseId: 'chatcmpl-1',
      finishReason: 'stop',
      cost: { amount: 0.0042, currency: 'USD' },
      answerBytes: 10,
      chunks: 1,
      answer: '{"id":"chatcmpl-1","model":"gpt-4.1-2025","choices":[{"message":{"role":"assistant","content":"SECRET_ANSWER"}}]}',
    });
    expect(log.span(SpanIds.modelCall('c3'))).toMatchObject({
      kind: 'client',
      name: 'chat gpt-4.1',
      parentSpanId: TURN_SPAN,
      startTime: at(3),
      endTime: at(4),
      statusCode: 'unset',
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4.1',
        'gen_ai.response.model': 'gpt-4.1-2025',
        'gen_ai.response.id': 'chatcmpl-1',
        'gen_ai.response.finish_reasons': ['stop'],
        'gen_ai.usage.input_tokens': 120,
        'gen_ai.usage.output_tokens': 30,
        'gen_ai.usage.cache_read.input_tokens': 100,
        'gen_ai.usage.reasoning.output_tokens': 7,
        'switchboard.cost.amount': 0.0042,
        'switchboard.cost.currency': 'USD',
        'switchboard.model_call.id': 'c3',
      },
    });
  });

  it('a failed call is an error; a refused call is one ended error span; an interrupted call is an error', () => {
    const log = withTurn();
    modelCall(log, 'f1');
    log.add('model_call-f1', 'model_call.failed', { callId: 'f1', sessionId: S, durationMs: 5, outcome: 'failed', error: 'HTTP 500' });
    log.add('model_call-r1', 'model_call.refused', {
      callId: 'r1',
      sessionId: S,
      cliAgentId: S,
      agentName: 'lead',
      model: 'gpt-4.1',
      provider: 'openai',
      limit: 'max_cost',
      used: 2,
      max: 1,
      message: 'budget spent',
    });
    modelCall(log, 'i1');
    log.add('model_call-i1', 'model_call.interrupted', { callId: 'i1', sessionId: S, reason: 'instance died' });
    expect(log.span(SpanIds.modelCall('f1'))).toMatchObject({ statusCode: 'error', statusMessage: 'HTTP 500', attributes: { 'error.type': 'failed' } });
    expect(log.span(SpanIds.modelCall('r1'))).toMatchObject({
      statusCode: 'error',
      statusMessage: 'budget spent',
      startTime: at(5),
      endTime: at(5),
      attributes: { 'switchboard.model_call.refused.limit': 'max_cost' },
    });
    expect(log.span(SpanIds.modelCall('i1'))).toMatchObject({ statusCode: 'error', statusMessage: 'interrupted: instance died' });
  });

  it('an approval waits under the tool call it names, and names the person who decided', () => {
    const log = withTurn();
    log.session('cli.tool.execution_start', { payload: { toolCallId: 'call_sh', toolName: 'bash', arguments: {} } });
    log.add('approval-a1', 'permission.asked', {
      approvalId: 'a1',
      sessionId: S,
      kind: 'shell',
      toolName: 'bash',
      arguments: { kind: 'shell', toolCallId: 'call_sh' },
      lineagePath: ['lead'],
      via: 'permission.requested',
    });
    log.add(
      'approval-a1',
      'approval.decided',
      { approvalId: 'a1', sessionId: S, kind: 'shell', decision: 'deny', scope: 'once', reason: 'NOT_TODAY', decidedBy: 'console' },
      { by: PERSON },
    );
    log.add('approval-a2', 'permission.asked', { approvalId: 'a2', sessionId: S, kind: 'write', arguments: {}, lineagePath: [], via: 'x' });
    log.add('approval-a2', 'approval.expired', { approvalId: 'a2', sessionId: S, reason: 'session ended' });
    expect(log.span(SpanIds.approval('a1'))).toMatchObject({
      parentSpanId: SpanIds.tool(S, 'call_sh'),
      name: 'await_approval bash',
      startTime: at(4),
      endTime: at(5),
      statusCode: 'unset',
      attributes: {
        'switchboard.approval.decision': 'deny',
        'switchboard.approval.scope': 'once',
        'switchboard.approval.reason': 'NOT_TODAY',
        'switchboard.decider.kind': 'user',
        'switchboard.decider.id': 'u-ada',
        'switchboard.decider.name': 'Ada',
      },
    });
    expect(log.span(SpanIds.approval('a2'))).toMatchObject({ parentSpanId: TURN_SPAN, name: 'await_approval write', statusCode: 'error' });
  });

  it('a hook span ends when it was recorded and starts its latency before; a question waits for its answer', () => {
    const log = withTurn();
    log.session('hook.invoked', {
      via: 'hooks.invoke',
      parentSessionId: S,
      requestId: 'h1',
      arguments: { hookType: 'preToolUse' },
      outcome: 'continued',
      latencyMs: 250,
    });
    log.session('user_input.requested', { via: 'userInput.request', parentSessionId: S, requestId: 'q1', outcome: 'pending', latencyMs: 0 });
    log.session(
      'user_input.answered',
      { via: 'userInput.request', parentSessionId: S, requestId: 'q1', outcome: 'answered', latencyMs: 10 },
      { by: PERSON },
    );
    expect(log.span(SpanIds.hook(S, 'h1'))).toMatchObject({
      name: 'execute_hook preToolUse',
      parentSpanId: TURN_SPAN,
      startTime: new Date(T0 + 3000 - 250).toISOString(),
      endTime: at(3),
      statusCode: 'unset',
      attributes: { 'switchboard.hook.outcome': 'continued' },
    });
    // A hook whose webhook failed is an error span, whether the call went on (open) or was stopped (closed).
    for (const [requestId, outcome] of [
      ['h2', 'failed_open'],
      ['h3', 'failed_closed'],
    ]) {
      log.session('hook.invoked', {
        via: 'hooks.invoke',
        parentSessionId: S,
        requestId,
        arguments: { hookType: 'preToolUse' },
        outcome,
        reason: 'answered HTTP 500',
        latencyMs: 5,
      });
      expect(log.span(SpanIds.hook(S, requestId))).toMatchObject({ statusCode: 'error', statusMessage: 'answered HTTP 500' });
    }
    expect(log.span(SpanIds.userInput(S, 'q1'))).toMatchObject({
      name: 'await_user_input',
      startTime: at(4),
      endTime: at(5),
      attributes: { 'switchboard.decider.name': 'Ada' },
    });
  });

  it('content (prompts, answers, tool arguments and results) only when opted in, as GenAI message JSON', () => {
    const play = (content: boolean) => {
      const log = withTurn(content);
      modelCall(log, 'c4');
      log.add('model_call-c4', 'model_call.finished', {
        callId: 'c4',
        sessionId: S,
        status: 200,
        durationMs: 1,
        usage: {},
        answerBytes: 1,
        chunks: 1,
        finishReason: 'stop',
        answer: 'data: {"choices":[{"delta":{"content":"SECRET_"}}]}\n\ndata: {"choices":[{"delta":{"content":"ANSWER"}}]}\n\ndata: [DONE]\n',
      });
      log.session('cli.tool.execution_start', { payload: { toolCallId: 't', toolName: 'lookup', arguments: { key: 'SECRET_ARG' } } });
      log.session('cli.tool.execution_complete', { payload: { toolCallId: 't', success: true, result: { content: 'SECRET_RESULT' } } });
      log.session('cli.assistant.message', { payload: { content: 'SECRET_FINAL' } });
      log.session('cli.session.idle', { payload: {} });
      return log;
    };
    const off = JSON.stringify([...play(false).fold.spans.values()]);
    expect(off).not.toMatch(/SECRET_/);
    const on = play(true);
    expect(JSON.parse(String(on.span(TURN_SPAN).attributes['gen_ai.input.messages']))).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'SECRET_PROMPT' }] },
    ]);
    expect(JSON.parse(String(on.span(TURN_SPAN).attributes['gen_ai.output.messages']))).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'SECRET_FINAL' }] },
    ]);
    const chat = on.span(SpanIds.modelCall('c4')).attributes;
    expect(JSON.parse(String(chat['gen_ai.input.messages']))).toEqual([{ role: 'user', parts: [{ type: 'text', content: 'SECRET_PROMPT' }] }]);
    expect(JSON.parse(String(chat['gen_ai.output.messages']))).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'SECRET_ANSWER' }], finish_reason: 'stop' },
    ]);
    expect(on.span(SpanIds.tool(S, 't')).attributes).toMatchObject({
      'gen_ai.tool.call.arguments': '{"key":"SECRET_ARG"}',
      'gen_ai.tool.call.result': 'SECRET_RESULT',
    });
  });

  it('an exported span is final: a late event for it is dropped, and says so', () => {
    const log = withTurn();
    log.session('cli.tool.execution_start', { payload: { toolCallId: 'late', toolName: 'lookup', arguments: {} } });
    log.session('cli.tool.execution_complete', { payload: { toolCallId: 'late', success: true } });
    const spanId = SpanIds.tool(S, 'late');
    log.fold.markExported(spanId, at(100));
    const before = log.span(spanId);
    log.session('tool_call.routed', { via: 'external_tool.requested', parentSessionId: S, toolCallId: 'late', outcome: 'success', latencyMs: 1 });
    log.session('cli.tool.execution_complete', { payload: { toolCallId: 'late', success: false, error: { message: 'again' } } });
    expect(log.span(spanId)).toEqual(before);
    expect(log.fold.dropped).toEqual([
      { kind: 'dropped', spanId, reason: `tool_call.routed: the span was exported at ${at(100)}` },
      { kind: 'dropped', spanId, reason: `tool end: the span was exported at ${at(100)}` },
    ]);
  });

  it('never throws on old, odd or orphaned events: a span without a known parent gets the derived ids', () => {
    const log = new Log(new InMemoryTraceSpans({ content: true }));
    for (const type of TRACE_EVENT_TYPES) {
      for (const data of [{}, { payload: 'x', trace: 'bad', config: 3, teamAgents: 'no', arguments: null }]) {
        expect(() => log.session(type, data)).not.toThrow();
        expect(() => log.add('run-x', type, data)).not.toThrow();
      }
    }
    const orphan = new Log(new InMemoryTraceSpans({ content: false }));
    modelCall(orphan, 'o1', { sessionId: 'never-seen', subagentId: 'ghost' });
    expect(orphan.span(SpanIds.modelCall('o1'))).toMatchObject({
      traceId: traceIdOf('session', 'never-seen'),
      parentSpanId: SpanIds.subagent('never-seen', 'ghost'),
    });
    orphan.session('cli.tool.execution_complete', { payload: { toolCallId: 'nope', success: true } });
    expect(orphan.fold.dropped.map((d) => d.reason)).toEqual(['tool end: no such span']);
  });

  it('reads chat requests and answers it cannot parse as nothing', () => {
    expect(inputMessagesOfRequest('{"messages": [')).toBeUndefined();
    expect(inputMessagesOfRequest('{"input": "responses API"}')).toBeUndefined();
    expect(outputMessagesOfAnswer('not json', 'stop')).toBeUndefined();
  });
});
