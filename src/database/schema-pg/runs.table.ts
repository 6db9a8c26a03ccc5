import { bigint, boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Read model of delegation runs, the twin of ../schema/runs.table.ts. `path` is the materialized
 * lineage path `/<root>/.../<self>/` (subtree = one index range scan), `COLLATE "C"` so that range holds
 * under any database collation (migration 0003; drizzle declares no collation). Token, tool-call and duration
 * totals are bigint; depth, epoch and the warning count stay integer.
 */
export const runs = pgTable(
  'runs',
  {
    runId: text('run_id').primaryKey(),
    agentId: text('agent_id').notNull(),
    prompt: text('prompt').notNull(),
    status: text('status').notNull(),
    background: boolean('background').notNull(),
    parentRunId: text('parent_run_id'),
    parentThreadId: text('parent_thread_id'),
    /** The thread (session id, or `api`) allowed to stop, resume and read the run. */
    ownerThreadId: text('owner_thread_id').notNull(),
    rootRunId: text('root_run_id').notNull(),
    depth: integer('depth').notNull(),
    path: text('path').notNull(),
    /** The run's own thread: its CLI session, `sub-agent-<run_id>`. */
    threadId: text('thread_id').notNull(),
    epoch: integer('epoch').notNull(),
    policy: text('policy').notNull(),
    output: text('output'),
    error: text('error'),
    /** JSON: who stopped the run ({actor, runId?, reason}). */
    stoppedBy: text('stopped_by'),
    inputTokens: bigint('input_tokens', { mode: 'number' }).notNull().default(0),
    outputTokens: bigint('output_tokens', { mode: 'number' }).notNull().default(0),
    toolCalls: bigint('tool_calls', { mode: 'number' }).notNull().default(0),
    /** Summed over launches; the current launch counts from `launched_at` until it ends. */
    durationMs: bigint('duration_ms', { mode: 'number' }).notNull().default(0),
    startedAt: text('started_at').notNull(),
    launchedAt: text('launched_at').notNull(),
    endedAt: text('ended_at'),
    updatedAt: text('updated_at').notNull(),
    /** Set once the owner thread was told the run ended (the reminder at its next turn). */
    ownerNotified: boolean('owner_notified').notNull().default(false),
    /** JSON: the run's budget over its subtree ({max_tokens?, max_tool_calls?, max_runs?, max_duration_ms?}), null without one. */
    budget: text('budget'),
    /** issue 26: the run this one replays or forks (its original in the replay tree), null otherwise. */
    replayOf: text('replay_of'),
    /** issue 26: `replay` or `fork` for a run of a replay tree. */
    replayMode: text('replay_mode'),
    /** issue 26: the model call a fork goes live from (set on the fork's root run). */
    forkedFromCall: text('forked_from_call'),
    /** JSON: the budget warnings recorded (run.budget_warned: [{limit, allowed, used}]). */
    budgetWarnings: text('budget_warnings').notNull().default('[]'),
    /** issue 30: JSON `{scheduleId, firingId}`: the schedule firing that started the run, null otherwise. */
    scheduledBy: text('scheduled_by'),
    /** issue 39: JSON Actor: who started the run (run.started's `metadata.by`: a person, a key, an agent, Switchboard), null before. */
    startedBy: text('started_by'),
    /** How many of those warnings the owner thread was told at a turn. */
    budgetWarningsTold: integer('budget_warnings_told').notNull().default(0),
  },
  (t) => [
    index('runs_status_idx').on(t.status),
    index('runs_parent_idx').on(t.parentRunId),
    index('runs_root_idx').on(t.rootRunId),
    index('runs_path_idx').on(t.path),
    index('runs_owner_status_idx').on(t.ownerThreadId, t.status),
    index('runs_agent_idx').on(t.agentId),
    index('runs_started_idx').on(t.startedAt),
    index('runs_thread_idx').on(t.threadId),
    index('runs_replay_of_idx').on(t.replayOf),
  ],
);
