import { pgTableOf } from '../table-builders';
import * as described from '../tables';

// The PostgreSQL tables: the log's own (`./events.table.ts`, its own types on purpose), and every other
// table built from its one description in `../tables` (the same descriptions `../schema` builds for SQLite).
export * from './events.table';

export const projectionCheckpoints = pgTableOf(described.projectionCheckpoints);
export const streamSummaries = pgTableOf(described.streamSummaries);
export const auditLog = pgTableOf(described.auditLog);
export const sessions = pgTableOf(described.sessions);
export const childSessions = pgTableOf(described.childSessions);
export const subagentInstances = pgTableOf(described.subagentInstances);
export const routedRequests = pgTableOf(described.routedRequests);
export const agents = pgTableOf(described.agents);
export const runs = pgTableOf(described.runs);
export const approvals = pgTableOf(described.approvals);
export const instanceLeases = pgTableOf(described.instanceLeases);
export const modelCalls = pgTableOf(described.modelCalls);
export const pauses = pgTableOf(described.pauses);
export const apiKeys = pgTableOf(described.apiKeys);
export const signInSessions = pgTableOf(described.signInSessions);
export const traceSpans = pgTableOf(described.traceSpans);
export const traceSessionContexts = pgTableOf(described.traceSessionContexts);
export const schedules = pgTableOf(described.schedules);
export const scheduleFirings = pgTableOf(described.scheduleFirings);
