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
 * exist yet, a sub-agent's idle (a move) and the main agent's (a change), and turns the form folds whole
 * (create, start, message sent, words, idle, titles) from every status an idle treats differently.
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
      // Turns folded whole: c untitled (its first message names it), d created but not started (an idle leaves it starting).
      { streamId: s('c'), expectedVersion: 'any', events: [{ type: SessionEvents.created, data: { sessionId: 'c', config: config([]) } }] },
      { streamId: s('d'), expectedVersion: 'any', events: [{ type: SessionEvents.created, data: { sessionId: 'd', config: config([]) } }] },
    ],
    [
      { streamId: s('c'), expectedVersion: 'any', events: [{ type: SessionEvents.started, data: { protocolVersion: 3 } }] },
      { streamId: s('d'), expectedVersion: 'any', events: [cli('session.idle'), said('assistant.message', { content: 'early words' })] },
    ],
    [
      {
        streamId: s('c'),
        expectedVersion: 'any',
        events: [
          cli('assistant.usage'),
          { type: SessionEvents.messageSent, data: { prompt: '# First *question*\n\nwith `code`' } },
          cli('tool.execution_start'),
          said('assistant.message', { content: 'working on it' }),
          cli('session.idle', 'sub-agent-1'),
          cli('assistant.usage'),
        ],
      },
      // A turn of a session that does not exist: nothing to update.
      { streamId: s('ghost'), expectedVersion: 'any', events: [{ type: SessionEvents.messageSent, data: { prompt: 'anyone?' } }, cli('session.idle')] },
    ],
    [
      {
        streamId: s('c'),
        expectedVersion: 'any',
        events: [
          cli('session.idle'),
          { type: SessionEvents.messageSent, data: { prompt: 'second question' } },
          said('session.title_changed', { title: 'Named by the CLI' }),
          { type: SessionEvents.messageSent, data: { prompt: '' } },
          said('assistant.message', { content: 'second answer' }),
          said('assistant.message', { content: 'from a child' }, 'task-2'),
          cli('session.idle'),
          cli('tool.execution_complete'),
        ],
      },
      { streamId: s('d'), expectedVersion: 'any', events: [{ type: SessionEvents.messageSent, data: { prompt: 'while starting' } }] },
    ],
    [
      { streamId: s('c'), expectedVersion: 'any', events: [{ type: SessionEvents.messageSent, data: { prompt: 'third' } }, cli('assistant.usage')] },
      { streamId: s('d'), expectedVersion: 'any', events: [{ type: SessionEvents.interrupted, data: { reason: 'cli gone', wasRunning: true } }] },
    ],
    [
      // An idle after an interruption leaves it interrupted, with its reason; a new turn clears the reason.
      { streamId: s('d'), expectedVersion: 'any', events: [cli('session.idle'), said('session.title_changed', { title: 'D' })] },
      { streamId: s('c'), expectedVersion: 'any', events: [said('assistant.message', { content: 'third answer' }), cli('session.idle')] },
    ],
    [{ streamId: s('d'), expectedVersion: 'any', events: [cli('assistant.usage'), { type: SessionEvents.messageSent, data: { prompt: 'again' } }] }],
    [
      // Created, started and moved in one transaction (a move before the create finds no row), then started again without
      // a protocol version or owner (both kept) and idle at once.
      {
        streamId: s('e'),
        expectedVersion: 'any',
        events: [
          cli('assistant.usage'),
          { type: SessionEvents.created, data: { sessionId: 'e', config: config(['x']) }, metadata: { instanceId: 'instance-1' } },
          { type: SessionEvents.started, data: { protocolVersion: 3 }, metadata: { instanceId: 'instance-2' } },
          cli('tool.execution_start'),
        ],
      },
    ],
    [{ streamId: s('e'), expectedVersion: 'any', events: [{ type: SessionEvents.started, data: {} }, cli('session.idle'), cli('assistant.usage')] }],
  ];
}

describe('sessions on PostgreSQL: the batch form writes the rows the per-event projection writes', () => {
  let server: PostgresServer;

  beforeAll(async () => {
    server = await startPostgresServer();
  });

  afterAll(() => server?.stop());

  it('the same rows (status, reason, config, owner, headline, last position, times) after folding one log, transaction by transaction', async () => {
    const rows = await expectBatchFormWritesPerEventRows(server, {
      projection: new SessionsProjection(),
      table: 'sessions',
      orderBy: 'session_id',
      transactions: transactions(),
    });
    expect(rows.map((row) => row.session_id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    // The log did what it was written for: c's turns folded to idle under the CLI's title, d back to running.
    expect(rows[2]).toMatchObject({ status: 'idle', title: 'Named by the CLI', preview: 'third answer' });
    expect(rows[3]).toMatchObject({ status: 'running', status_reason: null, title: 'D', preview: 'again' });
    expect(rows[4]).toMatchObject({ status: 'idle', protocol_version: 3, owner_instance: 'instance-2' });
  });
});
