import { sqliteTableOf } from '../table-builders';
import * as described from '../tables';

// The SQLite tables: the log's own (`./events.table.ts`), and every other table built from its one
// description in `../tables` (the same descriptions `../schema-pg` builds for PostgreSQL).
export * from './events.table';

export const projectionCheckpoints = sqliteTableOf(described.projectionCheckpoints);
export const streamSummaries = sqliteTableOf(described.streamSummaries);
export const auditLog = sqliteTableOf(described.auditLog);
export const sessions = sqliteTableOf(described.sessions);
export const childSessions = sqliteTableOf(described.childSessions);
export const subagentInstances = sqliteTableOf(described.subagentInstances);
export const routedRequests = sqliteTableOf(described.routedRequests);
export const agents = sqliteTableOf(described.agents);
export const runs = sqliteTableOf(described.runs);
export const approvals = sqliteTableOf(described.approvals);
export const instanceLeases = sqliteTableOf(described.instanceLeases);
export const modelCalls = sqliteTableOf(described.modelCalls);
export const pauses = sqliteTableOf(described.pauses);
export const apiKeys = sqliteTableOf(described.apiKeys);
export const signInSessions = sqliteTableOf(described.signInSessions);
export const traceSpans = sqliteTableOf(described.traceSpans);
export const traceSessionContexts = sqliteTableOf(described.traceSessionContexts);
export const schedules = sqliteTableOf(described.schedules);
export const scheduleFirings = sqliteTableOf(described.scheduleFirings);
