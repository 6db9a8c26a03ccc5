import { bigint, boolean, doublePrecision, index, integer, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Read model (issue 25), the twin of ../schema/model-calls.table.ts: one row per model call the CLI handed to Switchboard, with its lineage and
 * what it cost; the bodies stay on the call's stream. `started_position` (the global position of
 * `model_call.started` or `model_call.refused`) orders lists and is their cursor. `run_path` is the
 * run's lineage path: a subtree's calls are the range `[path, path || '~')`.
 */
export const modelCalls = pgTable(
  'model_calls',
  {
    callId: text('call_id').primaryKey(),
    startedPosition: bigint('started_position', { mode: 'number' }).notNull(),
    status: text('status').notNull(),
    sessionId: text('session_id').notNull(),
    cliAgentId: text('cli_agent_id').notNull(),
    agentInvocationId: text('agent_invocation_id'),
    agentName: text('agent_name').notNull(),
    subagentId: text('subagent_id'),
    runId: text('run_id'),
    rootRunId: text('root_run_id'),
    runPath: text('run_path'),
    /** JSON array of agent names, the team's top first. */
    lineagePath: text('lineage_path').notNull(),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    interactionType: text('interaction_type'),
    initiator: text('initiator'),
    requestBytes: bigint('request_bytes', { mode: 'number' }).notNull(),
    messageCount: integer('message_count').notNull(),
    toolCount: integer('tool_count').notNull(),
    stream: boolean('stream').notNull(),
    httpStatus: integer('http_status'),
    ttfbMs: bigint('ttfb_ms', { mode: 'number' }),
    durationMs: bigint('duration_ms', { mode: 'number' }),
    inputTokens: bigint('input_tokens', { mode: 'number' }),
    outputTokens: bigint('output_tokens', { mode: 'number' }),
    cachedInputTokens: bigint('cached_input_tokens', { mode: 'number' }),
    reasoningTokens: bigint('reasoning_tokens', { mode: 'number' }),
    responseId: text('response_id'),
    finishReason: text('finish_reason'),
    /** In `currency`; null when the model has no price (unknown, never 0). */
    cost: doublePrecision('cost'),
    currency: text('currency'),
    /** Why it failed, was refused or interrupted. */
    error: text('error'),
    /** The instance that forwarded it: an in-flight call of a dead instance is interrupted by its taker. */
    instanceId: text('instance_id').notNull(),
    startedAt: text('started_at').notNull(),
    endedAt: text('ended_at'),
    /** issue 26: which bodies the call's stream keeps, what a replay plays back: `kept`, `truncated` (cut), `none` (content=metadata); null: recorded before this was tracked. */
    bodies: text('bodies'),
    /** issue 26, a call of a replay or fork session: `record` (played back, nothing reached the model) or `live`. */
    replaySource: text('replay_source'),
    /** The original call it was matched to (same agent, same position). */
    originalCallId: text('original_call_id'),
    /** 1-based position among its agent's calls in its session. */
    replayPosition: bigint('replay_position', { mode: 'number' }),
    /** JSON ReplayDivergence: the first difference from the original's request, with both versions. */
    divergence: text('divergence'),
    /** The fork point of a fork: the message appended and overrides applied from here. */
    forkPoint: boolean('fork_point'),
  },
  (t) => [
    index('model_calls_session_idx').on(t.sessionId, t.startedPosition),
    index('model_calls_run_idx').on(t.runId, t.startedPosition),
    index('model_calls_run_path_idx').on(t.runPath),
    index('model_calls_status_idx').on(t.status, t.instanceId),
    index('model_calls_position_idx').on(t.startedPosition),
  ],
);
