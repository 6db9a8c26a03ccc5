import { column, table } from '../table-description';

/**
 * Read model (issue 26): one row per pause interval of a run or a session, open (`unpaused_at` null)
 * until unpaused. The open rows are what `PauseHolds` loads at start; the closed ones are the history.
 */
export const pauses = table(
  'pauses',
  {
    pauseId: column.text().primaryKey(),
    /** `run` or `session`. */
    target: column.text().notNull(),
    /** The run id or the session id. */
    targetId: column.text().notNull(),
    /** A paused run's lineage path: what it holds is its subtree. */
    runPath: column.text(),
    pausedBy: column.text().notNull(),
    /** issue 27: JSON, the actor who paused (`paused_by` stays the client, console or api). */
    pausedByActor: column.text(),
    reason: column.text(),
    pausedAt: column.text().notNull(),
    /** Global position of `pause.paused`: the order pauses happened in. */
    pausedPosition: column.bigint().notNull(),
    unpausedAt: column.text(),
    unpausedBy: column.text(),
    unpausedByActor: column.text(),
    pausedMs: column.bigint(),
  },
  { indexes: { pauses_target_idx: ['target', 'targetId', 'pausedPosition'], pauses_open_idx: ['unpausedAt'] } },
);
