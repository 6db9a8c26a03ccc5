import { column, table } from '../table-description';

/**
 * Read model (issue 26): one row per pause interval of a run or a session, open (`unpaused_at` null)
 * until unpaused. The open rows are what `PauseHolds` loads at start; the closed ones are the history.
 */
export const pauses = table(
  'pauses',
  {
    pauseId: column.text('pause_id').primaryKey(),
    /** `run` or `session`. */
    target: column.text('target').notNull(),
    /** The run id or the session id. */
    targetId: column.text('target_id').notNull(),
    /** A paused run's lineage path: what it holds is its subtree. */
    runPath: column.text('run_path'),
    pausedBy: column.text('paused_by').notNull(),
    /** issue 27: JSON, the actor who paused (`paused_by` stays the client, console or api). */
    pausedByActor: column.text('paused_by_actor'),
    reason: column.text('reason'),
    pausedAt: column.text('paused_at').notNull(),
    /** Global position of `pause.paused`: the order pauses happened in. */
    pausedPosition: column.bigint('paused_position').notNull(),
    unpausedAt: column.text('unpaused_at'),
    unpausedBy: column.text('unpaused_by'),
    unpausedByActor: column.text('unpaused_by_actor'),
    pausedMs: column.bigint('paused_ms'),
  },
  { indexes: { pauses_target_idx: ['target', 'targetId', 'pausedPosition'], pauses_open_idx: ['unpausedAt'] } },
);
