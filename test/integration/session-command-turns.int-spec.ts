import type { EventStore } from '../../src/event-store/event-store';
import type { NewEvent } from '../../src/event-store/event-store.types';
import { ExpectedVersionConflictError } from '../../src/event-store/event-store.errors';
import { sessionStreamId } from '../../src/event-store/stream-ids';
import { LiveSession } from '../../src/sessions/live-session';
import { decideOnSession } from '../../src/sessions/session-command';
import { createSessionSchema, DEFAULT_PERMISSION_POLICY, type SessionConfig } from '../../src/sessions/session-config';
import { SessionEvents } from '../../src/sessions/session.events';
import { type EventStoreTarget, eventStoreTargets } from '../fixtures/event-store-targets';

jest.setTimeout(120_000);

const WRITERS = 8;
const RECORDED = 2_000;

function cliRecord(i: number): NewEvent {
  return { type: 'cli.assistant.message_delta', data: { cliEventId: `e-${i}`, payload: { messageId: 'm', deltaContent: `chunk ${i}` } } };
}

/** Counts what the commands read of the stream: how many reads, from which version, how many events. */
function countingReads(store: EventStore) {
  const reads: Array<{ fromVersion: number; events: number }> = [];
  return {
    reads,
    store: {
      readStream: async (streamId: string, options: { fromVersion?: number; limit?: number } = {}) => {
        const events = await store.readStream(streamId, options);
        reads.push({ fromVersion: options.fromVersion ?? 1, events: events.length });
        return events;
      },
      appendMany: store.appendMany.bind(store),
    },
  };
}

describe.each(eventStoreTargets())('commands racing on one session on %s', (_name, openTarget) => {
  let target: EventStoreTarget;
  let sessions = 0;

  beforeAll(async () => {
    target = await openTarget();
  });
  afterAll(() => target?.close());

  /** A session of a few thousand events, as a live session loaded after a restart sees it: no command ran yet. */
  async function longSession(): Promise<LiveSession> {
    const sessionId = `turns-${++sessions}`;
    const config: SessionConfig = {
      model: 'gpt-4.1',
      ...createSessionSchema.parse({}),
      workspace: undefined,
      permissionPolicy: DEFAULT_PERMISSION_POLICY,
      subAgents: [],
    };
    await target.store.append(sessionStreamId(sessionId), 'no_stream', [
      { type: SessionEvents.created, data: { sessionId, config } },
      { type: SessionEvents.started, data: { protocolVersion: 3 } },
      ...Array.from({ length: RECORDED }, (_, i) => cliRecord(i)),
    ]);
    return new LiveSession(sessionId, config, 'idle', 1);
  }

  it('eight concurrent commands on one session all succeed, each appended at its own version, and only the first folds the whole stream', async () => {
    const session = await longSession();
    const { store, reads } = countingReads(target.store);
    const results = await Promise.allSettled(
      Array.from({ length: WRITERS }, (_, i) =>
        decideOnSession(store, session, { type: 'ChangeSubAgents', sessionId: session.sessionId, subAgents: [`agent-${i}`] }, 'test'),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);

    const stream = await target.store.readStream(sessionStreamId(session.sessionId));
    const changes = stream.filter((e) => e.type === SessionEvents.subAgentsChanged);
    // In the order they were sent, one version after the other, right after the recorded events.
    expect(changes.map((e) => [e.streamPosition, e.data.subAgents])).toEqual(
      Array.from({ length: WRITERS }, (_, i) => [RECORDED + 3 + i, [`agent-${i}`]]),
    );
    expect(session.commandBase?.version).toBe(RECORDED + 2 + WRITERS);
    expect(session.config.subAgents).toEqual([`agent-${WRITERS - 1}`]);
    // The stream's first 2,002 events were read once; every later read starts after what was folded.
    expect(reads.filter((r) => r.fromVersion === 1)).toHaveLength(1);
    expect(reads.reduce((sum, r) => sum + r.events, 0)).toBe(RECORDED + 2);
  });

  it('commands taking turns on a session still decide on what others appended meanwhile', async () => {
    const session = await longSession();
    const stream = sessionStreamId(session.sessionId);
    // Another writer (a routed request's audit record, another context's fact) appends without a version while commands run.
    const others = Array.from({ length: WRITERS }, (_, i) => target.store.append(stream, 'any', [cliRecord(RECORDED + i)]));
    const results = await Promise.allSettled([
      ...Array.from({ length: WRITERS }, (_, i) =>
        decideOnSession(target.store, session, { type: 'ChangeSubAgents', sessionId: session.sessionId, subAgents: [`agent-${i}`] }, 'test'),
      ),
      ...others,
    ]);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const events = await target.store.readStream(stream);
    expect(events).toHaveLength(RECORDED + 2 + 2 * WRITERS);
    expect(events.map((e) => e.streamPosition)).toEqual(Array.from({ length: events.length }, (_, i) => i + 1));
    expect(events.filter((e) => e.type === SessionEvents.subAgentsChanged).map((e) => e.data.subAgents)).toEqual(
      Array.from({ length: WRITERS }, (_, i) => [`agent-${i}`]),
    );
    expect(session.commandBase?.version).toBeLessThanOrEqual(events.length);
  });

  it("a command sent while the CLI's records are still waiting for their commit decides after them: appended once, never refused", async () => {
    const session = await longSession();
    const stream = sessionStreamId(session.sessionId);
    // A first command folds the stream: the next one reads only what came after it, at once.
    await decideOnSession(target.store, session, { type: 'ChangeSubAgents', sessionId: session.sessionId, subAgents: ['first'] }, 'test');
    const appends: Array<{ refused: boolean }> = [];
    const store: Pick<EventStore, 'readStream' | 'appendMany'> = {
      readStream: target.store.readStream.bind(target.store),
      appendMany: async (batch, options) => {
        try {
          const appended = await target.store.appendMany(batch, options);
          appends.push({ refused: false });
          return appended;
        } catch (error) {
          appends.push({ refused: error instanceof ExpectedVersionConflictError });
          throw error;
        }
      },
    };
    // As the session lifecycle records them: handed to the store, waiting a few ms to share a commit.
    for (let i = 0; i < 3; i++) {
      session.record(() => target.store.appendMany([{ streamId: stream, expectedVersion: 'any', events: [cliRecord(RECORDED + i)] }], { maxDelayMs: 50 }));
    }
    await decideOnSession(store, session, { type: 'ChangeSubAgents', sessionId: session.sessionId, subAgents: ['late'] }, 'test');

    expect(appends).toEqual([{ refused: false }]);
    const events = await target.store.readStream(stream);
    expect(events.map((e) => e.type).slice(-4)).toEqual([
      ...Array.from({ length: 3 }, () => 'cli.assistant.message_delta'),
      SessionEvents.subAgentsChanged,
    ]);
  });
});
