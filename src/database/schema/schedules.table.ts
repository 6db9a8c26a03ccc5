import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Read model (issue 30): one row per schedule that is not deleted. `next_due_at` is computed by the
 * projection from the definition and `cursor_at` (due times at or before it are done or were not due),
 * so the scheduler's one query is "enabled and next_due_at <= now" on `schedules_due_idx`.
 */
export const schedules = sqliteTable(
  'schedules',
  {
    scheduleId: text('schedule_id').primaryKey(),
    name: text('name').notNull(),
    agentId: text('agent_id').notNull(),
    prompt: text('prompt').notNull(),
    model: text('model'),
    /** JSON: the run session's permission policy, or null. */
    permissionPolicy: text('permission_policy'),
    /** JSON: the budget over each firing's run tree (snake_case limits), or null. */
    budget: text('budget'),
    cron: text('cron'),
    at: text('at'),
    timeZone: text('time_zone').notNull(),
    endsAt: text('ends_at'),
    overlap: text('overlap').notNull(),
    catchUp: text('catch_up').notNull(),
    enabled: integer('enabled', { mode: 'boolean' }).notNull(),
    /** The stream version: what PATCH / DELETE send as If-Match. */
    version: integer('version').notNull(),
    createdAt: text('created_at').notNull(),
    updatedAt: text('updated_at').notNull(),
    /** JSON: the actor who created it (`metadata.by`). */
    createdBy: text('created_by'),
    /** ISO: due times at or before this are fired, skipped, or fell before the schedule was (re-)enabled. */
    cursorAt: text('cursor_at').notNull(),
    /** ISO: the first due time after `cursor_at`; null when disabled or nothing is due any more. */
    nextDueAt: text('next_due_at'),
    /** The newest firing (any trigger) and its due time. */
    lastFiringId: text('last_firing_id'),
    lastDueAt: text('last_due_at'),
  },
  (t) => [index('schedules_due_idx').on(t.enabled, t.nextDueAt), index('schedules_created_idx').on(t.createdAt, t.scheduleId)],
);

/**
 * Read model (issue 30): one row per firing of a schedule, kept after the schedule is deleted: its due
 * time, when it fired, the run it started, or why it was skipped or failed. The run's outcome is the
 * run's own status (run-lineage's `RunsReadModel`), read at query time.
 */
export const scheduleFirings = sqliteTable(
  'schedule_firings',
  {
    firingId: text('firing_id').primaryKey(),
    scheduleId: text('schedule_id').notNull(),
    dueAt: text('due_at').notNull(),
    trigger: text('trigger').notNull(),
    /** `starting` (claimed, run not yet recorded), `started`, `skipped`, `retrying`, `failed`. */
    status: text('status').notNull(),
    runId: text('run_id'),
    instanceId: text('instance_id'),
    firedAt: text('fired_at'),
    startedAt: text('started_at'),
    attempt: integer('attempt').notNull(),
    /** Skip reason (`overlap`, `missed`) or failure code. */
    reasonCode: text('reason_code'),
    reasonMessage: text('reason_message'),
    retryAt: text('retry_at'),
    missedCount: integer('missed_count').notNull(),
    /** Global position of the firing's first event: the order of the history. */
    position: integer('position').notNull(),
    updatedAt: text('updated_at').notNull(),
  },
  (t) => [
    index('schedule_firings_schedule_idx').on(t.scheduleId, t.position),
    index('schedule_firings_status_idx').on(t.status, t.retryAt),
    index('schedule_firings_run_idx').on(t.runId),
  ],
);
