import fc from 'fast-check';
import { sessionStreamId } from '../../event-store';
import type { BatchInvariant } from '../../projections';
import { expectInvariantHolds, type LogEvent } from '../../../test/fixtures/batch-invariant-property';
import { CLI_EVENT_PREFIX, SessionEvents } from '../session.events';
import { sessionTurnsFold } from './sessions.pg-projection';
import { SessionsProjection } from './sessions.projection';

const SESSIONS = ['a', 'b', 'c'];
const config = (subAgents: string[]) => ({
  model: 'gpt-5',
  tools: [],
  customAgents: [],
  permissionPolicy: { allowKinds: [], approveOwnTools: true },
  subAgents,
});

const session = fc.constantFrom(...SESSIONS);
const on = (id: string, type: string, data: Record<string, unknown>, metadata?: Record<string, unknown>): LogEvent => ({
  streamId: sessionStreamId(id),
  type,
  data,
  ...(metadata ? { metadata } : {}),
});

/** State changes and position moves (CLI records, a sub-agent's idle), on sessions that may not exist yet, and events off any session. */
const sessionsEvent: fc.Arbitrary<LogEvent> = fc.oneof(
  session.map((id) => on(id, SessionEvents.created, { sessionId: id, config: config([]) })),
  session.map((id) => on(id, SessionEvents.started, { protocolVersion: 3 }, { instanceId: 'instance-1' })),
  session.map((id) => on(id, SessionEvents.resumed, { protocolVersion: 3 }, { instanceId: 'instance-2' })),
  session.map((id) => on(id, SessionEvents.subAgentsChanged, { subAgents: ['x', id] })),
  session.map((id) => on(id, SessionEvents.interrupted, { reason: 'gone', wasRunning: true })),
  session.map((id) => on(id, SessionEvents.destroyed, { reason: 'done' })),
  fc.record({ id: session, prompt: fc.constantFrom('go', 'and then stop') }).map(({ id, prompt }) => on(id, SessionEvents.messageSent, { prompt })),
  // Headline changes: the CLI's title, the main agent's words (a sub-agent's change nothing).
  fc
    .record({ id: session, title: fc.constantFrom('Title one', 'Title two') })
    .map(({ id, title }) => on(id, `${CLI_EVENT_PREFIX}session.title_changed`, { payload: { title } })),
  fc
    .record({ id: session, content: fc.constantFrom('answer', 'other answer') })
    .map(({ id, content }) => on(id, `${CLI_EVENT_PREFIX}assistant.message`, { payload: { content } })),
  session.map((id) => on(id, `${CLI_EVENT_PREFIX}assistant.message`, { payload: { content: 'child' }, agentId: 'task-1' })),
  session.map((id) => on(id, `${CLI_EVENT_PREFIX}session.idle`, { payload: {} })),
  session.map((id) => on(id, `${CLI_EVENT_PREFIX}session.idle`, { payload: {}, agentId: 'sub-agent-1' })),
  fc
    .record({ id: session, type: fc.constantFrom('assistant.message', 'assistant.usage', 'tool.execution_start') })
    .map(({ id, type }) => on(id, `${CLI_EVENT_PREFIX}${type}`, { payload: { n: 1 } })),
  fc.constant({ streamId: 'agent-not-a-session', type: `${CLI_EVENT_PREFIX}assistant.message`, data: { payload: {} } }),
);

/** A session is created once at most (a second create fails its transaction in both forms alike). */
const sessionsLogs: fc.Arbitrary<LogEvent[][]> = fc.array(fc.array(sessionsEvent, { maxLength: 14 }), { minLength: 1, maxLength: 5 }).map((log) => {
  const created = new Set<string>();
  return log.map((transaction) =>
    transaction.filter((event) => {
      if (event.type !== SessionEvents.created) return true;
      if (created.has(event.streamId)) return false;
      created.add(event.streamId);
      return true;
    }),
  );
});

describe('sessionTurnsFold: what the sessions set-based form relies on, checked against SessionsProjection', () => {
  it('is the invariant the sessions projection names for its PostgreSQL form', () => {
    expect(new SessionsProjection().setBased.postgres.invariant).toBe(sessionTurnsFold);
  });

  it("state changes in order, then each session's last event when it is a move, leave the same rows", () => {
    expectInvariantHolds({ projection: new SessionsProjection(), table: 'sessions', orderBy: 'session_id', logs: sessionsLogs });
  });

  it('the check can fail: the batch handled backwards leaves other rows', () => {
    const backwards: BatchInvariant = { name: 'backwards', statement: 'wrong on purpose', normalForm: (events) => [...events].reverse() };
    expect(() =>
      expectInvariantHolds({ projection: new SessionsProjection(), invariant: backwards, table: 'sessions', orderBy: 'session_id', logs: sessionsLogs }),
    ).toThrow(/backwards does not hold for sessions/);
  });
});
