// The PostgreSQL twin of ../schema: the same tables and columns in PostgreSQL types.
export * from './events.table';
export * from './projection-checkpoints.table';
export * from './stream-summaries.table';
