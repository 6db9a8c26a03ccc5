import { bigint, index, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * The twin of ../schema/pauses.table.ts (`paused_position` is a global position, hence bigint).
 * Read model (issue 26): one row per pause interval of a run or a session, open (`unpaused_at` null)
 * until unpaused. The open rows are what `PauseHolds` loads at start; the closed ones are the history.
 */
export const pauses = pgTable(
  'pauses',
  {
    pauseId: text('pause_id').primaryKey(),
    /** `run` or `session`. */
    target: text('target').notNull(),
    /** The run id or the session id. */
    targetId: text('target_id').notNull(),
    /** A paused run's lineage path: what it holds is its subtree. */
    runPath: text('run_path'),
    pausedBy: text('paused_by').notNull(),
    /** issue 27: JSON, the actor who paused (`paused_by` stays the client, console or api). */
    pausedByActor: text('paused_by_actor'),
    reason: text('reason'),
    pausedAt: text('paused_at').notNull(),
    /** Global position of `pause.paused`: the order pauses happened in. */
    pausedPosition: bigint('paused_position', { mode: 'number' }).notNull(),
    unpausedAt: text('unpaused_at'),
    unpausedBy: text('unpaused_by'),
    unpausedByActor: text('unpaused_by_actor'),
    pausedMs: bigint('paused_ms', { mode: 'number' }),
  },
  (t) => [index('pauses_target_idx').on(t.target, t.targetId, t.pausedPosition), index('pauses_open_idx').on(t.unpausedAt)],
);
