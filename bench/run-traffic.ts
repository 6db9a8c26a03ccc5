/**
 * The events one delegated run with tool calls records, appended as the app appends them: the
 * traffic of bench:app-traffic and the source log of bench:log-copy.
 */
import type { EventStore } from '../src/event-store/event-store';
import type { NewEvent } from '../src/event-store/event-store.types';
import { RunEvents } from '../src/delegation/run.events';
import { runStreamId, sessionStreamId } from '../src/event-store/stream-ids';
import { CLI_EVENT_PREFIX, SessionEvents } from '../src/sessions/session.events';
import { RoutedRequestEvents } from '../src/tool-dispatch/routed-request.events';

export const TOOL_CALLS_PER_RUN = 8;
/** run.started, session.created and .started, five per tool call, run.completed. */
export const EVENTS_PER_RUN = 5 * TOOL_CALLS_PER_RUN + 4;

/** One delegated run's events, appended as the app appends them; returns how many. */
export async function recordRun(store: EventStore, runId: string): Promise<number> {
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
