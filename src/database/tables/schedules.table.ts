import { column, table } from '../table-description';

/**
 * Read model (issue 30): one row per schedule that is not deleted. `next_due_at` is computed by the
 * projection from the definition and `cursor_at` (due times at or before it are done or were not due),
 * so the scheduler's one query is "enabled and next_due_at <= now" on `schedules_due_idx`.
 */
export const schedules = table(
  'schedules',
  {
    scheduleId: column.text().primaryKey(),
    name: column.text().notNull(),
    agentId: column.text().notNull(),
    prompt: column.text().notNull(),
    model: column.text(),
    /** JSON: the run session's permission policy, or null. */
    permissionPolicy: column.text(),
    /** JSON: the budget over each firing's run tree (snake_case limits), or null. */
    budget: column.text(),
    /** issue 42, JSON: the repository each firing's run works in (`{repository, ref?, merge?}`), or null. */
    workspace: column.text(),
    cron: column.text(),
    at: column.text(),
    timeZone: column.text().notNull(),
    endsAt: column.text(),
    overlap: column.text().notNull(),
    catchUp: column.text().notNull(),
    enabled: column.boolean().notNull(),
    /** The stream version: what PATCH / DELETE send as If-Match. */
    version: column.integer().notNull(),
    createdAt: column.text().notNull(),
    updatedAt: column.text().notNull(),
    /** JSON: the actor who created it (`metadata.by`). */
    createdBy: column.text(),
    /** ISO: due times at or before this are fired, skipped, or fell before the schedule was (re-)enabled. */
    cursorAt: column.text().notNull(),
    /** ISO: the first due time after `cursor_at`; null when disabled or nothing is due any more. */
    nextDueAt: column.text(),
    /** The newest firing (any trigger) and its due time. */
    lastFiringId: column.text(),
    lastDueAt: column.text(),
  },
  { indexes: { schedules_due_idx: ['enabled', 'nextDueAt'], schedules_created_idx: ['createdAt', 'scheduleId'] } },
);

/**
 * Read model (issue 30): one row per firing of a schedule, kept after the schedule is deleted: its due
 * time, when it fired, the run it started, or why it was skipped or failed. The run's outcome is the
 * run's own status (run-lineage's `RunsReadModel`), read at query time.
 */
export const scheduleFirings = table(
  'schedule_firings',
  {
    firingId: column.text().primaryKey(),
    scheduleId: column.text().notNull(),
    dueAt: column.text().notNull(),
    trigger: column.text().notNull(),
    /** `starting` (claimed, run not yet recorded), `started`, `skipped`, `retrying`, `failed`. */
    status: column.text().notNull(),
    runId: column.text(),
    instanceId: column.text(),
    firedAt: column.text(),
    startedAt: column.text(),
    attempt: column.integer().notNull(),
    /** Skip reason (`overlap`, `missed`) or failure code. */
    reasonCode: column.text(),
    reasonMessage: column.text(),
    retryAt: column.text(),
    missedCount: column.integer().notNull(),
    /** Global position of the firing's first event: the order of the history. */
    position: column.bigint().notNull(),
    updatedAt: column.text().notNull(),
  },
  {
    indexes: {
      schedule_firings_schedule_idx: ['scheduleId', 'position'],
      schedule_firings_status_idx: ['status', 'retryAt'],
      schedule_firings_run_idx: ['runId'],
    },
  },
);
