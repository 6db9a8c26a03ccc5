/**
 * The events one delegated run with tool calls records, appended as the app appends them: the
 * traffic of bench:app-traffic and the source log of bench:log-copy.
 */
import type { EventStore } from '../src/event-store/event-store';
import type { NewEvent } from '../src/event-store/event-store.types';
import { RunEvents } from '../src/delegation/run.events';
import { modelCallStreamId, runStreamId, sessionStreamId } from '../src/event-store/stream-ids';
import { CLI_EVENT_PREFIX, SessionEvents } from '../src/sessions/session.events';
import { RoutedRequestEvents } from '../src/tool-dispatch/routed-request.events';
import { ModelCallEvents, type ModelCallFinishedData, type ModelCallStartedData } from '../src/model-calls/model-call.events';

export const TOOL_CALLS_PER_RUN = 8;
/** run.started, session.created and .started, five per tool call, run.completed. */
export const EVENTS_PER_RUN = 5 * TOOL_CALLS_PER_RUN + 4;
/** With the model-call ledger: one model call per tool call, its `started` and `finished` on its own stream. */
export const EVENTS_PER_RUN_WITH_MODEL_CALLS = EVENTS_PER_RUN + 2 * TOOL_CALLS_PER_RUN;

export interface TrafficOptions {
  /** Record each tool call's model call (model_call-<id>) as the model route appends it. */
  modelCalls?: boolean;
}

/** One delegated run's events, appended as the app appends them; returns how many. */
export async function recordRun(store: EventStore, runId: string, options: TrafficOptions = {}): Promise<number> {
  const sessionId = `sub-agent-${runId}`;
  const session = sessionStreamId(sessionId);
  const runStream = runStreamId(runId);
  let count = 0;
  const onSession = async (event: NewEvent) => {
    await store.append(session, 'any', [event]);
    count++;
  };
  await store.append(runStream, 'no_stream', [{ type: RunEvents.started, data: runStarted(runId, sessionId) }]);
  count++;
  await onSession({
    type: SessionEvents.created,
    data: {
      sessionId,
      config: { model: 'gpt-5', tools: [], customAgents: [], permissionPolicy: { allowKinds: [], approveOwnTools: true }, subAgents: [] },
    },
  });
  await onSession({ type: SessionEvents.started, data: { protocolVersion: 3, cliVersion: '1.0.0' } });
  for (let call = 0; call < TOOL_CALLS_PER_RUN; call++) {
    const toolCallId = `${runId}-call-${call}`;
    const args = { path: `src/module-${call}.ts`, pattern: 'TODO' };
    if (options.modelCalls) count += await recordModelCall(store, runId, sessionId, `${runId}-model-${call}`);
    await onSession({ type: `${CLI_EVENT_PREFIX}tool.execution_start`, data: { payload: { toolCallId, toolName: 'grep', arguments: args } } });
    await onSession({
      type: RoutedRequestEvents.toolCallRouted,
      data: {
        via: 'tool.call',
        parentSessionId: sessionId,
        toolCallId,
        toolName: 'grep',
        arguments: args,
        outcome: 'ok',
        result: { matches: 3 },
        latencyMs: 12,
      },
    });
    await onSession({
      type: `${CLI_EVENT_PREFIX}tool.execution_complete`,
      data: { payload: { toolCallId, success: true, result: { content: 'src/a.ts:3: TODO' } } },
    });
    await onSession({
      type: `${CLI_EVENT_PREFIX}assistant.message`,
      data: { payload: { messageId: `${toolCallId}-m`, content: 'Found three TODOs; reading the next file.' } },
    });
    await onSession({ type: `${CLI_EVENT_PREFIX}assistant.usage`, data: { payload: { model: 'gpt-5', inputTokens: 1800, outputTokens: 120 } } });
  }
  await store.append(runStream, 1, [{ type: RunEvents.completed, data: { runId, epoch: 1, output: 'Done: three TODOs listed.' } }]);
  return count + 1;
}

/** One model call of the run's session, as the model route appends it: started, then finished, on its own stream. */
async function recordModelCall(store: EventStore, runId: string, sessionId: string, callId: string): Promise<number> {
  const stream = modelCallStreamId(callId);
  const metadata = { actor: 'switchboard', correlationId: sessionId };
  const started: ModelCallStartedData = {
    callId,
    requestId: `${callId}-r`,
    sessionId,
    cliAgentId: sessionId,
    agentInvocationId: `${sessionId}-loop`,
    agentName: 'code-searcher',
    runId,
    rootRunId: runId,
    runPath: runId,
    lineagePath: ['code-searcher'],
    provider: 'openai',
    model: 'gpt-5',
    interactionType: 'conversation-subagent',
    initiator: 'agent',
    method: 'POST',
    path: '/chat/completions',
    requestBytes: 18_000,
    messageCount: 12,
    toolCount: 6,
    stream: true,
    instanceId: 'bench-instance',
  };
  await store.append(stream, 'no_stream', [{ type: ModelCallEvents.started, data: { ...started }, metadata }]);
  const finished: ModelCallFinishedData = {
    callId,
    sessionId,
    runId,
    status: 200,
    ttfbMs: 180,
    durationMs: 900,
    usage: { inputTokens: 1800, outputTokens: 120 },
    responseId: `${callId}-resp`,
    finishReason: 'tool_calls',
    answerBytes: 2_400,
    chunks: 40,
  };
  await store.append(stream, 1, [{ type: ModelCallEvents.finished, data: { ...finished }, metadata }]);
  return 2;
}

function runStarted(runId: string, threadId: string) {
  return {
    runId,
    agentId: 'code-searcher',
    prompt: 'List the TODOs in src/',
    background: false,
    parentRunId: null,
    parentThreadId: null,
    ownerThreadId: 'bench-owner',
    rootRunId: runId,
    depth: 0,
    path: runId,
    threadId,
    epoch: 1,
    policy: { allowedAgents: null, excludedAgents: [], maxDepth: 3, maxConcurrentChildren: 4, timeoutMs: 600_000 },
  };
}
