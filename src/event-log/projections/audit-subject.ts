import { type StoredEvent, parseStreamId, runIdOfThread, type StreamKind } from '../../event-store';

/** What an event concerns, as the audit log indexes it. Each field is null when the event does not say. */
export interface AuditSubject {
  sessionId: string | null;
  runId: string | null;
  agentId: string | null;
  toolName: string | null;
  decision: string | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);

/** A recorded CLI event (`cli.<type>`) keeps the CLI's data under `payload`: `tool.execution_start` names its tool there. */
const payloadField = (data: Record<string, unknown>, key: string): unknown => {
  const payload = data.payload;
  return typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>)[key] : undefined;
};

/**
 * The stream says first (`session-<id>`, `run-<id>`, `agent-<id>`); the event's data fills the rest:
 * `sessionId` / `parentSessionId` / `parentThreadId`, `runId`, `agentId` / `agentName`, `toolName` (a CLI
 * event's `payload.toolName`: the built-in tools the CLI runs itself are named only there), and
 * `decision` or else `outcome` (routed requests: approved, denied, success, failure, answered...).
 */
export function auditSubjectOf(event: Pick<StoredEvent, 'streamId' | 'data'>): AuditSubject {
  const data = event.data ?? {};
  const stream = parseStreamId(event.streamId);
  const own = (kind: StreamKind): string | null => (stream?.kind === kind ? stream.id : null);
  const sessionId = own('session') ?? text(data.sessionId) ?? text(data.parentSessionId) ?? text(data.parentThreadId);
  // spec: sub-agent-delegation: a run executes on its own thread (CLI session) `sub-agent-<run_id>`.
  const threadRun = sessionId ? (runIdOfThread(sessionId) ?? null) : null;
  return {
    sessionId,
    runId: own('run') ?? text(data.runId) ?? threadRun,
    agentId: own('agent') ?? text(data.agentId) ?? text(data.agentName),
    toolName: text(data.toolName) ?? text(payloadField(data, 'toolName')),
    decision: text(data.decision) ?? text(data.outcome),
  };
}
