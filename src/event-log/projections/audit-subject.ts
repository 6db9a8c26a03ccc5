import type { StoredEvent } from '../../event-store/event-store.types';

/** What an event concerns, as the audit log indexes it. Each field is null when the event does not say. */
export interface AuditSubject {
  sessionId: string | null;
  runId: string | null;
  agentId: string | null;
  toolName: string | null;
  decision: string | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);

const after = (prefix: string, streamId: string): string | null =>
  streamId.startsWith(prefix) && streamId.length > prefix.length ? streamId.slice(prefix.length) : null;

/** spec: sub-agent-delegation: a run executes on its own thread (CLI session) `sub-agent-<run_id>`. */
const RUN_THREAD_PREFIX = 'sub-agent-';

/**
 * The stream says first (`session-<id>`, `run-<id>`, `agent-<id>`); the event's data fills the rest:
 * `sessionId` / `parentSessionId` / `parentThreadId`, `runId`, `agentId` / `agentName`, `toolName`, and
 * `decision` or else `outcome` (routed requests: approved, denied, success, failure, answered...).
 */
export function auditSubjectOf(event: Pick<StoredEvent, 'streamId' | 'data'>): AuditSubject {
  const data = event.data ?? {};
  const sessionId =
    after('session-', event.streamId) ?? text(data.sessionId) ?? text(data.parentSessionId) ?? text(data.parentThreadId);
  const threadRun = sessionId ? after(RUN_THREAD_PREFIX, sessionId) : null;
  return {
    sessionId,
    runId: after('run-', event.streamId) ?? text(data.runId) ?? threadRun,
    agentId: after('agent-', event.streamId) ?? text(data.agentId) ?? text(data.agentName),
    toolName: text(data.toolName),
    decision: text(data.decision) ?? text(data.outcome),
  };
}
