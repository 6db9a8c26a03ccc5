import { openTestEventStore, type TestEventStore } from '../../test/fixtures/event-store-fixture';
import { type EventStore, foldStream, handleCommand, sessionStreamId } from '../event-store';
import { LiveSession } from './live-session';
import type { SessionConfig } from './session-config';
import { decideOnSession } from './session-command';
import { sessionDecider } from './session.decider';
import { foreignSessionAppend } from './session-stream-appends';

const config: SessionConfig = { model: 'm', tools: [], customAgents: [], permissionPolicy: { allowKinds: [], approveOwnTools: true }, subAgents: [] };

describe("LiveSession's command base follows its stream's commits (issue 41)", () => {
  let opened: TestEventStore;
  /** The real store, counting the events a command reads back. */
  let reads: number;
  let store: Pick<EventStore, 'readStream' | 'appendMany'>;

  beforeEach(() => {
    opened = openTestEventStore();
    reads = 0;
    store = {
      readStream: async (streamId, options) => {
        const events = await opened.store.readStream(streamId, options);
        reads += events.length;
        return events;
      },
      appendMany: (parts, options) => opened.store.appendMany(parts, options),
    };
  });

  afterEach(() => opened.close());

  async function createdSession(id: string): Promise<LiveSession> {
    const created = await handleCommand(opened.store, sessionDecider, sessionStreamId(id), { type: 'CreateSession', sessionId: id, config }, {});
    const session = LiveSession.fromState(id, created.state, 1);
    session.commandBase = { state: created.state, version: created.version };
    return session;
  }

  const cliRecords = (id: string, count: number) =>
    opened.store.appendMany([
      foreignSessionAppend(
        id,
        Array.from({ length: count }, (_, i) => ({ type: 'cli.assistant.message' as const, data: { payload: { content: `m${i}` } } })),
      ),
    ]);

  it("reads nothing back for the next command when it saw the turn's records committed, and decides on the same state", async () => {
    const session = await createdSession('s1');
    const following = opened.store.committed$.subscribe((event) => session.followCommitted(event));
    await cliRecords('s1', 3);
    await decideOnSession(store, session, { type: 'RecordStart', sessionId: 's1', teamAgents: [] }, 'tester');
    following.unsubscribe();

    expect(reads).toBe(0);
    expect(await opened.store.streamVersion(sessionStreamId('s1'))).toBe(5);
    const folded = await foldStream(opened.store, sessionDecider, sessionStreamId('s1'));
    expect(session.commandBase).toEqual(folded);
  });

  it('reads what it did not see committed (another instance, or records before it followed), and no more', async () => {
    const session = await createdSession('s2');
    await cliRecords('s2', 2); // not followed: a gap
    const following = opened.store.committed$.subscribe((event) => session.followCommitted(event));
    await cliRecords('s2', 1); // does not follow the base: left to the command's read
    await decideOnSession(store, session, { type: 'RecordStart', sessionId: 's2', teamAgents: [] }, 'tester');
    following.unsubscribe();

    expect(reads).toBe(3);
    expect(session.commandBase).toEqual(await foldStream(opened.store, sessionDecider, sessionStreamId('s2')));
  });
});
