import { column, table } from '../table-description';

/**
 * Read model of delegation runs (spec: sub-agent-delegation). One row per run, kept after it ends.
 * `path` is the materialized lineage path `/<root>/.../<self>/`: a subtree is one index range scan
 * (`path >= p AND path < p || '~'`), ancestors are the ids in the path. On PostgreSQL `path` is
 * `COLLATE "C"` so that range holds under any database collation (migration 0003; drizzle declares no
 * collation, so the description cannot say it). Token, tool-call and duration totals are bigint; depth,
 * epoch and the warning count stay integer.
 */
export const runs = table(
  'runs',
  {
    runId: column.text().primaryKey(),
    agentId: column.text().notNull(),
    prompt: column.text().notNull(),
    status: column.text().notNull(),
    background: column.boolean().notNull(),
    parentRunId: column.text(),
    parentThreadId: column.text(),
    /** The thread (session id, or `api`) allowed to stop, resume and read the run. */
    ownerThreadId: column.text().notNull(),
    rootRunId: column.text().notNull(),
    depth: column.integer().notNull(),
    path: column.text().notNull(),
    /** The run's own thread: its CLI session, `sub-agent-<run_id>`. */
    threadId: column.text().notNull(),
    epoch: column.integer().notNull(),
    policy: column.text().notNull(),
    output: column.text(),
    error: column.text(),
    /** JSON: who stopped the run ({actor, runId?, reason}). */
    stoppedBy: column.text(),
    inputTokens: column.bigint().notNull().default(0),
    outputTokens: column.bigint().notNull().default(0),
    toolCalls: column.bigint().notNull().default(0),
    /** Summed over launches; the current launch counts from `launched_at` until it ends. */
    durationMs: column.bigint().notNull().default(0),
    startedAt: column.text().notNull(),
    launchedAt: column.text().notNull(),
    endedAt: column.text(),
    updatedAt: column.text().notNull(),
    /** Set once the owner thread was told the run ended (the reminder at its next turn). */
    ownerNotified: column.boolean().notNull().default(false),
    /** JSON: the run's budget over its subtree ({max_tokens?, max_tool_calls?, max_runs?, max_duration_ms?}), null without one. */
    budget: column.text(),
    /** issue 26: the run this one replays or forks (its original in the replay tree), null otherwise. */
    replayOf: column.text(),
    /** issue 26: `replay` or `fork` for a run of a replay tree. */
    replayMode: column.text(),
    /** issue 26: the model call a fork goes live from (set on the fork's root run). */
    forkedFromCall: column.text(),
    /** JSON: the budget warnings recorded (run.budget_warned: [{limit, allowed, used}]). */
    budgetWarnings: column.text().notNull().default('[]'),
    /** issue 30: JSON `{scheduleId, firingId}`: the schedule firing that started the run, null otherwise. */
    scheduledBy: column.text(),
    /** issue 39: JSON Actor: who started the run (run.started's `metadata.by`: a person, a key, an agent, Switchboard), null before. */
    startedBy: column.text(),
    /** issue 43: the A2A context (`contextId`) of a run an A2A client started: a context's runs are its tasks, oldest first. */
    a2aContextId: column.text(),
    /** issue 43: JSON `{a2a, service?, taskId?, contextId?, instanceId?}`: a remote agent's run, its card and the task it follows; null otherwise. */
    remote: column.text(),
    /** How many of those warnings the owner thread was told at a turn. */
    budgetWarningsTold: column.integer().notNull().default(0),
  },
  {
    indexes: {
      runs_status_idx: ['status'],
      runs_parent_idx: ['parentRunId'],
      runs_root_idx: ['rootRunId'],
      runs_path_idx: ['path'],
      runs_owner_status_idx: ['ownerThreadId', 'status'],
      runs_agent_idx: ['agentId'],
      runs_started_idx: ['startedAt'],
      runs_thread_idx: ['threadId'],
      runs_replay_of_idx: ['replayOf'],
      runs_a2a_context_idx: ['a2aContextId', 'startedAt'],
    },
  },
);
