import type { StreamAppend } from '../../src/event-store/event-store.types';
import { sessionStreamId } from '../../src/event-store/stream-ids';
import { SessionsProjection } from '../../src/sessions/projections/sessions.projection';
import { ListSessionsHandler } from '../../src/sessions/queries/list-sessions/list-sessions.handler';
import { ListSessions, type ListSessionsFilter } from '../../src/sessions/queries/list-sessions/list-sessions.query';
import type { SessionConfig } from '../../src/sessions/session-config';
import { CLI_EVENT_PREFIX, SessionEvents } from '../../src/sessions/session.events';
import { type EventStoreTarget, eventStoreTargets } from '../fixtures/event-store-targets';

jest.setTimeout(120_000);

const config = (agentId?: string): SessionConfig => ({
  model: 'gpt-4.1',
  tools: [],
  customAgents: [],
  permissionPolicy: { allowKinds: [], approveOwnTools: true },
  subAgents: [],
  ...(agentId ? { agentId } : {}),
});
const created = (sessionId: string, agentId?: string) => ({ type: SessionEvents.created, data: { sessionId, config: config(agentId) } });
const sent = (prompt: string) => ({ type: SessionEvents.messageSent, data: { prompt } });
const cli = (type: string, payload: Record<string, unknown>, agentId?: string) => ({
  type: `${CLI_EVENT_PREFIX}${type}`,
  data: { payload, ...(agentId ? { agentId } : {}) },
});
const on = (sessionId: string, events: StreamAppend['events']): StreamAppend => ({ streamId: sessionStreamId(sessionId), expectedVersion: 'any', events });

/**
 * spec: issue 24. The `sessions` read model's title and preview, written by the inline projection as the
 * app appends (on PostgreSQL through its set-based form), searched and filtered by ListSessions, and
 * filled in for sessions recorded before titles existed by a rebuild of the projection.
 */
describe.each(eventStoreTargets())('session titles and previews on %s', (_name, openTarget) => {
  let target: EventStoreTarget;
  const list = async (filter: ListSessionsFilter = {}) => (await new ListSessionsHandler(target.db).execute(new ListSessions(filter, 100))).sessions;
  const headlines = async (filter: ListSessionsFilter = {}) =>
    Object.fromEntries((await list(filter)).map((s) => [s.sessionId, { title: s.title, preview: s.preview }]));

  beforeEach(async () => {
    target = await openTarget({ projections: () => [new SessionsProjection()] });
    // One transaction per append group, as the app's bursts of CLI records are: state changes and
    // position moves of several sessions mixed, sub-agent words among them.
    await target.store.appendMany([
      on('chat-1', [created('chat-1', 'code-reviewer'), sent('Please review **main.ts** for bugs'), cli('assistant.usage', { n: 1 })]),
      on('chat-2', [created('chat-2', 'planner'), sent('Plan the 100% release')]),
    ]);
    await target.store.appendMany([
      on('chat-1', [
        cli('assistant.message', { content: '', toolRequests: [{ name: 'view' }] }),
        cli('assistant.message', { content: 'child detail' }, 'task-1'),
        cli('session.title_changed', { title: 'Bugs in main.ts' }),
        cli('assistant.message', { content: 'Found `two` issues.\n\n- one\n- two' }),
        cli('session.idle', {}),
      ]),
      on('sub-agent-run-1', [created('sub-agent-run-1', 'code-reviewer'), sent('Review the tests')]),
    ]);
  });

  afterEach(async () => {
    await target?.close();
  });

  it("titles a session by the CLI's title, else its first message, and previews its last message (the main agent's)", async () => {
    expect(await headlines()).toEqual({
      'chat-1': { title: 'Bugs in main.ts', preview: 'Found two issues. one two' },
      'chat-2': { title: 'Plan the 100% release', preview: 'Plan the 100% release' },
    });
    await target.store.appendMany([on('chat-1', [sent('Now fix the first one')])]);
    expect((await headlines())['chat-1']).toEqual({ title: 'Bugs in main.ts', preview: 'Now fix the first one' });
  });

  it("leaves a run's session out of the list unless asked for, and names its run", async () => {
    expect((await list()).map((s) => s.sessionId)).toEqual(['chat-2', 'chat-1']);
    const all = await list({ includeRunSessions: true });
    expect(all.map((s) => [s.sessionId, s.runId])).toEqual(
      expect.arrayContaining([
        ['sub-agent-run-1', 'run-1'],
        ['chat-1', null],
      ]),
    );
    expect(all.find((s) => s.sessionId === 'sub-agent-run-1')).toMatchObject({ title: 'Review the tests' });
  });

  it("searches the title, the preview and the agent's id in any case, the user's % taken literally", async () => {
    const found = async (search: string) => (await list({ search })).map((s) => s.sessionId).sort();
    expect(await found('bugs in')).toEqual(['chat-1']);
    expect(await found('TWO ISSUES')).toEqual(['chat-1']);
    expect(await found('planner')).toEqual(['chat-2']);
    expect(await found('code-rev')).toEqual(['chat-1']);
    expect(await found('100%')).toEqual(['chat-2']);
    expect(await found('1_0')).toEqual([]);
    expect(await found('review the tests')).toEqual([]);
    expect((await list({ search: 'review the tests', includeRunSessions: true })).map((s) => s.sessionId)).toEqual(['sub-agent-run-1']);
    expect(await found('nothing like it')).toEqual([]);
  });

  it('fills in titles and previews of sessions recorded before they existed when the projection is rebuilt', async () => {
    const before = await headlines({ includeRunSessions: true });
    // As the migration leaves rows of older sessions: the new columns empty.
    await target.db.orm.update(target.db.tables.sessions).set({ title: null, preview: null });
    expect(Object.values(await headlines()).every((h) => h.title === null && h.preview === null)).toBe(true);
    await target.rebuild('sessions');
    expect(await headlines({ includeRunSessions: true })).toEqual(before);
  });
});
