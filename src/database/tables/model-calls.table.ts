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
    callId: column.text().primaryKey(),
    startedPosition: column.bigint().notNull(),
    status: column.text().notNull(),
    sessionId: column.text().notNull(),
    cliAgentId: column.text().notNull(),
    agentInvocationId: column.text(),
    agentName: column.text().notNull(),
    subagentId: column.text(),
    runId: column.text(),
    rootRunId: column.text(),
    runPath: column.text(),
    /** JSON array of agent names, the team's top first. */
    lineagePath: column.text().notNull(),
    provider: column.text().notNull(),
    model: column.text().notNull(),
    interactionType: column.text(),
    initiator: column.text(),
    requestBytes: column.bigint().notNull(),
    messageCount: column.integer().notNull(),
    toolCount: column.integer().notNull(),
    stream: column.boolean().notNull(),
    httpStatus: column.integer(),
    ttfbMs: column.bigint(),
    durationMs: column.bigint(),
    inputTokens: column.bigint(),
    outputTokens: column.bigint(),
    cachedInputTokens: column.bigint(),
    reasoningTokens: column.bigint(),
    responseId: column.text(),
    finishReason: column.text(),
    /** In `currency`; null when the model has no price (unknown, never 0). */
    cost: column.real(),
    currency: column.text(),
    /** Why it failed, was refused or interrupted. */
    error: column.text(),
    /** The instance that forwarded it: an in-flight call of a dead instance is interrupted by its taker. */
    instanceId: column.text().notNull(),
    startedAt: column.text().notNull(),
    endedAt: column.text(),
    /** issue 26: which bodies the call's stream keeps, what a replay plays back: `kept`, `truncated` (cut), `none` (content=metadata); null: recorded before this was tracked. */
    bodies: column.text(),
    /** issue 26, a call of a replay or fork session: `record` (played back, nothing reached the model) or `live`. */
    replaySource: column.text(),
    /** The original call it was matched to (same agent, same position). */
    originalCallId: column.text(),
    /** 1-based position among its agent's calls in its session. */
    replayPosition: column.bigint(),
    /** JSON ReplayDivergence: the first difference from the original's request, with both versions. */
    divergence: column.text(),
    /** The fork point of a fork: the message appended and overrides applied from here. */
    forkPoint: column.boolean(),
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
