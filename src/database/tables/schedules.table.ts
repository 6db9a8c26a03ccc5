import { column, table } from '../table-description';

/**
 * Read model (issue 30): one row per schedule that is not deleted. `next_due_at` is computed by the
 * projection from the definition and `cursor_at` (due times at or before it are done or were not due),
 * so the scheduler's one query is "enabled and next_due_at <= now" on `schedules_due_idx`.
 */
export const schedules = table(
  'schedules',
  {
    scheduleId: column.text('schedule_id').primaryKey(),
    name: column.text('name').notNull(),
    agentId: column.text('agent_id').notNull(),
    prompt: column.text('prompt').notNull(),
    model: column.text('model'),
    /** JSON: the run session's permission policy, or null. */
    permissionPolicy: column.text('permission_policy'),
    /** JSON: the budget over each firing's run tree (snake_case limits), or null. */
    budget: column.text('budget'),
    cron: column.text('cron'),
    at: column.text('at'),
    timeZone: column.text('time_zone').notNull(),
    endsAt: column.text('ends_at'),
    overlap: column.text('overlap').notNull(),
    catchUp: column.text('catch_up').notNull(),
    enabled: column.boolean('enabled').notNull(),
    /** The stream version: what PATCH / DELETE send as If-Match. */
    version: column.integer('version').notNull(),
    createdAt: column.text('created_at').notNull(),
    updatedAt: column.text('updated_at').notNull(),
    /** JSON: the actor who created it (`metadata.by`). */
    createdBy: column.text('created_by'),
    /** ISO: due times at or before this are fired, skipped, or fell before the schedule was (re-)enabled. */
    cursorAt: column.text('cursor_at').notNull(),
    /** ISO: the first due time after `cursor_at`; null when disabled or nothing is due any more. */
    nextDueAt: column.text('next_due_at'),
    /** The newest firing (any trigger) and its due time. */
    lastFiringId: column.text('last_firing_id'),
    lastDueAt: column.text('last_due_at'),
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
    firingId: column.text('firing_id').primaryKey(),
    scheduleId: column.text('schedule_id').notNull(),
    dueAt: column.text('due_at').notNull(),
    trigger: column.text('trigger').notNull(),
    /** `starting` (claimed, run not yet recorded), `started`, `skipped`, `retrying`, `failed`. */
    status: column.text('status').notNull(),
    runId: column.text('run_id'),
    instanceId: column.text('instance_id'),
    firedAt: column.text('fired_at'),
    startedAt: column.text('started_at'),
    attempt: column.integer('attempt').notNull(),
    /** Skip reason (`overlap`, `missed`) or failure code. */
    reasonCode: column.text('reason_code'),
    reasonMessage: column.text('reason_message'),
    retryAt: column.text('retry_at'),
    missedCount: column.integer('missed_count').notNull(),
    /** Global position of the firing's first event: the order of the history. */
    position: column.bigint('position').notNull(),
    updatedAt: column.text('updated_at').notNull(),
  },
  {
    indexes: {
      schedule_firings_schedule_idx: ['scheduleId', 'position'],
      schedule_firings_status_idx: ['status', 'retryAt'],
      schedule_firings_run_idx: ['runId'],
    },
  },
);
