import { appStoreTargets } from '../fixtures/app-store-targets';
import { type Json, type SessionHarness, startSessionHarness } from '../fixtures/session-harness';
import { waitUntil } from '../fixtures/wait-until';

/**
 * Session commands decide on the stream as they read it and append at that version: two commands
 * racing on one session (real app on a SQLite file and on a PostgreSQL database, the CLI held until
 * both are in flight) cannot both win, while the CLI's own records, appended without a version, never
 * make a command fail.
 */
describe.each(appStoreTargets())('racing commands on one session (%s)', (_name, store) => {
  let h: SessionHarness;
  beforeEach(async () => (h = await startSessionHarness({ store })));
  afterEach(() => h.close());

  /** The session's whole stream, page by page: a flooded stream runs past one page of 1,000. */
  const streamEvents = async (id: string): Promise<Json[]> => {
    const events: Json[] = [];
    for (let after = 0; ;) {
      const page = (await h.http('GET', `/api/streams/session-${id}/events?after=${after}&limit=1000`)).body;
      events.push(...(page.events as Json[]));
      if (page.events.length < 1000) return events;
      after = page.nextAfter as number;
    }
  };
  const eventTypes = async (id: string) => (await streamEvents(id)).map((e) => e.type as string);

  /** Holds every `method` request until `count` of them arrived, so the commands are all past their checks. */
  const holdUntil = (method: string, count: number, answer: unknown = {}) => {
    let release!: () => void;
    const all = new Promise<void>((resolve) => (release = resolve));
    let arrived = 0;
    h.fake.handle(method, async () => {
      if (++arrived === count) release();
      await all;
      return answer;
    });
  };

  it('two concurrent destroys: one destroys, the other is the 409 a destroyed session answers', async () => {
    const id = await h.createTeamSession();
    holdUntil('session.destroy', 2);

    const answers = await Promise.all([h.http('DELETE', `/api/sessions/${id}`), h.http('DELETE', `/api/sessions/${id}`)]);

    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expect(refused.body).toMatchObject({
      code: 'invalid_state',
      message: expect.stringMatching(new RegExp(`^Session ${id} is destroyed.*; create a new session$`)),
    });
    expect((await eventTypes(id)).filter((t) => t === 'session.destroyed')).toHaveLength(1);
    expect((await h.http('GET', `/api/sessions/${id}`)).body.status).toBe('destroyed');
  });

  it('a resume racing a destroy: once the destroy is recorded, the resume the CLI answered later is refused', async () => {
    const id = await h.createTeamSession();
    await h.fake.dropConnections();
    await waitUntil(async () => (await h.http('GET', `/api/sessions/${id}`)).body.status === 'interrupted', 'the session to be interrupted');
    await h.fake.waitFor('connect', undefined, 10_000);
    let answerResume!: () => void;
    const resumeHeld = new Promise<void>((resolve) => (answerResume = resolve));
    h.fake.handle('session.resume', async () => {
      await resumeHeld;
      return {};
    });

    const resume = h.http('POST', `/api/sessions/${id}/resume`);
    await h.fake.waitFor('session.resume', (p) => p.sessionId === id, 5_000);
    expect((await h.http('DELETE', `/api/sessions/${id}`)).status).toBe(200);
    answerResume();

    expect(await resume).toMatchObject({
      status: 409,
      body: { message: expect.stringMatching(new RegExp(`^Session ${id} is destroyed.*; create a new session$`)) },
    });
    const types = await eventTypes(id);
    expect(types[types.length - 1]).toBe('session.destroyed');
    expect(types).not.toContain('session.resumed');
    expect((await h.http('GET', `/api/sessions/${id}`)).body.status).toBe('destroyed');
  });

  it('commands still succeed while the CLI floods the session with records appended without a version', async () => {
    const id = await h.createTeamSession();
    let flooding = true;
    const flood = (async () => {
      // A streamed delta every millisecond or so: faster than a CLI streams, and within what either database
      // commits (a producer outrunning the commits only grows the queue of records nobody awaits). Deltas
      // are what a CLI floods a session with; they only move the session row's position.
      for (let i = 0; flooding; i++) {
        await h.fake.emitEvent(id, { type: 'assistant.message_delta', data: { deltaContent: `chunk ${i}` } });
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    })();
    try {
      for (let i = 0; i < 10; i++) {
        expect((await h.http('POST', `/api/sessions/${id}/messages`, { prompt: `message ${i}` })).status).toBe(202);
        expect((await h.http('PATCH', `/api/sessions/${id}`, { subAgents: [] })).status).toBe(200);
      }
    } finally {
      flooding = false;
      await flood;
    }
    const events = await streamEvents(id);
    expect(events.filter((e) => e.type === 'session.message_sent')).toHaveLength(10);
    // Every record is there once, in the order the CLI sent it (those held while a command decided included).
    const chunks = events.filter((e) => e.type === 'cli.assistant.message_delta').map((e) => e.data.payload.deltaContent as string);
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks).toEqual(chunks.map((_, i) => `chunk ${i}`));
  }, 30_000);
});
