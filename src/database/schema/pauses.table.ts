import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Read model (issue 26): one row per pause interval of a run or a session, open (`unpaused_at` null)
 * until unpaused. The open rows are what `PauseHolds` loads at start; the closed ones are the history.
 */
export const pauses = sqliteTable(
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
    pausedPosition: integer('paused_position').notNull(),
    unpausedAt: text('unpaused_at'),
    unpausedBy: text('unpaused_by'),
    unpausedByActor: text('unpaused_by_actor'),
    pausedMs: integer('paused_ms'),
  },
  (t) => [index('pauses_target_idx').on(t.target, t.targetId, t.pausedPosition), index('pauses_open_idx').on(t.unpausedAt)],
);
