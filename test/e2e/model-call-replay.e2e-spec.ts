import { modelPriceTable } from '../../src/config/model-prices';
import type { SessionReplay } from '../../src/sessions/session-config';
import { SessionRegistry } from '../../src/sessions/session-registry';
import { endedModelCalls } from '../fixtures/ended-model-calls';
import { graphqlHttp } from '../fixtures/graphql-client';
import { type Json, jsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { sendTurn } from '../fixtures/session-turns';

const TOKEN = 'model-call-replay-token-0123456789';

/**
 * spec: issue 26, Replay and Fork (the model side). A session whose config carries `replay` (set by the
 * delegation engine on a replay's run session; here through the session registry, the seam the engine
 * uses) has its model calls answered from another session's record: matched by agent and position, played
 * back with nothing sent to the model, stopped at the first request that differs, and, for a fork, sent
 * live from the fork point with its message appended. The real Copilot CLI makes every call.
 */
describe('replaying and forking a session’s model calls (real CLI)', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  const http = jsonHttp(() => running.app.baseUrl, { authorization: `Bearer ${TOKEN}` });
  let originalId: string;
  let originalCalls: Json[];

  beforeAll(async () => {
    await model.start();
    model.setScript([
      { name: 'fork point', who: 'parent', lastMessageIncludes: 'FORK_MESSAGE', answer: { text: 'FORKED_ANSWER' } },
      {
        name: 'lead asks the checker',
        systemIncludes: 'REPLAY_LEAD',
        who: 'parent',
        lastIsToolResult: false,
        answer: {
          toolCalls: [
            { name: 'task', arguments: { agent_type: 'replay-checker', name: 'check-1', description: 'Check', prompt: 'Check it.', mode: 'sync' } },
          ],
        },
      },
      { name: 'checker answers', who: 'child', answer: { text: 'CHECKED_OK' } },
      { name: 'lead wraps up', systemIncludes: 'REPLAY_LEAD', who: 'parent', lastIsToolResult: true, answer: { text: 'LEAD_DONE' } },
    ]);
    running = await startRealCliApp(model, {
      apiToken: TOKEN,
      modelCalls: {
        route: true,
        content: 'full',
        contentMaxBytes: 1_000_000,
        prices: modelPriceTable('USD', { 'gpt-4.1': { input: 2, output: 8 } }),
      },
    });
    for (const agent of [
      { id: 'replay-checker', name: 'Checker', description: 'Checks work', system_message: { mode: 'replace', content: 'REPLAY_CHECKER you check.' } },
      { id: 'replay-lead', name: 'Lead', system_message: { mode: 'append', content: 'REPLAY_LEAD you lead.' }, sub_agents: ['replay-checker'] },
    ]) {
      expect((await http('POST', '/api/agents', agent)).status).toBe(201);
    }
    originalId = await sessionOf('replay-lead');
    await sendTurn(http, originalId, 'Check please.');
    originalCalls = await callsOf(originalId);
    // The lead asks, its checker answers, the lead wraps up: three calls, recorded whole.
    expect(originalCalls.map((c) => [c.agentName, c.status])).toEqual([
      ['replay-lead', 'succeeded'],
      ['replay-checker', 'succeeded'],
      ['replay-lead', 'succeeded'],
    ]);
  }, 120_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
  });

  async function sessionOf(agentId: string): Promise<string> {
    const created = await http('POST', '/api/sessions', { agentId });
    expect(created.status).toBe(201);
    return created.body.sessionId as string;
  }

  /** A new session of the agent whose calls are answered from the original's record (the delegation engine's seam). */
  async function replaySession(agentId: string, replay: Omit<SessionReplay, 'originalSessionId' | 'allowSideEffects'>): Promise<string> {
    const sessionId = await sessionOf(agentId);
    const live = running.app.app.get(SessionRegistry).get(sessionId);
    if (!live) throw new Error(`session ${sessionId} is not live`);
    live.config.replay = { originalSessionId: originalId, allowSideEffects: false, ...replay };
    return sessionId;
  }

  async function callsOf(sessionId: string): Promise<Json[]> {
    return endedModelCalls(http, `/api/sessions/${sessionId}/model-calls?limit=100`);
  }

  async function eventsOf(sessionId: string): Promise<Json[]> {
    const read = (await http('GET', `/api/streams/session-${sessionId}/events?limit=1000`)).body;
    return (read.events ?? read) as Json[];
  }

  it('forks from a model call: the calls before it answered from the record, that call and the rest sent to the model with the message appended', async () => {
    const forkPoint = originalCalls[2];
    const sent = model.requests.length;
    const fork = await replaySession('replay-lead', {
      mode: 'fork',
      onDivergence: 'stop',
      liveFrom: { callId: forkPoint.callId as string, startedAt: forkPoint.startedAt as string },
      message: 'FORK_MESSAGE: answer differently.',
      agentOverrides: { 'replay-lead': { model: 'gpt-4.1-mini' } },
    });
    await sendTurn(http, fork, 'Check please.');

    // Exactly the fork point reached the model, with the message last.
    const reached = model.requests.slice(sent);
    expect(reached.map((r) => r.rule)).toEqual(['fork point']);
    expect(JSON.stringify(reached[0].lastMessage)).toContain('FORK_MESSAGE');
    expect(reached[0].model).toBe('gpt-4.1-mini');
    const calls = await callsOf(fork);
    expect(calls.map((c) => c.replay)).toEqual([
      { source: 'record', originalCallId: originalCalls[0].callId, position: 1, divergence: null, forkPoint: false },
      { source: 'record', originalCallId: originalCalls[1].callId, position: 1, divergence: null, forkPoint: false },
      { source: 'live', originalCallId: forkPoint.callId, position: 2, divergence: null, forkPoint: true },
    ]);
    // The played-back calls spent the recorded tokens and no money.
    expect(calls[0]).toMatchObject({ status: 'succeeded', httpStatus: 200, inputTokens: originalCalls[0].inputTokens, cost: null });
    // The ledger says what was sent at the fork point: the overridden model, one message more.
    expect(calls[2]).toMatchObject({ status: 'succeeded', model: 'gpt-4.1-mini', messageCount: (originalCalls[2].messageCount as number) + 1 });
    expect(calls[0]).toMatchObject({ model: 'gpt-4.1' });
    const text = JSON.stringify(await eventsOf(fork));
    expect(text).toContain('CHECKED_OK');
    expect(text).toContain('FORKED_ANSWER');
    expect(text).not.toContain('LEAD_DONE');
  }, 120_000);

  it('goes on live from a divergence with on_divergence "live": that agent’s later calls go to the model, another agent that asks the same is still played back', async () => {
    const sent = model.requests.length;
    const replay = await replaySession('replay-lead', { mode: 'replay', onDivergence: 'live' });
    await sendTurn(http, replay, 'Check please, once more.');

    // The lead asked something else: its calls went to the model; the checker, asked the same, was played back.
    expect(model.requests.slice(sent).map((r) => r.rule)).toEqual(['lead asks the checker', 'lead wraps up']);
    const calls = await callsOf(replay);
    expect(calls.map((c) => [c.agentName, c.replay.source, c.replay.position, c.replay.divergence?.part ?? null])).toEqual([
      ['replay-lead', 'live', 1, 'messages'],
      ['replay-checker', 'record', 1, null],
      ['replay-lead', 'live', 2, null],
    ]);
    expect(calls[0].replay.divergence.original).toContain('Check please.');
    expect(calls[0].replay.divergence.now).toContain('Check please, once more.');
    expect(JSON.stringify(await eventsOf(replay))).toContain('LEAD_DONE');
  }, 120_000);

  describe('with the model server stopped', () => {
    beforeAll(async () => {
      await model.stop();
    });

    it('replays a recorded session with its CLI sub-agent from the record: every call played back, none reaching the model', async () => {
      const httpSeen = model.httpLog.length;
      const replay = await replaySession('replay-lead', { mode: 'replay', onDivergence: 'stop' });
      await sendTurn(http, replay, 'Check please.');

      expect(model.httpLog.length).toBe(httpSeen);
      const calls = await callsOf(replay);
      expect(calls.map((c) => [c.agentName, c.status, c.replay?.source, c.replay?.originalCallId])).toEqual(
        originalCalls.map((c) => [c.agentName, 'succeeded', 'record', c.callId]),
      );
      for (const call of calls) expect(call.replay.divergence).toBeNull();
      // The conversation went as it went then: the sub-agent's answer, then the lead's.
      const events = await eventsOf(replay);
      const text = JSON.stringify(events);
      expect(text).toContain('CHECKED_OK');
      expect(text).toContain('LEAD_DONE');
      expect(events.some((e) => e.type === 'cli.session.error')).toBe(false);
      // One played-back call over REST: the recorded answer as the CLI got it again.
      const one = (await http('GET', `/api/model-calls/${calls[2].callId}`)).body;
      expect(one.answer).toContain('LEAD_DONE');
      expect(one).toMatchObject({ responseId: originalCalls[2].responseId, finishReason: 'stop', cost: null });
    }, 120_000);

    it('stops at the first call whose request differs (an edited system prompt), reporting both versions, with nothing sent to the model', async () => {
      const agent = (await http('GET', '/api/agents/replay-lead')).body;
      const edited = await http('PUT', '/api/agents/replay-lead', {
        name: agent.name,
        system_message: { mode: 'append', content: 'REPLAY_LEAD you lead, EDITED.' },
        sub_agents: ['replay-checker'],
      });
      expect(edited.status).toBe(200);
      const httpSeen = model.httpLog.length;
      const replay = await replaySession('replay-lead', { mode: 'replay', onDivergence: 'stop' });
      await sendTurn(http, replay, 'Check please.');

      expect(model.httpLog.length).toBe(httpSeen);
      const [call, ...more] = await callsOf(replay);
      expect(more).toEqual([]);
      expect(call).toMatchObject({ status: 'refused', agentName: 'replay-lead' });
      expect(call.replay).toMatchObject({ source: 'record', originalCallId: originalCalls[0].callId, position: 1 });
      expect(call.replay.divergence).toMatchObject({ part: 'system' });
      expect(call.replay.divergence.original).toContain('REPLAY_LEAD you lead.');
      expect(call.replay.divergence.original).not.toContain('EDITED');
      expect(call.replay.divergence.now).toContain('REPLAY_LEAD you lead, EDITED.');
      // GraphQL shows the same report.
      const gql = graphqlHttp(() => running.app.baseUrl, TOKEN);
      const read = await gql('query ($id: ID!) { modelCall(id: $id) { status replay { source position forkPoint divergence { part original now } } } }', {
        id: call.callId,
      });
      expect(read.body.data?.modelCall).toMatchObject({
        status: 'refused',
        replay: { source: 'record', position: 1, forkPoint: false, divergence: { part: 'system', now: expect.stringContaining('EDITED') } },
      });
      // The CLI's turn ended on the refusal, saying why.
      const errors = (await eventsOf(replay)).filter((e) => e.type === 'cli.session.error');
      expect(JSON.stringify(errors)).toContain('the replay stopped at call 1 of agent replay-lead');
    }, 120_000);
  });
});
