import { randomUUID } from 'node:crypto';
import { appStoreTargets } from '../fixtures/app-store-targets';
import { type Json, type SessionHarness, startSessionHarness } from '../fixtures/session-harness';
import { testConfig } from '../fixtures/test-config';
import { waitUntil } from '../fixtures/wait-until';

/**
 * How a run's executor reads its CLI session, and a stop the CLI ignores, with the fake CLI as fault
 * injection: it scripts exactly which events a turn produces (sub-agent noise, errors) and never ends
 * a turn on `session.abort`, which the real CLI always honours. On SQLite and on PostgreSQL.
 */
describe.each(appStoreTargets())('run executor against a scripted CLI (%s)', (_name, store) => {
  let h: SessionHarness;
  /** What the "model" does after each session.send, by the prompt's marker. */
  const turns = new Map<string, (sessionId: string) => Promise<void>>();

  /** The fake's answer to session.send: the prompt's marker picks what the "model" does next. */
  const answerSend = (params: Json) => {
    const marker = [...turns.keys()].find((m) => String(params.prompt).includes(m));
    if (marker) {
      // As the real CLI: the prompt's user.message opens the turn, then whatever the script does,
      // after the answer to session.send (fire and forget; a failing script surfaces as an unhandled rejection).
      const turn = async () => {
        if (!marker.startsWith('RAW_'))
          await h.fake.emitEvent(String(params.sessionId), { type: 'user.message', data: { content: String(params.prompt) } });
        await turns.get(marker)?.(String(params.sessionId));
      };
      setImmediate(() => void turn());
    }
    return { messageId: randomUUID() };
  };

  beforeAll(async () => {
    h = await startSessionHarness({ config: { runs: { ...testConfig('/tmp').runs, stopGraceMs: 300 } }, store });
    h.fake.handle('session.send', answerSend);
    expect((await h.http('POST', '/api/agents', { id: 'worker', name: 'Worker', system_message: { mode: 'append', content: 'Work.' } })).status).toBe(201);
  }, 30_000);

  afterAll(() => h?.close());

  const run = async (id: string): Promise<Json> => (await h.http('GET', `/api/runs/${id}`)).body;
  const start = async (prompt: string): Promise<Json> => (await h.http('POST', '/api/runs', { agentId: 'worker', prompt })).body;
  const ended = (id: string) =>
    waitUntil(async () => {
      const r = await run(id);
      return r.status !== 'running' && r;
    }, `run ${id} to end`);

  it("takes the main agent's last message as the output, ignoring a CLI-native sub-agent's messages and idle", async () => {
    turns.set('MARK_OUTPUT', async (sessionId) => {
      await h.fake.emitEvent(sessionId, { type: 'assistant.message', agentId: 'task-1', data: { content: 'SUB_AGENT_TEXT' } });
      await h.fake.emitEvent(sessionId, { type: 'session.idle', agentId: 'task-1', ephemeral: true, data: {} });
      await h.fake.emitEvent(sessionId, { type: 'assistant.usage', data: { inputTokens: 11, outputTokens: 4 } });
      await h.fake.emitEvent(sessionId, { type: 'tool.execution_start', data: { toolCallId: 't1', toolName: 'grep' } });
      await h.fake.emitEvent(sessionId, { type: 'assistant.message', data: { content: 'FIRST' } });
      await h.fake.emitEvent(sessionId, { type: 'assistant.message', data: { content: 'FINAL_ANSWER' } });
      await h.fake.emitEvent(sessionId, { type: 'session.idle', ephemeral: true, data: {} });
    });
    const r = await ended((await start('MARK_OUTPUT')).runId);
    expect(r).toMatchObject({
      status: 'completed',
      output: 'FINAL_ANSWER',
      usage: { inputTokens: 11, outputTokens: 4, totalTokens: 15, toolCalls: 1 },
    });
  });

  it('does not end a turn on a late idle of an earlier turn that arrives before the prompt is taken', async () => {
    turns.set('RAW_STALE_IDLE', async (sessionId) => {
      await h.fake.emitEvent(sessionId, { type: 'session.idle', ephemeral: true, data: {} }); // the aborted turn's
      await h.fake.emitEvent(sessionId, { type: 'user.message', data: { content: 'RAW_STALE_IDLE' } });
      await h.fake.emitEvent(sessionId, { type: 'assistant.message', data: { content: 'AFTER_STALE' } });
      await h.fake.emitEvent(sessionId, { type: 'session.idle', ephemeral: true, data: {} });
    });
    expect(await ended((await start('RAW_STALE_IDLE')).runId)).toMatchObject({ status: 'completed', output: 'AFTER_STALE' });
  });

  it('fails a run whose session reports an error, with the error', async () => {
    turns.set('MARK_ERROR', (sessionId) =>
      h.fake.emitEvent(sessionId, { type: 'session.error', data: { message: 'model quota exhausted' } }).then(() => undefined),
    );
    const r = await ended((await start('MARK_ERROR')).runId);
    expect(r).toMatchObject({ status: 'failed', error: 'model quota exhausted' });
  });

  it('forces a stop the CLI does not honour: destroys the session after the grace period, and the run cannot be resumed', async () => {
    const r = await start('MARK_NOTHING_HAPPENS');
    await waitUntil(
      () => h.fake.received.some((m) => m.method === 'session.send' && m.params.sessionId === `sub-agent-${r.runId}`),
      'the prompt to be sent',
    );
    const stop = await h.http('POST', `/api/runs/${r.runId}/stop`, {});
    expect(stop.status).toBe(200);
    expect(stop.body).toMatchObject({ status: 'stopped', stoppedRuns: [r.runId] });
    expect((await run(r.runId)).stoppedBy).toEqual({
      actor: 'api',
      reason: 'stopped by api',
      forced: true,
      by: { kind: 'user', id: 'local', name: 'local admin', via: 'api' },
    });
    const sent = h.fake.received.filter((m) => m.params?.sessionId === `sub-agent-${r.runId}`).map((m) => m.method);
    expect(sent.slice(-2)).toEqual(['session.abort', 'session.destroy']);
    // The run's session records why it was destroyed, not a generic API reason.
    const sessionEvents = (await h.http('GET', `/api/streams/session-sub-agent-${r.runId}/events`)).body.events;
    expect(sessionEvents.find((e: Json) => e.type === 'session.destroyed').data.reason).toMatch(
      new RegExp(`run ${r.runId} did not stop within \\d+ ms of session.abort: forced stop`),
    );

    const resume = await h.http('POST', `/api/runs/${r.runId}/resume`, {});
    expect(resume.status).toBe(409);
    expect(resume.body.message).toMatch(/its session was destroyed when it was force-stopped; start a new run instead/);
  });

  it('interrupts a running run when the CLI connection drops, and completes it on resume with a new epoch', async () => {
    const r = await start('MARK_DROP');
    await waitUntil(
      () => h.fake.received.some((m) => m.method === 'session.send' && m.params.sessionId === `sub-agent-${r.runId}`),
      'the prompt to be sent',
    );
    await h.fake.dropConnections();
    const interrupted = await ended(r.runId);
    expect(interrupted).toMatchObject({ status: 'interrupted', epoch: 1 });

    turns.set('Continue where you left off', async (sessionId) => {
      await h.fake.emitEvent(sessionId, { type: 'assistant.message', data: { content: 'RESUMED_OK' } });
      await h.fake.emitEvent(sessionId, { type: 'session.idle', ephemeral: true, data: {} });
    });
    const resumed = await h.http('POST', `/api/runs/${r.runId}/resume`, {});
    expect(resumed.body).toMatchObject({ status: 'running' });
    expect(await ended(r.runId)).toMatchObject({ status: 'completed', epoch: 2, output: 'RESUMED_OK' });
    // The resume went through session.resume on the run's own session, with its prompt continuing the task.
    expect(h.fake.received.some((m) => m.method === 'session.resume' && m.params.sessionId === `sub-agent-${r.runId}`)).toBe(true);
    expect(h.fake.hookErrors).toEqual([]);
  });

  // The race behind "failed" under load: the drop lands after the CLI took the prompt but before its answer
  // was read, so session.send is rejected with the connection. Here the fake never answers, so it always does.
  it('interrupts a run, not fails it, when the connection drops before the CLI answered session.send', async () => {
    h.fake.handle('session.send', (params) => (String(params.prompt).includes('HANG_SEND') ? new Promise(() => undefined) : answerSend(params)));
    try {
      const r = await start('HANG_SEND');
      await waitUntil(
        () => h.fake.received.some((m) => m.method === 'session.send' && m.params.sessionId === `sub-agent-${r.runId}`),
        'the prompt to be sent',
      );
      await h.fake.dropConnections();
      expect(await ended(r.runId)).toMatchObject({ status: 'interrupted', epoch: 1 });
      // The run and its session are two streams, each interrupted by its own reaction to the drop (the
      // executor's rejected send, the lifecycle's CLI exit): neither waits for the other.
      await waitUntil(
        async () => (await h.http('GET', `/api/sessions/sub-agent-${r.runId}`)).body.status === 'interrupted',
        "the run's session to be interrupted",
      );
      const types = (await h.http('GET', `/api/streams/session-sub-agent-${r.runId}/events?limit=100`)).body.events.map((e: Json) => e.type);
      expect(types).not.toContain('session.message_failed');
    } finally {
      h.fake.handle('session.send', answerSend);
    }
  });

  it('interrupts a run whose session.create was lost with the connection, and creates that session in the CLI on resume', async () => {
    h.fake.handle('session.create', () => new Promise(() => undefined));
    const r = await start('MARK_CREATE_LOST');
    const threadId = `sub-agent-${r.runId}`;
    await waitUntil(() => h.fake.received.some((m) => m.method === 'session.create' && m.params.sessionId === threadId), 'session.create to be sent');
    await h.fake.dropConnections();
    h.fake.handle('session.create', undefined);
    expect(await ended(r.runId)).toMatchObject({ status: 'interrupted', epoch: 1 });
    expect((await h.http('GET', `/api/sessions/${threadId}`)).body.status).toBe('interrupted');

    turns.set('Continue where you left off', async (sessionId) => {
      await h.fake.emitEvent(sessionId, { type: 'assistant.message', data: { content: 'CREATED_ON_RESUME' } });
      await h.fake.emitEvent(sessionId, { type: 'session.idle', ephemeral: true, data: {} });
    });
    expect((await h.http('POST', `/api/runs/${r.runId}/resume`, {})).body).toMatchObject({ status: 'running' });
    expect(await ended(r.runId)).toMatchObject({ status: 'completed', epoch: 2, output: 'CREATED_ON_RESUME' });
    // The CLI said it never had the session; the resume created it with the recorded configuration.
    const forThread = h.fake.received.filter((m) => m.params?.sessionId === threadId).map((m) => m.method);
    expect(forThread).toEqual(['session.create', 'session.resume', 'session.create', 'session.send']);
  });

  it('pages through runs newest first with next_cursor, each run once, and refuses a bad cursor', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const page: Json = (await h.http('GET', `/api/runs?limit=2${after ? `&after=${encodeURIComponent(after)}` : ''}`)).body;
      seen.push(...page.runs.map((r: Json) => r.runId));
      after = page.nextCursor;
    } while (after);
    const all = (await h.http('GET', '/api/runs?limit=500')).body.runs.map((r: Json) => r.runId);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(seen.length);
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect((await h.http('GET', '/api/runs?after=not-a-cursor')).status).toBe(400);
    expect((await h.http('GET', '/api/runs?status=sleeping')).status).toBe(400);
  });

  it('filters by start time given with any offset, as the same instant in UTC', async () => {
    const all: Json[] = (await h.http('GET', '/api/runs?limit=500')).body.runs;
    const oldest = all[all.length - 1];
    // The same instant as the oldest run's start, written five hours ahead of UTC.
    const ahead = new Date(Date.parse(oldest.startedAt) + 5 * 3600_000).toISOString().replace('Z', '+05:00');
    const from = (await h.http('GET', `/api/runs?limit=500&startedFrom=${encodeURIComponent(ahead)}`)).body.runs.map((r: Json) => r.runId);
    expect(from).toEqual(all.map((r) => r.runId));
    const to = (await h.http('GET', `/api/runs?limit=500&startedTo=${encodeURIComponent(ahead)}`)).body.runs;
    expect(to).toEqual([]);
  });
});
