import type { ReadTableName } from './read-model-database';

/**
 * Who may touch a table. `owner` is the context whose code reads it (and, for operational tables,
 * writes it); every other context asks the owner's read port. `writtenBy` names the context whose
 * projection fills it when that is not the owner: there only the projection (a file under a
 * `projections/` folder) may touch it. `src/architecture.spec.ts` holds every file of `src/` to this.
 */
export interface TableOwnership {
  owner: string;
  writtenBy?: string;
  /** The owner's read port other contexts use; undefined while nobody else reads the table. */
  port?: string;
}

/** Every table of `schema/` and `schema-pg/` (`tables/` describes them; a new table does not compile until it is named here). */
export const TABLE_OWNERS: Readonly<Record<ReadTableName, TableOwnership>> = {
  events: { owner: 'event-store', port: 'EventStore' },
  streams: { owner: 'event-store', port: 'EventStore' },
  projectionCheckpoints: { owner: 'projections' },
  streamSummaries: { owner: 'event-log' },
  auditLog: { owner: 'event-log' },
  agents: { owner: 'agents', port: 'AgentLibrary' },
  sessions: { owner: 'sessions', port: 'SessionsReadModel' },
  // Each sub-agent launch belongs to the session it ran in (GetSession lists them); child-sessions' projection records it.
  subagentInstances: { owner: 'sessions', writtenBy: 'child-sessions', port: 'SubagentLaunchesReadModel' },
  childSessions: { owner: 'child-sessions' },
  routedRequests: { owner: 'tool-dispatch', port: 'ListThreadRequests (query)' },
  // The delegation engine's projection writes runs; run-lineage, which imports nothing of delegation, is their read side.
  runs: { owner: 'run-lineage', writtenBy: 'delegation', port: 'RunsReadModel, LineageLookup' },
  approvals: { owner: 'approvals' },
  instanceLeases: { owner: 'instances', port: 'InstanceLease' },
  modelCalls: { owner: 'model-calls', port: 'ModelCallsReadModel' },
  pauses: { owner: 'pauses', port: 'PauseHolds' },
  apiKeys: { owner: 'identity' },
  signInSessions: { owner: 'identity' },
  // issue 28: the spans folded from the log and what the exporter has sent; nobody else reads them.
  traceSpans: { owner: 'traces' },
  traceSessionContexts: { owner: 'traces' },
  // issue 30: schedules and their firings; the GraphQL API and the console read them through the schedules context.
  schedules: { owner: 'schedules', port: 'SchedulesReadModel' },
  scheduleFirings: { owner: 'schedules', port: 'SchedulesReadModel' },
};
