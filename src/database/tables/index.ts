// Every table but the log's own (`events`, `streams`), described once for both dialects: `../schema`
// builds them for SQLite, `../schema-pg` for PostgreSQL.
export * from './projection-checkpoints.table';
export * from './stream-summaries.table';
export * from './audit-log.table';
export * from './sessions.table';
export * from './child-sessions.table';
export * from './routed-requests.table';
export * from './agents.table';
export * from './runs.table';
export * from './approvals.table';
export * from './instance-leases.table';
export * from './model-calls.table';
export * from './pauses.table';
export * from './api-keys.table';
export * from './sign-in-sessions.table';
export * from './trace-spans.table';
export * from './schedules.table';
