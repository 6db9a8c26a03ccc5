import type { StreamAppend } from '../../src/event-store/event-store.types';
import { sessionStreamId } from '../../src/event-store/stream-ids';
import { SessionsProjection } from '../../src/sessions/projections/sessions.projection';
import { CLI_EVENT_PREFIX, SessionEvents } from '../../src/sessions/session.events';
import { expectBatchFormWritesPerEventRows } from '../fixtures/batch-form-equivalence';
import { startPostgresServer, type PostgresServer } from '../fixtures/postgres-server';

jest.setTimeout(120_000);

const config = (subAgents: string[]) => ({
  model: 'gpt-5',
  tools: [],
  customAgents: [],
  permissionPolicy: { allowKinds: [], approveOwnTools: true },
  subAgents,
});
const cli = (type: string, agentId?: string) => ({ type: `${CLI_EVENT_PREFIX}${type}`, data: { payload: { n: 1 }, ...(agentId ? { agentId } : {}) } });
/** A CLI record that changes the session's title or preview (a sub-agent's does not). */
const said = (type: string, payload: Record<string, unknown>, agentId?: string) => ({
  type: `${CLI_EVENT_PREFIX}${type}`,
  data: { payload, ...(agentId ? { agentId } : {}) },
});

/**
 * Transactions of a few sessions' lives, each mixing position moves (CLI records, audit) with state
 * changes in every order the batch form has to get right: moves before and after a change, a move
 * that is the session's last event of the transaction, events of a session whose row does not
 * exist yet, a sub-agent's idle (a move) and the main agent's (a change).
 */
function transactions(): StreamAppend[][] {
  const s = (id: string) => sessionStreamId(id);
  return [
    [
      {
        streamId: s('a'),
        expectedVersion: 'any',
        events: [cli('assistant.message'), { type: SessionEvents.created, data: { sessionId: 'a', config: config([]) } }],
      },
      {
        streamId: s('b'),
        expectedVersion: 'any',
        events: [{ type: SessionEvents.created, data: { sessionId: 'b', config: config(['x']) } }, cli('tool.execution_start')],
      },
    ],
    [
      {
        streamId: s('a'),
        expectedVersion: 'any',
        events: [
          { type: SessionEvents.started, data: { protocolVersion: 3 }, metadata: { instanceId: 'instance-1' } },
          cli('tool.execution_start'),
          cli('tool.execution_complete'),
          { type: SessionEvents.messageSent, data: { prompt: 'go' } },
          cli('session.idle', 'sub-agent-1'),
        ],
      },
      {
        streamId: s('b'),
        expectedVersion: 'any',
        events: [cli('assistant.usage'), { type: SessionEvents.subAgentsChanged, data: { subAgents: ['x', 'y'] } }],
      },
      {
        streamId: s('ghost'),
        expectedVersion: 'any',
        events: [cli('assistant.message'), { type: SessionEvents.interrupted, data: { reason: 'gone', wasRunning: false } }],
      },
    ],
    [
      {
        streamId: s('a'),
        expectedVersion: 'any',
        events: [
          cli('assistant.message'),
          said('assistant.message', { content: 'the answer' }),
          said('session.title_changed', { title: 'A title' }),
          said('assistant.message', { content: 'a child answer' }, 'task-1'),
          cli('session.idle'),
          cli('assistant.usage'),
        ],
      },
      { streamId: s('b'), expectedVersion: 'any', events: [{ type: SessionEvents.interrupted, data: { reason: 'stopped', wasRunning: true } }] },
      { streamId: 'agent-not-a-session', expectedVersion: 'any', events: [cli('assistant.message')] },
    ],
    [
      {
        streamId: s('b'),
        expectedVersion: 'any',
        events: [cli('tool.execution_start'), { type: SessionEvents.destroyed, data: { reason: 'done' } }, cli('assistant.message')],
      },
    ],
  ];
}

describe('sessions on PostgreSQL: the batch form writes the rows the per-event projection writes', () => {
  let server: PostgresServer;

  beforeAll(async () => {
    server = await startPostgresServer();
  });

  afterAll(() => server?.stop());

  it('the same rows (status, reason, config, owner, last position, times) after folding one log, transaction by transaction', async () => {
    const rows = await expectBatchFormWritesPerEventRows(server, {
      projection: new SessionsProjection(),
      table: 'sessions',
      orderBy: 'session_id',
      transactions: transactions(),
    });
    expect(rows.map((row) => row.session_id)).toEqual(['a', 'b']);
  });
});
