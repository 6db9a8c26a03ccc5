import { column, table } from '../table-description';

/**
 * Read model (issue 25): one row per model call the CLI handed to Switchboard, with its lineage and
 * what it cost; the bodies stay on the call's stream. `started_position` (the global position of
 * `model_call.started` or `model_call.refused`) orders lists and is their cursor. `run_path` is the
 * run's lineage path: a subtree's calls are the range `[path, path || '~')`.
 */
export const modelCalls = table(
  'model_calls',
  {
    callId: column.text('call_id').primaryKey(),
    startedPosition: column.bigint('started_position').notNull(),
    status: column.text('status').notNull(),
    sessionId: column.text('session_id').notNull(),
    cliAgentId: column.text('cli_agent_id').notNull(),
    agentInvocationId: column.text('agent_invocation_id'),
    agentName: column.text('agent_name').notNull(),
    subagentId: column.text('subagent_id'),
    runId: column.text('run_id'),
    rootRunId: column.text('root_run_id'),
    runPath: column.text('run_path'),
    /** JSON array of agent names, the team's top first. */
    lineagePath: column.text('lineage_path').notNull(),
    provider: column.text('provider').notNull(),
    model: column.text('model').notNull(),
    interactionType: column.text('interaction_type'),
    initiator: column.text('initiator'),
    requestBytes: column.bigint('request_bytes').notNull(),
    messageCount: column.integer('message_count').notNull(),
    toolCount: column.integer('tool_count').notNull(),
    stream: column.boolean('stream').notNull(),
    httpStatus: column.integer('http_status'),
    ttfbMs: column.bigint('ttfb_ms'),
    durationMs: column.bigint('duration_ms'),
    inputTokens: column.bigint('input_tokens'),
    outputTokens: column.bigint('output_tokens'),
    cachedInputTokens: column.bigint('cached_input_tokens'),
    reasoningTokens: column.bigint('reasoning_tokens'),
    responseId: column.text('response_id'),
    finishReason: column.text('finish_reason'),
    /** In `currency`; null when the model has no price (unknown, never 0). */
    cost: column.real('cost'),
    currency: column.text('currency'),
    /** Why it failed, was refused or interrupted. */
    error: column.text('error'),
    /** The instance that forwarded it: an in-flight call of a dead instance is interrupted by its taker. */
    instanceId: column.text('instance_id').notNull(),
    startedAt: column.text('started_at').notNull(),
    endedAt: column.text('ended_at'),
    /** issue 26: which bodies the call's stream keeps, what a replay plays back: `kept`, `truncated` (cut), `none` (content=metadata); null: recorded before this was tracked. */
    bodies: column.text('bodies'),
    /** issue 26, a call of a replay or fork session: `record` (played back, nothing reached the model) or `live`. */
    replaySource: column.text('replay_source'),
    /** The original call it was matched to (same agent, same position). */
    originalCallId: column.text('original_call_id'),
    /** 1-based position among its agent's calls in its session. */
    replayPosition: column.bigint('replay_position'),
    /** JSON ReplayDivergence: the first difference from the original's request, with both versions. */
    divergence: column.text('divergence'),
    /** The fork point of a fork: the message appended and overrides applied from here. */
    forkPoint: column.boolean('fork_point'),
  },
  {
    indexes: {
      model_calls_session_idx: ['sessionId', 'startedPosition'],
      model_calls_run_idx: ['runId', 'startedPosition'],
      model_calls_run_path_idx: ['runPath'],
      model_calls_status_idx: ['status', 'instanceId'],
      model_calls_position_idx: ['startedPosition'],
    },
  },
);
